"""The setup: new game or resume, the game (every playable registered game, and the
language), the game's format when its rulebook has several, players and their names,
rounds, the box file's check, then the summary that creates the game. The summary's third
button ("Régler") opens the Options: the chosen game's own settings (each one its engine
declares with a list of values), proposed from the configuration; the summary opens on
"Jouer", so one press keeps them all.

A mixin of `firmware.controller.Controller`: the frame `setup`.
"""
from __future__ import annotations

from engines.core.errors import CorbeilleError
from engines.registry import game_settings, spec
from firmware.games import PLAYABLE, adapter
from firmware.screen import Screen
from firmware.session import Session
from firmware.texts import t

MAX_ROUNDS = 20


class SetupDefaults:
    """What the setup screens propose (the configuration's [game] table): the game, the
    players, and every registered game's own settings (engines/registry.py), by name as
    attributes (`defaults.dice`) or for one game (`for_game`)."""

    def __init__(self, game: str | None = None, players=(), **settings):
        declared = game_settings()
        game = game or PLAYABLE[0]
        unknown = sorted(set(settings) - set(declared))
        if unknown:
            raise TypeError(f"no game declares the setting {unknown[0]!r}; declared: {', '.join(declared)}")
        self.game, self.players = game, tuple(players)
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
    def from_config(cls, game) -> "SetupDefaults":
        return cls(game=game.game, players=tuple(game.players), **game.settings)

    def for_game(self, name: str) -> dict:
        """The settings a new game of `name` records: each one its engine declares, as the
        configuration gives it ("" for a text is no value: the game chooses)."""
        return {key: self.settings[key] for key in spec(name).engine_class().SETTINGS if self.settings[key] != ""}


def options(name: str) -> dict:
    """The settings of `name` the setup offers under "Options": those declared with a list of
    values (a number or a text has no list to step through; the configuration sets it)."""
    return {key: allowed for key, (_, allowed) in spec(name).engine_class().SETTINGS.items()
            if isinstance(allowed, tuple)}


