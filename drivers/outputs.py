"""Seat LEDs and the buzzer: gpiozero output devices, never blocking the game loop.

``SeatLights`` lights the seat whose turn it is to answer (an LED per seat is optional:
seats without one are skipped). ``Beeper`` plays three short patterns: ``tick``
(auction clock), ``confirm`` and ``error``. Both return at once: LEDs blink and an
active buzzer beeps through gpiozero's own background threads (``background=True``);
a passive (tonal) buzzer plays its notes in a small thread of ours, a new pattern
cutting the previous one short.

A GPIO write that raises OSError marks the part ``degraded`` and is skipped during a
backoff (drivers.faults), never raised. ``RecordingSeatLights`` and
``RecordingBeeper`` are the desktop stand-ins: they record calls (and the beeper can
ring the terminal bell on errors).
"""
from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from drivers.config import Section
from drivers.errors import ConfigError
from drivers.faults import FaultGuard

MAX_SEATS = 6

# Active buzzer: (on seconds, off seconds, count) for gpiozero's Buzzer.beep.
BEEPS = {"tick": (0.03, 0.03, 1), "confirm": (0.06, 0.06, 2), "error": (0.25, 0.1, 2)}
# Passive buzzer: notes as (frequency in Hz or None for silence, seconds).
TUNES = {
    "tick": [(1760, 0.03)],
    "confirm": [(1320, 0.06), (None, 0.04), (1760, 0.08)],
    "error": [(440, 0.15), (None, 0.05), (330, 0.25)],
}


def _guarded(method):
    """Run a GPIO method through the part's FaultGuard: OSError degrades, never raises."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        ok, result = self.guard.call(self._clock(), method, self, *args, **kwargs)
        return result if ok else None
    return wrapper


class SeatLights:
    """One optional LED per seat; ``pins[i]`` is seat i+1, None where there is none."""

    def __init__(self, pins: Sequence[Any], *, pin_factory=None, active_high: bool = True,
                 clock: Callable[[], float] = time.monotonic, name: str = "seat lights"):
        from gpiozero import LED

        if len(pins) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} seat lights, got {len(pins)}")
        self._clock = clock
        self.guard = FaultGuard(name)
        self.leds = {}
        try:
            for seat, pin in enumerate(pins, start=1):
                if pin is not None:
                    self.leds[seat] = LED(pin, active_high=active_high, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    @property
    def degraded(self) -> bool:
        return self.guard.degraded

    @property
    def last_error(self) -> str:
        return self.guard.last_error

    @property
    def seats(self) -> list[int]:
        """The seats that have an LED."""
        return sorted(self.leds)

    def _led(self, seat: int):
        if not 1 <= seat <= MAX_SEATS:
            raise ValueError(f"seat must be 1..{MAX_SEATS}, got {seat}")
        return self.leds.get(seat)

    @_guarded
    def light(self, seat: int) -> None:
        """Turn this seat's LED on, steady (other seats unchanged)."""
        led = self._led(seat)
        if led is not None:
            led.on()

    @_guarded
    def light_only(self, seat: int) -> None:
        """This seat on, every other off: "your turn to answer"."""
        target = self._led(seat)
        for led in self.leds.values():
            if led is not target:
                led.off()
        if target is not None:
            target.on()

    @_guarded
    def off(self, seat: int) -> None:
        led = self._led(seat)
        if led is not None:
            led.off()

    @_guarded
    def all_off(self) -> None:
        for led in self.leds.values():
            led.off()

    @_guarded
    def blink(self, seat: int, on_time: float = 0.25, off_time: float = 0.25,
              n: int | None = None) -> None:
        """Blink in the background (``n`` times, or until another call for this seat)."""
        led = self._led(seat)
        if led is not None:
            led.blink(on_time=on_time, off_time=off_time, n=n, background=True)

    def is_lit(self, seat: int) -> bool:
        led = self.leds.get(seat)
        return bool(led is not None and led.is_lit)

    def close(self) -> None:
        for led in self.leds.values():
            led.close()


class Beeper:
    """The buzzer: ``tick()``, ``confirm()``, ``error()``, ``silence()``; all return at once.

    ``tonal=False``: an active buzzer (gpiozero Buzzer, on/off). ``tonal=True``: a passive
    piezo on a PWM pin (gpiozero TonalBuzzer) playing the notes in ``TUNES``.
    """

    def __init__(self, pin, *, pin_factory=None, tonal: bool = False, active_high: bool = True,
                 clock: Callable[[], float] = time.monotonic, name: str = "buzzer"):
        self._clock = clock
        self.guard = FaultGuard(name)
        self.tonal = tonal
        self._player: threading.Thread | None = None
        self._stop = threading.Event()
        if tonal:
            from gpiozero import TonalBuzzer
            from gpiozero.tones import Tone

            # A3..A7 (220-3520 Hz): the default single octave around A4 is too narrow.
            self.buzzer = TonalBuzzer(pin, mid_tone=Tone("A5"), octaves=2, pin_factory=pin_factory)
        else:
            from gpiozero import Buzzer

            self.buzzer = Buzzer(pin, active_high=active_high, pin_factory=pin_factory)

    @property
    def degraded(self) -> bool:
        return self.guard.degraded

    @property
    def last_error(self) -> str:
        return self.guard.last_error

    def tick(self) -> None:
        self.play("tick")

    def confirm(self) -> None:
        self.play("confirm")

    def error(self) -> None:
        self.play("error")

    @_guarded
    def play(self, pattern: str) -> None:
        if pattern not in BEEPS:
            raise ValueError(f"unknown pattern {pattern!r}; known: {', '.join(BEEPS)}")
        if not self.tonal:
            on, off, count = BEEPS[pattern]
            self.buzzer.beep(on_time=on, off_time=off, n=count, background=True)
            return
        self._cut()
        self._stop = threading.Event()
        self._player = threading.Thread(target=self._play_notes, args=(TUNES[pattern], self._stop),
                                        name="beeper", daemon=True)
        self._player.start()

    def _play_notes(self, notes, stop: threading.Event) -> None:
        from gpiozero.tones import Tone

        try:
            for frequency, seconds in notes:
                if stop.is_set():
                    break
                if frequency is None:
                    self.buzzer.stop()
                else:
                    self.buzzer.play(Tone(frequency=frequency))
                if stop.wait(seconds):
                    break
            self.buzzer.stop()
        except OSError as exc:
            self.guard.failed(exc, self._clock())
        except Exception:
            pass  # the device was closed while playing

    def _cut(self) -> None:
        self._stop.set()
        if self._player is not None and self._player is not threading.current_thread():
            self._player.join(timeout=1)
        self._player = None

    @_guarded
    def silence(self) -> None:
        self._cut()
        if self.tonal:
            self.buzzer.stop()
        else:
            self.buzzer.off()

    def wait(self, timeout: float = 2.0) -> None:
        """Block until the current pattern has finished (for tests and shutdown)."""
        if self._player is not None:
            self._player.join(timeout)
        thread = getattr(self.buzzer, "_blink_thread", None)
        if thread is not None:
            thread.join(timeout)

    def close(self) -> None:
        self._cut()
        self.buzzer.close()


