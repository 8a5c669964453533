"""The table's public feed: the box's journal, read beside the box, as public events.

A reader beside the box (the web view, firmware/web/; later the venue's publisher) builds
a `TableFeed` on the box's journal and calls `poll()` often. The feed follows the journal
read-only (firmware/follow.py), folds its last game with the game's own engine, the same
way the box does, and turns what changed into events:

* `game`: a new game began (or the feed started): its name and players;
* `action`: an action was acknowledged (its row committed): its number and what it did,
  in words, in each language;
* `undo`: actions were taken back. It is an event of its own, with a new id: a reader
  that saw the undone actions sees them undone, never an id reused for another action.

Event ids only grow, across restarts of the reader too: the first id of a run is the
wall clock in milliseconds when that is more than the last id it could have given
(docs/web.md). The last MAX_EVENTS events are kept, so a reader that lost its connection
asks for those after the last id it saw (`since`); one whose id is not among them (older,
or from an earlier run) starts again from the state.

Only the engine's public view leaves the feed: what each action did is worded by the box's
own news line (the game's adapter), and while the game's public view hides anything (the
snapshot's `private` paths: Dividends' and Richesses du Monde's cash), a correction is named
by its kind only and no action's cash moves are shown (`hides`). The game itself
(`session`) is there for the views, which keep to the same rule (firmware/web/views.py).
"""
from __future__ import annotations

import json
import time
from array import array
from collections import deque
from dataclasses import dataclass, field

from engines import game_class
from engines.core.actions import CORRECTION
from engines.core.i18n import LANGUAGES
from engines.registry import game_of
from firmware.follow import JournalFollower, JournalUnreadable
from firmware.session import Session
from firmware.texts import t

MAX_EVENTS = 256          # events kept for readers resuming after a short loss
HISTORY = 60              # actions the public history keeps (newest last)


@dataclass(frozen=True)
class FeedEvent:
    id: int
    kind: str             # "game", "action", "undo"
    data: dict

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, **self.data}


@dataclass
class Entry:
    """One action of the history: its number, the action, its events and the cash it moved
    for each seat (shown only while the game's cash is public: `hides`)."""
    n: int
    act: object
    events: list
    moved: dict = field(default_factory=dict)


class Series:
    """A value per name after each action (prices, fortunes), compactly: one array a name."""

    def __init__(self):
        self.values: dict[str, array] = {}
        self.length = 0

    def add(self, point: dict) -> None:
        for name, value in point.items():
            if name not in self.values:
                self.values[name] = array("q", [value] * self.length)
            self.values[name].append(int(value))
        self.length += 1
        for name, values in self.values.items():
            if len(values) < self.length:
                values.append(values[-1] if values else 0)

    def cut(self, length: int) -> None:
        for values in self.values.values():
            del values[length:]
        self.length = min(self.length, length)


