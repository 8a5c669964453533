"""Buttons and the rotary encoder: gpiozero devices turned into InputEvents on a queue.

Inputs never call game logic: every edge becomes an ``InputEvent`` put on the queue
handed in, and the firmware's one loop takes it from there.

Debouncing is done here, not with gpiozero's ``bounce_time``: a press is acted on at
its first edge and edges in the following ``debounce`` seconds (20 ms) are ignored,
so a press costs no latency. If the contacts settle in the other state during that
window (a glitch, or a tap shorter than the window), a check at the end of the window
reads the pin and catches up, so a button can never be left "stuck down".

Each button reports "down" and "up" edges (auctions use holding a seat button),
"long_press" once when held for ``hold_time`` (1 s, gpiozero's name for it), and "press"
on release when the hold was shorter. ``debounce`` is ours, not gpiozero's ``bounce_time``
(which would delay every press). Holding OK and Back together for ``poweroff_hold_time``
(5 s; 0 switches it off) sends one "power" long_press: the box's way to shut down
(drivers/power.py). The clock and the timers are parameters (``clock``, ``timers``), so
tests drive time by hand with ``drivers.clock.ManualClock``; ``pin_factory`` is passed
to every gpiozero device (tests use gpiozero's ``MockFactory``).
"""
from __future__ import annotations

import queue as queue_module
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from drivers.clock import ThreadTimers
from drivers.config import Section
from drivers.errors import ConfigError
from drivers.events import DOWN, LONG_PRESS, PRESS, UP, InputEvent

DEBOUNCE = 0.02
HOLD_TIME = 1.0                  # the configuration's timing.hold_time default too
POWEROFF_HOLD_TIME = 5.0         # OK + Back held this long: "power" long_press
POWER = "power"
MAX_SEATS = 6
OPERATOR_NAMES = ("up", "down", "ok", "back")


class PressTracker:
    """Debounce and long-press logic for one button; pure: time is passed in.

    ``edge(pressed, now)`` returns the events for an edge, or None when the edge falls
    inside the debounce window and is ignored. ``check_hold(now)`` returns the
    long_press event when it is due.
    """

    def __init__(self, name: str, *, debounce: float = DEBOUNCE, hold_time: float = HOLD_TIME):
        self.name = name
        self.debounce = debounce
        self.hold_time = hold_time
        self.pressed = False
        self.pressed_at = 0.0
        self.long_sent = False
        self.last_edge = float("-inf")
        self.presses = 0                  # a counter identifying the current press

    def edge(self, pressed: bool, now: float) -> list[InputEvent] | None:
        if now - self.last_edge < self.debounce - 1e-9:   # tolerance for float clocks
            return None
        if pressed == self.pressed:
            return []
        self.last_edge = now
        self.pressed = pressed
        if pressed:
            self.pressed_at = now
            self.long_sent = False
            self.presses += 1
            return [InputEvent(self.name, DOWN, now)]
        events = [InputEvent(self.name, UP, now)]
        if not self.long_sent:
            events.append(InputEvent(self.name, PRESS, now))
        return events

    @property
    def hold_due(self) -> float | None:
        """When the long press will be reported, if the button stays down."""
        if self.pressed and not self.long_sent:
            return self.pressed_at + self.hold_time
        return None

    def check_hold(self, now: float) -> list[InputEvent]:
        due = self.hold_due
        if due is None or now < due:
            return []
        self.long_sent = True
        return [InputEvent(self.name, LONG_PRESS, now)]

    @property
    def settles_at(self) -> float:
        return self.last_edge + self.debounce


