"""A game being played on the box: the engine's game plus the journal that keeps it.

`Session.apply` is the one place an action enters the game: the engine checks and
applies it (an illegal action raises `IllegalAction` and changes nothing), then the
journal takes it. Alone, the journal commits it (durably) before `apply` returns; held by
the box's loop (`Journal.hold`), the commit comes at the end of the event, with the UI
state, and still before anything is shown (`App._commit`). If the journal refuses it, the
action is taken back from the game and the error is raised: the screen never shows an
action the journal does not hold.

`version` goes up on every apply and undo, so the controller and the renderers can tell
cheaply whether the game changed (snapshots and decisions are cached per version).
"""
from __future__ import annotations


import functools
import logging
import os

from engines import game_class
from engines.core.errors import CorbeilleError, IllegalAction
from engines.core.log import Log
from engines.registry import game_of
from firmware.journal import snapshots
from firmware.journal import JournalError
from firmware.journal.rows import parse_row, parse_rows
from firmware.journal.rows import sha256     # not hashlib's: see there

logger = logging.getLogger(__name__)

# Journal meta key: the rules (rules_fingerprint) the game's journaled actions were last all
# checked under. While they are this firmware's, a resume replays without the check.
RULES_KEY = "rules.{}"


# Journal meta key: "<stamp> <fingerprint>", the rules fingerprint of the engines' files as
# they were when it was last computed (their names, sizes and times: `_rules_files`).
RULES_FILES_KEY = "rules.files"


@functools.lru_cache(maxsize=4)
def _rules_files(root: str | None = None) -> tuple[str, str, tuple[str, ...]]:
    """(stamp, root, files): every engine source and box file (paths relative to the
    engines' folder), and a stamp of their names, sizes, modification and change times.
    Listing and stat'ing them is cheap; reading and hashing them is what a fingerprint
    costs. os.scandir, not pathlib: a Path per file would be most of the listing's time."""
    if root is None:
        import engines

        root = os.path.dirname(os.path.realpath(engines.__file__))
    found = []

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    # not into the bytecode caches: on the box they hold as many files
                    # again, which a resume would list for nothing
                    if entry.name != "__pycache__":
                        walk(entry.path, prefix + entry.name + "/")
                elif not entry.name.endswith(".pyc"):
                    # ctime as well as mtime: a copy that keeps a file's mtime (rsync -t,
                    # cp -p) still gets a new ctime, which nothing but the kernel sets.
                    info = entry.stat()
                    found.append((prefix + entry.name, info.st_size, info.st_mtime_ns, info.st_ctime_ns))

    walk(root, "")
    found.sort(key=lambda item: item[0].split("/"))     # as paths sort, whatever order the folder lists them in
    stamp = sha256("\n".join(f"{name}\0{size}\0{mtime}\0{ctime}" for name, size, mtime, ctime in found).encode())
    return stamp.hexdigest()[:32], root, tuple(name for name, *_ in found)


@functools.lru_cache(maxsize=4)
def _content_fingerprint(stamp: str, root: str, files: tuple[str, ...]) -> str:
    digest = sha256()
    for name in files:
        with open(os.path.join(root, name), "rb") as f:
            digest.update(name.encode() + b"\0" + f.read() + b"\0")
    return digest.hexdigest()[:32]


