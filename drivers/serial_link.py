"""A serial port read by a background thread that survives the port failing.

The RFID reader and the serial console share this: the thread reads whatever arrives
(``read(max(1, in_waiting))`` with the port's timeout, so bytes are handed on as soon
as they come) and passes them to ``on_data(data, t)``; it never calls game logic.
A read or write that raises OSError (pyserial's SerialException is one) marks the link
``degraded``; with an ``opener`` the port is closed and opened again after the backoff
(a USB adapter pulled out and plugged back), otherwise the same port is tried again.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from drivers.faults import Backoff, FaultGuard, ReportsFaults


class SerialLink(ReportsFaults):
    """``port`` (an open pyserial-like object) and/or ``opener`` (returns one)."""

    def __init__(self, port=None, *, opener: Callable[[], object] | None = None,
                 on_data: Callable[[bytes, float], None], name: str = "serial",
                 clock: Callable[[], float] = time.monotonic, backoff: Backoff | None = None):
        if port is None and opener is None:
            raise ValueError("SerialLink needs a port or an opener")
        self.port = port
        self._opener = opener
        self._on_data = on_data
        self._clock = clock
        self.name = name
        self.guard = FaultGuard(name, backoff)
        self._stop = threading.Event()
        self._write_lock = threading.Lock()
        self._thread: threading.Thread | None = None


    def start(self) -> "SerialLink":
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
        port, self.port = self.port, None
        if port is not None:
            try:
                port.close()
            except OSError:
                pass

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _wait_retry(self) -> None:
        self._stop.wait(max(0.001, self.guard.retry_at - self._clock()))

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.guard.ready(self._clock()):
                self._wait_retry()
                continue
            port = self.port
            try:
                if port is None:
                    port = self.port = self._opener()
                data = port.read(max(1, port.in_waiting))
            except OSError as exc:
                if self._stop.is_set():
                    return
                self._failed(exc)
                continue
            if self.guard.degraded:
                self.guard.succeeded()
            if data:
                self._on_data(bytes(data), self._clock())

    def _failed(self, exc: OSError) -> None:
        self.guard.failed(exc, self._clock())
        if self._opener is not None and self.port is not None:
            port, self.port = self.port, None
            try:
                port.close()
            except Exception:
                pass

    def write(self, data: bytes) -> bool:
        """Write ``data``; False (and degraded) if the port is missing or failing."""
        now = self._clock()
        if not self.guard.ready(now):
            return False
        with self._write_lock:
            port = self.port
            if port is None:
                return False
            try:
                port.write(data)
                port.flush()
            except OSError as exc:
                self.guard.failed(exc, now)
                return False
        return True


def open_serial(url: str, baudrate: int, timeout: float = 0.1):
    """A pyserial port for a device path or URL ("/dev/serial0", "loop://", "socket://...")."""
    import serial

    return serial.serial_for_url(url, baudrate=baudrate, timeout=timeout)