class _ButtonSet:
    """gpiozero input devices by name, each with a PressTracker; the common part of the devices."""

    def __init__(self, pins: Mapping[str, Any], *, queue: queue_module.Queue,
                 pin_factory=None, pull_up: bool = True, debounce: float = DEBOUNCE,
                 hold_time: float = HOLD_TIME, clock: Callable[[], float] = time.monotonic,
                 timers=None, combos: Mapping[str, tuple[tuple[str, ...], float]] | None = None):
        from gpiozero import DigitalInputDevice

        if debounce < 0 or hold_time <= 0:
            raise ValueError("debounce must be >= 0 and hold_time > 0")
        self.queue = queue
        self._clock = clock
        if timers is None:
            timers = clock if hasattr(clock, "call_later") else ThreadTimers()
        self._timers = timers
        self._lock = threading.RLock()
        self._handles: set = set()
        self._settling: set[str] = set()
        self.buttons = {}
        self.trackers: dict[str, PressTracker] = {}
        self.pin_factory = pin_factory
        # event name -> (buttons held together, for how long): one long_press of that name.
        self.combos = {event: (names, hold) for event, (names, hold) in (combos or {}).items() if hold > 0}
        try:
            for name, pin in pins.items():
                if pin is None:
                    continue
                # gpiozero's Button is this device plus a hold thread per button that
                # wakes every 0.1 s; the long press is timed here instead (with the
                # injectable clock), so the plain input device is enough. No
                # bounce_time: gpiozero's would delay every press by that period.
                button = DigitalInputDevice(pin, pull_up=pull_up, pin_factory=pin_factory)
                self.buttons[name] = button
                self.trackers[name] = PressTracker(name, debounce=debounce, hold_time=hold_time)
                button.when_activated = self._handler(name, True)
                button.when_deactivated = self._handler(name, False)
        except Exception:
            self.close()
            raise

    def _handler(self, name: str, pressed: bool):
        def handler():
            self._edge(name, pressed)
        return handler

    def _put(self, events):
        for event in events:
            self.queue.put(event)

    def _later(self, delay: float, callback) -> None:
        holder = []

        def run():
            self._handles.discard(holder[0])
            callback()

        handle = self._timers.call_later(delay, run)
        holder.append(handle)
        self._handles.add(handle)

    def _edge(self, name: str, pressed: bool) -> None:
        with self._lock:
            now = self._clock()
            tracker = self.trackers[name]
            events = tracker.edge(pressed, now)
            if events is None:
                if name not in self._settling:
                    self._settling.add(name)
                    self._later(tracker.settles_at - now, lambda: self._settle(name))
                return
            self._put(events)
            if events and pressed:
                self._schedule_hold(name, tracker)
                self._schedule_combos(name)

    def _schedule_hold(self, name: str, tracker: PressTracker) -> None:
        press = tracker.presses
        due = tracker.hold_due
        if due is not None:
            self._later(due - self._clock(), lambda: self._hold(name, press))

    def _hold(self, name: str, press: int) -> None:
        with self._lock:
            tracker = self.trackers[name]
            if tracker.presses != press:
                return                          # released (and maybe pressed again) since
            now = self._clock()
            events = tracker.check_hold(now)
            if events:
                self._put(events)
            elif tracker.hold_due is not None:  # the timer ran early by this clock
                self._later(tracker.hold_due - now, lambda: self._hold(name, press))

    def _settle(self, name: str) -> None:
        with self._lock:
            tracker = self.trackers[name]
            now = self._clock()
            if now < tracker.settles_at:
                self._later(tracker.settles_at - now, lambda: self._settle(name))
                return
            self._settling.discard(name)
            button = self.buttons.get(name)
            if button is None or button.closed:
                return
            actual = button.is_active
            if actual != tracker.pressed:
                events = tracker.edge(actual, now)
                self._put(events or [])
                if events and actual:
                    self._schedule_hold(name, tracker)
                    self._schedule_combos(name)

    def _combo_state(self, names) -> tuple[int, ...] | None:
        """The press counts of ``names`` when all are down now, else None."""
        trackers = [self.trackers.get(n) for n in names]
        if any(t is None or not t.pressed for t in trackers):
            return None
        return tuple(t.presses for t in trackers)

    def _schedule_combos(self, name: str) -> None:
        for event, (names, hold) in self.combos.items():
            if name in names:
                state = self._combo_state(names)
                if state is not None:
                    self._later(hold, lambda e=event, ns=names, st=state: self._combo(e, ns, st))

    def _combo(self, event: str, names, state) -> None:
        with self._lock:
            # Still the same presses, never released in between: the hold is complete.
            if self._combo_state(names) == state:
                self.queue.put(InputEvent(event, LONG_PRESS, self._clock()))

    def is_pressed(self, name: str) -> bool:
        """The debounced state of a button, as last reported."""
        return self.trackers[name].pressed

    def close(self) -> None:
        for handle in list(self._handles):
            handle.cancel()
        self._handles.clear()
        for button in self.buttons.values():
            button.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class OperatorButtons(_ButtonSet):
    """The four operator buttons: events named "up", "down", "ok", "back"."""

    def __init__(self, up, down, ok, back, *, poweroff_hold_time: float = POWEROFF_HOLD_TIME, **kwargs):
        super().__init__({"up": up, "down": down, "ok": ok, "back": back},
                         combos={POWER: (("ok", "back"), poweroff_hold_time)}, **kwargs)


class SeatButtons(_ButtonSet):
    """Up to six seat buttons; ``pins[i]`` is seat i+1 ("seat1".."seat6"), None if absent."""

    def __init__(self, pins: Sequence[Any], **kwargs):
        if len(pins) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} seat buttons, got {len(pins)}")
        super().__init__({f"seat{i + 1}": pin for i, pin in enumerate(pins)}, **kwargs)

    @property
    def seats(self) -> list[int]:
        """The seat numbers that have a button."""
        return sorted(int(name[4:]) for name in self.buttons)