class SetupFlow:
    SETUP_STEPS = ("start", "game", "format", "count", "names", "rounds", "box", "summary")

    # --------------------------------------------------------------- questions
    def _setup_frame(self):
        return {"t": "setup", "v": {}, "sel": 0}

    def _setup_question(self, frame):
        """(step, title, lines, items[(label, value)]) for the setup's current step."""
        lang, v = self.lang, frame["v"]
        if frame.get("options"):
            ui = self._setup_ui(v)
            chosen = self._setup_settings(frame)
            items = [(f"{self._option_text(ui, key)}: {self._option_text(ui, key, chosen[key])}", key)
                     for key in options(ui.name)]
            items.append((t("setup.options_done", lang), "#done"))
            return "options", t("setup.options_title", lang), (ui.title(lang),), items
        resumable = self.session is not None and not self.session.over
        for step in self.SETUP_STEPS:
            if step in v:
                continue
            if step == "start":
                if not resumable:
                    continue
                items = [(t("setup.new", lang), "new"), (t("setup.resume", lang), "resume")]
                return step, t("setup.title", lang), (t("setup.start", lang),), items
            if step == "game":
                items = [(adapter(name).title(lang), name) for name in PLAYABLE]
                items.append((t("menu.lang", lang), "#lang"))
                return step, t("setup.title", lang), (t("setup.game", lang),), items
            ui = self._setup_ui(v)
            if step == "format":
                items = ui.choices(lang)
                if not items:
                    continue
                return step, ui.title(lang), (t("setup.format", lang),), items
            if step == "count":
                lo, hi = spec(ui.name).players
                items = [(t("setup.n_players", lang, n=n), n) for n in range(lo, hi + 1)]
                return step, ui.label(v.get("format"), lang), (t("setup.count", lang),), items
            if step == "names":
                n = v["count"]
                items = [(t("setup.numbers", lang), "numbers")]
                if n <= len(t("setup.colour_names", lang).split()):
                    items.insert(0, (t("setup.colours", lang), "colours"))
                if self._config_names(n):
                    items.insert(0, (" ".join(self._config_names(n)), "config"))
                return step, t("setup.n_players", lang, n=n), (t("setup.names", lang),), items
            if step == "rounds":
                if not ui.rounds:
                    continue
                items = [(t("setup.no_limit", lang), 0)] + [(t("setup.rounds_n", lang, n=r), r)
                                                          for r in range(1, MAX_ROUNDS + 1)]
                return step, t("setup.title", lang), (t("setup.rounds", lang),), items
            if step == "box":
                if self._box_verified():
                    continue
                items = [(t("setup.box_continue", lang), "continue"), (t("setup.box_confirm", lang), "confirm")]
                return step, t("setup.box_title", lang), (t("setup.box_unverified", lang),), items
            if step == "summary":
                names = self._names(v["names"], v["count"])
                rounds = v.get("rounds", 0)
                if ui.rounds:
                    lines = (t("setup.summary", lang, format=ui.label(v.get("format"), lang), n=v["count"],
                               rounds=t("setup.no_limit", lang) if not rounds else t("setup.rounds_n", lang, n=rounds)),
                             " ".join(names))
                else:
                    lines = (t("setup.summary_short", lang, format=ui.label(v.get("format"), lang), n=v["count"]),
                             " ".join(names))
                items = [(t("setup.go", lang), True), (t("no", lang), False)]
                if options(ui.name):
                    items.append((t("setup.options", lang), "#options"))
                return step, t("setup.title", lang), lines, items
        return None, "", (), []

    def _setup_default(self, step, items):
        values = [value for _, value in items]
        wanted = {"game": self.defaults.game, "format": self.defaults.format, "rounds": self.defaults.rounds,
                  "count": len(self.defaults.players) if 2 <= len(self.defaults.players) <= 6 else 3,
                  "names": "config"}.get(step)
        return values.index(wanted) if wanted in values else 0

    def _setup_settings(self, frame):
        """The chosen game's settings: the configuration's, then what Options changed."""
        name = self._setup_ui(frame["v"]).name
        return self.defaults.for_game(name) | frame.get("set", {}).get(name, {})

    def _option_text(self, ui, key, value=None):
        """A setting's label, or with `value` that value's ("opt.<prefix>.<key>[.<value>]")."""
        return t(f"opt.{ui.prefix}{key}" + ("" if value is None else f".{value}"), self.lang)

    def _config_names(self, n):
        names = list(self.defaults.players)[:n]
        ok = len(names) == n and len({x.lower() for x in names}) == n and all(x and " " not in x for x in names)
        return names if ok else None

    def _names(self, how, n):
        if how == "config" and self._config_names(n):
            return self._config_names(n)
        if how == "numbers" or n > len(t("setup.colour_names", self.lang).split()):
            return [t("setup.player_n", self.lang, n=i) for i in range(1, n + 1)]
        return t("setup.colour_names", self.lang).split()[:n]

    # ------------------------------------------------------------ the box file
    def _setup_ui(self, v):
        """The adapter of the game chosen in the setup's first list."""
        return adapter(v.get("game", PLAYABLE[0]))

    def _default_box(self, v=None):
        ui = self._setup_ui(v if v is not None else (self.stack[0]["v"] if self.stack and self.stack[0]["t"] == "setup" else {}))
        boxes = self.__dict__.setdefault("_boxes", {})
        if ui.name not in boxes:
            boxes[ui.name] = ui.load_box()
        return boxes[ui.name]

    def _box_verified(self):
        box = self._default_box()
        if box.verified:
            return True
        return self.journal is not None and self.journal.get_meta(self._box_key()) == box.path

    def _box_key(self):
        return self._setup_ui(self.stack[0]["v"] if self.stack and self.stack[0]["t"] == "setup" else {}).box_meta

    # --------------------------------------------------------- keys and screen
    def _key_setup(self, frame, key):
        step, _, _, items = self._setup_question(frame)
        if step == "options":
            self._key_options(frame, key, items)
            return
        if key == "back":
            if frame["v"]:
                frame["v"].pop(list(frame["v"])[-1])
                step, _, _, items = self._setup_question(frame)
                frame["sel"] = self._setup_default(step, items)
            elif self.session is not None and not self.session.over:
                self._resume_game()
            return
        if self._move(frame, key, len(items)):
            return
        if key != "ok" or not items:
            return
        value = items[frame["sel"] % len(items)][1]
        if value == "#lang":
            self.set_lang("en" if self.lang == "fr" else "fr")
            return
        if step == "start" and value == "resume":
            self._resume_game()
            return
        if step == "box" and value == "confirm" and self.journal is not None:
            self.journal.set_meta(self._box_key(), self._default_box().path)
        if step == "summary" and value == "#options":
            frame["options"], frame["sel"] = True, 0
            return
        if step == "summary":
            if value:
                self._create_game(frame)
            else:
                frame["v"].pop(list(frame["v"])[-1])
                step, _, _, items = self._setup_question(frame)
                frame["sel"] = self._setup_default(step, items)
            return
        frame["v"][step] = value
        step, _, _, items = self._setup_question(frame)
        frame["sel"] = self._setup_default(step, items)

    def _key_options(self, frame, key, items):
        """Options: OK on a setting steps it to its next value; Done or Back returns to the
        summary, on its Play button."""
        if key == "back" or (key == "ok" and items[frame["sel"] % len(items)][1] == "#done"):
            frame["options"], frame["sel"] = False, 0
            return
        if self._move(frame, key, len(items)) or key != "ok":
            return
        setting = items[frame["sel"] % len(items)][1]
        name = self._setup_ui(frame["v"]).name
        allowed = options(name)[setting]
        now = self._setup_settings(frame)[setting]
        chosen = frame.setdefault("set", {}).setdefault(name, {})
        chosen[setting] = allowed[(allowed.index(now) + 1 if now in allowed else 0) % len(allowed)]

    def _screen_setup(self, frame):
        step, title, lines, items = self._setup_question(frame)
        labels = tuple(label for label, _ in items)
        if step == "summary":
            return Screen("confirm", title, lines, labels, frame["sel"] % len(labels), self._footer("confirm"))
        return Screen("menu", title, lines, labels, frame["sel"] % max(1, len(labels)),
                      self._footer("setup" if frame["v"] or (self.session and not self.session.over) else "setup_first"))

    def _resume_game(self):
        self.stack = []
        self._sync(force=True)

    def _create_game(self, frame):
        v = frame["v"]
        header = self._setup_ui(v).header(v.get("format"), self._names(v["names"], v["count"]), self.seed_source(),
                                          self._setup_settings(frame), v.get("rounds", 0))
        try:
            self.session = Session.new(header, self.journal)
        except (CorbeilleError, OSError, ValueError) as error:
            self._error(str(error))
            return
        self.tags = {}
        self.news = ()
        self.stack = []
        self._sync(force=True)

    def start_setup(self):
        self.stack = [self._setup_frame()]
        frame = self.stack[0]
        step, _, _, items = self._setup_question(frame)
        frame["sel"] = self._setup_default(step, items)
        self.changed = True
