// The table's live page: the server sends each fragment whole (server-sent events); this
// only puts it in place. No figure is computed here.
"use strict";
(function () {
  const body = document.body;
  const url = body.dataset.events;
  if (!url) {
    return;
  }
  const RETRY_MS = 2000;

  function place(id, html) {
    document.getElementById(id).innerHTML = html;
  }

  function connect() {
    const source = new EventSource(url);
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
        // The browser gave up on this stream (an answer that was no stream): ask the page
        // again; a link that opens nothing any more shows why, else the stream starts anew.
        setTimeout(retry, RETRY_MS);
      }
    });
  }

  function retry() {
    fetch(location.href, {method: "HEAD", cache: "no-store"}).then(function (answer) {
      if (answer.status === 404) {
        location.reload();
      } else {
        connect();
      }
    }, function () {
      setTimeout(retry, RETRY_MS);
    });
  }

  connect();
})();
