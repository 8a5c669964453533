// The table's live page: the server sends each fragment whole (server-sent events); this
// only puts it in place. No figure is computed here.
"use strict";
(function () {
  const body = document.body;
  const url = body.dataset.events;
  if (!url) {
    return;
  }
  const source = new EventSource(url);
  function place(id, html) {
    document.getElementById(id).innerHTML = html;
  }
  source.addEventListener("main", function (event) {
    place("main", event.data);
  });
  source.addEventListener("live", function (event) {
    place("live", event.data);
    const box = document.querySelector("#live [data-box]");
    body.dataset.box = box ? box.dataset.box : "up";
  });
  source.addEventListener("gone", function () {
    // This seat's link opens nothing any more (a new game): the page says why.
    source.close();
    location.reload();
  });
  source.addEventListener("open", function () {
    body.dataset.link = "up";
  });
  source.addEventListener("error", function () {
    body.dataset.link = "down";
    if (source.readyState === EventSource.CLOSED) {
      // Refused (a link of an earlier game): the page itself says why.
      setTimeout(function () { location.reload(); }, 3000);
    }
  });
})();
