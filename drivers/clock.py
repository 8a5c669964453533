"""Time for drivers: a clock is a callable returning seconds; timers run callbacks later.

Drivers take ``clock=time.monotonic`` and ``timers=ThreadTimers()`` as parameters so a
test (or the firmware's end-to-end tests) can pass a ``ManualClock`` that is both: time
only moves when the test says so, and due callbacks run in the test's own thread.
"""
from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable


class TimerHandle:
    """What ``call_later`` returns: ``cancel()`` stops a callback that has not run yet."""

    def __init__(self, cancel: Callable[[], None]):
        self._cancel = cancel

    def cancel(self) -> None:
        self._cancel()


class ThreadTimers:
    """Real timers: each callback runs once in its own daemon thread after ``delay`` seconds."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        timer = threading.Timer(max(0.0, delay), callback)
        timer.daemon = True
        timer.start()
        return TimerHandle(timer.cancel)


class ManualClock:
    """A clock and a timer queue that advance only when told to (tests, simulations).

    ``clock()`` returns the current time; ``advance(seconds)`` or ``set(t)`` moves it and
    runs, in order, every callback that fell due (callbacks may schedule more).
    """

    def __init__(self, start: float = 0.0):
        self.now = float(start)
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._ids = itertools.count()

    def __call__(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        ident = next(self._ids)
        heapq.heappush(self._queue, (self.now + max(0.0, delay), ident, callback))
        return TimerHandle(lambda: self._cancelled.add(ident))

    def set(self, t: float) -> None:
        while self._queue and self._queue[0][0] <= t:
            due, ident, callback = heapq.heappop(self._queue)
            if ident in self._cancelled:
                self._cancelled.discard(ident)
                continue
            self.now = max(self.now, due)
            callback()
        self.now = max(self.now, float(t))

    def advance(self, seconds: float) -> None:
        self.set(self.now + seconds)

    @property
    def pending(self) -> int:
        """How many callbacks are still waiting (cancelled ones excluded)."""
        return sum(1 for _, ident, _ in self._queue if ident not in self._cancelled)
