"""The setup: new game or resume, the game (every playable registered game, and the
language), the game's format when its rulebook has several, players and their names,
rounds, the box file's check, then the summary that creates the game. The summary's third
button ("Régler") opens the Options: every setting the chosen game's engine declares, as
the configuration proposes it (a list stepped through, a number entered within its declared
range); the summary opens on "Jouer", so one press keeps them all.

The screen itself is firmware/screens/setup.py; this module holds what the box's
configuration proposes (SetupDefaults, options) and the controller's side (SetupFlow).
"""
from __future__ import annotations

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

    def owner_box(self, name: str) -> Path | None:
        """The box file a new game of `name` reads: the owner's in the configured folder
        ([boxes] dir), else the one the latest game learned into (firmware/box_files.py),
        else None (the shipped one)."""
        path = self.boxes / f"{name}.toml" if self.boxes is not None else None
        if path is not None and path.is_file():
            return path
        return newest_learned(self.state, name) if self.state is not None else None

    def for_game(self, name: str) -> dict:
        """The settings a new game of `name` records: each one its engine declares, as the
        configuration gives it ("" for a text is no value: the game chooses)."""
        return {key: self.settings[key] for key in spec(name).settings if self.settings[key] != ""}


class SetupFlow:
    """What the setup screen (firmware/screens/setup.py) asks of the controller: starting it,
    the box file of the chosen game (loaded once), leaving it for the game it creates or resumes."""

    def _setup_frame(self):
        return Setup()

    def start_setup(self):
        frame = self._setup_frame()
        self.stack = [frame]
        frame.select_default(self)
        self.changed = True

    def _default_box(self, v=None):
        ui = setup_ui(v if v is not None else (self.stack[0]["v"] if self.stack and self.stack[0]["t"] == "setup" else {}))
        boxes = self.__dict__.setdefault("_boxes", {})
        key = (ui.name, self.defaults.owner_box(ui.name))     # a game that learned changes the file
        if key not in boxes:
            try:
                boxes[key] = ui.load_box(key[1])
            except CorbeilleError as error:   # the owner's file refused: creating the game says why
                log.error("%s", error)
                boxes[key] = ui.load_box()
        return boxes[key]

    def _resume_game(self):
        self.stack = []
        self._sync(force=True)

    def _resumed_after_restart(self, said=False):
        """The journal's game taken up again at start: the screen says so until the first
        press or action ("Partie reprise : action 412, tour de Bleu"; `said`: a message on
        the journal's repair says it already), and a seat clock no rule sets waits for OK,
        as after an undo: running at once it could run out before the table has seen where
        it is (a silence selling a token nobody heard offered). A silence the rulebook sets
        (the decision's `silence_s`) starts again whole."""
        self.resumed = not said
        if self._clock_pausable():
            self._stop_clock()

    def _resumed_line(self) -> str:
        n, turn = len(self.session.game.log), self.session.snapshot().get("turn")
        return t("resumed_turn", self.lang, n=n, player=turn) if turn else t("resumed", self.lang, n=n)

    def _say_repaired(self, messages, damaged):
        """The details (file names, row numbers) go to the log; the table gets one line per
        cause: a journal damaged (its end cut back), or a game another version recorded
        whose action this one refuses (the file is sound: it is not "damaged")."""
        for message in messages:
            log.warning("%s", message)
        refused = self.session.refused if self.session is not None else None
        lines = [t("repaired.line", self.lang)] if damaged or refused is None else []
        if refused is not None:
            lines.append(t("replay_refused.line", self.lang, n=refused[0] - 1, total=refused[1]))
        title = "title.repaired" if damaged or refused is None else "title.replay_refused"
        self.stack.append(Message(t(title, self.lang), lines))

    def _create_game(self, header):
        try:
            self.session = Session.new(header, self.journal)
        except (CorbeilleError, OSError, ValueError) as error:
            # a setting the game refuses (one only the configuration sets): in the box's language
            self._error(error if isinstance(error, IllegalAction) else str(error))
            return
        self.tags = {}
        self.news = ()
        self.stack = []
        self._sync(force=True)