class OperatorEncoder(_ButtonSet):
    """A rotary encoder with push switch, plus a Back button.

    A detent clockwise is a "press" of ``clockwise`` ("down" by default: turning right
    moves down a menu), anticlockwise one of the other direction; the push switch is
    "ok" (with long press) and the extra button "back". gpiozero's RotaryEncoder
    decodes the quadrature with a state machine that already ignores contact bounce.
    """

    def __init__(self, a, b, push, back, *, clockwise: str = "down", queue, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic,
                 poweroff_hold_time: float = POWEROFF_HOLD_TIME, **kwargs):
        from gpiozero import RotaryEncoder

        if clockwise not in ("up", "down"):
            raise ValueError("clockwise must be 'up' or 'down'")
        super().__init__({"ok": push, "back": back}, queue=queue, pin_factory=pin_factory,
                         clock=clock, combos={POWER: (("ok", "back"), poweroff_hold_time)}, **kwargs)
        self.clockwise = clockwise
        anticlockwise = "up" if clockwise == "down" else "down"
        try:
            self.encoder = RotaryEncoder(a, b, max_steps=0, pin_factory=pin_factory)
        except Exception:
            super().close()
            raise
        self.encoder.when_rotated_clockwise = lambda: self._step(clockwise)
        self.encoder.when_rotated_counter_clockwise = lambda: self._step(anticlockwise)

    def _step(self, name: str) -> None:
        self.queue.put(InputEvent(name, PRESS, self._clock()))

    def close(self) -> None:
        encoder = getattr(self, "encoder", None)
        if encoder is not None:
            encoder.close()
        super().close()


# --------------------------------------------------------------------------- factories

def _timing(section: Section) -> dict:
    return dict(pull_up=section.boolean("pull_up", True),
                debounce=section.number("debounce", DEBOUNCE, 0, 0.5),
                hold_time=section.number("hold_time", HOLD_TIME, 0.1, 10))


def _building(section: Section, build):
    """Run ``build``; a pin gpiozero refuses (in use, unknown) becomes a ConfigError."""
    from gpiozero import GPIOPinInUse, PinInvalidPin, PinUnknownPi

    try:
        return build()
    except GPIOPinInUse as exc:
        raise ConfigError(f"{section.prefix}: {exc} (each pin can serve one part only)") from exc
    except (PinInvalidPin, PinUnknownPi, ValueError) as exc:
        raise ConfigError(f"{section.prefix}: {exc}") from exc


def _distinct(section: Section, pins: dict[str, Any]) -> None:
    seen: dict[str, str] = {}
    for key, pin in pins.items():
        if pin is None:
            continue
        label = str(pin).upper().removeprefix("GPIO").removeprefix("BCM")
        if label in seen:
            raise section.error(key, f"pin {pin!r} is already used by {section.key(seen[label])}")
        seen[label] = key


def build_operator_inputs(config: Mapping[str, Any], queue: queue_module.Queue, *,
                          pin_factory=None, clock: Callable[[], float] = time.monotonic,
                          timers=None, prefix: str = "operator"):
    """OperatorButtons or OperatorEncoder from ``config["kind"]`` ("buttons" or "encoder")."""
    section = Section(config, prefix)
    kind = section.choice("kind", ["buttons", "encoder"], "buttons")
    common = dict(queue=queue, pin_factory=pin_factory, clock=clock, timers=timers, **_timing(section),
                  poweroff_hold_time=section.number("poweroff_hold_time", POWEROFF_HOLD_TIME, 0, 60))
    if kind == "buttons":
        pins = {name: section.pin(name) for name in OPERATOR_NAMES}
        section.done()
        _distinct(section, pins)
        return _building(section, lambda: OperatorButtons(**pins, **common))
    pins = {name: section.pin(name) for name in ("a", "b", "push", "back")}
    clockwise = section.choice("clockwise", ["down", "up"], "down")
    section.done()
    _distinct(section, pins)
    return _building(section, lambda: OperatorEncoder(**pins, clockwise=clockwise, **common))


def build_seat_buttons(config: Mapping[str, Any], queue: queue_module.Queue, *,
                       pin_factory=None, clock: Callable[[], float] = time.monotonic,
                       timers=None, prefix: str = "seats") -> SeatButtons:
    """SeatButtons from ``config["pins"]`` (one pin per seat, null for a seat without)."""
    section = Section(config, prefix)
    pins = section.pins("pins", maximum=MAX_SEATS)
    common = dict(queue=queue, pin_factory=pin_factory, clock=clock, timers=timers, **_timing(section))
    section.done()
    _distinct(section, {f"pins[{i}]": pin for i, pin in enumerate(pins)})
    return _building(section, lambda: SeatButtons(pins, **common))