def rules_fingerprint(journal=None, keep: bool = False, root: str | None = None) -> str:
    """A hash of every engine source and box file: what decides whether an action is legal.
    Any change to them (a firmware update) makes the next resume check every action again.

    It hashes the files' bytes; the journal (when given) keeps it with the stamp of the
    files it was computed from (their sizes and times, RULES_FILES_KEY), and while the stamp
    is the same the kept value stands for reading them again at every resume. A file
    changed in any way gets a new stamp, so the hash is computed again from the bytes.
    `keep`: write it into the journal when it is not kept there yet: only where the box
    writes anyway (a new game, a snapshot: the action's own commit), never a commit of its
    own at start."""
    stamp, root, files = _rules_files(root)
    kept = journal.get_meta(RULES_FILES_KEY) if journal is not None else None
    if kept and kept.partition(" ")[0] == stamp:
        return kept.partition(" ")[2]
    fingerprint = _content_fingerprint(stamp, root, files)
    if keep and journal is not None and not journal.read_only:
        try:
            journal.set_meta(RULES_FILES_KEY, f"{stamp} {fingerprint}")
        except CorbeilleError as error:   # only a saving of time is lost
            logger.warning("rules fingerprint not kept: %s", error)
    return fingerprint


def _parser(journal, game_cls):
    """Text of a journal row -> the engine's action, for a resumed game's log. With the
    journal's chain check deferred (Journal.verify_deferred: the box's loop runs it before
    its first event), it runs first: an unverified row is never parsed into the game; a
    damage it finds is raised, never passed over."""
    from_json = game_cls.ACTIONS.from_json

    def parse(text: str):
        if journal.deferred:
            repairs = journal.verify_deferred()
            if repairs:
                raise JournalError("; ".join(repairs))
        return from_json(parse_row(text))
    return parse


def _from_snapshot(journal, game_id: int, game_cls, header: dict, rules: str):
    """The game restored from its snapshot (snapshots.py), None when it has none that
    verifies or it does not restore (the replay then decides)."""
    snapshot = snapshots.read(journal, game_id, rules)
    if snapshot is None:
        return None
    try:
        # The actions before the snapshot stay text until something reads them (an undo past
        # it, the history, the report): a resume then reads, but does not parse, the evening.
        # The rows from the snapshot's own on were checked when it was read (Journal.checksum):
        # parsed now, the last action among them (screens read it); the older ones may wait
        # for the deferred check.
        verified, from_json = snapshot[0] - 1, game_cls.ACTIONS.from_json
        bodies = journal.bodies(game_id)
        log = Log([*bodies[:verified], *map(from_json, parse_rows(bodies[verified:]))], _parser(journal, game_cls))
        return game_cls.restore(header, log, *snapshot)
    except Exception as error:  # noqa: BLE001 - any failure of a snapshot: the replay decides
        logger.warning("game %s: its snapshot after %s actions does not restore (%s); replaying",
                       game_id, snapshot[0], error)
        return None


def checked_replay(game_cls, header: dict, recorded: list):
    """(game, actions accepted, None or (index, error) of the first refused) of recorded
    actions (JSON) replayed with every check."""
    game, done = game_cls(header), []
    for index, data in enumerate(recorded):
        try:
            act = game_cls.ACTIONS.from_json(data)
            game.apply(act, atomic=False)   # a replay: no protective copy (fast)
        except (CorbeilleError, ValueError) as error:
            return game_cls.replay(header, done), done, (index, error)   # the refused action may have left debris
        done.append(act)
    return game, done, None


def read_recording(game_cls, header: dict, recorded: list):
    """(header, game, actions, problem): a recording replayed as written, or, when that
    refuses an action, under the engine's older reading of its header that goes further
    (a game an earlier version recorded with other actions: `Game.older_readings`)."""
    game, done, problem = checked_replay(game_cls, header, recorded)
    read_as = header
    for older in game_cls.older_readings(header) if problem is not None else ():
        other, other_done, other_problem = checked_replay(game_cls, older, recorded)
        if len(other_done) > len(done):
            read_as, game, done, problem = older, other, other_done, other_problem
    return read_as, game, done, problem


def cash_moved(events, players: int) -> dict[int, int]:
    """The cash an action's events moved, seat -> net change, the bank left out (the
    history on the box, the web view's)."""
    moved: dict[int, int] = {}
    for event in events:
        if event.key == "transfer":
            p = event.params
            for seat, sign in ((p["src"], -1), (p["dst"], 1)):
                if isinstance(seat, int) and 0 <= seat < players:
                    moved[seat] = moved.get(seat, 0) + sign * p["amount"]
    return {s: v for s, v in sorted(moved.items()) if v}


