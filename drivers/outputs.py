"""Seat LEDs and the buzzer: gpiozero output devices, never blocking the game loop.

``SeatLights`` lights the seat whose turn it is to answer (an LED per seat is optional:
seats without one are skipped). The LEDs are gpiozero LEDs on GPIO pins, or pins of an
MCP23017 I2C expander (``Mcp23017``, ``ExpanderLED``), which the full build uses. ``Beeper`` plays three short patterns: ``tick``
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
from drivers.errors import BusError, ConfigError
from drivers.faults import FaultGuard, ReportsFaults

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


class SeatLights(ReportsFaults):
    """One optional LED per seat; ``pins[i]`` is seat i+1, None where there is none.

    Pins are GPIO pins (gpiozero LEDs), or, with ``expander`` (an ``Mcp23017``), port
    names such as "GPA0": the full build drives its seat LEDs through that expander
    because the header has no GPIO left (hardware/README.md).
    """

    def __init__(self, pins: Sequence[Any], *, pin_factory=None, active_high: bool = True,
                 expander: "Mcp23017 | None" = None,
                 clock: Callable[[], float] = time.monotonic, name: str = "seat lights"):
        if len(pins) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} seat lights, got {len(pins)}")
        self._clock = clock
        self.guard = FaultGuard(name)
        self.leds = {}
        self.expander = expander
        try:
            for seat, pin in enumerate(pins, start=1):
                if pin is None:
                    continue
                if expander is not None:
                    self.leds[seat] = ExpanderLED(expander, pin, active_high=active_high)
                else:
                    from gpiozero import LED

                    self.leds[seat] = LED(pin, active_high=active_high, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise


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
            try:
                led.close()
            except OSError:
                pass
        if self.expander is not None:
            self.expander.close()


class Mcp23017:
    """An MCP23017 I/O expander on I2C, its 16 pins (GPA0-GPA7, GPB0-GPB7) used as outputs.

    ``bus`` is an smbus-like object (``write_byte_data``); by default smbus2 opens
    ``/dev/i2c-<port>``. Output levels are cached and written a whole bank at a time
    (the OLAT register), so setting one pin never disturbs the others.
    """

    IODIR = (0x00, 0x01)
    OLAT = (0x14, 0x15)

    def __init__(self, bus=None, *, address: int = 0x20, port: int = 1):
        if bus is None:
            import smbus2

            bus = smbus2.SMBus(port)
        self.bus = bus
        self.address = address
        self._direction = [0xFF, 0xFF]     # power-on state: all inputs
        self._levels = [0x00, 0x00]
        self._lock = threading.Lock()

    @staticmethod
    def port(name: str) -> tuple[int, int]:
        """("GPB3") -> (bank 1, bit 3)."""
        text = str(name).upper()
        if len(text) != 4 or text[:2] != "GP" or text[2] not in "AB" or text[3] not in "01234567":
            raise ValueError(f"{name!r} is not an MCP23017 port (GPA0-GPA7, GPB0-GPB7)")
        return "AB".index(text[2]), int(text[3])

    def setup_output(self, name: str, value: bool = False) -> None:
        bank, bit = self.port(name)
        with self._lock:
            self._set_bit(bank, bit, value)
            self.bus.write_byte_data(self.address, self.OLAT[bank], self._levels[bank])
            self._direction[bank] &= ~(1 << bit) & 0xFF
            self.bus.write_byte_data(self.address, self.IODIR[bank], self._direction[bank])

    def _set_bit(self, bank, bit, value):
        if value:
            self._levels[bank] |= 1 << bit
        else:
            self._levels[bank] &= ~(1 << bit) & 0xFF

    def set(self, name: str, value: bool) -> None:
        bank, bit = self.port(name)
        with self._lock:
            self._set_bit(bank, bit, value)
            self.bus.write_byte_data(self.address, self.OLAT[bank], self._levels[bank])

    def get(self, name: str) -> bool:
        bank, bit = self.port(name)
        return bool(self._levels[bank] >> bit & 1)

    def release(self, name: str) -> None:
        """Back to an input (high impedance): what a closed gpiozero LED does."""
        bank, bit = self.port(name)
        with self._lock:
            self._direction[bank] |= 1 << bit
            self.bus.write_byte_data(self.address, self.IODIR[bank], self._direction[bank])

    def close(self) -> None:
        close = getattr(self.bus, "close", None)
        if close is not None:
            try:
                close()
            except OSError:
                pass


class ExpanderLED:
    """An LED on an expander pin, with the part of gpiozero's LED API SeatLights uses."""

    def __init__(self, expander: Mcp23017, port: str, *, active_high: bool = True):
        self.expander = expander
        self.port = port
        self.active_high = active_high
        self._stop = threading.Event()
        self._blinker: threading.Thread | None = None
        self.blink_error: OSError | None = None
        expander.setup_output(port, not active_high)

    def _write(self, lit: bool) -> None:
        self.expander.set(self.port, lit == self.active_high)

    def _stop_blinking(self) -> None:
        self._stop.set()
        if self._blinker is not None and self._blinker is not threading.current_thread():
            self._blinker.join(timeout=1)
        self._blinker = None

    def on(self) -> None:
        self._stop_blinking()
        self._write(True)

    def off(self) -> None:
        self._stop_blinking()
        self._write(False)

    @property
    def is_lit(self) -> bool:
        return self.expander.get(self.port) == self.active_high

    def blink(self, on_time: float = 1, off_time: float = 1, n: int | None = None,
              background: bool = True) -> None:
        self._stop_blinking()
        self._stop = threading.Event()
        self._blinker = threading.Thread(target=self._blink, args=(on_time, off_time, n, self._stop),
                                         name=f"blink {self.port}", daemon=True)
        self._blinker.start()
        if not background:
            self._blinker.join()

    def _blink(self, on_time, off_time, n, stop: threading.Event) -> None:
        count = 0
        try:
            while n is None or count < n:
                self._write(True)
                if stop.wait(on_time):
                    return
                self._write(False)
                count += 1
                if stop.wait(off_time):
                    return
        except OSError as exc:     # the bus failed mid-blink; the next call reports it
            self.blink_error = exc

    def close(self) -> None:
        self._stop_blinking()
        self._write(False)
        self.expander.release(self.port)


