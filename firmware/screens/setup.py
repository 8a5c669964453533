"""The setup screen: new game or resume, the game (every playable registered game, and the
language), the game's format when its rulebook has several, players and their names,
rounds, the box file's check, then the summary that creates the game. The summary's third
button ("Régler") opens the Options: the chosen game's own settings (each one its engine
declares with a list of values), proposed from the configuration; the summary opens on
"Jouer", so one press keeps them all.

Its saved state is the answers so far (`v`, by step), the selection, whether the Options
are open and the settings they changed (`set`, by game).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engines.core.settings import entry
from engines.registry import spec
from firmware.games import PLAYABLE, adapter
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.texts import t

MAX_ROUNDS = 20                  # the most rounds the setup offers as a limit
STEPS = ("start", "game", "format", "count", "names", "rounds", "box", "summary")


def options(name: str) -> dict:
    """The settings of `name` the setup offers under "Options": those declared with a list of
    values (a number or a text has no list to step through; the configuration sets it)."""
    declared = {key: entry(declaration)[1] for key, declaration in spec(name).engine_class().SETTINGS.items()}
    return {key: allowed for key, allowed in declared.items() if isinstance(allowed, tuple)}


def setup_ui(v):
    """The adapter of the game chosen in the setup's first list."""
    return adapter(v.get("game", PLAYABLE[0]))


@frame_type("setup")
@dataclass
class Setup(Frame):
    v: dict = field(default_factory=dict)
    sel: int = 0
    options: bool = False
    set: dict = field(default_factory=dict)

    # --------------------------------------------------------------- questions
    def question(self, ctl):
        """(step, title, lines, items[(label, value)]) for the setup's current step."""
        lang, v = ctl.lang, self.v
        if self.options:
            ui = setup_ui(v)
            chosen = self.settings(ctl)
            items = [(f"{self._option_text(ctl, ui, key)}: {self._option_text(ctl, ui, key, chosen[key])}", key)
                     for key in options(ui.name)]
            items.append((t("setup.options_done", lang), "#done"))
            return "options", t("setup.options_title", lang), (ui.title(lang),), items
        resumable = ctl.session is not None and not ctl.session.over
        for step in STEPS:
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
            ui = setup_ui(v)
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
                if config_names(ctl, n):
                    items.insert(0, (" ".join(config_names(ctl, n)), "config"))
                return step, t("setup.n_players", lang, n=n), (t("setup.names", lang),), items
            if step == "rounds":
                if not ui.rounds:
                    continue
                items = [(t("setup.no_limit", lang), 0)] + [(t("setup.rounds_n", lang, n=r), r)
                                                          for r in range(1, MAX_ROUNDS + 1)]
                return step, t("setup.title", lang), (t("setup.rounds", lang),), items
            if step == "box":
                if self.box_verified(ctl):
                    continue
                items = [(t("setup.box_continue", lang), "continue"), (t("setup.box_confirm", lang), "confirm")]
                return step, t("setup.box_title", lang), (t("setup.box_unverified", lang),), items
            if step == "summary":
                names = player_names(ctl, v["names"], v["count"])
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

    def select_default(self, ctl):
        """Select what the configuration proposes for the current step."""
        step, _, _, items = self.question(ctl)
        values = [value for _, value in items]
        d = ctl.defaults
        wanted = {"game": d.game, "format": d.format, "rounds": d.rounds,
                  "count": len(d.players) if 2 <= len(d.players) <= 6 else 3,
                  "names": "config"}.get(step)
        self.sel = values.index(wanted) if wanted in values else 0

    def settings(self, ctl):
        """The chosen game's settings: the configuration's, then what Options changed."""
        name = setup_ui(self.v).name
        return ctl.defaults.for_game(name) | self.set.get(name, {})

    def _option_text(self, ctl, ui, key, value=None):
        """A setting's label, or with `value` that value's ("opt.<prefix>.<key>[.<value>]")."""
        return t(f"opt.{ui.prefix}{key}" + ("" if value is None else f".{value}"), ctl.lang)

    # ------------------------------------------------------------ the box file
    def box_verified(self, ctl):
        box = ctl._default_box(self.v)
        if box.verified:
            return True
        return ctl.journal is not None and ctl.journal.get_meta(setup_ui(self.v).box_meta) == box.path

    # --------------------------------------------------------- keys and screen
    def _back_one(self, ctl):
        self.v.pop(list(self.v)[-1])
        self.select_default(ctl)

    def key(self, ctl, key):
        step, _, _, items = self.question(ctl)
        if step == "options":
            self._key_options(ctl, key, items)
            return
        if key == "back":
            if self.v:
                self._back_one(ctl)
            elif ctl.session is not None and not ctl.session.over:
                ctl._resume_game()
            return
        if self.move(key, len(items)) or key != "ok" or not items:
            return
        value = items[self.sel % len(items)][1]
        if value == "#lang":
            ctl.set_lang("en" if ctl.lang == "fr" else "fr")
            return
        if step == "start" and value == "resume":
            ctl._resume_game()
            return
        if step == "box" and value == "confirm" and ctl.journal is not None:
            ctl.journal.set_meta(setup_ui(self.v).box_meta, ctl._default_box(self.v).path)
        if step == "summary" and value == "#options":
            self.options, self.sel = True, 0
            return
        if step == "summary":
            if value:
                v = self.v
                header = setup_ui(v).header(v.get("format"), player_names(ctl, v["names"], v["count"]),
                                            ctl.seed_source(), self.settings(ctl), v.get("rounds", 0))
                ctl._create_game(header)
            else:
                self._back_one(ctl)
            return
        self.v[step] = value
        self.select_default(ctl)

    def _key_options(self, ctl, key, items):
        """Options: OK on a setting steps it to its next value; Done or Back returns to the
        summary, on its Play button."""
        if key == "back" or (key == "ok" and items[self.sel % len(items)][1] == "#done"):
            self.options, self.sel = False, 0
            return
        if self.move(key, len(items)) or key != "ok":
            return
        setting = items[self.sel % len(items)][1]
        name = setup_ui(self.v).name
        allowed = options(name)[setting]
        now = self.settings(ctl)[setting]
        chosen = self.set.setdefault(name, {})
        chosen[setting] = allowed[(allowed.index(now) + 1 if now in allowed else 0) % len(allowed)]

    def draw(self, ctl):
        step, title, lines, items = self.question(ctl)
        labels = tuple(label for label, _ in items)
        if step == "summary":
            return Screen("confirm", title, lines, labels, self.sel % len(labels), ctl._footer("confirm"))
        first = not self.v and not (ctl.session and not ctl.session.over)
        return Screen("menu", title, lines, labels, self.sel % max(1, len(labels)),
                      ctl._footer("setup_first" if first else "setup"))


def config_names(ctl, n):
    """The configuration's player names when there are exactly `n` usable ones, else None."""
    names = list(ctl.defaults.players)[:n]
    ok = len(names) == n and len({x.lower() for x in names}) == n and all(x and " " not in x for x in names)
    return names if ok else None


def player_names(ctl, how, n):
    """The players' names as the setup's "names" answer says: the configuration's, colours or numbers."""
    if how == "config" and config_names(ctl, n):
        return config_names(ctl, n)
    if how == "numbers" or n > len(t("setup.colour_names", ctl.lang).split()):
        return [t("setup.player_n", ctl.lang, n=i) for i in range(1, n + 1)]
    return t("setup.colour_names", ctl.lang).split()[:n]
