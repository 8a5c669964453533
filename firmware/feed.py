"""The table's public feed: the box's journal, read beside the box, as public events.

A reader beside the box (the web view, firmware/web/; later the venue's publisher) builds
a `TableFeed` on the box's journal and calls `poll()` often. The feed reads the journal
through the journal's own reader (firmware/journal/reader.py: never writes, never takes the
box's lock, one short read transaction a call, a read-only folder too), folds its last game
with the game's own engine, the same way the box does, and turns what changed into events:

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

import os
import time
from array import array
from collections import deque
from dataclasses import dataclass, field

from engines import game_class
from engines.core.actions import CORRECTION
from engines.core.i18n import LANGUAGES
from engines.registry import game_of
from firmware.journal import JournalError
from firmware.journal.reader import JournalReader
from firmware.journal.rows import canonical
from firmware.session import Session, cash_moved
from firmware.texts import t

MAX_EVENTS = 256          # events kept for readers resuming after a short loss
HISTORY = 60              # actions the public history keeps (newest last)
RETRY_S = 2.0             # a journal that cannot be read is tried again this often
SETTLE_S = 1.0            # a commit is visible to readers once its sync is done: well within this


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
        self.path = os.fspath(journal_path)
        self.clock = clock
        self.reader: JournalReader | None = None
        self.session: Session | None = None
        self.game_id = None
        self.last_sum = None              # the chain checksum of the last folded action
        self.history: deque[Entry] = deque(maxlen=HISTORY)
        self.prices, self.fortunes = Series(), Series()
        self.events: deque[FeedEvent] = deque(maxlen=MAX_EVENTS)
        self.last_id = 0
        self.problem: str | None = None   # why the journal cannot be read now
        self._stamp = None
        self._retry = 0.0

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
        if not self.events or last_id < self.events[0].id - 1 or last_id > self.last_id:
            return None
        return [event for event in self.events if event.id > last_id]

    # ---- following ---------------------------------------------------------------------
    def poll(self) -> list[FeedEvent]:
        """Fold what the journal holds now; the events it made (none when nothing changed).
        Between commits of the box nothing is read: a commit always changes the journal's
        -wal (or, after a checkpoint, its file), which two stat calls see. A commit is
        written to the -wal before it is synced and only then seen by readers, so the files
        are read again at each poll until they have not changed for SETTLE_S: a look
        during the sync saw the files changed but not yet the action."""
        stamp = files_stamp(self.path)
        if stamp == self._stamp and self.problem is None:
            return []
        if self.problem is not None and self.clock() < self._retry:
            return []
        try:
            if self.reader is None:
                self.reader = JournalReader(self.path)
            made = self._follow(self.reader)
        except JournalError as error:
            self.problem, self._retry = str(error), self.clock() + RETRY_S
            if self.reader is not None:
                self.reader.close()
                self.reader = None
            return []
        self.problem = None
        if self.clock() - max((part[2] for part in stamp if part), default=0) / 1e9 > SETTLE_S:
            self._stamp = stamp
        return made

    def _which(self, reader) -> int | None:
        """The game followed: the journal's last one (a publisher finishes each in turn)."""
        return reader.last_game()

    def _follow(self, reader) -> list[FeedEvent]:
        game_id = self._which(reader)
        if game_id is None:
            return []
        header = reader.header(game_id)
        if game_id != self.game_id or header != self.session.game.header:
            return self._start(reader, game_id, header)
        log = self.session.game.log
        count = len(log)
        made = []
        if count and reader.checksum(game_id, count - 1) != self.last_sum:
            kept = self._common(reader, log)
            if kept < count:
                made.append(self._undo(kept))
        cls = type(self.session.game)
        for data in reader.actions(game_id, len(log)):
            made.append(self._apply(cls.ACTIONS.from_json(data)))
        self._mark(reader)
        return made

    def _common(self, reader, log) -> int:
        """How many of the folded actions the journal still holds, compared as the text the
        journal keeps (the same text is the same chain checksum): the last ones first."""
        low = max(0, len(log) - 64)
        while True:
            same = 0
            for mine, held in zip(log[low:], reader.actions(self.game_id, low)):
                if canonical(mine.to_json()) != canonical(held):
                    break
                same += 1
            if same or low == 0:
                return low + same
            low = 0

    def _mark(self, reader) -> None:
        count = len(self.session.game.log)
        self.last_sum = reader.checksum(self.game_id, count - 1) if count else None

    def _start(self, reader, game_id: int, header: dict, upto: int | None = None) -> list[FeedEvent]:
        """Fold the game's actions (its first `upto` only, when given: a publisher resuming
        where the venue got to publishes the rest one by one)."""
        cls = game_class(game_of(header))
        self.game_id = game_id
        self.prices, self.fortunes, self.history = Series(), Series(), deque(maxlen=HISTORY)
        game = cls(header)
        self._note(game)
        rows = reader.actions(game_id)[:upto]
        for game, act, events in cls.unfold(header, map(cls.ACTIONS.from_json, rows), checked=False):
            self._keep(game, act, events)
        self.session = Session(game, None, game_id)
        self._mark(reader)
        return [self._event("game", {"game": game_id, "name": game.name, "players": list(game.players),
                                     "actions": len(game.log)})]

    def _apply(self, act) -> FeedEvent:
        events = self.session.apply(act)        # no journal: the box wrote it, the feed reads it
        entry = self._keep(self.session.game, act, events)
        return self._event("action", {"game": self.game_id, "n": entry.n,
                                      "text": {lang: self.line(entry, lang) for lang in LANGUAGES}})

    def _undo(self, length: int) -> FeedEvent:
        undone = len(self.session.game.log) - length
        self.session.undo_to(length)
        self.prices.cut(length + 1)
        self.fortunes.cut(length + 1)
        while self.history and self.history[-1].n > length:
            self.history.pop()
        if not self.history and length:
            self._refill_history()
        return self._event("undo", {"game": self.game_id, "to": length, "undone": undone,
                                    "text": undone_text(undone, length)})

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

    @staticmethod
    def _entry(game, n: int, act, events) -> Entry:
        return Entry(n, act, list(events), cash_moved(events, len(game.players)))

    def line(self, entry: Entry, lang: str) -> str:
        """What an action did, in words, as the box's news line says it; in a game that
        hides anything, a correction by its kind only (its amounts are what is hidden)."""
        from firmware.games import adapter_of
        from firmware.menus import Ctx, describe, kind_label

        ctx = Ctx(self.session, lang)
        if hides(self.session) and self.session.game.ACTIONS.has(entry.act.kind, CORRECTION):
            return kind_label(ctx, entry.act.kind)
        return adapter_of(self.session).news(ctx, entry.act, entry.events, describe)[0]


def undone_text(undone: int, length: int) -> dict:
    """An undo event's words, in each language."""
    return {lang: t("news.undone_to", lang, count=undone, n=length + 1) for lang in LANGUAGES}


def files_stamp(path: str) -> tuple:
    """What a commit changes: the journal's and its -wal's identity, size and time."""
    stamp = []
    for name in (path, path + "-wal"):
        try:
            info = os.stat(name)
            stamp.append((info.st_ino, info.st_size, info.st_mtime_ns))
        except OSError:
            stamp.append(None)
    return tuple(stamp)


def hides(session) -> bool:
    """Whether the game's public view leaves anything out now (its snapshot's private paths):
    then no cash moved and no correction's amount is shown publicly."""
    return bool(session.snapshot().get("private"))