class TableFeed:
    def __init__(self, journal_path, *, clock=time.time):
        self.follower = JournalFollower(journal_path)
        self.clock = clock
        self.session: Session | None = None
        self.game_id = None
        self.header_sum = None
        self.sums: list[str] = []         # each folded action's chain checksum
        self.history: deque[Entry] = deque(maxlen=HISTORY)
        self.prices, self.fortunes = Series(), Series()
        self.events: deque[FeedEvent] = deque(maxlen=MAX_EVENTS)
        self.last_id = 0
        self.problem: str | None = None   # why the journal cannot be read now

    # ---- events ------------------------------------------------------------------------
    def _event(self, kind: str, data: dict) -> FeedEvent:
        self.last_id = max(self.last_id + 1, int(self.clock() * 1000))
        event = FeedEvent(self.last_id, kind, data)
        self.events.append(event)
        return event

    def since(self, last_id: int | None) -> list[FeedEvent] | None:
        """The events after `last_id`, or None when they are not all kept (start again
        from the state)."""
        if last_id is None:
            return None
        if last_id == self.last_id:
            return []
        kept = [event for event in self.events if event.id > last_id]
        if not self.events or last_id < self.events[0].id - 1 or last_id > self.last_id:
            return None
        return kept

    # ---- following ---------------------------------------------------------------------
    def poll(self) -> list[FeedEvent]:
        """Fold what the journal holds now; the events it made (none when nothing changed)."""
        if not self.follower.changed() and self.problem is None:
            return []
        try:
            with self.follower.look() as journal:
                made = self._follow(journal)
            self.problem = None
            return made
        except JournalUnreadable as error:
            self.problem = str(error)
            return []

    def _follow(self, journal) -> list[FeedEvent]:
        last = journal.last_game()
        if last is None:
            return []
        game_id, header_text, header_sum = last
        if game_id != self.game_id or header_sum != self.header_sum:
            return self._start(journal, game_id, header_text, header_sum)
        count, last_sum = journal.tail(game_id)
        if count == len(self.sums) and last_sum == (self.sums[-1] if self.sums else None):
            return []
        made = []
        kept = self._common(journal, count)
        if kept < len(self.sums):
            made.append(self._undo(kept))
        prev = self.sums[-1] if self.sums else self.header_sum
        actions, sums = journal.actions(game_id, len(self.sums), prev)
        for data, checksum in zip(actions, sums):
            made.append(self._apply(self.session.actions.from_json(data), checksum))
        return made

    def _common(self, journal, count: int) -> int:
        """How many of the folded actions the journal still holds (its chain names each
        prefix: the last equal checksum says all before it are equal)."""
        top = min(count, len(self.sums))
        low = max(0, top - 64)
        while True:
            stored = journal.checksums(self.game_id, low, top)
            for n in range(top, low, -1):
                if stored[n - low - 1] == self.sums[n - 1]:
                    return n
            if low == 0:
                return 0
            top, low = low, 0

    def _start(self, journal, game_id: int, header_text: str, header_sum: str) -> list[FeedEvent]:
        header = json.loads(header_text)
        cls = game_class(game_of(header))
        actions, sums = journal.actions(game_id, 0, header_sum)
        self.game_id, self.header_sum, self.sums = game_id, header_sum, []
        self.prices, self.fortunes, self.history = Series(), Series(), deque(maxlen=HISTORY)
        game = cls(header)
        self._note(game)
        for game, act, events in cls.unfold(header, map(cls.ACTIONS.from_json, actions), checked=False):
            self._keep(game, act, events)
        self.session = Session(game, None, game_id)
        self.sums = sums
        return [self._event("game", {"game": game_id, "name": game.name, "players": list(game.players),
                                     "actions": len(sums)})]

    def _apply(self, act, checksum: str) -> FeedEvent:
        events = self.session.apply(act)        # no journal: the box wrote it, the feed reads it
        self.sums.append(checksum)
        entry = self._keep(self.session.game, act, events)
        return self._event("action", {"game": self.game_id, "n": entry.n,
                                      "text": {lang: self.line(entry, lang) for lang in LANGUAGES}})

    def _undo(self, length: int) -> FeedEvent:
        undone = len(self.sums) - length
        self.session.undo_to(length)
        del self.sums[length:]
        self.prices.cut(length + 1)
        self.fortunes.cut(length + 1)
        while self.history and self.history[-1].n > length:
            self.history.pop()
        if not self.history and length:
            self._refill_history()
        return self._event("undo", {"game": self.game_id, "to": length, "undone": undone,
                                    "text": {lang: t("news.undone_to", lang, count=undone, n=length + 1)
                                             for lang in LANGUAGES}})

    def _refill_history(self) -> None:
        """The history's last actions again, from a replay (an undo went past all it kept)."""
        game = self.session.game
        log = game.log
        first = max(0, len(log) - HISTORY)
        for n, (state, act, events) in enumerate(type(game).unfold(game.header, log, checked=False), 1):
            if n > first:
                self.history.append(self._entry(state, n, act, events))

    # ---- what is kept of each action -----------------------------------------------------------
    def _keep(self, game, act, events) -> Entry:
        entry = self._entry(game, len(game.log), act, events)
        self.history.append(entry)
        self._note(game)
        return entry

    def _note(self, game) -> None:
        self.prices.add(game.prices())
        self.fortunes.add({game.players[seat]: value for seat, value in game.fortunes().items()})

    def _entry(self, game, n: int, act, events) -> Entry:
        moved = {}
        for event in events:
            if event.key == "transfer":
                p = event.params
                for seat, sign in ((p["src"], -1), (p["dst"], 1)):
                    if isinstance(seat, int) and 0 <= seat < len(game.players):
                        moved[seat] = moved.get(seat, 0) + sign * p["amount"]
        return Entry(n, act, list(events), {s: v for s, v in sorted(moved.items()) if v})

    def line(self, entry: Entry, lang: str) -> str:
        """What an action did, in words, as the box's news line says it; in a game that
        hides anything, a correction by its kind only (its amounts are what is hidden)."""
        from firmware.games import adapter_of
        from firmware.menus import Ctx, describe, kind_label

        ctx = Ctx(self.session, lang)
        if hides(self.session) and self.session.game.ACTIONS.has(entry.act.kind, CORRECTION):
            return kind_label(ctx, entry.act.kind)
        return adapter_of(self.session).news(ctx, entry.act, entry.events, describe)[0]


def hides(session) -> bool:
    """Whether the game's public view leaves anything out now (its snapshot's private paths):
    then no cash moved and no correction's amount is shown publicly."""
    return bool(session.snapshot().get("private"))
