"""What the venue knows of each table, from the messages of the broker.

Each table's publisher (firmware/publish.py) sends events numbered from 1 in each game and
its public state, retained. The board keeps, per table, its last state and a short ticker
of its events; an event whose (table, game, id) it already had is dropped (a publisher
that restarted sends its last event again). An event is checked against the position it
knows: an action numbered past the next one, or an id past the next, is a gap, logged and
counted (the tests assert there is none). The first event of a game the venue sees starts
its count (a venue started, or restarted, in the middle of an evening). A message that is not one of the
venue's (another venue, a foreign topic, not JSON, fields missing or of the wrong type) is
ignored and logged: the page keeps working. A finished game's ranking goes to the league;
an undo that reopens it takes it out again.
"""
from __future__ import annotations

import json
import logging
from collections import deque
from dataclasses import dataclass, field

from firmware.mqtt_link import parse_topic

log = logging.getLogger("corbeille.venue")

TICKER = 12               # a table's last events shown on the venue page
KINDS = ("game", "action", "undo")


@dataclass
class Table:
    name: str
    state: dict | None = None
    game: str | None = None          # the key of the game its events are about
    last_id: int = 0                 # the last event id accepted in that game
    position: int = 0                # actions the events add up to
    ticker: deque = field(default_factory=lambda: deque(maxlen=TICKER))
    gaps: int = 0


class VenueBoard:
    def __init__(self, venue: str, league=None):
        self.venue = venue
        self.league = league
        self.tables: dict[str, Table] = {}
        self.version = 0                 # grows with every change the page shows
        self.accepted = 0
        self.duplicates = 0
        self.ignored = 0

    def handle(self, name: str, body: bytes) -> bool:
        """Take one message; True when the board changed."""
        where = parse_topic(name)
        if where is None or where[0] != self.venue:
            return self._ignore(name, "not one of this venue's topics")
        try:
            payload = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return self._ignore(name, "not JSON")
        if not isinstance(payload, dict):
            return self._ignore(name, "not a JSON object")
        table = self.tables.get(where[1]) or Table(where[1])
        leaf = where[2]
        if leaf == "cursor":
            return False                  # the publisher's own: the venue does not need it
        changed = self._event(table, payload) if leaf == "events" else self._state(table, payload)
        if changed:
            self.tables[table.name] = table
            self.version += 1
        return changed

    def _ignore(self, name: str, why: str) -> bool:
        self.ignored += 1
        log.warning("ignored a message on %s: %s", name, why)
        return False

    def _event(self, table: Table, e: dict) -> bool:
        kind, game, eid = e.get("kind"), e.get("game"), e.get("id")
        if kind not in KINDS or not isinstance(game, str) or type(eid) is not int or eid < 1:
            return self._ignore(table.name, f"an event without kind, game and id: {str(e)[:80]}")
        if game == table.game and eid <= table.last_id:
            self.duplicates += 1
            return False
        if game != table.game:              # the first event of a game this venue run sees: its count
            table.game, table.last_id = game, eid - 1    # starts there (a venue started mid-game)
            table.position = _count(e.get("n")) - 1 if kind == "action" else 0
            table.ticker.clear()
        if eid != table.last_id + 1:
            self._gap(table, f"event {eid} after {table.last_id}")
        table.last_id = eid
        self.accepted += 1
        if kind == "game":
            table.position = _count(e.get("actions"))
        elif kind == "action":
            n = _count(e.get("n"))
            if n != table.position + 1:
                self._gap(table, f"action {n} after {table.position}")
            table.position = n
        else:
            table.position = _count(e.get("to"))
        text = e.get("text") if isinstance(e.get("text"), dict) else {}
        table.ticker.append((kind, table.position, {k: str(v) for k, v in text.items()}))
        return True

    def _gap(self, table: Table, what: str) -> None:
        table.gaps += 1
        log.warning("table %s: a gap in its events (%s)", table.name, what)

    def _state(self, table: Table, s: dict) -> bool:
        problem = state_problem(s)
        if problem:
            return self._ignore(table.name, f"a state with {problem}")
        old = table.state
        if old is not None and old.get("game") == s["game"] and old.get("id", 0) > s["id"]:
            return False                  # an older state than the one shown
        table.state = s
        if self.league is not None:
            try:
                if s.get("over") is True and s.get("ranking"):
                    self.league.record(table.name, s)
                else:
                    self.league.forget(table.name, s["game"])
            except ValueError as error:
                self._ignore(table.name, f"a ranking the league cannot read ({error})")
        return True


def state_problem(s: dict) -> str | None:
    """What is wrong with a table's state for the page and the league, None when nothing:
    what the page shows is checked here, once, so a malformed state never reaches it."""
    shapes = {"game": str, "id": int, "n": int, "players": list}
    for key, kind in shapes.items():
        if type(s.get(key)) is not kind:
            return f"no {key} ({kind.__name__})"
    if not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in s["players"]):
        return "players without names"
    if not isinstance(s.get("title", {}), dict) or not isinstance(s.get("prices", {}), dict):
        return "a title or prices that are not objects"
    if not all(isinstance(k, str) and type(v) is int for k, v in s.get("prices", {}).items()):
        return "prices that are not whole numbers"
    rows = s.get("standings") or []
    if not isinstance(rows, list) or not all(_row(row, int, str, int) for row in rows):
        return "standings that are not [rank, name, amount]"
    ranking = s.get("ranking") or []
    if not isinstance(ranking, list) or not all(_row(row, int, str) for row in ranking):
        return "a ranking that is not [rank, name]"
    if {name for _, name in ranking} - {p["name"] for p in s["players"]}:
        return "a ranking naming someone who did not play"
    return None


def _row(row, *kinds) -> bool:
    return isinstance(row, list) and len(row) == len(kinds) and all(type(v) is k for v, k in zip(row, kinds))


def _count(value) -> int:
    return value if type(value) is int and value >= 0 else 0
