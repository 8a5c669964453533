"""The setup: new game or resume, the game (every playable registered game, and the
language), the game's format when its rulebook has several, players and their names,
rounds, the box file's check, then the summary that creates the game. The summary's third
button ("Régler") opens the Options: every setting the chosen game's engine declares, as
the configuration proposes it (a list stepped through, a number entered within its declared
range); the summary opens on "Jouer", so one press keeps them all.

The screen itself is firmware/screens/setup.py; this module holds what the box's
configuration proposes (SetupDefaults, options) and the controller's part that starts it and leaves it (SetupFlow).
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from engines.core.errors import CorbeilleError, IllegalAction
from engines.registry import game_settings, spec
from firmware.box_files import newest_learned
from firmware.games import PLAYABLE
from firmware.screens.overlays import Message
from firmware.screens.setup import MAX_ROUNDS, Setup, options, setup_ui  # noqa: F401 (MAX_ROUNDS, options: the API)
from firmware.session import Session
from firmware.texts import t

log = logging.getLogger("corbeille")


class SetupDefaults:
    """What the setup screens propose (the configuration's [game] table): the game, the
    players, and every registered game's own settings (engines/registry.py), by name as
    attributes (`defaults.dice`) or for one game (`for_game`)."""

    def __init__(self, game: str | None = None, players=(), boxes: Path | None = None, state: Path | None = None,
                 **settings):
        declared = game_settings()
        game = game or PLAYABLE[0]
        unknown = sorted(set(settings) - set(declared))
        if unknown:
            raise TypeError(f"no game declares the setting {unknown[0]!r}; declared: {', '.join(declared)}")
        self.game, self.players, self.boxes, self.state = game, tuple(players), boxes, state
        self.settings = {key: default for key, (default, _, _) in declared.items()} | settings

    def __getattr__(self, name):
        settings = self.__dict__.get("settings", {})
        if name in settings:
            return settings[name]
        raise AttributeError(name)

    def __eq__(self, other):
        return isinstance(other, SetupDefaults) and vars(self) == vars(other)

    def __repr__(self):
        return f"SetupDefaults(game={self.game!r}, players={self.players!r}, settings={self.settings!r})"

    @classmethod
    def from_config(cls, game, boxes=None, state=None) -> "SetupDefaults":
        return cls(game=game.game, players=tuple(game.players), boxes=boxes, state=state, **game.settings)

    def box_sources(self, name: str) -> list:
        """The box files a new game of `name` may read, the default first: [(source, path)]
        with "learned" the one the latest game of `name` learned into (firmware/box_files.py),
        "owner" the owner's in the configured folder ([boxes] dir), each only when it is
        there, and "shipped" (None: the game's own) last. The setup's Options choose one."""
        sources = []
        learned = newest_learned(self.state, name) if self.state is not None else None
        if learned is not None:
            sources.append(("learned", learned))
        path = self.boxes / f"{name}.toml" if self.boxes is not None else None
        if path is not None and path.is_file():
            sources.append(("owner", path))
        return sources + [("shipped", None)]

    def owner_box(self, name: str) -> Path | None:
        """The box file a new game of `name` reads unless the setup's Options choose another:
        the newest learned, else the owner's, else None (the shipped one)."""
        return self.box_sources(name)[0][1]

    def for_game(self, name: str) -> dict:
        """The settings a new game of `name` records: each one its engine declares, as the
        configuration gives it ("" for a text is no value: the game chooses)."""
        return {key: self.settings[key] for key in spec(name).settings if self.settings[key] != ""}


class SetupFlow:
    """What the setup screen (firmware/screens/setup.py) asks of the controller `ctl`:
    starting it, the box file of the chosen game (loaded once), leaving it for the game it
    creates or resumes; and what a start says of the game it takes up again. A part of the
    controller (its `setup`), through the controller's public state and methods."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.boxes: dict = {}            # game name -> its box file, loaded once

    def resume_last(self, messages):
        """The journal's language, saved screen and last game, resumed when the box plays its
        game: (the saved screen or None, `messages` and what the resume said)."""
        ctl, journal = self.ctl, self.ctl.journal
        lang = journal.get_meta("lang")
        if lang in ("fr", "en") and not getattr(ctl, "lang_forced", False):
            ctl.lang = lang
        raw = journal.get_meta("ui")
        try:
            saved = json.loads(raw) if raw else None
        except ValueError:
            saved = None
        game_id = journal.last_game()
        if game_id is not None and journal.header(game_id).get("game", PLAYABLE[0]) not in PLAYABLE:
            log.warning("game %s is a %s game: the box plays %s; starting the setup", game_id,
                        journal.header(game_id).get("game"), ", ".join(PLAYABLE))
            game_id = None
        if game_id is not None:
            ctl.session = Session.resume(journal, game_id)
            messages = list(messages) + ctl.session.messages
            ctl.tag_book.load(journal, game_id)
        return saved, messages

    def keep_learned(self, session=None, quiet: bool = True):
        """What the table learned in `session` (the game under way), written to the state
        folder for the next game's setup (firmware/box_files.py): the file, or None when
        nothing was learned. At a game's end and when an unfinished game is left (`quiet`),
        a card that cannot take it loses only that, logged (the journal has it; `corbeille
        box learned` writes it again); from the menu the error is the caller's to say (a
        card that refuses the write, a box file the game names that no longer loads)."""
        session = session or self.ctl.session
        if session is None or self.ctl.learned_writer is None:
            return None
        try:
            return self.ctl.learned_writer(session.game, session.game_id)
        except (OSError, CorbeilleError) as error:
            log.error("cannot keep what the table learned: %s", error)
            if not quiet:
                raise
            return None

    def setup_frame(self):
        return Setup()

    def start_setup(self):
        frame = self.setup_frame()
        self.ctl.stack = [frame]
        frame.select_default(self.ctl)
        self.ctl.changed = True

    def default_box(self, v=None):
        stack = self.ctl.stack
        ui = setup_ui(v if v is not None else (stack[0]["v"] if stack and stack[0]["t"] == "setup" else {}))
        key = (ui.name, self.ctl.defaults.owner_box(ui.name))     # a game that learned changes the file
        if key not in self.boxes:
            try:
                self.boxes[key] = ui.load_box(key[1])
            except CorbeilleError as error:   # the owner's file refused: creating the game says why
                log.error("%s", error)
                self.boxes[key] = ui.load_box()
        return self.boxes[key]

    def resume_game(self):
        self.ctl.stack = []
        self.ctl.flow.sync(force=True)

    def resumed_after_restart(self, said=False):
        """The journal's game taken up again at start: the screen says so until the first
        press or action ("Partie reprise : action 412, tour de Bleu"; `said`: a message on
        the journal's repair says it already), and a seat clock no rule sets waits for OK,
        as after an undo: running at once it could run out before the table has seen where
        it is (a silence selling a token nobody heard offered). A silence the rulebook sets
        (the decision's `silence_s`) starts again whole."""
        self.ctl.resumed = not said
        if self.ctl.seat_clock.pausable():
            self.ctl.seat_clock.stop()

    def resumed_line(self) -> str:
        n, turn = len(self.ctl.session.game.log), self.ctl.session.snapshot().get("turn")
        return t("resumed_turn", self.ctl.lang, n=n, player=turn) if turn else t("resumed", self.ctl.lang, n=n)

    def say_repaired(self, messages, damaged):
        """The details (file names, row numbers) go to the log; the table gets one line per
        cause: a journal damaged (its end cut back), or a game another version recorded
        whose action this one refuses (the file is sound: it is not "damaged")."""
        for message in messages:
            log.warning("%s", message)
        refused = self.ctl.session.refused if self.ctl.session is not None else None
        lines = [t("repaired.line", self.ctl.lang)] if damaged or refused is None else []
        cut = self._journal_cut() if lines else None
        if cut is not None:
            kept, first = cut
            lines.insert(0, t("repaired.kept", self.ctl.lang, n=kept) if first is None
                         else t("repaired.cut", self.ctl.lang, n=kept, first=first))
        if refused is not None:
            lines.append(t("replay_refused.line", self.ctl.lang, n=refused[0] - 1, total=refused[1]))
        title = "title.repaired" if damaged or refused is None else "title.replay_refused"
        self.ctl.stack.append(Message(t(title, self.ctl.lang), lines))

    def _journal_cut(self):
        """(actions kept, first action lost or None) of the resumed game, when the journal's
        repair at start cut it back, salvaged it or may have lost some of it."""
        cuts = getattr(self.ctl.journal, "cuts", None)
        if not cuts or self.ctl.session is None:
            return None
        return cuts.get(self.ctl.session.game_id)

    def create_game(self, header):
        try:
            self.ctl.session = Session.new(header, self.ctl.journal)
        except (CorbeilleError, OSError, ValueError) as error:
            # a setting the game refuses (one only the configuration sets): in the box's language
            self.ctl.error(error if isinstance(error, IllegalAction) else str(error))
            return
        self.ctl.tag_book.seats = {}
        self.ctl.news = ()
        self.ctl.stack = []
        self.ctl.flow.sync(force=True)
