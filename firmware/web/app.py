"""The web view's HTTP side: a Starlette app with read routes only.

    GET /                 the table's public page          GET /events             its live stream
    GET /s/<token>        a seat's private page            GET /s/<token>/events   its live stream
    GET /static/<file>    the page's style sheet and script (served by the box: no CDN)

Every other method is refused by Starlette (405): nothing can be entered from a page. One
task (`Hub.run`) polls the feed (the journal) and the box's live channel every POLL_S and
wakes the streams when something changed; each stream then sends its page's new `main`
(with the feed's last event id as the SSE id) and `live` fragments, drawn once per change
and page kind. A browser that reconnects sends the last id it saw (Last-Event-ID): it gets
the page again only when the game moved since. A seat's stream ends with a `gone` event
when its token stops opening anything (a new game).

Written to Starlette's API as Raspberry Pi OS Bookworm ships it (0.26) and as it is today:
routes, `lifespan`, `StreamingResponse`, and Jinja2 used directly (the templating helper's
signature changed in between).
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from firmware import tokens
from firmware.channel import LiveReader
from firmware.feed import TableFeed
from firmware.texts import t
from firmware.web import views

log = logging.getLogger("corbeille.web")

HERE = Path(__file__).parent
POLL_S = 0.1              # an acknowledged action shows on the pages within this and a render
KEEPALIVE_S = 15.0        # a comment on an idle stream, so proxies and phones keep it open
RETRY_MS = 1000           # how soon a browser reconnects after losing the stream
# No inline script or style, nothing from elsewhere: the page's own files and its stream.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY", "Cache-Control": "no-store"}
STATIC = {"web.css": "text/css; charset=utf-8", "web.js": "text/javascript; charset=utf-8"}


class Hub:
    """The feed and the live channel, polled by one task; streams wait on `changed`."""

    def __init__(self, feed: TableFeed, live: LiveReader, state_dir, lang: str):
        self.feed, self.live, self.state_dir = feed, live, state_dir
        self.lang = lang                  # the box's language, kept while the box is down
        self.box = None                   # the live channel's last state (None: the box is down)
        self.stopping = False             # the process is asked to stop: streams end
        self.changed = asyncio.Event()
        self._secret = None
        self._drawn: dict = {}

    def poll(self) -> bool:
        moved = bool(self.feed.poll())
        box = self.live.read()
        if box is not None and box.get("lang") in ("fr", "en"):
            self.lang = box["lang"]
        if moved or box != self.box:
            self.box = box
            self._drawn = {}
            return True
        return False

    def stop(self) -> None:
        """Streams end at the next poll: a stop never waits for browsers to hang up."""
        self.stopping = True

    async def run(self) -> None:
        while True:
            try:
                if self.stopping or self.poll():
                    self.changed.set()
                    self.changed = asyncio.Event()
            except Exception:              # a bug in a view must not stop the pages' updates
                log.exception("web view: poll failed")
            await asyncio.sleep(POLL_S)

    # ---- seats -------------------------------------------------------------------------
    def seat_of(self, token: str) -> int | None:
        session = self.feed.session
        if session is None or len(token) != tokens.TOKEN_CHARS:
            return None
        if self._secret is None:
            self._secret = tokens.read_secret(self.state_dir)
            if self._secret is None:
                return None
        return tokens.seat_of(self._secret, self.feed.game_id, session.game.header, token)

    # ---- drawing, once per change and page ---------------------------------------------------
    def draw(self, templates, name: str, seat: int | None) -> str:
        key = (name, seat)
        if key not in self._drawn:
            page = views.build(self.feed, self.lang, seat) if name == "main" else None
            self._drawn[key] = templates.get_template(name + ".html").render(
                page=page, box=self.box, lang=self.lang, t=t, seat=seat)
        return self._drawn[key]


def sse(event: str, data: str, event_id: int | None = None) -> str:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in data.split("\n")]
    return "\n".join(lines) + "\n\n"


async def _stream(hub: Hub, templates, request, seat: int | None, token: str | None):
    """A page's server-sent events: its main part when the feed moved, its live part when
    it changed, a keepalive when nothing did; "gone" once its seat's link is no more."""
    seen = request.headers.get("last-event-id", "")
    sent_main = int(seen) if seen.isdigit() else None
    sent_live = None
    yield f"retry: {RETRY_MS}\n\n"
    while not hub.stopping:
        changed = hub.changed
        if token is not None and hub.seat_of(token) != seat:
            yield sse("gone", "")
            return
        if sent_main != hub.feed.last_id:
            sent_main = hub.feed.last_id
            yield sse("main", hub.draw(templates, "main", seat), sent_main)
        live = hub.draw(templates, "live", seat)
        if live != sent_live:
            sent_live = live
            yield sse("live", live)
        try:
            await asyncio.wait_for(changed.wait(), KEEPALIVE_S)
        except asyncio.TimeoutError:
            yield ": keepalive\n\n"


def create_app(hub: Hub, tasks=()) -> Starlette:
    """The app serving `hub`; `tasks`: more coroutines run beside the hub's poll."""
    templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                            trim_blocks=True, lstrip_blocks=True)
    files = {name: (HERE / "static" / name).read_bytes() for name in STATIC}

    def page(seat: int | None, events: str) -> Response:
        html = templates.get_template("page.html").render(
            lang=hub.lang, t=t, events=events, seat=seat,
            main=hub.draw(templates, "main", seat), live=hub.draw(templates, "live", seat))
        return HTMLResponse(html, headers=HEADERS)

    def not_found() -> Response:
        html = templates.get_template("gone.html").render(lang=hub.lang, t=t)
        return HTMLResponse(html, status_code=404, headers=HEADERS)

    def events(request, seat=None, token=None) -> Response:
        return StreamingResponse(_stream(hub, templates, request, seat, token), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def public(request):
        return page(None, "/events")

    async def public_events(request):
        return events(request)

    async def seat_page(request):
        token = request.path_params["token"]
        seat = hub.seat_of(token)
        return not_found() if seat is None else page(seat, f"/s/{token}/events")

    async def seat_events(request):
        token = request.path_params["token"]
        seat = hub.seat_of(token)
        return not_found() if seat is None else events(request, seat, token)

    async def static(request):
        name = request.path_params["name"]
        if name not in files:
            return not_found()
        return Response(files[name], media_type=STATIC[name],
                        headers={**HEADERS, "Cache-Control": "max-age=3600"})

    routes = [Route("/", public), Route("/events", public_events),
              Route("/s/{token}", seat_page), Route("/S/{token}", seat_page),
              Route("/s/{token}/events", seat_events), Route("/S/{token}/events", seat_events),
              Route("/static/{name}", static)]

    @asynccontextmanager
    async def lifespan(app):
        hub.poll()
        running = [asyncio.create_task(hub.run())] + [asyncio.create_task(task()) for task in tasks]
        try:
            yield
        finally:
            for task in running:
                task.cancel()

    return Starlette(routes=routes, lifespan=lifespan)