# --------------------------------------------------------------------------- stand-ins

class RecordingSeatLights:
    """Desktop stand-in for SeatLights: ``calls`` in order, ``state`` seat -> on/off/blink."""

    degraded = False
    last_error = ""

    def __init__(self, seats: Sequence[int] = (1, 2, 3, 4, 5, 6)):
        self.seats = sorted(seats)
        self.calls: list[tuple] = []
        self.state = {seat: "off" for seat in self.seats}

    def light(self, seat):
        self.calls.append(("light", seat))
        self.state[seat] = "on"

    def light_only(self, seat):
        self.calls.append(("light_only", seat))
        self.state = {s: "on" if s == seat else "off" for s in self.seats}

    def off(self, seat):
        self.calls.append(("off", seat))
        self.state[seat] = "off"

    def all_off(self):
        self.calls.append(("all_off",))
        self.state = {seat: "off" for seat in self.seats}

    def blink(self, seat, on_time=0.25, off_time=0.25, n=None):
        self.calls.append(("blink", seat))
        self.state[seat] = "blink"

    def is_lit(self, seat):
        return self.state.get(seat) == "on"

    def close(self):
        pass


class RecordingBeeper:
    """Desktop stand-in for Beeper: ``calls`` lists the patterns; ``bell`` rings on error."""

    degraded = False
    last_error = ""

    def __init__(self, bell: TextIO | None = None):
        self.calls: list[str] = []
        self.bell = bell

    def play(self, pattern):
        if pattern not in BEEPS:
            raise ValueError(f"unknown pattern {pattern!r}; known: {', '.join(BEEPS)}")
        self.calls.append(pattern)
        if pattern == "error" and self.bell is not None:
            self.bell.write("\a")
            self.bell.flush()

    def tick(self):
        self.play("tick")

    def confirm(self):
        self.play("confirm")

    def error(self):
        self.play("error")

    def silence(self):
        self.calls.append("silence")

    def wait(self, timeout=2.0):
        pass

    def close(self):
        pass


# --------------------------------------------------------------------------- factories

def build_seat_lights(config: Mapping[str, Any] | None, *, pin_factory=None,
                      clock: Callable[[], float] = time.monotonic, prefix: str = "seat_lights"):
    """SeatLights (``type`` "gpio", the default) or RecordingSeatLights ("recording")."""
    section = Section(config, prefix)
    kind = section.choice("type", ["gpio", "recording"], "gpio")
    if kind == "recording":
        seats = section.raw("seats", [1, 2, 3, 4, 5, 6])
        section.done()
        return RecordingSeatLights(seats)
    pins = section.pins("pins", maximum=MAX_SEATS)
    active_high = section.boolean("active_high", True)
    section.done()
    return _building(section, lambda: SeatLights(pins, pin_factory=pin_factory,
                                                 active_high=active_high, clock=clock))


def build_beeper(config: Mapping[str, Any] | None, *, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic, bell: TextIO | None = None,
                 prefix: str = "buzzer"):
    """Beeper (``type`` "buzzer" or "tonal") or RecordingBeeper ("recording")."""
    section = Section(config, prefix)
    kind = section.choice("type", ["buzzer", "tonal", "recording"], "buzzer")
    if kind == "recording":
        use_bell = section.boolean("bell", False)
        section.done()
        return RecordingBeeper(bell=(bell or sys.stdout) if use_bell else None)
    pin = section.pin("pin")
    active_high = section.boolean("active_high", True)
    section.done()
    return _building(section, lambda: Beeper(pin, pin_factory=pin_factory, tonal=kind == "tonal",
                                             active_high=active_high, clock=clock))


def _building(section: Section, build):
    from gpiozero import GPIOPinInUse, PinError, PinPWMUnsupported

    try:
        return build()
    except PinPWMUnsupported as exc:
        raise ConfigError(f"{section.prefix}: this pin cannot do PWM, which a tonal buzzer "
                          f"needs (or use type 'buzzer' for an active buzzer)") from exc
    except GPIOPinInUse as exc:
        raise ConfigError(f"{section.prefix}: {exc} (each pin can serve one part only)") from exc
    except (PinError, ValueError) as exc:
        raise ConfigError(f"{section.prefix}: {exc}") from exc
