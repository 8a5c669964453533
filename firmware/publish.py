"""`corbeille publish`: the table's public events sent to the venue's broker.

A process beside the box (its own unit, corbeille-publish.service), like the web view: it
reads the journal read-only through the table's feed (firmware/feed.py), so it never slows
a press, and the box plays the same whether it runs, stops or waits for a broker.

Ids and resuming. Each game has a key (its journal id and a hash of its header, so a new
SD card's game 1 is not an earlier one) and its events are numbered 1, 2, 3... in that
game. Before each event the publisher sets its cursor, a retained message on the broker
holding that event whole with the game's position (actions folded and a short hash chain
of the last of them); only once the broker acknowledged the cursor is the event itself
sent. Started again (a power cut, the process killed, the Wi-Fi or the broker gone), it
reads its cursor back from the broker, sends that last event again (the venue drops it if
it had it: duplicates are dropped by table, game and id) and goes on from the journal:
what the journal holds past the cursor's position is sent action by action; actions the
venue saw that the journal no longer holds (undone meanwhile) are taken back by an undo
event first. Nothing of this is written on the box's SD card.

Only the engine's public view leaves the box: the feed's words (which keep hidden cash
hidden), prices, standings while cash is public, the final ranking, players' names and,
for a player who tapped a card, a hash of that card (the league's identity).
"""
from __future__ import annotations

import functools
import json
import logging
import queue
import threading
import time
import uuid

from engines.core.files import sha256
from engines.core.i18n import LANGUAGES
from firmware.feed import FeedEvent, TableFeed, hides, undone_text
from firmware.journal.rows import canonical
from firmware.mqtt_link import Link, topic
from firmware.texts import t

log = logging.getLogger("corbeille.publish")

CHAIN_KEPT = 32           # positions of the hash chain in the cursor: an undo deeper than this while
                          # the publisher was away is sent as an undo to the start and the game again
CURSOR_WAIT_S = 5.0       # how long the broker has to send the retained cursor back
POLL_S = 0.1              # the journal looked at this often (two stat calls when nothing changed)
RETRY_S = 2.0             # a broker that cannot be reached is tried again this often


def game_key(game_id: int, header: dict) -> str:
    return f"{game_id}-{sha256(canonical(header).encode()).hexdigest()[:12]}"


def chain_link(prev: str, action: dict) -> str:
    return sha256((prev + canonical(action)).encode()).hexdigest()[:16]


def chain_of(actions) -> list[str]:
    chain = [""]
    for action in actions:
        chain.append(chain_link(chain[-1], action))
    return chain