class Session:
    def __init__(self, game, journal=None, game_id: int | None = None):
        self.game = game
        self.journal = journal
        self.game_id = game_id
        self.version = 0
        self.messages: list[str] = []      # problems found while resuming, shown once
        self.refused: tuple | None = None  # (action number, actions recorded): the replay stopped at a refusal
        self._kept: tuple[int | None, dict] = (None, {})    # (version, what `_per_version` built for it)

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, header: dict, journal=None) -> "Session":
        game = game_class(game_of(header))(header)
        game_id = journal.new_game(header) if journal is not None else None
        if journal is not None:
            journal.set_meta(RULES_KEY.format(game_id), rules_fingerprint(journal, keep=True))
        return cls(game, journal, game_id)

    @classmethod
    def resume(cls, journal, game_id: int) -> "Session":
        """Replay a journaled game. An action the engine now refuses (the rules changed
        under a recorded game) ends the replay there; the refused tail is taken out of the
        journal, so the journal and the game agree again, and a message says so
        (`refused`: the box says another version recorded it, not that the file is damaged).
        Before that, a recording the header as written refuses is read under the engine's
        older readings (`read_recording`) when one goes further: a game an earlier version
        recorded resumes whole.

        When the journal says its actions were all checked under these same rules
        (rules_fingerprint), they are replayed without the check: the hash chain proves
        they are the actions these rules accepted, and the check is half a replay's time.
        Then the game's snapshot, when it verifies (firmware/journal/snapshots.py), stands for the
        replay of the actions it was taken after; one that does not is passed over."""
        header = journal.header(game_id)
        game_cls = game_class(game_of(header))
        key = RULES_KEY.format(game_id)
        rules = rules_fingerprint(journal)
        if journal.get_meta(key) == rules:
            game = _from_snapshot(journal, game_id, game_cls, header, rules)
            if game is not None:
                return cls(game, journal, game_id)
            try:
                # Each action replayed as it is read: a long game's rows and dicts are never
                # all in memory at once (the box's memory budget).
                game = game_cls.replay(header, (game_cls.ACTIONS.from_json(data)
                                                for data in journal.iter_actions(game_id)), checked=False)
                return cls(game, journal, game_id)
            except (CorbeilleError, ValueError):
                pass        # not what these rules accepted after all: the checked replay says where
        recorded = journal.actions(game_id)
        read_as, game, done, problem = read_recording(game_cls, header, recorded)
        session = cls(game, journal, game_id)
        if problem is not None:
            index, error = problem
            if not journal.read_only:           # a read-only journal keeps the refused tail
                for _ in range(len(recorded) - index):
                    journal.undo(game_id)
            session.messages.append(f"game {game_id}: action {index + 1} of {len(recorded)} refused on replay "
                                    f"({error}); the game resumes at action {index}")
            session.refused = (index + 1, len(recorded))
        if not journal.read_only and read_as is header:
            # Every action left is checked now. Read the older way, the recording is checked
            # again at each resume: the unchecked replay reads the header as written.
            try:
                journal.set_meta(key, rules)
            except CorbeilleError as error:    # a card refusing writes: only time is lost
                logger.warning("game %s: its check under these rules not kept (%s)", game_id, error)
        return session

    # -------------------------------------------------------------------- access
    @property
    def players(self) -> list[str]:
        return self.game.players

    @property
    def actions(self):
        return self.game.ACTIONS

    def _per_version(self, name: str, build):
        """`build()`, kept until the game's version changes: the screens, the board and the
        web pages ask the same things of one position at every tick."""
        version, kept = self._kept
        if version != self.version:
            kept = {}
            self._kept = (self.version, kept)
        if name not in kept:
            kept[name] = build()
        return kept[name]

    def decision(self):
        return self._per_version("decision", self.game.decision)

    def preview(self, act) -> list:
        """The events `act` would emit (the engine's `preview`: nothing changes), cached
        for the current version: a confirmation screen is drawn many times."""
        cached = getattr(self, "_preview", None)
        if cached is not None and cached[0] == self.version and cached[1] == act:
            return cached[2]
        events = self.game.preview(act)
        self._preview = (self.version, act, events)
        return events

    def snapshot(self) -> dict:
        return self._per_version("snapshot", self.game.snapshot)

    def public_snapshot(self) -> dict:
        """What a display everyone sees may draw: the engine's `public` view of the snapshot
        (a game that keeps cash hidden drops every player's)."""
        return self._per_version("public", lambda: self.game.public(self.snapshot()))

    @property
    def last_action(self):
        return self.game.log[-1] if self.game.log else None

    @property
    def over(self) -> bool:
        return self.game.over

    # ------------------------------------------------------------------- changes
    def apply(self, act):
        """Apply `act` and commit it to the journal; returns the engine's events. When the
        engine has just made a checkpoint, the journal keeps it as the game's snapshot, in
        the same transaction (firmware/journal/snapshots.py)."""
        # The decision this version's screens were built from: the engine checks against it
        # instead of building it again (half of an apply's time).
        events = self.game.apply(act, decision=self.decision())   # IllegalAction: nothing changed
        if self.journal is not None:
            try:
                count = self.journal.append(self.game_id, act.to_json()) + 1
            except BaseException:
                self.game.undo()               # not journaled: not done
                self.version += 1
                raise
            frozen = self.game.frozen_at(count)
            if frozen is not None:
                try:
                    snapshots.write(self.journal, self.game_id, count, frozen, rules_fingerprint(self.journal, keep=True))
                except CorbeilleError as error:   # the action is journaled; a resume replays it instead
                    logger.warning("game %s: no snapshot after %s actions (%s)", self.game_id, count, error)
        self.version += 1
        return events

    def undo(self):
        """Take back the last action (game and journal); returns it."""
        if not self.game.log:
            raise IllegalAction("error.nothing_to_undo")
        if self.journal is not None:
            self.journal.undo(self.game_id)
        act = self.game.undo()
        self.version += 1
        return act

    def undo_to(self, length: int) -> list:
        """Take back every action after the first `length` (game and journal, one journal
        transaction); returns the actions undone, oldest first."""
        if not 0 <= length < len(self.game.log):
            raise IllegalAction("error.undo_to", length=length, actions=len(self.game.log))
        if self.journal is not None:
            self.journal.undo(self.game_id, len(self.game.log) - length)
        undone = self.game.undo_to(length)
        self.version += 1
        return undone

    def history(self) -> list[tuple[object, dict]]:
        """Each action with the cash it moved (seat -> net change; the bank left out),
        from one replay of this engine's own log, kept until the game changes."""
        cached = getattr(self, "_history", None)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        entries = [(act, cash_moved(events, len(self.players)))
                   for _, act, events in type(self.game).unfold(self.game.header, self.game.log, checked=False)]
        self._history = (self.version, entries)
        return entries

    def evening(self) -> tuple[list[dict], list[dict]]:
        """What the report charts, at the start and after each action, from one replay:
        every company's price (the game's `prices`) and every player's fortune by name
        (its `fortunes`, as it ranks players). Replayed once per game position: the report's
        files and the board's pages both draw it when the game ends."""
        cached = getattr(self, "_evening", None)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        game = type(self.game)(self.game.header)
        prices, fortunes = [], []

        def note(game):
            prices.append(game.prices())
            fortunes.append({self.players[s]: v for s, v in game.fortunes().items()})

        note(game)
        for game, _, _ in type(self.game).unfold(self.game.header, self.game.log, checked=False):
            note(game)
        self._evening = (self.version, (prices, fortunes))
        return prices, fortunes
