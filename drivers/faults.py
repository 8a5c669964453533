"""Bus faults degrade a part; they never stop the game.

A loose I2C cable, an SPI glitch, a USB-serial adapter pulled out: the OSError that
follows marks that part ``degraded`` (with ``last_error``), and the operation is tried
again after an exponential backoff (0.5 s doubling to 30 s by default), so a flapping
bus is not hammered and a part that comes back is used again without a restart.

``FaultGuard`` is the bookkeeping (time passed in, so tests are deterministic);
``GuardedDisplay`` applies it to a display: a failed frame is dropped, the newest frame
is remembered and sent again on recovery, and the display can even start missing (it
is opened when it first answers). ``Guarded`` applies it to any object's methods
(LEDs, buzzer). Serial readers and the e-ink board use ``FaultGuard`` directly.
Only OSError (and so BusError) is caught: a programming error still raises.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from drivers.display import Display

log = logging.getLogger(__name__)


class Backoff:
    """Delays before retry number 1, 2, 3...: ``initial * factor**(n-1)``, capped at ``maximum``."""

    def __init__(self, initial: float = 0.5, factor: float = 2.0, maximum: float = 30.0):
        if initial <= 0 or factor < 1 or maximum < initial:
            raise ValueError("backoff needs initial > 0, factor >= 1, maximum >= initial")
        self.initial = initial
        self.factor = factor
        self.maximum = maximum

    def delay(self, failures: int) -> float:
        if failures <= 0:
            return 0.0
        return min(self.maximum, self.initial * self.factor ** (failures - 1))


class FaultGuard:
    """Health of one part: ``degraded``, ``last_error``, and when it may be tried again."""

    def __init__(self, name: str, backoff: Backoff | None = None):
        self.name = name
        self.backoff = backoff or Backoff()
        self.degraded = False
        self.last_error = ""
        self.failures = 0          # consecutive failures since the part last worked
        self.total_failures = 0
        self.retry_at = 0.0

    def ready(self, now: float) -> bool:
        """May the part be used now? Always when healthy; after the backoff when degraded."""
        return not self.degraded or now >= self.retry_at

    def failed(self, error: BaseException | str, now: float) -> float:
        """Record a failure at ``now``; returns the time of the next attempt."""
        self.failures += 1
        self.total_failures += 1
        self.last_error = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        if not self.degraded:
            log.warning("%s degraded: %s", self.name, self.last_error)
        self.degraded = True
        self.retry_at = now + self.backoff.delay(self.failures)
        return self.retry_at

    def succeeded(self) -> None:
        if self.degraded:
            log.warning("%s recovered after %d failed attempt(s)", self.name, self.failures)
        self.degraded = False
        self.failures = 0

    def call(self, now: float, fn: Callable[..., Any], *args, **kwargs) -> tuple[bool, Any]:
        """Run ``fn`` if the part may be used; (True, result), or (False, None) when
        skipped during backoff or failed with an OSError."""
        if not self.ready(now):
            return False, None
        try:
            result = fn(*args, **kwargs)
        except OSError as exc:
            self.failed(exc, now)
            return False, None
        self.succeeded()
        return True, result


class ReportsFaults:
    """Mixin: ``degraded`` and ``last_error`` of a part are those of the object in its
    ``health_from`` attribute: its FaultGuard, or for a part on a serial link, the link."""

    health_from = "guard"

    @property
    def degraded(self) -> bool:
        return self._health().degraded

    @property
    def last_error(self) -> str:
        return self._health().last_error

    def _health(self):
        return object.__getattribute__(self, self.health_from)  # never a wrapped target's


class GuardedDisplay(ReportsFaults, Display):
    """A display whose failures are reported, retried and never raised.

    Give it a ready ``display``, or an ``opener`` (a callable building the display, e.g.
    luma's init sequence) with the ``size``/``mode``/``name`` it will have. With an
    opener, a failed display is closed and opened again on retry, which re-runs the
    controller's init sequence (needed after a power glitch reset the panel); without
    one, the same object is simply tried again.

    ``show`` returns True when the frame reached the display, False when it was
    identical to the last one, or dropped because the display is degraded. The newest
    frame is kept and sent when the display recovers, on the next ``show`` or on
    ``tick(now)`` (the firmware calls tick from its loop, so recovery does not wait for
    the game to draw something new).
    """

    def __init__(self, display: Display | None = None, *,
                 opener: Callable[[], Display] | None = None,
                 size: tuple[int, int] | None = None, mode: str | None = None,
                 name: str | None = None, clock: Callable[[], float] = time.monotonic,
                 backoff: Backoff | None = None):
        if display is None and opener is None:
            raise ValueError("GuardedDisplay needs a display or an opener")
        if display is not None:
            size, mode, name = display.size, display.mode, name or display.name
        if size is None or mode is None:
            raise ValueError("GuardedDisplay with only an opener needs size and mode")
        super().__init__(size, mode, name or "display")
        self.inner = display
        self._opener = opener
        self._clock = clock
        self.guard = FaultGuard(self.name, backoff)
        self._latest: Image.Image | None = None
        self._unsent = False
        self._closed = False
        if self.inner is None:
            self._attempt(clock())


    def show(self, image: Image.Image) -> bool:
        frame = self.prepare(image)
        self._latest = frame
        self._unsent = True
        now = self._clock()
        if not self.guard.ready(now):
            return False
        return self._attempt(now)

    def tick(self, now: float | None = None) -> None:
        now = self._clock() if now is None else now
        if self.guard.degraded and self.guard.ready(now):
            self._attempt(now)
        elif self.inner is not None and not self.guard.degraded:
            try:
                self.inner.tick(now)
            except OSError as exc:
                self._failed(exc, now)

    def _attempt(self, now: float) -> bool:
        """Open if needed and send the newest frame; False when nothing new reached it."""
        if self._closed:
            return False
        recovering = self.guard.degraded
        try:
            if self.inner is None:
                self.inner = self._opener()
            sent = False
            if self._unsent and self._latest is not None:
                if recovering:
                    self.inner.forget()
                sent = self.inner.show(self._latest)
                self._unsent = False
        except OSError as exc:
            self._failed(exc, now)
            return False
        self.guard.succeeded()
        if sent:
            self.frames_sent += 1
        else:
            self.frames_skipped += 1
        return sent

    def _failed(self, exc: OSError, now: float) -> None:
        self.guard.failed(exc, now)
        self._unsent = self._latest is not None
        if self._opener is not None and self.inner is not None:
            broken, self.inner = self.inner, None
            try:
                broken.close()
            except Exception:  # the bus is already failing; closing is best effort
                pass

    def clear(self) -> None:
        self.show(Image.new(self.mode, self.size))

    def forget(self) -> None:
        if self.inner is not None:
            self.inner.forget()

    @property
    def last_frame(self) -> Image.Image | None:
        return self.inner.last_frame if self.inner is not None else None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.inner is not None:
            try:
                self.inner.close()
            except OSError:
                pass


class Guarded(ReportsFaults):
    """Wraps any object so its method calls are guarded by one ``FaultGuard``.

    ``Guarded(beeper, "buzzer").error()`` calls ``beeper.error()`` unless the buzzer is
    in backoff; an OSError marks it degraded and the call returns None. Attributes that
    are not callable are read through unchanged.
    """

    def __init__(self, target: Any, name: str, *, clock: Callable[[], float] = time.monotonic,
                 backoff: Backoff | None = None):
        self._target = target
        self._clock = clock
        self.guard = FaultGuard(name, backoff)

    def __getattr__(self, attr):
        value = getattr(self._target, attr)
        if not callable(value):
            return value

        def guarded(*args, **kwargs):
            ok, result = self.guard.call(self._clock(), value, *args, **kwargs)
            return result if ok else None

        guarded.__name__ = attr
        return guarded