class VenueFeed(TableFeed):
    """The table's feed with the venue's ids: per game from 1, resumed from the cursor the
    broker kept (`cursor`, None when it had none); games finished one after the other."""

    def __init__(self, journal_path, cursor: dict | None = None):
        super().__init__(journal_path)
        self.cursor = cursor if isinstance(cursor, dict) else None
        self.key: str | None = None
        self.next_id = 1
        self.chain: list[str] = [""]
        self._behind = False              # a later game waits: read again at the next poll

    def poll(self) -> list[FeedEvent]:
        made = super().poll()
        if self._behind:
            self._stamp = None
        return made

    def _event(self, kind: str, data: dict) -> FeedEvent:
        event = FeedEvent(self.next_id, kind, {**data, "game": self.key})
        self.next_id += 1
        self.last_id = event.id
        self.events.append(event)
        return event

    def _which(self, reader) -> int | None:
        """The game being published until the journal holds nothing more of it, then the
        next one: a game finished while the broker was away is published whole."""
        games = [gid for gid, _ in reader.games()]
        if not games:
            return None
        current = self.game_id
        if current is None and self.cursor is not None:
            current = self.cursor.get("gid")
        if current not in games:
            self._behind = False
            return games[-1]
        later = [gid for gid in games if gid > current]
        folded = self.game_id == current and self.session is not None
        if later and folded and not reader.actions(current, len(self.session.game.log)):
            current = later[0]
        self._behind = current != games[-1]
        return current

    def _start(self, reader, game_id: int, header: dict, upto: int | None = None) -> list[FeedEvent]:
        key = game_key(game_id, header)
        cursor = self.cursor if self.cursor is not None and self.cursor.get("game") == key else None
        self.cursor = None
        self.key = key
        rows = reader.actions(game_id)
        chain = chain_of(rows)
        kept = 0 if cursor is None else common_length(cursor.get("chain", ()), chain)
        self.next_id = 1
        made = super()._start(reader, game_id, header, upto=kept)
        self.chain = chain[:kept + 1]
        if cursor is not None:               # the venue has this game: no new game event
            self.events.clear()
            made = []
            self.next_id = int(cursor["id"]) + 1
            if kept < cursor["n"]:
                made.append(self._event("undo", {"to": kept, "undone": cursor["n"] - kept,
                                                 "text": undone_text(cursor["n"] - kept, kept)}))
        cls = type(self.session.game)
        for data in rows[kept:]:
            made.append(self._apply(cls.ACTIONS.from_json(data)))
        self._mark(reader)
        return made

    def _apply(self, act) -> FeedEvent:
        event = super()._apply(act)
        self.chain.append(chain_link(self.chain[-1], act.to_json()))
        return event

    def _undo(self, length: int) -> FeedEvent:
        event = super()._undo(length)
        del self.chain[length + 1:]
        return event

    # ---- what is sent --------------------------------------------------------------------
    def cursor_of(self, payload: dict) -> dict:
        """The cursor set just before `payload` is sent: that event, and the position the
        game is at after it (within one poll an undo comes first, then actions: the chain's
        first positions are those of every earlier event of the poll)."""
        n = payload.get("n", payload.get("to", payload.get("actions", 0)))
        low = max(0, n - CHAIN_KEPT + 1)
        return {"game": self.key, "gid": self.game_id, "id": payload["id"], "n": n,
                "chain": [[i, self.chain[i]] for i in range(low, n + 1)], "event": payload}

    def state(self, table: str, cards: dict) -> dict:
        """The table's public state now: what the venue page shows, and the final ranking
        the league keeps."""
        from firmware.games import adapter_of

        session = self.session
        game, ui = session.game, adapter_of(session)
        hidden = hides(session)
        players = [{"name": name, "card": cards.get(seat), "default": is_default_name(name)}
                   for seat, name in enumerate(game.players)]
        state = {"table": table, "game": self.key, "id": self.next_id - 1, "name": game.name,
                 "title": {lang: ui.title(lang) for lang in LANGUAGES}, "players": players,
                 "n": len(game.log), "over": session.over, "hidden": hidden, "prices": game.prices(),
                 "standings": None if hidden else [[rank, game.players[s], value] for rank, s, value in game.ranking()]}
        if session.over:
            state["ranking"] = [[rank, game.players[s]] for rank, s, _ in game.ranking()]
        return state


def common_length(kept, chain: list[str]) -> int:
    """The longest position the venue's chain (the cursor's last positions) and the
    journal's agree on; 0 when none of the kept ones does."""
    for n, value in sorted(((int(n), v) for n, v in kept), reverse=True):
        if n < len(chain) and chain[n] == value:
            return n
    return 0


@functools.lru_cache(maxsize=1)
def default_names() -> frozenset[str]:
    """The names the setup gives players who entered none: colours and numbers, in each
    language. They say nothing about who played: the league leaves them out."""
    names = set()
    for lang in LANGUAGES:
        names.update(word.lower() for word in t("setup.colour_names", lang).split())
        names.update(t("setup.player_n", lang, n=i).lower() for i in range(1, 13))
    return frozenset(names)


def is_default_name(name: str) -> bool:
    return name.lower() in default_names()


def cards_of(reader, game_id: int) -> dict[int, str]:
    """seat -> a hash of the card that seat tapped in this game (the box's `rfid.<game>`):
    the card's own number never leaves the box."""
    try:
        tags = json.loads(reader.get_meta(f"rfid.{game_id}") or "{}")
    except ValueError:
        return {}
    if not isinstance(tags, dict):
        return {}
    return {int(seat): sha256(f"corbeille-card:{tag}".encode()).hexdigest()[:16]
            for tag, seat in tags.items() if isinstance(seat, int)}


