"""The operator's side of the box: a state machine from input events to actions and screens.

    (pending decision, UI state, input event) -> action applied | UI state changed

`Controller.handle(event)` takes one `InputEvent` (operator keys, seat buttons, RFID tags,
and clock ticks `InputEvent("clock", "tick", t)`); `screen()` returns the `Screen` to
draw; `lit()` the seats to light; `take_beeps()` the buzzer patterns to play. The
controller never reads a clock: time is the `t` of the events it is given, so tests
drive every timer (speaking windows, auction clock, private view) by sending ticks.

UI state is a stack of frames (`self.stack`); the bottom one is the *root*, rebuilt
from the engine's decision whenever the game changes. Frames are screen objects
(firmware/screens/: each its own keys, tick, drawing and saved state, registered by type
name). `ui_state()` / `restore()` save and reload the stack as JSON in the dict form keyed
"t" (the app stores it in the journal's meta table), so after a restart the box comes back
on the same screen, from a state saved by this firmware or an older one.

Actions go through `Session.apply` (engine, then journal commit) before anything is
shown. See docs/firmware.md for the screens and keys.

This module holds the core: events and key dispatch, the root rebuilt from the decision,
applying actions, undo, the overlays' entry points (private view, errors, RFID tags),
timers, the serial console, the saved UI state, lights and the shared screen helpers. The
screens are in firmware/screens/ (`overlays`, `menu`, `steps`: chance, settle, payday,
first, ranking; `entries`: the square menu and an action's fields; `seats`: speaking
rounds and auctions; `setup`). The mixins under `firmware/flows/` hold what those screens
ask of the controller: `entries` (starting an entry), `seats` (the seat-button events,
timers and action lists), `menu` (the language) and `setup` (starting the setup, the box
file, creating or resuming the game).
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, replace

from engines.core.errors import CorbeilleError, IllegalAction
from engines.core.i18n import text
from firmware.flows.cards import CardFlow
from firmware.flows.entries import EntryFlow
from firmware.flows.menu import MenuFlow
from firmware.flows.seats import SeatFlows
from firmware.flows.setup import SetupDefaults, SetupFlow  # noqa: F401 (SetupDefaults: the box's API)
from firmware.flows.speaking import SpeakingFlow
from firmware.games import PLAYABLE, adapter_of
from engines.core.actions import ANYTIME, CHANCE, CORRECTION, OUTCOME
from engines.core.decision import Interactions as I
from firmware.menus import Ctx, describe, kind_label
from firmware.screen import Screen
from firmware.screens.menu import Menu, corrections
from firmware.screens.position import Position
from firmware.screens.base import Frame, dump, load
from firmware.screens.entries import Entry, Root
from firmware.screens.overlays import Error, Private, Rfid, Undo
from firmware.screens.placement import Placement
from firmware.screens.seats import Auction, OpenAuction, Speak
from firmware.screens.steps import Chance, FirstDice, Over, Payday, Settle
from firmware.session import Session
from firmware.texts import t

log = logging.getLogger("corbeille")

KEYS = ("up", "down", "ok", "back")


@dataclass(frozen=True)
class Timing:
    speaking_window_s: float = 4.0    # a speaking round's silence: the seats that have not pressed pass
    press_gap_s: float = 0.6          # presses further apart than this end a count
    auction_step_s: float = 2.0       # the auction clock's pace
    auction_lead_s: float = 2.0       # time to grab the buttons before the first step
    private_view_s: float = 5.0
    silence_s: float = 7.0            # an open auction no rule times: this long without a bid sells

    @classmethod
    def from_config(cls, timing) -> "Timing":
        return cls(speaking_window_s=timing.speaking_window_s, auction_step_s=timing.auction_step_s,
                   auction_lead_s=timing.auction_step_s, private_view_s=timing.private_view_s,
                   press_gap_s=min(0.6, timing.hold_time * 0.75), silence_s=timing.silence_s)


class Controller(EntryFlow, SeatFlows, SpeakingFlow, MenuFlow, SetupFlow, CardFlow):
    def __init__(self, journal=None, *, lang: str = "fr", timing: Timing | None = None,
                 seat_buttons=(), defaults: SetupDefaults | None = None, report=None,
                 seed_source=None):
        self.journal = journal
        self.lang = lang
        self.timing = timing or Timing()
        self.seat_buttons = frozenset(seat_buttons)   # engine seats (0-based) with a button
        self.defaults = defaults or SetupDefaults()
        self.report = report                         # report(session) at the end of a game
        self.learned_writer = None                   # (game, id): box data learned, kept for the next game
        self.seed_source = seed_source or (lambda: int.from_bytes(os.urandom(4), "big"))
        self.session: Session | None = None
        self.stack: list[dict] = []
        self.now = 0.0
        self.status = ""                             # degraded parts, set by the app
        self.beeps: list[str] = []
        self.blinks: list[int] = []                  # seats (0-based) whose light blinks once: a refused press
        self.held: set[int] = set()                  # seats whose button is down
        self.speak: dict | None = None               # seat-button speaking round state
        self.clock: dict | None = None               # auction clock state
        self.news: tuple = ()                        # what the last action did
        self.news_again = None                       # () -> news in the language now (a switch)
        self.tags: dict[str, int] = {}               # RFID tag -> seat
        self.phones = None                           # the web view's links (firmware/screens/phones.py)
        self.reported: set = set()
        self.undone = False                          # an undo: the next seat clock waits for OK
        self.position = False                        # a game under way being entered (screens/position.py)
        self.resumed = False                         # a game taken up after a restart, until the first press
        self._seen = None
        self.changed = True                          # something to draw or save
        self._memo_key, self._memo_values = None, {}  # see _memo
        self._labels_key, self._labels = None, {}     # see _kind_label

    # ====================================================================== boot
    def boot(self, now: float = 0.0, messages=()) -> None:
        """Resume the journal's last game on its saved screen, or start the setup."""
        self.now = now
        saved = None
        damaged = bool(messages)                     # the journal's own repairs, before any replay
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
            if game_id is not None and self.journal.header(game_id).get("game", PLAYABLE[0]) not in PLAYABLE:
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
        if self.session is not None:
            self._resumed_after_restart(said=bool(messages))
        if messages:
            self._say_repaired(messages, damaged)
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
        if name in KEYS or name.startswith("seat") or name == "rfid":
            self.resumed = False                     # the table is at it again: the note has been read
        try:
            if name == "clock" or kind == "tick":
                self._tick(self.now)
            elif name in KEYS:
                if kind == "press":
                    self._key(name)
                elif kind == "long_press":
                    self._key("long_" + name)
            elif name.startswith("seat") and name[4:].isascii() and name[4:].isdigit():
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

    def take_blinks(self) -> list[int]:
        blinks, self.blinks = self.blinks, []
        return blinks

    # ---------------------------------------------------------------- keys
    def _top(self):
        """The frame on top, as an object when its type is a screen object (a frame pushed
        as a dict by older code is loaded in place)."""
        if not self.stack:
            return None
        self.stack[-1] = top = load(self.stack[-1])
        return top

    def _key(self, key: str) -> None:
        self.changed = True
        top = self._top()
        if top is None:
            return
        if getattr(top, "modal", False):
            top.key(self, key)
            return
        if key == "long_back" and self.session is not None and top["t"] not in ("setup",):
            self._offer_undo()
            return
        if key == "long_ok" and isinstance(top, Entry) and top.amount_step_key(self):
            return
        if key == "long_ok" and self.session is not None and top["t"] not in ("setup", "menu", "corr"):
            self.stack.append(Menu())
            self._pause_seats()
            return
        top.key(self, key)

    def _pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        if len(self.stack) == 1 and self.speak is not None and not self.speak.get("manual"):
            self.speak["deadline"] = self.now + self.timing.speaking_window_s

    def _pause_seats(self) -> None:
        """The operator took over: seat timers stop for this decision."""
        if self.speak is not None:
            self.speak["manual"] = True
        if self.clock is not None:
            self.clock["manual"] = True

    # ------------------------------------------------------------ sync / root
    @property
    def ctx(self) -> Ctx:
        return self._memo("ctx", lambda: Ctx(self.session, self.lang,
                                             self.defaults.dice == "device" or self._header_dice() == "device"))

    def _memo(self, name: str, build):
        """`build()`, kept while the game stays at the same position in the same language:
        what the screens derive from the decision alone (the context, the square menu's
        entries, its title) is built once per position instead of on every press, a menu
        move redrawing them all was most of its time (docs/benchmarks.md, issue 11)."""
        session = self.session
        key = (session, session.version if session is not None else None, self.lang)
        if key != self._memo_key:
            self._memo_key, self._memo_values = key, {}
        values = self._memo_values
        if name not in values:
            values[name] = build()
        return values[name]

    def _kind_label(self, kind: str) -> str:
        """An action kind's menu label: the same for the whole game in one language (kept
        while the game and the language stay; the square menu lists a dozen after each action)."""
        # Not a `_memo` entry: `_memo` forgets everything when the position changes, and
        # these labels are worth keeping exactly across that change (the square menu's
        # entries, memoised per position, are rebuilt after each action from them: about
        # 25 us a press, measured). One store for both would make `_memo` take a lifetime
        # (position or game); the same pattern with the key of the other lifetime.
        key = (self.session, self.lang)
        if key != self._labels_key:
            self._labels_key, self._labels = key, {}
        label = self._labels.get(kind)
        if label is None:
            label = self._labels[kind] = kind_label(self.ctx, kind)
        return label

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
            # on the auction screen, it starts again. A rulebook's silence (RM9: nothing
            # pauses it) runs on while the menu is open for a correction.
            if len(self.stack) != 1 and not (self._rule_silence() is not None and self.stack[1]["t"] == "menu"):
                clock["held"] = True
            elif clock.pop("held", False):
                clock["until"] = self.now + self._silence_s()
        version = (self.session.game_id, self.session.version)
        if version == self._seen and not force:
            return
        self._seen = version
        self.changed = True
        root = self._root()
        keep = [f for f in self.stack[1:] if f["t"] in ("error", "message")]
        self.stack = [root] + keep
        if self.undone:
            self.clock = None                        # a clock of the undone position is not kept
        self._arm_seats(root)
        if self.undone:
            # The restored round waits for OK: a clock restarting by itself would redo
            # what was just undone (a silence re-dealing the tokens), so the undo could
            # not stick.
            self.undone = False
            self._stop_clock()
        if self.session.over:
            self._game_over()

    def _root(self):
        """The root frame, from the decision's interaction and its actions' flags."""
        d = self.session.decision()
        how = d.interaction.kind
        if how == I.OVER or self.session.over:
            return Over()
        if self.position and self.session.game.turn_start() is not None and corrections(self, d):
            return Position()          # a game under way entered at a turn's start (screens/position.py)
        main = self._main_kinds()
        if how in (I.OPEN_AUCTION, I.OFFER_WINDOW):
            # Anyone raises at any time, silence sells (or closes an offer's overbids): bids
            # on the seat buttons; an offer's acceptance is its maker's seat button, and the
            # silence lets it lapse.
            return OpenAuction()
        if how in (I.CHANCE, I.PAYMENT) and len(main) == 1 and self.ctx.has(main[0], OUTCOME) \
                and (self.ctx.device_dice or not self.ctx.has(main[0], CHANCE) or d.interaction.params.get("device")):
            # The device draws (dice, event tile, a deal the engine says the device makes),
            # or a payment: one confirmation with the outcome shown, a line per company or
            # player (scrolls on a small screen).
            return Chance(main[0])
        if how == I.SPEAKING_ROUND:
            if d.actor in self.seat_buttons:
                return Speak()
            # No seat button for this player: the operator answers, straight from the list.
            frame = Entry(d.interaction.roles[I.ANSWER], root=True)
            frame.reset(self)
            return frame
        if how == I.LOT_AUCTION:
            return Auction()
        if how == I.SETTLEMENT and len(main) == 1:
            return Settle()
        if how == I.PAYDAY and len(main) == 1:
            return Payday()
        if how == I.FIRST_PLAYER and self.ctx.device_dice:
            return FirstDice()
        if how == I.PLACEMENT:
            return Placement()
        if len(main) == 1:
            frame = Entry(main[0], root=True)
            frame.reset(self)
            return frame
        return Root(self._default_kind(main))

    def _default_kind(self, kinds) -> int:
        """Where the square menu starts: the entry the engine names (end of turn, once
        something happened this turn), else the first."""
        default = self.session.decision().interaction.params.get("default")
        return kinds.index(default) if default in kinds else 0

    def _main_kinds(self) -> list[str]:
        """The decision's kinds the square menu lists (a new list: callers extend it)."""
        return list(self._memo("main_kinds", self._build_main_kinds))

    def _build_main_kinds(self) -> tuple:
        has = self.ctx.has                       # the context looked up once, not per option
        return tuple(o.kind for o in self.session.decision().options if not has(o.kind, ANYTIME))

    def _role(self, role):
        """The action kind playing `role` in the pending decision's interaction, or None."""
        return self.session.decision().interaction.roles.get(role)

    def _act(self, role, **fields):
        """The action playing `role` now, with `fields`."""
        return self.session.actions.classes[self._role(role)](**fields)

    def _arm_seats(self, root) -> None:
        """Start the seat-button timers a new decision needs (speaking window, auction clock)."""
        d = self.session.decision()
        if d.interaction.kind == I.SPEAKING_ROUND:
            self._arm_speak(d, on_buttons=root["t"] == "speak")
        else:
            self.speak = None
        if root["t"] == "open_auction":
            if not self._corrected_under_rule():
                self.clock = {"open": True, "until": self.now + self._silence_s()}
            return
        if root["t"] == "auction":
            company = d.params.get("company")
            stay = d.role(I.STAY)
            pending = set(stay.fields["player"].values) if stay else set()
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

    def _corrected_under_rule(self) -> bool:
        """The change was a correction during an auction whose silence a rulebook sets: its
        clock runs on untouched (RM9: a correction is not a bid, and nothing pauses it)."""
        clock, log = self.clock, self.session.game.log
        return bool(clock and clock.get("open") and log and self._rule_silence() is not None
                    and self.ctx.has(log[-1].kind, CORRECTION))

    def _rule_silence(self):
        """The silence the rulebook sets for this open auction (the decision's `silence_s`
        param: a silence the rulebook fixes), or None when no rule fixes one."""
        rule = self.session.decision().interaction.params.get("silence_s")
        return None if rule is None else float(rule)

    def _silence_s(self) -> float:
        """An open auction's silence: the game's rule when its rulebook sets one (never
        configured, never paused), else the window the game's own setting gives (the
        decision's `window_s`, from a setting of the game), else the table's configured
        length (timing.silence_s). Only the rule is never paused."""
        rule = self._rule_silence()
        if rule is not None:
            return rule
        window = self.session.decision().interaction.params.get("window_s")
        return float(window) if window is not None else self.timing.silence_s

    def _bidders(self):
        """[(seat, lots)] still in the lot auction, as the decision lists them."""
        return [tuple(b) for b in self.session.decision().interaction.params.get("bidders", [])]

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
            self._error(error)
            return False
        except (CorbeilleError, OSError, ValueError) as error:
            self._error(str(error))
            return False
        if act.kind.startswith("learn_") and self.learned_writer is not None:
            self._keep_learned()
        self.news = tuple(self._news(act, events))
        self.news_again = lambda: tuple(self._news(act, events))
        self.resumed = False
        self.changed = True
        return True

    def _keep_learned(self) -> None:
        """Box data read at the table, kept for the next game: a card that cannot take it
        loses only that (the journal has it; `corbeille box learned` writes it again)."""
        try:
            self.learned_writer(self.session.game, self.session.game_id)
        except OSError as error:
            log.error("cannot keep what the table learned: %s", error)

    def _error(self, message) -> None:
        """Say a failure (a text) or a refusal (an IllegalAction, worded in the language of
        the screen that shows it), with the error beep."""
        self.beeps.append("error")
        said = message if isinstance(message, IllegalAction) else None
        self.stack.append(Error(message.message(self.lang) if said is not None else message, said))
        self.changed = True

    @property
    def ui(self):
        """The adapter of the game being played (firmware/games)."""
        return adapter_of(self.session)

    def _news(self, act, events):
        """The line shown above the next menu: the most telling thing the action did."""
        return self.ui.news(self.ctx, act, events, describe)

    # ---------------------------------------------------------------- helpers
    def _pop_to_root(self):
        if self.speak is not None and not self.speak.get("manual"):
            self.speak["deadline"] = self.now + self.timing.speaking_window_s

    # ---------------------------------------------------------------- undo
    def _offer_undo(self):
        if self.session is None or self.session.last_action is None:
            self.beeps.append("error")
            return
        if self.stack[-1]["t"] == "undo":
            return
        self._pause_seats()
        self.stack.append(Undo())

    def undo(self) -> bool:
        try:
            act = self.session.undo()
        except (CorbeilleError, OSError) as error:
            self._error(error if isinstance(error, IllegalAction) else str(error))
            return False
        self.news_again = lambda: (t("news.undone", self.lang, action=describe(self.ctx, act)),)
        self.news = self.news_again()
        self.undone = True
        self.changed = True
        return True

    def undo_to(self, length: int) -> bool:
        """Undo back to the first `length` actions (from the history)."""
        try:
            undone = self.session.undo_to(length)
        except (CorbeilleError, OSError) as error:
            self._error(error if isinstance(error, IllegalAction) else str(error))
            return False
        self.news_again = lambda: (t("news.undone_to", self.lang, count=len(undone), n=length + 1),)
        self.news = self.news_again()
        self.undone = bool(undone)
        self.changed = True
        return True

    # ------------------------------------------------------------- overlays
    def _private(self, seat):
        if self.session is None or not 0 <= seat < len(self.session.players):
            return
        if self.stack and self.stack[-1]["t"] == "private":
            self.stack.pop()
        self.stack.append(Private(seat, self.now + self.timing.private_view_s))
        self.changed = True

    def _tag(self, tag):
        if not tag:
            return
        if self.stack and self.stack[0]["t"] == "setup":
            # The setup (or the question naming a card) takes the players' cards; a tap
            # elsewhere in the setup shows nothing of any game.
            take = getattr(self._top(), "card", None)
            if take is not None:
                take(self, tag)
            self.changed = True
            return
        if self.session is None:
            return
        if tag in self.tags or self._card_in_game(tag):
            self._private(self.tags[tag])
        else:
            self.stack.append(Rfid(tag))
        self.changed = True

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
        """The clock reached `now`: the frame on top ticks (a private view closing, a seat
        timer); a root uncovered by that tick ticks too, as it would have under it."""
        top = self._top()
        if isinstance(top, Frame):
            top.tick(self, now)
        if self.session is None or not self.stack:
            return
        if self.stack[-1] is not top:
            uncovered = self._top()
            if len(self.stack) == 1 and isinstance(uncovered, Frame):
                uncovered.tick(self, now)
        if len(self.stack) == 1:
            self._clock_warn()

    def next_deadline(self) -> float | None:
        """When the next tick has something to do (the loop sleeps until then)."""
        top = self._top()
        return top.deadline(self) if isinstance(top, Frame) else None

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
        if head == "key":
            return self._console_key(words[1:])
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
            from firmware.script import said
            return said(error, self.lang)       # an unreadable line in the box's language
        # Chance left out (dice, a tile, a deal): the engine fills it with the device's draw.
        from firmware.script import fill_dice
        act = fill_dice(self.session.game, act)
        if self.apply(act):
            return "ok"
        message = self.stack.pop().get("msg", "error")
        return message

    CONSOLE_KINDS = {"press": "press", "long": "long_press", "long_press": "long_press",
                     "down": "down", "up": "up"}

    def _console_key(self, words) -> str:
        """`key NAME [long|down|up]`: a button, as if pressed; anything else is refused
        with what is allowed (a typo must not reach the UI as an unknown event)."""
        name = words[0].lower() if words else ""
        kind = self.CONSOLE_KINDS.get(words[1].lower() if len(words) > 1 else "press")
        seat = name.startswith("seat") and name[4:].isascii() and name[4:].isdigit() and len(name) <= 6
        if not (name in KEYS or seat) or kind is None or len(words) > 2:
            return ("key NAME [long|down|up]: NAME is " + ", ".join(KEYS) + " or seat1, seat2...; got "
                    + repr(" ".join(words)))
        from drivers.events import InputEvent
        self.handle(InputEvent(name, kind, self.now))
        return "ok"

    # ============================================================ UI state
    def ui_state(self) -> dict:
        frames = [dump(f) for f in self.stack if getattr(load(f), "saved", True)]
        return {"game": self.session.game_id if self.session is not None and frames and frames[0]["t"] != "setup" else None,
                "n": len(self.session.game.log) if self.session is not None else 0,
                "stack": frames, "news": list(self.news)}

    def restore(self, state: dict) -> bool:
        """Put back a saved UI state if it belongs to the current game position."""
        frames = state.get("stack") or []
        if not frames or not all(isinstance(f, dict) and isinstance(load(f), Frame) for f in frames):
            return False                # a frame type this firmware does not know: start from the root
        if frames[0]["t"] == "setup":
            if state.get("game") is not None:
                return False
            self.stack = [load(f) for f in frames]
            return True
        if self.session is None or state.get("game") != self.session.game_id \
                or state.get("n") != len(self.session.game.log):
            return False
        root = self._root()
        if frames[0]["t"] != root["t"] or frames[0].get("kind") != root.get("kind"):
            return False
        self.stack = [load(f) for f in frames]
        self.news = tuple(str(x) for x in state.get("news", ()))
        try:
            self.screen()
        except Exception:          # a state this firmware cannot show: start from the root
            self.stack = [root]
            return False
        return True

    # ============================================================ live channel
    def live(self) -> dict:
        """What the readers beside the box show that the journal does not hold
        (firmware/channel.py): the game and its length, the language, what is asked now,
        and the seat clock's public line (what is asked or sold, who leads) with its seconds."""
        session = self.session
        if session is None or (self.stack and self.stack[0]["t"] == "setup"):
            return {"lang": self.lang, "game": None}
        line = self.board_clock(False)
        return {"lang": self.lang, "game": session.game_id, "actions": len(session.game.log),
                "asking": "" if session.over else self._title(),
                "clock": None if line is None else {"line": line, "seconds": self.clock_seconds()}}

    # ================================================================ lights
    def lit(self) -> set:
        """Seats (0-based) to light: those still to answer in a speaking round, the bidders
        still in, or the player whose turn it is."""
        if self.session is None or (self.stack and self.stack[0]["t"] == "setup"):
            return set()
        d = self.session.decision()
        if self.stack and self.stack[0]["t"] == "speak" and self.speak is not None:
            return set(self._to_answer())
        if self.stack and self.stack[0]["t"] == "auction":
            return {s for s, _ in self._bidders()}
        if self.stack and self.stack[0]["t"] == "open_auction":
            option = d.role(I.OFFER)
            if option is None and d.role(I.CONFIRM) is not None and d.actor is not None:
                return {d.actor}           # the offer's maker, who accepts on his button
            return set(option.fields["player"].values) if option else set()
        return {d.actor} if d.actor is not None else set()

    # ================================================================ screens
    def screen(self) -> Screen:
        screen = self._top().draw(self)
        if self.resumed:
            screen = replace(screen, lines=(self._resumed_line(),) + tuple(screen.lines))
        if self.status and not screen.status:
            screen = replace(screen, status=self.status)
        return screen

    def _footer(self, key):
        return t("footer." + key, self.lang)

    def _title(self):
        def build():
            d = self.session.decision()
            return text("ui.title." + d.prompt.removeprefix("prompt."), self.lang, **self._params(d.params))
        return self._memo("title", build)

    def _params(self, params):
        """The pending decision's params as texts use them, with what its interaction adds
        for the texts only (`text`: derived from the state, no part of it; a value named in
        words for a param the decision gives as an id)."""
        out = {}
        extra = self.session.decision().interaction.params.get("text", {})
        for k, v in {**params, **extra}.items():
            if isinstance(v, list):
                out[k] = ", ".join(str(x) for x in v)
            else:
                out[k] = v
        return out

    def _whose(self):
        d = self.session.decision()
        return self.session.players[d.actor] if d.actor is not None else ""
