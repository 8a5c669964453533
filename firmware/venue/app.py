"""The venue page: every table and the league, live, with the table view's stack.

    GET /          the venue page          GET /events      its live stream (server-sent events)
    GET /static/<file>    the web view's style sheet and script (firmware/web/static/)

One task (`VenueHub.run`) takes the broker's messages from the link's queue in the
server's own loop, hands them to the board (firmware/venue/board.py) and wakes the
streams when it changed; each stream sends the page's new `main` fragment, drawn once per
change, which the web view's script puts in place. Read routes only.
"""
from __future__ import annotations

import asyncio
import logging
import queue
from contextlib import asynccontextmanager
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from firmware.texts import t
from firmware.venue.board import VenueBoard
from firmware.web.app import HEADERS, KEEPALIVE_S, RETRY_MS, STATIC, sse

log = logging.getLogger("corbeille.venue")

HERE = Path(__file__).parent
WEB_STATIC = HERE.parent / "web" / "static"
POLL_S = 0.05             # the broker's messages are taken this often: well within the page's 1 s


class VenueHub:
    def __init__(self, board: VenueBoard, messages: queue.Queue, lang: str):
        self.board, self.messages, self.lang = board, messages, lang
        self.changed = asyncio.Event()
        self.stopping = False
        self._drawn: tuple[int, str] | None = None

    def take(self) -> bool:
        """Every message waiting; True when the board changed."""
        changed = False
        while True:
            try:
                name, body, _ = self.messages.get_nowait()
            except queue.Empty:
                return changed
            try:
                changed = self.board.handle(name, body) or changed
            except Exception:             # a bug on one message must not stop the page
                log.exception("venue: a message on %s could not be taken", name)

    async def run(self) -> None:
        while True:
            if self.stopping or self.take():
                self.changed.set()
                self.changed = asyncio.Event()
            await asyncio.sleep(POLL_S)

    def draw(self, templates) -> str:
        if self._drawn is None or self._drawn[0] != self.board.version:
            html = templates.get_template("venue_main.html").render(
                tables=tables_shown(self.board, self.lang), league=league_shown(self.board, self.lang),
                lang=self.lang, t=t)
            self._drawn = (self.board.version, html)
        return self._drawn[1]


def tables_shown(board: VenueBoard, lang: str) -> list[dict]:
    from engines.core.i18n import format_amount

    out = []
    for name in sorted(board.tables):
        table = board.tables[name]
        s = table.state or {}
        title = s.get("title", {})
        out.append({
            "name": name, "title": title.get(lang, "") if isinstance(title, dict) else "",
            "players": [str(p.get("name", "")) for p in s.get("players", []) if isinstance(p, dict)],
            "n": s.get("n", 0), "over": bool(s.get("over")), "hidden": bool(s.get("hidden")),
            "prices": [(str(k), format_amount(v, lang)) for k, v in (s.get("prices") or {}).items()
                       if type(v) is int][:24],
            "standings": [(r, str(p), format_amount(v, lang)) for r, p, v in (s.get("standings") or [])
                          if type(v) is int],
            "ticker": [text.get(lang, "") for _, _, text in list(table.ticker)[::-1]][:5]})
    return out


def league_shown(board: VenueBoard, lang: str) -> list[tuple[str, list[dict]]]:
    if board.league is None:
        return []
    out = []
    for name, rows in board.league.standings().items():
        out.append((game_title(name, lang), rows))
    return out


def game_title(name: str, lang: str) -> str:
    from engines.registry import spec

    try:
        return t("game." + spec(name).prefix, lang)
    except Exception:                     # a game this venue's version does not know
        return name


def create_app(hub: VenueHub) -> Starlette:
    templates = Environment(loader=FileSystemLoader([HERE / "templates", HERE.parent / "web" / "templates"]),
                            autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
    files = {name: (WEB_STATIC / name).read_bytes() for name in STATIC}

    async def page(request):
        html = templates.get_template("venue.html").render(lang=hub.lang, t=t, main=hub.draw(templates))
        return HTMLResponse(html, headers=HEADERS)

    async def stream(request):
        sent = None
        yield f"retry: {RETRY_MS}\n\n"
        while not hub.stopping:
            changed = hub.changed
            if sent != hub.board.version:
                sent = hub.board.version
                yield sse("main", hub.draw(templates), sent)
            try:
                await asyncio.wait_for(changed.wait(), KEEPALIVE_S)
            except asyncio.TimeoutError:
                yield ": keepalive\n\n"

    async def events(request):
        return StreamingResponse(stream(request), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def static(request):
        name = request.path_params["name"]
        if name not in files:
            return Response("", status_code=404, headers=HEADERS)
        return Response(files[name], media_type=STATIC[name], headers={**HEADERS, "Cache-Control": "max-age=3600"})

    @asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(hub.run())
        try:
            yield
        finally:
            task.cancel()

    return Starlette(routes=[Route("/", page), Route("/events", events), Route("/static/{name}", static)],
                     lifespan=lifespan)