class Publisher:
    """The publishing loop: one link to the broker, made again whenever a message is not
    acknowledged; the feed rebuilt from the broker's cursor each time."""

    def __init__(self, journal_path, venue: str, table: str, connect):
        self.path = journal_path
        self.venue, self.table = venue, table
        self.connect = connect            # () -> a Link (firmware/mqtt_link.py) or a stand-in
        self.link = None
        self.feed: VenueFeed | None = None
        self.sent = 0                     # events sent since the start (the bench reads it)
        self._state_due = False

    def topic(self, leaf: str) -> str:
        return topic(self.venue, self.table, leaf)

    def step(self) -> bool:
        """One round: connect when needed, send what the journal holds past the cursor.
        False when the broker is not there (try again later)."""
        if self.link is None:
            self.link = self.connect()
        if not self.link.connected.is_set():
            return False
        if self.feed is None and not self._resume():
            return self._drop()
        events = self.feed.poll()
        for event in events:
            payload = {**event.to_json(), "table": self.table}
            if not (self.link.send(self.topic("cursor"), self.feed.cursor_of(payload), retain=True)
                    and self.link.send(self.topic("events"), payload)):
                return self._drop()
            self.sent += 1
        if (events or self._state_due) and self.feed.session is not None:
            cards = cards_of(self.feed.reader, self.feed.game_id) if self.feed.reader else {}
            if not self.link.send(self.topic("state"), self.feed.state(self.table, cards), retain=True):
                return self._drop()
            self._state_due = False
        return True

    def _resume(self) -> bool:
        """The cursor read back from the broker, its event sent again, the feed made."""
        cursor = read_cursor(self.link, self.topic("cursor"))
        if cursor is False:
            return False
        if cursor and isinstance(cursor.get("event"), dict):
            if not self.link.send(self.topic("events"), cursor["event"]):
                return False
        self.feed = VenueFeed(self.path, cursor)
        self._state_due = True
        return True

    def _drop(self) -> bool:
        log.warning("the broker did not acknowledge: connecting again, from the broker's cursor")
        if self.link is not None:
            self.link.close()
        self.link, self.feed = None, None
        return False

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                ok = self.step()
            except Exception:             # a bug must not end the publishing: log, start again
                log.exception("publishing failed")
                ok = self._drop()
            if ok:
                stop.wait(POLL_S)
            else:
                self._pause(stop)
        if self.link is not None:
            self.link.close()

    def _pause(self, stop: threading.Event) -> None:
        """RETRY_S before the next round, cut short once the link kept from the last round is
        connected: paho connects in its own thread, so a new link, or one waiting for the
        broker to come back, is seldom up at the round that made it."""
        end = time.monotonic() + RETRY_S
        while not stop.wait(POLL_S) and time.monotonic() < end:
            if self.link is not None and self.link.connected.is_set():
                return


def read_cursor(link, name: str, wait: float = CURSOR_WAIT_S):
    """The retained cursor on `name` (None when the broker has none; False when the broker
    did not answer). A probe sent after subscribing comes back after every retained message
    of the subscription: then the cursor, if any, has arrived."""
    link.subscribe(name)
    nonce = uuid.uuid4().hex
    if not link.send(name, {"probe": nonce}):
        return False
    found, deadline = None, time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            got, body, retained = link.messages.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            continue
        if got != name:
            continue
        try:
            payload = json.loads(body)
        except ValueError:
            continue
        if isinstance(payload, dict) and payload.get("probe") == nonce:
            link.unsubscribe(name)
            return found
        if retained and isinstance(payload, dict) and "game" in payload and "id" in payload:
            found = payload
    return False


def serve(config) -> int:
    """`corbeille publish`: until stopped."""
    import signal
    from pathlib import Path

    logging.basicConfig(level=logging.INFO, format="corbeille-publish: %(levelname)s %(message)s")
    v = config.venue
    journal = Path(config.state.dir) / "journal.sqlite"

    def connect():
        return Link(v.broker, v.port, v.username or v.table, v.password, tls=v.tls, ca_file=v.ca_file,
                    name=f"table-{v.table}")

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    log.info("publishing %s to %s:%s as corbeille/%s/%s", journal, v.broker, v.port, v.venue, v.table)
    Publisher(journal, v.venue, v.table, connect).run(stop)
    return 0
