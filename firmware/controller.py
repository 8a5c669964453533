"""The operator's side of the box: a state machine from input events to actions and screens.

    (pending decision, UI state, input event) -> action applied | UI state changed

`Controller.handle(event)` takes one `InputEvent` (operator keys, seat buttons, RFID tags,
and clock ticks `InputEvent("clock", "tick", t)`); `screen()` returns the `Screen` to
draw; `lit()` the seats to light; `take_beeps()` the buzzer patterns to play. The
controller never reads a clock: time is the `t` of the events it is given, so tests
drive every timer (speaking windows, auction clock, private view) by sending ticks.

UI state is a stack of small JSON-able frames (`self.stack`); the bottom one is the
*root*, rebuilt from the engine's decision whenever the game changes. `ui_state()` /
`restore()` save and reload it (the app stores it in the journal's meta table), so
after a restart the box comes back on the same screen.

Actions go through `Session.apply` (engine, then journal commit) before anything is
shown. See docs/firmware.md for the screens and keys.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field

from engines.core.errors import CorbeilleError, IllegalAction
from engines.core.i18n import format_amount, text
from firmware.games import PLAYABLE, ADAPTERS, adapter, adapter_of
from firmware.menus import (ANYTIME, CHANCE, CONFIRM, CORRECTIONS, MENU, Ctx, Question, chance_lines,
                            confirm_question, describe, kind_label, player_name, resolve)
from firmware.screen import Screen
from firmware.session import Session
from firmware.texts import lots_label, money, t

log = logging.getLogger("corbeille")

KEYS = ("up", "down", "ok", "back")
TRANSIENT = ("private", "error", "message")   # frames not saved for a resume
MAX_ROUNDS = 20


@dataclass(frozen=True)
class Timing:
    speaking_window_s: float = 10.0   # a seat's time to answer before it passes
    press_gap_s: float = 0.6          # presses further apart than this end a count
    auction_step_s: float = 2.0       # the auction clock's pace
    auction_lead_s: float = 2.0       # time to grab the buttons before the first step
    private_view_s: float = 5.0
    silence_s: float = 3.0            # an open auction: this long without a bid sells the item

    @classmethod
    def from_config(cls, timing) -> "Timing":
        return cls(speaking_window_s=timing.speaking_window_s, auction_step_s=timing.auction_step_s,
                   auction_lead_s=timing.auction_step_s, private_view_s=timing.private_view_s,
                   press_gap_s=min(0.6, timing.long_press_s * 0.75), silence_s=timing.silence_s)


@dataclass(frozen=True)
class SetupDefaults:
    """What the setup screens propose (from the configuration's [game] table)."""
    game: str = "maxibourse"
    format: str = "junior"
    players: tuple = ()
    dice: str = "physical"
    payday: str = "each_round"
    vertical_bonus: str = "per_group"
    rounds: int = 0

    @classmethod
    def from_config(cls, game) -> "SetupDefaults":
        return cls(game=game.game, format=game.format, players=tuple(game.players), dice=game.dice,
                   payday=game.payday, vertical_bonus=game.vertical_bonus, rounds=game.rounds)


class Controller:
    def __init__(self, journal=None, *, lang: str = "fr", timing: Timing | None = None,
                 seat_buttons=(), defaults: SetupDefaults | None = None, report=None,
                 seed_source=None):
        self.journal = journal
        self.lang = lang
        self.timing = timing or Timing()
        self.seat_buttons = frozenset(seat_buttons)   # engine seats (0-based) with a button
        self.defaults = defaults or SetupDefaults()
        self.report = report                         # report(session) at the end of a game
        self.seed_source = seed_source or (lambda: int.from_bytes(os.urandom(4), "big"))
        self.session: Session | None = None
        self.stack: list[dict] = []
        self.now = 0.0
        self.status = ""                             # degraded parts, set by the app
        self.beeps: list[str] = []
        self.held: set[int] = set()                  # seats whose button is down
        self.speak: dict | None = None               # seat-button speaking round state
        self.clock: dict | None = None               # auction clock state
        self.news: tuple = ()                        # what the last action did
        self.tags: dict[str, int] = {}               # RFID tag -> seat
        self.reported: set = set()
        self._seen = None
        self.changed = True                          # something to draw or save

    # ====================================================================== boot
    def boot(self, now: float = 0.0, messages=()) -> None:
        """Resume the journal's last game on its saved screen, or start the setup."""
        self.now = now
        saved = None
        if self.journal is not None:
            lang = self.journal.get_meta("lang")
            if lang in ("fr", "en") and not getattr(self, "lang_forced", False):
                self.lang = lang
            raw = self.journal.get_meta("ui")
            try:
                saved = json.loads(raw) if raw else None
            except ValueError:
                saved = None
            game_id = self.journal.last_game()
            if game_id is not None and self.journal.header(game_id).get("game", "maxibourse") not in PLAYABLE:
                log.warning("game %s is a %s game: the box plays %s; starting the setup", game_id,
                            self.journal.header(game_id).get("game"), ", ".join(PLAYABLE))
                game_id = None
            if game_id is not None:
                self.session = Session.resume(self.journal, game_id)
                messages = list(messages) + self.session.messages
                self._load_tags()
        if self.session is None:
            self.start_setup()
            if saved and saved.get("game") is None:
                self.restore(saved)
        else:
            self._sync(force=True)
            if saved:
                self.restore(saved)
        if self.session is not None and self.session.over:
            self._game_over()
        if messages:
            # The details (file names, row numbers) go to the log; the table gets one line.
            for message in messages:
                log.warning("%s", message)
            self.stack.append({"t": "message", "title": t("title.repaired", self.lang),
                               "lines": [t("repaired.line", self.lang, n=len(messages))], "sel": 0})
        self.changed = True

    def attach(self, session: Session) -> None:
        """Play `session` (tests, benchmarks): its root screen becomes current."""
        self.session = session
        self.stack = []
        self._seen = None
        self._sync(force=True)

    # ================================================================== events
    def handle(self, event) -> None:
        """One input event (or clock tick): the only way in."""
        self.now = max(self.now, getattr(event, "t", self.now) or self.now)
        name, kind = event.name, event.kind
        try:
            if name == "clock" or kind == "tick":
                self._tick(self.now)
            elif name in KEYS:
                if kind == "press":
                    self._key(name)
                elif kind == "long_press":
                    self._key("long_" + name)
            elif name.startswith("seat") and name[4:].isdigit():
                self._seat(int(name[4:]) - 1, kind)
            elif name == "rfid" and kind == "tag":
                self._tag(event.data)
            elif name == "console" and kind == "line":
                self.console(event.data)
        finally:
            self._sync()

    def recover(self) -> None:
        """After an unexpected error in the UI: back to the root screen, saying so."""
        self.speak = self.clock = None
        if self.session is not None and not (self.stack and self.stack[0]["t"] == "setup"):
            self.stack = []
            self._sync(force=True)
        else:
            self.start_setup()
        self._error(t("error.internal", self.lang))

    def take_beeps(self) -> list[str]:
        beeps, self.beeps = self.beeps, []
        return beeps

    # ---------------------------------------------------------------- keys
    def _key(self, key: str) -> None:
        self.changed = True
        top = self.stack[-1] if self.stack else None
        if top is None:
            return
        if top["t"] in ("private",):
            self._pop()
            return
        if key == "long_back" and self.session is not None and top["t"] not in ("setup",):
            self._offer_undo()
            return
        if key == "long_ok" and top["t"] == "entry" and self._amount_step_key(top):
            return
        if key == "long_ok" and self.session is not None and top["t"] not in ("setup", "menu", "corr"):
            self.stack.append({"t": "menu", "sel": 0})
            self._pause_seats()
            return
        handler = getattr(self, "_key_" + top["t"], None)
        if handler is not None:
            handler(top, key)

    def _pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        if len(self.stack) == 1 and self.speak is not None and not self.speak.get("manual"):
            self.speak["deadline"] = self.now + self.timing.speaking_window_s
            self.speak["count"] = 0

    def _pause_seats(self) -> None:
        """The operator took over: seat timers stop for this decision."""
        if self.speak is not None:
            self.speak["manual"] = True
        if self.clock is not None:
            self.clock["manual"] = True

    # ------------------------------------------------------------ sync / root
    @property
    def ctx(self) -> Ctx:
        return Ctx(self.session, self.lang, self.defaults.dice == "device" or self._header_dice() == "device")

    def _header_dice(self):
        if self.session is None:
            return None
        return self.session.game.header.get("settings", {}).get("dice")

    def _sync(self, force: bool = False) -> None:
        """After every event: if the game changed, go back to the root of the new decision."""
        if self.session is None or (self.stack and self.stack[0]["t"] == "setup"):
            return
        clock = self.clock
        if clock is not None and clock.get("open"):
            # While the operator answers (or a private view is up), the silence waits; back
            # on the auction screen, it starts again.
            if len(self.stack) != 1:
                clock["held"] = True
            elif clock.pop("held", False):
                clock["until"] = self.now + self.timing.silence_s
        version = (self.session.game_id, self.session.version)
        if version == self._seen and not force:
            return
        self._seen = version
        self.changed = True
        root = self._root()
        keep = [f for f in self.stack[1:] if f["t"] in ("error", "message")]
        self.stack = [root] + keep
        self._arm_seats(root)
        if self.session.over:
            self._game_over()

    def _root(self) -> dict:
        d = self.session.decision()
        if self.session.over:
            return {"t": "over", "sel": 0}
        main = [o.kind for o in d.options if o.kind not in ANYTIME]
        if "sold" in main or "deal" in main:
            # An open auction (anyone raises at any time, silence sells): bids on the seat buttons.
            return {"t": "open_auction"}
        if len(main) == 1 and ((main[0] in CHANCE and self.ctx.device_dice) or main == ["pay"]):
            # The device draws (dice, event tile), or a payment: one confirmation with the
            # outcome shown, a line per company or player (scrolls on a small screen).
            return {"t": "chance", "kind": main[0], "sel": 0}
        if "declare" in main:
            if d.actor in self.seat_buttons:
                return {"t": "speak"}
            # No seat button for this player: the operator answers, straight from the list.
            frame = {"t": "entry", "kind": "declare", "v": {}, "root": True}
            self._reset_entry(frame)
            return frame
        if "raise" in main or "bid" in main:
            return {"t": "auction"}
        if main == ["settle"]:
            return {"t": "settle", "sel": 0}
        if main == ["payday"] and d.prompt == "prompt.payday":
            return {"t": "payday", "sel": 0}
        if main == ["first"] and self.ctx.device_dice:
            return {"t": "first_dice", "sel": 0}
        if len(main) == 1:
            frame = {"t": "entry", "kind": main[0], "v": {}, "root": True}
            self._reset_entry(frame)
            return frame
        return {"t": "root", "sel": self._default_kind(main)}

    def _default_kind(self, kinds) -> int:
        """In the square menu, once something happened this turn, "end of turn" comes first."""
        last = self.session.last_action
        if "end" in kinds and ("titre" not in kinds or (last is not None and last.kind not in ("roll", "pass", "settle", "double"))):
            return self._main_kinds().index("end")
        return 0

    def _main_kinds(self) -> list[str]:
        d = self.session.decision()
        kinds = [o.kind for o in d.options if o.kind not in ANYTIME]
        return kinds

    def _arm_seats(self, root) -> None:
        """Start the seat-button timers a new decision needs (speaking window, auction clock)."""
        d = self.session.decision()
        if root["t"] == "speak" and d.actor in self.seat_buttons:
            option = d.option("declare")
            most = max(option.fields["lots"].values)
            self.speak = {"seat": d.actor, "count": 0, "max": most, "gap": None,
                          "deadline": self.now + self.timing.speaking_window_s, "manual": False}
        else:
            self.speak = None
        if root["t"] == "open_auction":
            self.clock = {"open": True, "until": self.now + self.timing.silence_s}
            return
        if root["t"] == "auction":
            company = d.params.get("company")
            pending = set(d.option("bid").fields["player"].values) if d.option("bid") else set()
            everyone = {s for s, _ in self._bidders()} or pending
            if everyone and everyone <= self.seat_buttons:
                if self.clock is None or self.clock.get("company") != company:
                    self.clock = {"company": company, "next": self.now + self.timing.auction_lead_s,
                                  "gaps": {}, "manual": False}
                    self.beeps.append("confirm")
            else:
                self.clock = None
        else:
            self.clock = None

    def _bidders(self):
        """[(seat, lots)] still in the auction, read from the engine's auction for display."""
        top = getattr(self.session.game, "top", None)
        auction = getattr(top, "auction", None)
        return list(getattr(auction, "bidders", []) or [])

    def _game_over(self) -> None:
        if self.session.game_id in self.reported:
            return
        self.reported.add(self.session.game_id)
        if self.report is not None:
            try:
                path = self.report(self.session)
            except (OSError, CorbeilleError, ValueError) as error:
                path = None
                self._error(t("report_failed", self.lang, error=str(error)))
            if path is not None:
                self.report_path = str(path)

    # ================================================================== applying
    def apply(self, act) -> bool:
        """Apply an action through the session (engine, then journal). False if refused."""
        try:
            events = self.session.apply(act)
        except IllegalAction as error:
            self._error(error.message(self.lang))
            return False
        except (CorbeilleError, OSError, ValueError) as error:
            self._error(str(error))
            return False
        self.news = tuple(self._news(act, events))
        self.changed = True
        return True

    def _error(self, message: str) -> None:
        self.beeps.append("error")
        self.stack.append({"t": "error", "msg": message})
        self.changed = True

    @property
    def ui(self):
        """The adapter of the game being played (firmware/games)."""
        return adapter_of(self.session)

    def _news(self, act, events):
        """The line shown above the next menu: the most telling thing the action did."""
        return self.ui.news(self.ctx, act, events, describe)

    # ============================================================ root screens
    def _key_root(self, frame, key):
        kinds = self._main_kinds() + [MENU]
        if self._move(frame, key, len(kinds)):
            return
        if key == "ok":
            kind = kinds[frame["sel"]]
            if kind == MENU:
                self.stack.append({"t": "menu", "sel": 0})
                return
            self._start_entry(kind)

    def _start_entry(self, kind, root=False, menu=False):
        frame = {"t": "entry", "kind": kind, "v": {}, "root": root, "menu": menu}
        self._reset_entry(frame)
        self.stack.append(frame)
        self._advance(frame)

    def _move(self, frame, key, count) -> bool:
        """Up/Down move the selection (wrapping); True if the key was a move."""
        if key in ("up", "down") and count:
            step = -1 if key == "up" else 1
            frame["sel"] = (frame.get("sel", 0) + step) % count
            return True
        return False

    # ------------------------------------------------------------ entries
    def _question(self, frame):
        """The entry's current Question (None when the action is complete and applied)."""
        d = self.session.decision()
        option = d.option(frame["kind"])
        if option is None:
            return None
        values = frame["v"]
        filled, question = resolve(self.ctx, frame["kind"], option, values)
        if question is None:
            act = self.session.actions.classes[frame["kind"]](**filled)
            if frame["kind"] in CONFIRM and "#ok" not in values:
                return confirm_question(self.ctx, act)
            return ("apply", act)
        if question.kind == "list" and self._menu_item(frame):
            question.items = tuple(question.items) + ((t("menu_item", self.lang), MENU),)
        return question

    def _menu_item(self, frame) -> bool:
        return (frame.get("root") or frame.get("menu")) and not frame["v"]

    def _reset_entry(self, frame):
        question = self._question(frame) if self.session is not None else None
        frame["sel"] = question.selected if isinstance(question, Question) else 0
        frame["amt"] = question.start if isinstance(question, Question) and question.kind == "amount" else None
        frame["si"] = question.step if isinstance(question, Question) and question.kind == "amount" else 0

    def _advance(self, frame) -> None:
        """Apply the entry's action once every field is known."""
        question = self._question(frame)
        if isinstance(question, tuple):
            act = question[1]
            if not self.apply(act):
                self._back_entry(frame)

    def _set(self, frame, key, value):
        frame["v"][key] = value
        self._reset_entry(frame)
        self._advance(frame)

    def _back_entry(self, frame):
        if frame["v"]:
            frame["v"].pop(list(frame["v"])[-1])
            self._reset_entry(frame)
        elif not frame.get("root"):
            self.stack.remove(frame)
            if len(self.stack) == 1:
                self._pop_to_root()

    def _pop_to_root(self):
        if self.speak is not None and not self.speak.get("manual"):
            self.speak["deadline"] = self.now + self.timing.speaking_window_s

    def _key_entry(self, frame, key):
        question = self._question(frame)
        if isinstance(question, tuple) and key == "ok":
            self.apply(question[1])          # the one thing left to do, nothing to ask (end of turn)
            return
        if not isinstance(question, Question):
            return
        if key == "back":
            self._back_entry(frame)
            return
        if question.kind == "list":
            if self._move(frame, key, len(question.items)):
                return
            if key == "ok" and question.items:
                label, value = question.items[frame["sel"] % len(question.items)]
                if value == MENU:
                    self.stack.append({"t": "menu", "sel": 0})
                    return
                self._set(frame, question.key, value)
        elif question.kind == "amount":
            self._amount_key(frame, question, key)
        elif question.kind == "confirm" and frame["kind"] in CHANCE:
            # Dice entered by hand: a line per company, scrolled like the device's outcome.
            if key in ("up", "down"):
                frame["sel"] = max(0, frame.get("sel", 0) + (1 if key == "down" else -1))
            elif key == "ok":
                self._set(frame, "#ok", True)
        elif question.kind == "confirm":
            if self._move(frame, key, 2):
                return
            if key == "ok":
                if frame["sel"] == 0:
                    self._set(frame, "#ok", True)
                else:
                    self._back_entry(frame)

    def _amount_step_key(self, frame) -> bool:
        """On an amount, a long OK cycles the step size (the encoder has no long Up/Down)."""
        question = self._question(frame)
        if not isinstance(question, Question) or question.kind != "amount":
            return False
        frame["si"] = (frame.get("si", question.step) + 1) % len(question.steps)
        return True

    def _amount_key(self, frame, q, key):
        value, si = frame.get("amt", q.start), frame.get("si", q.step)
        step = q.steps[min(si, len(q.steps) - 1)]
        if key in ("up", "down"):
            value += step if key == "up" else -step
            if q.skip_zero and value == 0:
                value += step if key == "up" else -step
            frame["amt"] = min(max(value, q.lo), q.hi)
            if q.skip_zero and frame["amt"] == 0:
                frame["amt"] = step if key == "up" else -step
        elif key == "long_up":
            frame["si"] = min(si + 1, len(q.steps) - 1)
        elif key == "long_down":
            frame["si"] = max(si - 1, 0)
        elif key == "ok":
            self._set(frame, q.key, frame["amt"])

    # ------------------------------------------------------------ speaking
    def _key_speak(self, frame, key):
        if key in ("ok", "up", "down"):
            self._pause_seats()
            self._start_entry("declare", menu=True)

    def _seat(self, seat: int, kind: str) -> None:
        if self.session is None or not (0 <= seat < len(self.session.players)):
            return
        if kind == "down":
            self.held.add(seat)
            self._auction_down(seat)
        elif kind == "up":
            self.held.discard(seat)
            self._auction_up(seat)
        elif kind == "press":
            if self._open_running():
                self._open_bid(seat)
            else:
                self._speaking_press(seat)
        elif kind == "long_press":
            if self.clock is not None and not self.clock.get("manual") and not self.clock.get("open"):
                return                      # holding is how one bids
            self._private(seat)

    def _speaking_press(self, seat):
        s = self.speak
        if s is None or s.get("manual") or seat != s["seat"] or len(self.stack) != 1:
            return
        s["count"] += 1
        s["gap"] = self.now + self.timing.press_gap_s
        self.beeps.append("tick")
        self.changed = True
        if s["count"] >= s["max"]:
            self._declare(s["seat"], s["max"])

    def _declare(self, seat, lots):
        self.speak = None
        act = self.session.actions.classes["declare"](player=seat, lots=lots)
        self.apply(act)

    # ------------------------------------------------------------ open auctions
    # Anyone may raise at any time; a press of a seat button raises by the step (the
    # lowest bid accepted now); `timing.silence_s` without a bid sells the item (the
    # engine's `sold`), or deals the items left when nobody opened (`deal`, drawn by the
    # device). A bid above the bidder's cash is never sent: the press only buzzes.
    def _open_running(self) -> bool:
        return (self.clock is not None and self.clock.get("open") and len(self.stack) == 1
                and self.stack[0]["t"] == "open_auction")

    def _open_amount(self, seat):
        """The bid a press of `seat` makes now, or None if that seat may not make it."""
        d = self.session.decision()
        option = d.option("bid")
        if option is None or seat not in option.fields["player"].values:
            return None
        amount = option.fields["amount"].lo
        if amount > self.session.game.cash(seat):
            return None
        return amount

    def _open_bid(self, seat):
        amount = self._open_amount(seat) if seat in self.seat_buttons else None
        if amount is None:
            self.beeps.append("error")
            return
        self.beeps.append("tick")
        self.apply(self.session.actions.classes["bid"](player=seat, amount=amount))

    def _open_tick(self, now):
        if len(self.stack) != 1 or self.clock.get("held"):   # the operator is answering: silence waits
            return
        if now < self.clock["until"]:
            return
        self.clock["until"] = now + self.timing.silence_s
        self.beeps.append("confirm")
        self.apply(self._silence_action())

    def _silence_action(self):
        from firmware.script import fill_dice
        d = self.session.decision()
        if d.option("sold"):
            return self.session.actions.classes["sold"]()
        return fill_dice(self.session.game, self.session.actions.classes["deal"]())

    def _key_open_auction(self, frame, key):
        if key in ("ok", "up", "down"):
            self.stack.append({"t": "open_menu", "sel": 0})

    def _open_items(self):
        """The operator answers for any bidder (seats without a button, or anyone)."""
        lang, d = self.lang, self.session.decision()
        items = []
        option = d.option("bid")
        if option is not None:
            for seat in option.fields["player"].values:
                amount = self._open_amount(seat)
                if amount is not None:
                    items.append((t("open.bid", lang, player=player_name(self.ctx, seat), amount=amount),
                                  self.session.actions.classes["bid"](player=seat, amount=amount)))
        if d.option("sold") or d.option("deal"):
            items.append((t("open.sold" if d.option("sold") else "open.deal", lang), self._silence_action()))
        items.append((t("menu_item", lang), MENU))
        return items

    def _key_open_menu(self, frame, key):
        self._key_action_list(frame, key, self._open_items())

    def _key_action_list(self, frame, key, items):
        """The operator's list during an auction: (label, action) entries, then Menu."""
        if key == "back":
            self.stack.pop()
            return
        if self._move(frame, key, len(items)):
            return
        if key == "ok":
            value = items[frame["sel"] % len(items)][1]
            if value == MENU:
                self.stack.append({"t": "menu", "sel": 0})
            else:
                self.apply(value)

    def _screen_open_auction(self, frame):
        snap = self.session.snapshot()
        auction = snap.get("auction") or {}
        d = self.session.decision()
        high, bidder = auction.get("high"), auction.get("high_bidder")
        if high is None:
            line = t("open.none", self.lang, minimum=d.params.get("minimum", ""))
        else:
            line = t("open.high", self.lang, amount=high, player=bidder)
        rows, highlight = [], None
        for name in auction.get("bidders", []):
            if name == bidder:
                highlight = len(rows)
                rows.append(f"{name}\t{high}")
            else:
                rows.append(name)
        footer = self._footer("open_seats" if self._open_running() else "speak")
        return Screen("auction", self._title(), (line,), tuple(rows), 0, footer, highlight=highlight)

    def _screen_open_menu(self, frame):
        items = tuple(label for label, _ in self._open_items())
        return Screen("menu", self._title(), (), items, frame["sel"] % len(items), self._footer("menu"))

    # ------------------------------------------------------------ chance (device)
    def _chance_action(self, frame):
        from firmware.script import fill_dice
        return fill_dice(self.session.game, self.session.actions.classes[frame["kind"]]())

    def _key_chance(self, frame, key):
        if key in ("up", "down"):
            frame["sel"] = max(0, frame["sel"] + (1 if key == "down" else -1))
        elif key == "ok":
            self.apply(self._chance_action(frame))

    def _screen_chance(self, frame):
        lines = tuple(chance_lines(self.ctx, self._chance_action(frame)))
        frame["sel"] = min(frame["sel"], max(0, len(lines) - 1))
        return Screen("payday", self._title(), lines, (), frame["sel"], self._footer("chance"))

    # ------------------------------------------------------------ auctions
    def _auction_running(self) -> bool:
        return (self.clock is not None and not self.clock.get("manual") and not self.clock.get("open")
                and len(self.stack) == 1 and self.stack[0]["t"] == "auction")

    def _pending(self):
        option = self.session.decision().option("bid")
        return list(option.fields["player"].values) if option else []

    def _auction_up(self, seat):
        if self._auction_running() and seat in self._pending():
            self.clock["gaps"][str(seat)] = self.now + self.timing.press_gap_s
            self.changed = True

    def _auction_down(self, seat):
        if not self._auction_running():
            return
        gaps = self.clock["gaps"]
        if str(seat) in gaps:                  # released and pressed again: a double press
            del gaps[str(seat)]
            wanted = dict(self._bidders()).get(seat, 2)
            if wanted > 1 and seat in self._pending():
                self.beeps.append("tick")
                self._bid(seat, 1)

    def _bid(self, seat, lots):
        act = self.session.actions.classes["bid"](player=seat, lots=lots)
        return self.apply(act)

    def _auction_tick(self, now):
        clock = self.clock
        for key, until in sorted(clock["gaps"].items()):
            if now >= until:
                del clock["gaps"][key]
                if int(key) in self._pending():
                    self._bid(int(key), 0)      # released and not pressed again: out
                    self._sync()
                    if not self._auction_running():
                        return
        if now < clock["next"]:
            return
        for seat in self._pending():
            if seat not in self.held and str(seat) not in clock["gaps"]:
                self._bid(seat, 0)             # not holding when the price moved: out
                self._sync()
                if not self._auction_running():
                    return
        if self._pending() or self.session.decision().option("raise"):
            self.clock["next"] = now + self.timing.auction_step_s
            self.beeps.append("tick")
            self.apply(self.session.actions.classes["raise"]())

    def _key_auction(self, frame, key):
        if key in ("ok", "up", "down"):
            self._pause_seats()
            self.stack.append({"t": "auction_menu", "sel": 0})

    def _auction_items(self):
        lang = self.lang
        d = self.session.decision()
        items = []
        if d.option("raise"):
            items.append((t("auction.raise", lang, price=d.params.get("proposal", "")),
                          self.session.actions.classes["raise"]()))
        bid = d.option("bid")
        if bid:
            wanted = dict(self._bidders())
            for seat in bid.fields["player"].values:
                top = min(wanted.get(seat, bid.fields["lots"].hi + 1) - 1, bid.fields["lots"].hi)
                for lots in range(0, top + 1):
                    label = t("auction.drop" if lots == 0 else "auction.cut", lang,
                              player=player_name(self.ctx, seat), lots=lots)
                    items.append((label, self.session.actions.classes["bid"](player=seat, lots=lots)))
        items.append((t("menu_item", lang), MENU))
        return items

    def _key_auction_menu(self, frame, key):
        self._key_action_list(frame, key, self._auction_items())

    # ------------------------------------------------------------ settle / payday / first
    def _key_settle(self, frame, key):
        if self._move(frame, key, 2):
            return
        if key == "ok":
            if frame["sel"] == 0:
                self.apply(self.session.actions.classes["settle"]())
            else:
                self.stack.append({"t": "menu", "sel": 0})

    def _key_payday(self, frame, key):
        if key in ("up", "down"):
            frame["sel"] = max(0, frame["sel"] + (1 if key == "down" else -1))
        elif key == "ok":
            self.apply(self.session.actions.classes["payday"]())

    def _dice_for_first(self):
        """Device dice for who starts: everyone rolls, ties roll again (from the seed)."""
        from firmware.script import device_roll

        game = self.session.game
        seats, rolls, index = list(range(len(game.players))), {}, 10_000
        while True:
            for seat in seats:
                d1, d2 = device_roll(game.seed, index)
                index += 1
                rolls[seat] = d1 + d2
            best = max(rolls[s] for s in seats)
            top = [s for s in seats if rolls[s] == best]
            if len(top) == 1:
                return rolls, top[0]
            seats = top

    def _key_first_dice(self, frame, key):
        if self._move(frame, key, 2):
            return
        if key == "ok":
            if frame["sel"] == 0:
                _, first = self._dice_for_first()
                self.apply(self.session.actions.classes["first"](player=first))
            else:
                self.stack.append({"t": "menu", "sel": 0})

    def _key_over(self, frame, key):
        if key == "ok":
            self.stack.append({"t": "menu", "sel": 0})
        elif key in ("up", "down"):
            frame["sel"] = max(0, frame.get("sel", 0) + (1 if key == "down" else -1))

    # ================================================================ the menu
    def _menu_items(self):
        lang = self.lang
        d = self.session.decision()
        items = []
        if d.option("reveal"):
            items.append((t("menu.reveal", lang), "reveal"))
        items.append((t("menu.private", lang), "private"))
        items.append((t("menu.history", lang), "history"))
        if self.session.last_action is not None:
            items.append((t("menu.undo", lang), "undo"))
        if any(d.option(k) for k in CORRECTIONS):
            items.append((t("menu.corrections", lang), "corr"))
        if d.option("close"):
            items.append((t("menu.close", lang), "close"))
        items.append((t("menu.lang", lang), "lang"))
        items.append((t("menu.new_game", lang), "new"))
        return items

    def _key_menu(self, frame, key):
        items = self._menu_items()
        if key == "back":
            self._pop()
            return
        if self._move(frame, key, len(items)):
            return
        if key != "ok":
            return
        choice = items[frame["sel"] % len(items)][1]
        if choice in ("reveal", "close"):
            self._start_entry(choice)
        elif choice == "private":
            self.stack.append({"t": "who", "sel": 0})
        elif choice == "history":
            self.stack.append({"t": "history", "sel": 0})
        elif choice == "undo":
            self._offer_undo()
        elif choice == "corr":
            self.stack.append({"t": "corr", "sel": 0})
        elif choice == "lang":
            self.set_lang("en" if self.lang == "fr" else "fr")
        elif choice == "new":
            self.stack.append({"t": "newgame", "sel": 1})

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        if self.journal is not None:
            self.journal.set_meta("lang", lang)
        self.changed = True

    def _key_corr(self, frame, key):
        d = self.session.decision()
        kinds = [k for k in CORRECTIONS if d.option(k)]
        if key == "back":
            self.stack.pop()
            return
        if self._move(frame, key, len(kinds)):
            return
        if key == "ok" and kinds:
            self._start_entry(kinds[frame["sel"] % len(kinds)])

    def _key_who(self, frame, key):
        players = self.session.players
        if key == "back":
            self.stack.pop()
            return
        if self._move(frame, key, len(players)):
            return
        if key == "ok":
            self.stack.pop()
            self._private(frame["sel"] % len(players))

    def _key_history(self, frame, key):
        if key in ("up", "down"):
            frame["sel"] = max(0, frame["sel"] + (1 if key == "down" else -1))
        elif key in ("ok", "back"):
            self.stack.pop()

    def _key_newgame(self, frame, key):
        if self._move(frame, key, 2):
            return
        if key == "back" or (key == "ok" and frame["sel"] == 1):
            self.stack.pop()
        elif key == "ok":
            self.stack = [self._setup_frame()]

    # ---------------------------------------------------------------- undo
    def _offer_undo(self):
        if self.session is None or self.session.last_action is None:
            self.beeps.append("error")
            return
        if self.stack[-1]["t"] == "undo":
            return
        self._pause_seats()
        self.stack.append({"t": "undo", "sel": 0})

    def _key_undo(self, frame, key):
        if self._move(frame, key, 2):
            return
        if key == "back" or (key == "ok" and frame["sel"] == 1):
            self.stack.pop()
        elif key == "ok":
            self.undo()

    def undo(self) -> bool:
        try:
            act = self.session.undo()
        except (CorbeilleError, OSError) as error:
            self._error(str(error) if not isinstance(error, IllegalAction) else error.message(self.lang))
            return False
        self.news = (t("news.undone", self.lang, action=describe(self.ctx, act)),)
        self.changed = True
        return True

    # ------------------------------------------------------------- overlays
    def _private(self, seat):
        if self.session is None or not 0 <= seat < len(self.session.players):
            return
        if self.stack and self.stack[-1]["t"] == "private":
            self.stack.pop()
        self.stack.append({"t": "private", "seat": seat, "until": self.now + self.timing.private_view_s})
        self.changed = True

    def _key_error(self, frame, key):
        if key in ("ok", "back"):
            self.stack.pop()

    def _key_message(self, frame, key):
        if key in ("up", "down"):
            frame["sel"] = max(0, frame.get("sel", 0) + (1 if key == "down" else -1))
        elif key in ("ok", "back"):
            self.stack.pop()

    def _tag(self, tag):
        if self.session is None or not tag:
            return
        if tag in self.tags:
            self._private(self.tags[tag])
        else:
            self.stack.append({"t": "rfid", "tag": tag, "sel": 0})
        self.changed = True

    def _key_rfid(self, frame, key):
        players = self.session.players
        count = len(players) + 1
        if key == "back":
            self.stack.pop()
            return
        if self._move(frame, key, count):
            return
        if key == "ok":
            self.stack.pop()
            sel = frame["sel"] % count
            if sel < len(players):
                self.tags[frame["tag"]] = sel
                self._save_tags()
                self._private(sel)

    def _load_tags(self):
        if self.journal is None or self.session is None:
            return
        raw = self.journal.get_meta(f"rfid.{self.session.game_id}")
        try:
            self.tags = {k: int(v) for k, v in json.loads(raw).items()} if raw else {}
        except (ValueError, AttributeError):
            self.tags = {}

    def _save_tags(self):
        if self.journal is not None and self.session is not None and self.session.game_id is not None:
            self.journal.set_meta(f"rfid.{self.session.game_id}", json.dumps(self.tags))

    # ================================================================= ticks
    def _tick(self, now) -> None:
        top = self.stack[-1] if self.stack else None
        if top is not None and top["t"] == "private" and now >= top["until"]:
            self.stack.pop()
            self._pop_to_root() if len(self.stack) == 1 else None
            self.changed = True
        if self.session is None:
            return
        s = self.speak
        if s is not None and not s.get("manual") and len(self.stack) == 1:
            if s["count"] and now >= s["gap"]:
                self._declare(s["seat"], min(s["count"], s["max"]))
            elif not s["count"] and now >= s["deadline"]:
                self._declare(s["seat"], 0)
        if self._auction_running():
            self._auction_tick(now)
        elif self.clock is not None and self.clock.get("open") and self.stack and self.stack[0]["t"] == "open_auction":
            self._open_tick(now)

    def next_deadline(self) -> float | None:
        """When the next tick has something to do (the loop sleeps until then)."""
        times = []
        top = self.stack[-1] if self.stack else None
        if top is not None and top["t"] == "private":
            times.append(top["until"])
        s = self.speak
        if s is not None and not s.get("manual") and len(self.stack) == 1:
            times.append(s["gap"] if s["count"] else s["deadline"])
        if self._auction_running() if self.session is not None else False:
            times.append(self.clock["next"])
            times += list(self.clock["gaps"].values())
        if self.session is not None and self._open_running():
            times.append(self.clock["until"])
        return min(times) if times else None

    # ================================================================= setup
    SETUP_STEPS = ("start", "format", "count", "names", "rounds", "box", "summary")

    def _setup_frame(self):
        return {"t": "setup", "v": {}, "sel": 0}

    def _setup_question(self, frame):
        """(step, title, lines, items[(label, value)]) for the setup's current step."""
        lang, v = self.lang, frame["v"]
        resumable = self.session is not None and not self.session.over
        for step in self.SETUP_STEPS:
            if step in v:
                continue
            if step == "start":
                if not resumable:
                    continue
                items = [(t("setup.new", lang), "new"), (t("setup.resume", lang), "resume")]
                return step, t("setup.title", lang), (t("setup.start", lang),), items
            if step == "format":
                items = [item for ui in ADAPTERS.values() for item in ui.choices(lang)]
                items.append((t("menu.lang", lang), "#lang"))
                return step, t("setup.title", lang), (t("setup.format", lang),), items
            ui = self._setup_ui(v)
            if step == "count":
                lo, hi = ui.players
                items = [(t("setup.n_players", lang, n=n), n) for n in range(lo, hi + 1)]
                return step, ui.label(v["format"], lang), (t("setup.count", lang),), items
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
                    lines = (t("setup.summary", lang, format=ui.label(v["format"], lang), n=v["count"],
                               rounds=t("setup.no_limit", lang) if not rounds else t("setup.rounds_n", lang, n=rounds)),
                             " ".join(names))
                else:
                    lines = (t("setup.summary_short", lang, format=ui.label(v["format"], lang), n=v["count"]),
                             " ".join(names))
                return step, t("setup.title", lang), lines, [(t("setup.go", lang), True), (t("no", lang), False)]
        return None, "", (), []

    def _setup_default(self, step, items):
        values = [value for _, value in items]
        fmt = "dividends" if self.defaults.game == "dividends" else self.defaults.format
        wanted = {"format": fmt, "rounds": self.defaults.rounds,
                  "count": len(self.defaults.players) if 2 <= len(self.defaults.players) <= 6 else 3,
                  "names": "config"}.get(step)
        return values.index(wanted) if wanted in values else 0

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

    def _setup_ui(self, v):
        """The adapter of the game chosen in the setup's first list."""
        return adapter("dividends" if v.get("format") == "dividends" else "maxibourse")

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
        name = self._setup_ui(self.stack[0]["v"] if self.stack and self.stack[0]["t"] == "setup" else {}).name
        return "box_confirmed" if name == "maxibourse" else f"box_confirmed.{name}"

    def _key_setup(self, frame, key):
        step, _, _, items = self._setup_question(frame)
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
        if step == "summary":
            if value:
                self._create_game(frame["v"])
            else:
                frame["v"].pop(list(frame["v"])[-1])
                step, _, _, items = self._setup_question(frame)
                frame["sel"] = self._setup_default(step, items)
            return
        frame["v"][step] = value
        step, _, _, items = self._setup_question(frame)
        frame["sel"] = self._setup_default(step, items)

    def _resume_game(self):
        self.stack = []
        self._sync(force=True)

    def _create_game(self, v):
        header = self._setup_ui(v).header(v["format"], self._names(v["names"], v["count"]), self.seed_source(),
                                          self.defaults, v.get("rounds", 0))
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

    # ============================================================= console
    def console(self, line: str) -> str:
        """A line of the serial console: an action in the command language, or
        `key NAME [long]` (a button), `screen` (the screen as text), `state` (JSON)."""
        try:
            return self._console(line)
        finally:
            self._sync()

    def _console(self, line: str) -> str:
        from firmware.textscreen import screen_text

        words = (line or "").split()
        if not words:
            return ""
        head = words[0].lower()
        if head == "key" and len(words) >= 2:
            name = words[1].lower()
            kind = "long_press" if len(words) > 2 and words[2].lower() == "long" else words[2].lower() if len(words) > 2 else "press"
            from drivers.events import InputEvent
            self.handle(InputEvent(name, kind, self.now))
            return "ok"
        if head == "screen":
            return "\n".join(screen_text(self.screen()))
        if head == "state":
            return json.dumps(self.session.snapshot(), ensure_ascii=False) if self.session else "{}"
        if self.session is None:
            return t("console.no_game", self.lang)
        if head == "undo":
            return "ok" if self.undo() else self.stack[-1].get("msg", "error")
        try:
            act = self.session.actions.parse(line, self.session.players)
        except (CorbeilleError, ValueError) as error:
            return str(error)
        # Chance left out (`roll`, Dividends' `dice`, `event`, `deal`): the device draws it.
        from firmware.script import fill_dice
        act = fill_dice(self.session.game, act)
        if self.apply(act):
            return "ok"
        message = self.stack.pop().get("msg", "error")
        return message

    # ============================================================ UI state
    def ui_state(self) -> dict:
        frames = [dict(f) for f in self.stack if f["t"] not in TRANSIENT]
        return {"game": self.session.game_id if self.session is not None and frames and frames[0]["t"] != "setup" else None,
                "n": len(self.session.game.log) if self.session is not None else 0,
                "stack": frames, "news": list(self.news)}

    def restore(self, state: dict) -> bool:
        """Put back a saved UI state if it belongs to the current game position."""
        frames = state.get("stack") or []
        if not frames or not all(isinstance(f, dict) and "t" in f for f in frames):
            return False
        if frames[0]["t"] == "setup":
            if state.get("game") is not None:
                return False
            self.stack = frames
            return True
        if self.session is None or state.get("game") != self.session.game_id \
                or state.get("n") != len(self.session.game.log):
            return False
        root = self._root()
        if frames[0]["t"] != root["t"] or frames[0].get("kind") != root.get("kind"):
            return False
        self.stack = frames
        self.news = tuple(str(x) for x in state.get("news", ()))
        try:
            self.screen()
        except Exception:          # a state this firmware cannot show: start from the root
            self.stack = [root]
            return False
        return True

    # ================================================================ lights
    def lit(self) -> set:
        """Seats (0-based) to light: the seat asked, the bidders still in, or the player whose turn it is."""
        if self.session is None or (self.stack and self.stack[0]["t"] == "setup"):
            return set()
        d = self.session.decision()
        if self.stack and self.stack[0]["t"] == "auction":
            return {s for s, _ in self._bidders()}
        if self.stack and self.stack[0]["t"] == "open_auction":
            option = d.option("bid")
            return set(option.fields["player"].values) if option else set()
        return {d.actor} if d.actor is not None else set()

    # ================================================================ screens
    def screen(self) -> Screen:
        top = self.stack[-1]
        builder = getattr(self, "_screen_" + top["t"])
        screen = builder(top)
        if self.status and not screen.status:
            screen = Screen(screen.kind, screen.title, screen.lines, screen.items, screen.selected,
                            screen.footer, self.status, screen.highlight)
        return screen

    def _footer(self, key):
        return t("footer." + key, self.lang)

    def _title(self):
        d = self.session.decision()
        return text("ui.title." + d.prompt.removeprefix("prompt."), self.lang, **self._params(d.params))

    def _params(self, params):
        out = {}
        for k, v in params.items():
            if isinstance(v, list):
                out[k] = ", ".join(str(x) for x in v)
            else:
                out[k] = v
        return out

    def _whose(self):
        d = self.session.decision()
        return self.session.players[d.actor] if d.actor is not None else ""

    def _screen_root(self, frame):
        kinds = self._main_kinds()
        items = tuple(kind_label(self.ctx, k) for k in kinds) + (t("menu_item", self.lang),)
        return Screen("menu", self._title(), self.news[:1], items, frame["sel"] % len(items),
                      self._footer("root"))

    def _screen_entry(self, frame):
        question = self._question(frame)
        if not isinstance(question, Question):
            lines = tuple(self.news[:1]) + ((describe(self.ctx, question[1]),) if isinstance(question, tuple) else ())
            return Screen("message", self._title(), lines, footer=self._footer("ok"))
        title = self._title() if frame.get("root") else question.title
        actor = self.session.decision().actor
        if not frame.get("root") and actor is not None and frame["kind"] not in CORRECTIONS + ("reveal", "close"):
            title = t("entry_title", self.lang, player=self.session.players[actor], what=title)
        lines = question.lines
        if frame.get("root") and frame["kind"] == "declare":
            d = self.session.decision()
            lines = (text("ui.line." + d.prompt.removeprefix("prompt."), self.lang, **self._params(d.params)),)
        if frame.get("root") and not frame["v"] and self.news:
            lines = tuple(self.news[:1]) + tuple(lines)
        if question.kind == "list":
            items = tuple(label for label, _ in question.items)
            return Screen("menu", title, lines, items, frame["sel"] % max(1, len(items)),
                          self._footer("root" if frame.get("root") and not frame["v"] else "menu"))
        if question.kind == "amount":
            value = frame.get("amt", question.start)
            step = question.steps[min(frame.get("si", 0), len(question.steps) - 1)]
            fmt = question.fmt or str
            lines = tuple(lines) + (t("amount_step", self.lang, step=format_amount(step, self.lang)),)
            return Screen("amount", title, lines, (fmt(value),), 0, self._footer("amount"))
        if frame["kind"] in CHANCE:
            frame["sel"] = min(frame.get("sel", 0), max(0, len(question.lines) - 1))
            return Screen("payday", title if frame.get("root") else self._title(), tuple(question.lines), (),
                          frame["sel"], self._footer("chance_back"))
        what = t("confirm_title", self.lang, what=kind_label(self.ctx, frame["kind"]))
        if actor is not None and frame["kind"] not in CORRECTIONS + ("reveal", "close"):
            what = t("entry_title", self.lang, player=self.session.players[actor], what=what)
        return Screen("confirm", what, question.lines, question.items, frame["sel"] % 2, self._footer("confirm"))

    def _seat_rows(self, asked=None, answers=None, order=None, label=None):
        rows, highlight = [], None
        for seat, name in enumerate(self.session.players):
            if answers is not None and seat in answers:
                rows.append(f"{name}\t{label(answers[seat])}")
            elif seat == asked:
                highlight = len(rows)
                rows.append(f"{name}\t?")
            elif order is not None and seat not in order:
                rows.append(f"{name}\t–")
            else:
                rows.append(name)
        return tuple(rows), highlight

    def _screen_speak(self, frame):
        d = self.session.decision()
        top = getattr(self.session.game, "top", None)
        rnd = getattr(top, "round", None)
        answers = dict(getattr(rnd, "answers", []) or [])
        order = list(getattr(rnd, "order", []) or []) or None
        shares = getattr(self.session.game, "shares", 1000)
        label = lambda n: t("q.pass", self.lang) if n == 0 else format_amount(n * shares, self.lang)
        rows, highlight = self._seat_rows(d.actor, answers, order, label)
        lines = [text("ui.line." + d.prompt.removeprefix("prompt."), self.lang, **self._params(d.params))]
        s = self.speak
        if s is not None and s["count"]:
            lines = [t("speak.count", self.lang, player=self._whose(), shares=format_amount(s["count"] * shares, self.lang))]
        footer = self._footer("speak_seats" if s is not None and not s.get("manual") else "speak")
        return Screen("speaking", self._title(), tuple(lines), rows, 0, footer, highlight=highlight)

    def _screen_auction(self, frame):
        d = self.session.decision()
        bidders = self._bidders()
        pending = set(self._pending())
        rows = []
        for seat, lots in bidders:
            mark = t("auction.holding", self.lang) if seat in self.held else ""
            state = "" if seat in pending else " ✓"
            rows.append(f"{player_name(self.ctx, seat)}{state}\t{lots_label(lots, getattr(self.session.game, 'shares', 1000), self.lang).split(' (')[0]}{mark}")
        lines = (t("auction.line", self.lang, lots=d.params.get("lots", ""), price=d.params.get("price", ""),
                   proposal=d.params.get("proposal", "")),)
        footer = self._footer("auction_clock" if self._auction_running() else "speak")
        return Screen("auction", self._title(), lines, tuple(rows), 0, footer)

    def _screen_auction_menu(self, frame):
        items = tuple(label for label, _ in self._auction_items())
        return Screen("menu", self._title(), (), items, frame["sel"] % len(items), self._footer("menu"))

    def _settle_lines(self):
        d = self.session.decision()
        shares = getattr(self.session.game, "shares", 1000)
        price = d.params.get("price", 0)
        lines = []
        for buyer in d.params.get("buyers", []):
            name, _, lots = str(buyer).rpartition(" ")
            try:
                n = int(lots)
            except ValueError:
                lines.append(str(buyer))
                continue
            lines.append(f"{name} {n}\t{format_amount(price * shares * n, self.lang)}")
        return tuple(lines)

    def _screen_settle(self, frame):
        items = (t("settle.ok", self.lang), t("menu_short", self.lang))
        return Screen("confirm", self._title(), self._settle_lines(), items, frame["sel"] % 2, self._footer("confirm"))

    def _screen_payday(self, frame):
        lines = tuple(self.ui.payday_lines(self.session, self.lang))
        frame["sel"] = min(frame["sel"], max(0, len(lines) - 1))
        return Screen("payday", self._title(), lines, (), frame["sel"], self._footer("payday"))

    def _screen_first_dice(self, frame):
        rolls, first = self._dice_for_first()
        line = " ".join(f"{self.session.players[s]} {r}" for s, r in rolls.items())
        lines = (line, t("first_is", self.lang, player=self.session.players[first]))
        return Screen("confirm", self._title(), lines, (t("yes", self.lang), t("menu_short", self.lang)),
                      frame["sel"] % 2, self._footer("confirm"))

    def _screen_over(self, frame):
        snap = self.session.snapshot()
        lines = list(self.ui.ranking_lines(snap, self.lang))
        if getattr(self, "report_path", None):
            lines.append(t("report_saved", self.lang))
        return Screen("ranking", self._title(), tuple(lines), (), frame.get("sel", 0), self._footer("over"))

    def _screen_menu(self, frame):
        items = tuple(label for label, _ in self._menu_items())
        title = t("menu.title", self.lang)
        return Screen("menu", title, (), items, frame["sel"] % len(items), self._footer("menu"))

    def _screen_corr(self, frame):
        d = self.session.decision()
        items = tuple(kind_label(self.ctx, k) for k in CORRECTIONS if d.option(k))
        return Screen("menu", t("menu.corrections", self.lang), (), items, frame["sel"] % max(1, len(items)),
                      self._footer("menu"))

    def _screen_who(self, frame):
        items = tuple(self.session.players)
        return Screen("menu", t("menu.private", self.lang), (t("q.player", self.lang),), items,
                      frame["sel"] % len(items), self._footer("menu"))

    def _screen_history(self, frame):
        log = self.session.game.log
        lines = tuple(f"{i}. {describe(self.ctx, a)}" for i, a in reversed(list(enumerate(log, 1))))
        frame["sel"] = min(frame["sel"], max(0, len(lines) - 1))
        return Screen("message", t("menu.history", self.lang), lines or (t("history.empty", self.lang),),
                      (), frame["sel"], self._footer("scroll"))

    def _screen_newgame(self, frame):
        return Screen("confirm", t("menu.new_game", self.lang), (t("newgame.line", self.lang),),
                      (t("yes", self.lang), t("no", self.lang)), frame["sel"] % 2, self._footer("confirm"))

    def _screen_undo(self, frame):
        last = self.session.last_action
        line = t("undo.line", self.lang, action=describe(self.ctx, last)) if last else ""
        return Screen("confirm", t("undo.title", self.lang), (line,), (t("yes", self.lang), t("no", self.lang)),
                      frame["sel"] % 2, self._footer("confirm"))

    def _screen_private(self, frame):
        name, lines = self.ui.private_lines(self.session, frame["seat"], self.lang)
        return Screen("private", t("private.title", self.lang, player=name), tuple(lines),
                      footer=self._footer("close"))

    def _screen_error(self, frame):
        return Screen("error", t("error.title", self.lang), (frame["msg"],), footer=self._footer("ok"))

    def _screen_message(self, frame):
        return Screen("message", frame.get("title", ""), tuple(frame.get("lines", ())), (), frame.get("sel", 0),
                      self._footer("ok"))

    def _screen_rfid(self, frame):
        items = tuple(self.session.players) + (t("rfid.ignore", self.lang),)
        return Screen("menu", t("rfid.title", self.lang), (t("rfid.line", self.lang),), items,
                      frame["sel"] % len(items), self._footer("menu"))

    def _screen_setup(self, frame):
        step, title, lines, items = self._setup_question(frame)
        labels = tuple(label for label, _ in items)
        if step == "summary":
            return Screen("confirm", title, lines, labels, frame["sel"] % 2, self._footer("confirm"))
        return Screen("menu", title, lines, labels, frame["sel"] % max(1, len(labels)),
                      self._footer("setup" if frame["v"] or (self.session and not self.session.over) else "setup_first"))