class Beeper(ReportsFaults):
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

def build_seat_lights(config: Mapping[str, Any] | None, *, pin_factory=None, i2c_bus=None,
                      clock: Callable[[], float] = time.monotonic, prefix: str = "seat_lights"):
    """SeatLights (``type`` "gpio", the default) or RecordingSeatLights ("recording").

    GPIO LEDs: ``pins``. Through an expander: ``expander = "mcp23017"``, ``ports``
    ("GPA0"...), ``i2c_address`` (0x20), ``i2c_port`` (1); ``i2c_bus`` may be passed in.
    A missing expander raises BusError (the firmware then runs without seat lights).
    """
    section = Section(config, prefix)
    kind = section.choice("type", ["gpio", "recording"], "gpio")
    if kind == "recording":
        seats = section.raw("seats", [1, 2, 3, 4, 5, 6])
        section.done()
        return RecordingSeatLights(seats)
    expander_kind = section.choice("expander", ["none", "mcp23017"], "none")
    active_high = section.boolean("active_high", True)
    if expander_kind == "none":
        pins = section.pins("pins", maximum=MAX_SEATS)
        section.done()
        return _building(section, lambda: SeatLights(pins, pin_factory=pin_factory,
                                                     active_high=active_high, clock=clock))
    address = section.integer("i2c_address", 0x20, 0x20, 0x27)
    port = section.integer("i2c_port", 1, 0)
    ports = section.raw("ports")
    if isinstance(ports, (str, bytes)) or not isinstance(ports, (list, tuple)) or len(ports) > MAX_SEATS:
        raise section.error("ports", f"{ports!r} is not a list of up to {MAX_SEATS} expander ports")
    for i, name in enumerate(ports):
        if name is not None:
            try:
                Mcp23017.port(name)
            except ValueError as exc:
                raise section.error(f"ports[{i}]", str(exc)) from None
    section.done()
    if i2c_bus is None:
        try:
            expander = Mcp23017(address=address, port=port)
        except OSError as exc:
            raise BusError(f"{prefix}: cannot open I2C bus {port}: {exc}") from exc
    else:
        expander = Mcp23017(i2c_bus, address=address)
    try:
        return SeatLights(list(ports), expander=expander, active_high=active_high, clock=clock)
    except OSError as exc:
        raise BusError(f"{prefix}: MCP23017 at {address:#04x} does not answer: {exc}") from exc


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
