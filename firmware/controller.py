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

This module holds the core: events and key dispatch, applying actions, undo, the overlays'
entry points (private view, errors) and ticks. The parts it holds have modules of their
own: the root screen rebuilt from the decision (`root_flow`), the screens' kit
(`screen_kit`: what they derive from the decision, and the texts they share), the seat
buttons, their lights and auctions (`seat_buttons`), the seat clock (`seat_clock`), a
speaking round (`speaking_round`), the setup's start and end and the resume of the
journal's last game (`setup_flow`), the serial console's lines (`console_lines`), the RFID
cards and their taps (`tag_book`) and the saved screen (`saved_screen`); what the web
view's live channel reads is `channel.live_state`. The screens are in firmware/screens/
(`overlays`, `menu`, `steps`: chance, settle, payday, first, ranking; `entries`: the square
menu and an action's fields; `seats`: speaking rounds and auctions; `setup`) and reach the
controller and its parts through public methods.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, replace

from engines.core.errors import CorbeilleError, IllegalAction
from firmware.games import adapter_of
from firmware.menus import describe
from firmware.screen import Screen
from firmware.screens.menu import Menu
from firmware.screens.base import Frame, load
from firmware.screens.entries import Entry
from firmware.screens.overlays import Error, Private, Undo
from firmware import saved_screen
from firmware.console_lines import KEYS, ConsoleLines
from firmware.root_flow import RootFlow
from firmware.screen_kit import ScreenKit
from firmware.seat_buttons import SeatButtons
from firmware.seat_clock import SeatClock
from firmware.session import Session
from firmware.setup_flow import SetupDefaults, SetupFlow
from firmware.speaking_round import SpeakingRound
from firmware.tag_book import TagBook
from firmware.texts import t

log = logging.getLogger("corbeille")



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


class Controller:
    rfid_reader = False        # a reader is fitted: the setup offers the players' cards (firmware/tag_book.py)
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
        self.tag_book = TagBook()                    # RFID tag -> seat
        self.console_lines = ConsoleLines(self)
        self.seat_clock = SeatClock(self)            # the root screen's seat clock (firmware/seat_clock.py)
        self.speaking = SpeakingRound(self)          # a speaking round on the seat buttons
        self.seats = SeatButtons(self)               # the seat buttons' events, auctions and lists
        self.kit = ScreenKit(self)                   # what the screens share (firmware/screen_kit.py)
        self.flow = RootFlow(self)                   # the root screen from the decision (firmware/root_flow.py)
        self.setup = SetupFlow(self)                 # the setup screen's start, box files, the game it creates
        self.phones = None                           # the web view's links (firmware/screens/phones.py)
        self.reported: set = set()
        self.undone = False                          # an undo: the next seat clock waits for OK
        self.position = False                        # a game under way being entered (screens/position.py)
        self.resumed = False                         # a game taken up after a restart, until the first press
        self.changed = True                          # something to draw or save

    # ====================================================================== boot
    def boot(self, now: float = 0.0, messages=()) -> None:
        """Resume the journal's last game on its saved screen, or start the setup."""
        self.now = now
        saved = None
        damaged = bool(messages)                     # the journal's own repairs, before any replay
        if self.journal is not None:
            saved, messages = self.setup.resume_last(messages)
        if self.session is None:
            self.setup.start_setup()
            if saved and saved.get("game") is None:
                self.restore(saved)
        else:
            self.flow.sync(force=True)
            if saved:
                self.restore(saved)
        if self.session is not None and self.session.over:
            self.flow.game_over()
        if self.session is not None:
            self.setup.resumed_after_restart(said=bool(messages))
        if messages:
            self.setup.say_repaired(messages, damaged)
        self.changed = True

    def attach(self, session: Session) -> None:
        """Play `session` (tests, benchmarks): its root screen becomes current."""
        self.session = session
        self.stack = []
        self.flow.seen = None
        self.flow.sync(force=True)

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
                self.seats.event(int(name[4:]) - 1, kind)
            elif name == "rfid" and kind == "tag":
                self.tag_book.tapped(self, event.data)
            elif name == "console" and kind == "line":
                self.console(event.data)
        finally:
            self.flow.sync()

    def recover(self) -> None:
        """After an unexpected error in the UI: back to the root screen, saying so."""
        self.speak = self.clock = None
        if self.session is not None and not (self.stack and self.stack[0]["t"] == "setup"):
            self.stack = []
            self.flow.sync(force=True)
        else:
            self.setup.start_setup()
        self.error(t("error.internal", self.lang))

    def take_beeps(self) -> list[str]:
        beeps, self.beeps = self.beeps, []
        return beeps

    def take_blinks(self) -> list[int]:
        blinks, self.blinks = self.blinks, []
        return blinks

    def top(self):
        """The frame on top, as an object when its type is a screen object (a frame pushed
        as a dict by older code is loaded in place)."""
        if not self.stack:
            return None
        self.stack[-1] = top = load(self.stack[-1])
        return top

    def _key(self, key: str) -> None:
        self.changed = True
        top = self.top()
        if top is None:
            return
        if getattr(top, "modal", False):
            top.key(self, key)
            return
        if key == "long_back" and self.session is not None and top["t"] not in ("setup",):
            self.offer_undo()
            return
        if key == "long_ok" and isinstance(top, Entry) and top.amount_step_key(self):
            return
        if key == "long_ok" and self.session is not None and top["t"] not in ("setup", "menu", "corr"):
            self.stack.append(Menu())
            self.pause_seats()
            return
        top.key(self, key)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        if len(self.stack) == 1 and self.speak is not None and not self.speak.get("manual"):
            self.speak["deadline"] = self.now + self.timing.speaking_window_s

    def pause_seats(self) -> None:
        """The operator took over: seat timers stop for this decision."""
        if self.speak is not None:
            self.speak["manual"] = True
        if self.clock is not None:
            self.clock["manual"] = True

    # ================================================================== applying
    def apply(self, act) -> bool:
        """Apply an action through the session (engine, then journal). False if refused."""
        try:
            events = self.session.apply(act)
        except IllegalAction as error:
            self.error(error)
            return False
        except (CorbeilleError, OSError, ValueError) as error:
            self.error(str(error))
            return False
        self.news = tuple(self._news(act, events))
        self.news_again = lambda: tuple(self._news(act, events))
        self.resumed = False
        self.changed = True
        return True

    def error(self, message) -> None:
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
        return self.ui.news(self.kit.ctx, act, events, describe)

    def pop_to_root(self):
        if self.speak is not None and not self.speak.get("manual"):
            self.speak["deadline"] = self.now + self.timing.speaking_window_s

    # ---------------------------------------------------------------- undo
    def offer_undo(self):
        if self.session is None or self.session.last_action is None:
            self.beeps.append("error")
            return
        if self.stack[-1]["t"] == "undo":
            return
        self.pause_seats()
        self.stack.append(Undo())

    def undo(self) -> bool:
        try:
            act = self.session.undo()
        except (CorbeilleError, OSError) as error:
            self.error(error if isinstance(error, IllegalAction) else str(error))
            return False
        self.news_again = lambda: (t("news.undone", self.lang, action=describe(self.kit.ctx, act)),)
        self.news = self.news_again()
        self.undone = True
        self.changed = True
        return True

    def undo_to(self, length: int) -> bool:
        """Undo back to the first `length` actions (from the history)."""
        try:
            undone = self.session.undo_to(length)
        except (CorbeilleError, OSError) as error:
            self.error(error if isinstance(error, IllegalAction) else str(error))
            return False
        self.news_again = lambda: (t("news.undone_to", self.lang, count=len(undone), n=length + 1),)
        self.news = self.news_again()
        self.undone = bool(undone)
        self.changed = True
        return True

    # ------------------------------------------------------------- overlays
    def private(self, seat):
        if self.session is None or not 0 <= seat < len(self.session.players):
            return
        if self.stack and self.stack[-1]["t"] == "private":
            self.stack.pop()
        self.stack.append(Private(seat, self.now + self.timing.private_view_s))
        self.changed = True

    def start_entry(self, kind, root=False, menu=False):
        """An action's fields asked one at a time on top of the current screen
        (firmware/screens/entries.py), from the square menu, the menu or a seat screen."""
        frame = Entry(kind, root=root, menu=menu)
        frame.reset(self)
        self.stack.append(frame)
        frame.advance(self)

    def set_lang(self, lang: str) -> None:
        """The menu's one controller-wide setting, kept in the journal for the next start."""
        self.lang = lang
        # The line above the menu follows the switch too; one brought back by a restart (its
        # text saved, not what made it) cannot, and goes rather than stay in the other language.
        self.news = self.news_again() if self.news_again is not None else ()
        if self.journal is not None:
            self.journal.set_meta("lang", lang)
        self.changed = True

    # ================================================================= ticks
    def _tick(self, now) -> None:
        """The clock reached `now`: the frame on top ticks (a private view closing, a seat
        timer); a root uncovered by that tick ticks too, as it would have under it."""
        top = self.top()
        if isinstance(top, Frame):
            top.tick(self, now)
        if self.session is None or not self.stack:
            return
        if self.stack[-1] is not top:
            uncovered = self.top()
            if len(self.stack) == 1 and isinstance(uncovered, Frame):
                uncovered.tick(self, now)
        if len(self.stack) == 1:
            self.seat_clock.warn()

    def next_deadline(self) -> float | None:
        """When the next tick has something to do (the loop sleeps until then)."""
        top = self.top()
        return top.deadline(self) if isinstance(top, Frame) else None

    # ============================================================= console
    def console(self, line: str) -> str:
        """A line of the serial console (firmware/console_lines.py)."""
        try:
            return self.console_lines.answer(line)
        finally:
            self.flow.sync()

    # ============================================================ UI state
    def ui_state(self) -> dict:
        """The screen to save with the next commit (firmware/saved_screen.py)."""
        return saved_screen.saved(self)

    def restore(self, state: dict) -> bool:
        """Put back a saved screen if it belongs to the current game position."""
        return saved_screen.restore(self, state)

    # ================================================================ screens
    def screen(self) -> Screen:
        screen = self.top().draw(self)
        if self.resumed:
            screen = replace(screen, lines=(self.setup.resumed_line(),) + tuple(screen.lines))
        if self.status and not screen.status:
            screen = replace(screen, status=self.status)
        return screen
