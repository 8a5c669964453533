"""The setup screen: new game or resume, the game (every playable registered game, and the
language), the game's format when its rulebook has several, players and their names,
rounds, the box file's check, then the summary that creates the game. The summary's third
button ("Régler") opens the Options: every setting the chosen game's engine declares
(engines/core/settings.py), proposed from the configuration: OK on one with a list of
values steps to the next value, on a number opens a number entry within its declared range
and by its step; a text (checked by the game against its players and box) is shown as the
configuration gives it. The summary opens on "Jouer", so one press keeps them all.

The previous game's setup (the game, its format, players, rounds and settings, kept in the
journal's meta `last_setup` when a game is created) is offered first in the game list
("Même table : Ana Ben Cid"): one press answers every step but the box file's check, and the
summary's "Jouer" starts it.

Where an RFID reader is fitted, the names step offers the players' cards ("Cartes des
joueurs", first; tapping a card there starts it too): each player taps theirs, the seat
picked with Up/Down (the next empty one after each card); a card the box knows gives its
name at once, an unknown one asks it (firmware/screens/cards.py); a card tapped again moves
its name to the seat picked, never twice at the table. Once every seat has a name the setup
goes on; the names are the answer, each card becomes its seat's for the private view.

Its saved state is the answers so far (`v`, by step), the selection, whether the Options
are open, the settings they changed (`set`, by game), a number being entered (`edit`,
`amt`, `si`) and the cards tapped so far (`cards`: [name, tag] or None per seat, `cs` the
seat the next card goes to).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from engines.core.i18n import format_amount
from engines.core.limits import player_names_ok
from engines.core.settings import entry
from engines.registry import spec
from firmware.games import PLAYABLE, adapter
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.cards import CardName
from firmware.texts import t

MAX_ROUNDS = 20                  # the most rounds the setup offers as a limit
LAST = "#last"                   # the game list's entry: the previous game's setup
LAST_META = "last_setup"         # the journal meta that keeps it
CARDS = "#cards"                 # the names step's entry: the players' RFID cards
SHORTCUT = "#shortcut"           # the summary's other way to play (the adapter's `summary_shortcut`)
UNDER_WAY = "#under_way"         # the Options' "Partie en cours": a game under way entered by corrections
BOX = "#box"                     # the Options' "Boîte": the box file the game reads (SetupDefaults.box_sources)
STEPS = ("start", "game", "format", "count", "names", "rounds", "box", "summary")


def options(name: str) -> dict:
    """Every setting `name`'s engine declares, with what is allowed (a tuple, a range or
    str): the setup's Options list them all, but one the setup asks in a step of its own
    (Maxi Bourse's rounds, see `offered`)."""
    return {key: entry(declaration)[1] for key, declaration in spec(name).settings.items()}


def number_steps(allowed: range) -> tuple[int, ...]:
    """The steps a number entry moves by: the declared step, then ten and a hundred times it
    while they fit in the range (a long Up/Down or a long OK changes the step)."""
    span = allowed[-1] - allowed[0]
    return tuple(s for s in (allowed.step, allowed.step * 10, allowed.step * 100) if s <= span) or (allowed.step,)


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
    edit: str = ""      # the number setting being entered in the Options, "" for none
    amt: int = 0        # its value so far
    si: int = 0         # the index of its step in number_steps
    cards: list | None = None   # the players' cards: [name, tag] or None per seat; None: not asked
    cs: int = 0         # the seat the next card goes to
    under_way: bool = False     # "Partie en cours": the game is entered as it stands (screens/position.py)
    boxes: dict = field(default_factory=dict)   # game -> the box file's source chosen in the Options

    # --------------------------------------------------------------- questions
    def question(self, ctl):
        """(step, title, lines, items[(label, value)]) for the setup's current step."""
        lang, v = ctl.lang, self.v
        if self.options:
            ui = setup_ui(v)
            chosen = self.settings(ctl)
            # "Dés : joueurs": the colon spaced as the language writes it (the catalog's)
            items = [(t("label_value", lang, label=option_text(lang, ui, key),
                        value=value_text(lang, ui, key, allowed, chosen.get(key, ''))), key)
                     for key, allowed in offered(ui).items()]
            items.append((t("label_value", lang, label=t("setup.under_way", lang),
                            value=t("yes" if self.under_way else "no", lang)), UNDER_WAY))
            items += box_items(self, ctl, ui)
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
                last = last_setup(ctl)
                if last:
                    items.insert(0, (t("setup.last", lang, players=" ".join(last["players"])), LAST))
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
                return _names_question(self, ctl, ui, v["count"])
            if step == "rounds":
                if not ui.rounds:
                    continue
                items = [(t("setup.no_limit", lang), 0)] + [(t("setup.rounds_n", lang, n=r), r)
                                                          for r in range(1, MAX_ROUNDS + 1)]
                return step, t("setup.title", lang), (t("setup.rounds", lang),), items
            if step == "box":
                if box_verified(ctl, self.v):
                    continue
                items = [(t("setup.box_continue", lang), "continue"), (t("setup.box_confirm", lang), "confirm")]
                return step, t("setup.box_title", lang), box_warnings(ctl, self.v), items
            if step == "summary":
                return _summary_question(self, ctl, ui)
        return None, "", (), []

    def select_default(self, ctl):
        """Select what the configuration proposes for the current step."""
        step, _, _, items = self.question(ctl)
        values = [value for _, value in items]
        d = ctl.defaults
        wanted = {"game": LAST if LAST in values else d.game, "format": d.format, "rounds": d.rounds,
                  "count": len(d.players) if 2 <= len(d.players) <= 6 else 3,
                  "names": CARDS if ctl.rfid_reader else "config"}.get(step)
        self.sel = values.index(wanted) if wanted in values else 0

    def settings(self, ctl):
        """The chosen game's settings: the configuration's, then what Options changed."""
        name = setup_ui(self.v).name
        return ctl.defaults.for_game(name) | self.set.get(name, {})

    def shortcut(self, ctl, ui):
        """The adapter's other way to play from the summary, in one press: (button, the
        footer saying what it does while it is selected, the settings it changes), or None
        (Maxi Bourse: the starting lots dealt)."""
        offer = getattr(ui, "summary_shortcut", None)
        return offer(self.settings(ctl), ctl.lang) if offer is not None else None

    # ------------------------------------------------------------ the cards
    def collecting(self, n) -> bool:
        """Whether the names step is the players' cards (for this many players)."""
        return self.cards is not None and len(self.cards) == n

    def seated(self) -> list[str]:
        """The names the cards gave so far, seat by seat."""
        return [card[0] for card in self.cards or [] if card]

    def proposed(self, ctl) -> list[str]:
        """The names proposed for a card the box does not know: the configuration's
        players, then the previous game's, once each, but those already at this table."""
        placed = {name.lower() for name in self.seated()}
        out = []
        for name in [*ctl.defaults.players, *(last_setup(ctl) or {}).get("players", [])]:
            if isinstance(name, str) and player_names_ok([name]) and name.lower() not in placed \
                    and name.lower() not in {x.lower() for x in out}:
                out.append(name)
        return out

    def card(self, ctl, tag):
        """A card tapped during the setup: at the names step (which it turns to the cards),
        its name goes to the seat picked; anywhere else it is not asked for (a buzz)."""
        step = self.question(ctl)[0]
        if step == "names" and ctl.rfid_reader:
            self.cards, self.cs, step = [None] * self.v["count"], 0, "cards"
        if step != "cards":
            ctl.beeps.append("error")
            return
        name = ctl.tag_book.names(ctl.journal).get(tag)
        if name is None:
            ctl.stack.append(CardName(tag=tag))
            return
        self.place(ctl, name, tag)

    def place(self, ctl, name, tag):
        """`name` (card `tag`) at the seat picked: a seat that had this card or this name
        loses it (the name moves, never twice at the table); the next empty seat is picked,
        and with every seat named the setup goes on."""
        self.cards = [None if card and (card[1] == tag or card[0].lower() == name.lower()) else card
                      for card in self.cards]
        self.cards[self.cs] = [name, tag]
        empty = [i for i, card in enumerate(self.cards) if card is None]
        if not empty:
            self.v["names"] = {"cards": [list(card) for card in self.cards]}
            self.select_default(ctl)
            return
        self.cs = next((i for i in empty if i > self.cs), empty[0])

    def _key_cards(self, ctl, key):
        """Up/Down pick the seat the next card goes to; OK goes on once every seat has a
        name; Back returns to the names list (the cards are forgotten)."""
        n = len(self.cards)
        if key == "back":
            self.cards = None
            self.select_default(ctl)
        elif key in ("up", "down"):
            self.cs = (self.cs + (1 if key == "down" else -1)) % n
        elif key == "ok":
            if all(self.cards):
                self.place(ctl, *self.cards[self.cs])
            else:
                ctl.beeps.append("error")

    # --------------------------------------------------------- keys and screen
    def _back_one(self, ctl):
        self.v.pop(list(self.v)[-1])
        self.select_default(ctl)

    def key(self, ctl, key):
        step, _, _, items = self.question(ctl)
        if step == "options":
            self._key_options(ctl, key, items)
            return
        if step == "cards":
            self._key_cards(ctl, key)
            return
        if key == "back":
            if self.v:
                self._back_one(ctl)
            elif ctl.session is not None and not ctl.session.over:
                ctl.setup.resume_game()
            return
        if self.move(key, len(items)) or key != "ok" or not items:
            return
        value = items[self.sel % len(items)][1]
        if value == "#lang":
            ctl.set_lang("en" if ctl.lang == "fr" else "fr")
            return
        if step == "start" and value == "resume":
            ctl.setup.resume_game()
            return
        if step == "box" and value == "confirm" and ctl.journal is not None:
            ctl.journal.set_meta(setup_ui(self.v).box_meta, ctl.setup.default_box(self.v).path)
        if step == "summary" and value == "#options":
            self.options, self.sel = True, 0
            return
        if step == "game" and value == LAST:
            self._take_last(ctl)
            return
        if step == "names" and value == CARDS:
            self.cards, self.cs = [None] * self.v["count"], 0
            return
        if step == "summary":
            if value == SHORTCUT:
                self.set.setdefault(setup_ui(self.v).name, {}).update(self.shortcut(ctl, setup_ui(self.v))[2])
            if value:
                _create_game(self, ctl)
            else:
                self._back_one(ctl)
            return
        self.v[step] = value
        self.select_default(ctl)

    def _take_last(self, ctl):
        """The previous game's setup answers every step but the box file's check."""
        last = last_setup(ctl)
        ui = adapter(last["game"])
        v = {k: x for k, x in self.v.items() if k == "start"} | {"game": last["game"]}
        if ui.choices(ctl.lang):
            v["format"] = last["format"]
        v |= {"count": len(last["players"]), "names": LAST}
        if ui.rounds:
            v["rounds"] = last["rounds"]
        self.v = v
        allowed = options(ui.name)
        self.set[ui.name] = {k: x for k, x in last["settings"].items() if k in allowed}
        self.select_default(ctl)

    def _key_options(self, ctl, key, items):
        """Options: OK on a setting with a list of values steps it to its next value, on a
        number opens its entry; Done or Back returns to the summary, on its Play button."""
        if self.edit:
            self._key_number(ctl, key)
            return
        if key == "back" or (key == "ok" and items[self.sel % len(items)][1] == "#done"):
            self.options, self.sel = False, 0
            return
        if self.move(key, len(items)) or key != "ok":
            return
        setting = items[self.sel % len(items)][1]
        if setting == UNDER_WAY:
            self.under_way = not self.under_way
            return
        name = setup_ui(self.v).name
        if setting == BOX:
            self.boxes[name] = next_box(ctl, name, self.boxes.get(name))
            return
        allowed = options(name)[setting]
        now = self.settings(ctl).get(setting, "")
        if isinstance(allowed, range):
            steps = number_steps(allowed)
            self.edit, self.amt = setting, now
            self.si = max([i for i, s in enumerate(steps) if 2 * s <= max(now, 1)] or [0])
        elif isinstance(allowed, tuple):
            chosen = self.set.setdefault(name, {})
            chosen[setting] = allowed[(allowed.index(now) + 1 if now in allowed else 0) % len(allowed)]
        # a text: what the configuration gives (the game checks it against its players and box)

    def _key_number(self, ctl, key):
        """A number entry: Up/Down by the step within the declared range, a long Up/Down or
        a long OK changes the step, OK keeps the value, Back leaves it as it was."""
        name = setup_ui(self.v).name
        allowed = options(name)[self.edit]
        steps = number_steps(allowed)
        step = steps[min(self.si, len(steps) - 1)]
        if key in ("up", "down"):
            value = self.amt + (step if key == "up" else -step)
            value = min(max(value, allowed[0]), allowed[-1])
            self.amt = allowed[0] + (value - allowed[0]) // allowed.step * allowed.step
        elif key == "long_up":
            self.si = min(self.si + 1, len(steps) - 1)
        elif key == "long_down":
            self.si = max(self.si - 1, 0)
        elif key == "long_ok":
            self.si = (self.si + 1) % len(steps)
        elif key == "ok":
            self.set.setdefault(name, {})[self.edit] = self.amt
            self.edit = ""
        elif key == "back":
            self.edit = ""

    def draw(self, ctl):
        if self.options and self.edit:
            return _number_screen(ctl, self.v, self.edit, self.si, self.amt)
        step, title, lines, items = self.question(ctl)
        labels = tuple(label for label, _ in items)
        if step == "summary":
            chosen = items[self.sel % len(items)][1]
            footer = self.shortcut(ctl, setup_ui(self.v))[1] if chosen == SHORTCUT else ctl.kit.footer("confirm")
            return Screen("confirm", title, lines, labels, self.sel % len(labels), footer)
        if step == "cards":
            return Screen("menu", title, lines, labels, self.cs % len(labels), ctl.kit.footer("cards"))
        first = not self.v and not (ctl.session and not ctl.session.over)
        return Screen("menu", title, lines, labels, self.sel % max(1, len(labels)),
                      ctl.kit.footer("setup_first" if first else "setup"))


def config_names(ctl, n):
    """The configuration's player names when there are exactly `n` usable ones, else None."""
    names = list(ctl.defaults.players)[:n]
    ok = len(names) == n and len({x.lower() for x in names}) == n and all(x and " " not in x for x in names)
    return names if ok else None


def last_setup(ctl) -> dict | None:
    """The previous game's setup from the journal's meta, when its game can still be played
    here; None before any game (or for a journal without it)."""
    if ctl.journal is None:
        return None
    raw = ctl.journal.get_meta(LAST_META)
    try:
        last = json.loads(raw) if raw else None
    except ValueError:
        return None
    if not isinstance(last, dict) or last.get("game") not in PLAYABLE or not last.get("players"):
        return None
    return last


def player_names(ctl, how, n):
    """The players' names as the setup's "names" answer says: the previous game's, the
    configuration's, colours or numbers."""
    if isinstance(how, dict):                   # the players' cards, seat by seat
        return [card[0] for card in how["cards"]]
    last = last_setup(ctl) if how == LAST else None
    if last and len(last["players"]) == n:
        return list(last["players"])
    if how == "config" and config_names(ctl, n):
        return config_names(ctl, n)
    if how == "numbers" or n > len(t("setup.colour_names", ctl.lang).split()):
        return [t("setup.player_n", ctl.lang, n=i) for i in range(1, n + 1)]
    return t("setup.colour_names", ctl.lang).split()[:n]


def _names_question(setup, ctl, ui, n: int):
    """The setup's names step: the players' cards being collected, or how to name them."""
    lang = ctl.lang
    if setup.collecting(n):
        items = [(f"{i + 1}. {card[0] if card else '…'}", i) for i, card in enumerate(setup.cards)]
        return "cards", t("setup.cards_title", lang, k=len(setup.seated()), n=n), (t("setup.cards_line", lang),), items
    items = [(t("setup.numbers", lang), "numbers")]
    # colours, but for a game whose companies are the colours
    if n <= len(t("setup.colour_names", lang).split()) and getattr(ui, "colour_names", True):
        items.insert(0, (t("setup.colours", lang), "colours"))
    if config_names(ctl, n):
        items.insert(0, (" ".join(config_names(ctl, n)), "config"))
    if ctl.rfid_reader:
        items.insert(0, (t("setup.cards", lang), CARDS))
    return "names", t("setup.n_players", lang, n=n), (t("setup.names", lang),), items


def _summary_question(setup, ctl, ui):
    """The setup's last step: what will be played, Go, and the way back or its shortcut."""
    lang, v = ctl.lang, setup.v
    names = player_names(ctl, v["names"], v["count"])
    rounds = v.get("rounds", 0)
    if ui.rounds:
        lines = (t("setup.summary", lang, format=ui.label(v.get("format"), lang), n=v["count"],
                   rounds=t("setup.no_limit", lang) if not rounds else t("setup.rounds_n", lang, n=rounds)),
                 " ".join(names))
    else:
        lines = (t("setup.summary_short", lang, format=ui.label(v.get("format"), lang), n=v["count"]),
                 " ".join(names))
    items = [(t("setup.go", lang), True), (t("setup.back", lang), False)]   # back one step, as Back
    shortcut = setup.shortcut(ctl, ui)
    if shortcut is not None:         # in place of "Retour": Back does the same
        items[1] = (shortcut[0], SHORTCUT)
    if offered(ui):
        items.append((t("setup.options", lang), "#options"))
    return "summary", t("setup.title", lang), lines, items


def offered(ui) -> dict:
    """The settings the Options list: every declared one, but rounds when the setup asks
    them in their own step (the adapter's `rounds`: that answer is the one recorded)."""
    return {key: allowed for key, allowed in options(ui.name).items() if not (key == "rounds" and ui.rounds)}


def option_text(lang, ui, key, value=None):
    """A setting's label, or with `value` that value's ("opt.<prefix>.<key>[.<value>]")."""
    return t(f"opt.{ui.prefix}{key}" + ("" if value is None else f".{value}"), lang)


def value_text(lang, ui, key, allowed, value):
    """A value as the Options show it: a listed value's label, a number, a text as
    written ("" being the game's own choice)."""
    if isinstance(allowed, tuple):
        return option_text(lang, ui, key, value)
    if isinstance(allowed, range):
        return format_amount(value, lang)
    return value or t("setup.option_default", lang)


def box_choice(ctl, name, chosen=None) -> tuple:
    """(source, path) of the box file a new game of `name` reads: the source chosen in the
    Options, else the default (the newest learned file, SetupDefaults.box_sources)."""
    sources = ctl.defaults.box_sources(name)
    return next((source for source in sources if source[0] == chosen), sources[0])


def next_box(ctl, name, chosen) -> str:
    """The source after the one chosen, as OK steps the Options' "Boîte" entry."""
    sources = [source for source, _ in ctl.defaults.box_sources(name)]
    return sources[(sources.index(box_choice(ctl, name, chosen)[0]) + 1) % len(sources)]


def box_items(setup, ctl, ui) -> list:
    """The Options' "Boîte : apprise (partie 3)" entry, when there is a box file to choose."""
    lang = ctl.lang
    if len(ctl.defaults.box_sources(ui.name)) < 2:
        return []
    source, path = box_choice(ctl, ui.name, setup.boxes.get(ui.name))
    value = t(f"setup.box_source.{source}", lang, n=path.stem.rpartition("-")[2] if path is not None else "")
    return [(t("label_value", lang, label=t("setup.box_source", lang), value=value), BOX)]


def box_warnings(ctl, v):
    """What of the chosen game's box file its owner has not checked, a line each: the
    adapter's `box_unverified` when it has more to say than the nominal prices (a board
    whose order is reconstructed), else the one line when the file is unverified."""
    box, ui = ctl.setup.default_box(v), setup_ui(v)
    say = getattr(ui, "box_unverified", None)
    if say is not None:
        return tuple(say(box, ctl.lang))
    return () if box.verified else (t("setup.box_unverified", ctl.lang),)


def box_verified(ctl, v):
    if not box_warnings(ctl, v):
        return True
    box = ctl.setup.default_box(v)
    return ctl.journal is not None and ctl.journal.get_meta(setup_ui(v).box_meta) == box.path


def _number_screen(ctl, v, key, step_index, amount):
    """The number entry of a setting: its label, the game, what is allowed, the step."""
    ui, lang = setup_ui(v), ctl.lang
    allowed = options(ui.name)[key]
    steps = number_steps(allowed)
    step = steps[min(step_index, len(steps) - 1)]
    lines = (ui.title(lang),
             t("setup.option_range", lang, lo=format_amount(allowed[0], lang), hi=format_amount(allowed[-1], lang)),
             t("amount_step", lang, step=format_amount(step, lang)))
    return Screen("amount", option_text(lang, ui, key), lines, (format_amount(amount, lang),), 0, ctl.kit.footer("amount"))


def _create_game(setup, ctl) -> None:
    """Go: the game the setup describes created, its players' cards at their seats, and the
    setup kept for the next one."""
    v = setup.v
    names = player_names(ctl, v["names"], v["count"])
    settings = setup.settings(ctl)
    header = setup_ui(v).header(v.get("format"), names, ctl.seed_source(), settings, v.get("rounds", 0))
    owner = box_choice(ctl, setup_ui(v).name, setup.boxes.get(setup_ui(v).name))[1]   # None: the shipped one
    if owner is not None:
        header["box"] = str(owner)
    before = ctl.session
    ctl.position = setup.under_way
    ctl.setup.create_game(header)
    ctl.position = setup.under_way and ctl.session is not before
    if ctl.session is not before and isinstance(v["names"], dict):   # each card is its seat's
        ctl.tag_book.seats = {tag: seat for seat, (_, tag) in enumerate(v["names"]["cards"])}
        ctl.tag_book.save(ctl.journal, ctl.session.game_id)
    if ctl.session is not before and ctl.journal is not None:  # created: kept for the next setup
        ctl.journal.set_meta(LAST_META, json.dumps({
            "game": v["game"], "format": v.get("format"), "players": names,
            "rounds": v.get("rounds", 0), "settings": settings}))
