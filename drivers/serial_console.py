"""The serial console: the game's text command language over a UART or USB serial.

This driver only carries text. Each line received (ended by LF, CR LF, or CR) becomes
``InputEvent("console", "line", t, data=text)`` on the queue; the firmware parses it with
the same command language scripts use, and answers with ``write_line``. Blank lines are
skipped; a line longer than ``max_line`` bytes is dropped whole (counted in
``overflows``) rather than cut into two wrong commands. Undecodable bytes become U+FFFD.
Reading runs in a background thread (drivers.serial_link); a failing port degrades the
console and is retried, and replies written meanwhile are dropped (``write_line``
returns False).
"""
from __future__ import annotations

import queue as queue_module
import time
from collections.abc import Callable, Mapping
from typing import Any

from drivers.config import Section
from drivers.events import LINE, InputEvent
from drivers.faults import Backoff, ReportsFaults
from drivers.serial_link import SerialLink, open_serial


class LineSplitter:
    """Bytes in, complete text lines out; pure, so it is tested on its own."""

    def __init__(self, max_line: int = 1024, encoding: str = "utf-8"):
        self.max_line = max_line
        self.encoding = encoding
        self._buffer = bytearray()
        self._dropping = False
        self.overflows = 0

    def feed(self, data: bytes) -> list[str]:
        lines = []
        for byte in data:
            if byte in (0x0A, 0x0D):                 # LF or CR ends a line (CR LF: one line)
                if not self._dropping:
                    text = self._buffer.decode(self.encoding, errors="replace").strip()
                    if len(text.encode(self.encoding)) > self.max_line:
                        self.overflows += 1      # each bad byte became a 3-byte U+FFFD: too long now
                    elif text:
                        lines.append(text)
                self._buffer.clear()
                self._dropping = False
                continue
            if self._dropping:
                continue
            self._buffer.append(byte)
            if len(self._buffer) > self.max_line:
                self._buffer.clear()
                self._dropping = True
                self.overflows += 1
        return lines


class SerialConsole(ReportsFaults):
    """Lines from ``port`` to ``queue``; ``write_line(text)`` sends a reply."""

    health_from = "link"

    def __init__(self, port=None, queue: queue_module.Queue | None = None, *,
                 opener: Callable[[], object] | None = None, max_line: int = 1024,
                 encoding: str = "utf-8", newline: str = "\r\n",
                 clock: Callable[[], float] = time.monotonic, backoff: Backoff | None = None,
                 name: str = "console"):
        if queue is None:
            raise ValueError("SerialConsole needs a queue")
        self.queue = queue
        self.name = name
        self.encoding = encoding
        self.newline = newline
        self.splitter = LineSplitter(max_line, encoding)
        self.link = SerialLink(port, opener=opener, on_data=self._data, name=name,
                               clock=clock, backoff=backoff)


    @property
    def overflows(self) -> int:
        return self.splitter.overflows

    def _data(self, data: bytes, now: float) -> None:
        for line in self.splitter.feed(data):
            self.queue.put(InputEvent(self.name, LINE, now, line))

    def write_line(self, text: str) -> bool:
        """Send ``text`` and a newline (each line of a multi-line text too)."""
        payload = "".join(part + self.newline for part in text.splitlines() or [""])
        return self.link.write(payload.encode(self.encoding, errors="replace"))

    reply = write_line

    def start(self) -> "SerialConsole":
        self.link.start()
        return self

    def stop(self) -> None:
        self.link.stop()

    close = stop


def build_serial_console(config: Mapping[str, Any], queue: queue_module.Queue, *, port=None,
                         clock: Callable[[], float] = time.monotonic,
                         prefix: str = "console") -> SerialConsole:
    """A SerialConsole from ``config`` (not started). ``port`` overrides the configured one."""
    section = Section(config, prefix)
    url = section.text("port", "/dev/ttyGS0")
    baudrate = section.integer("baudrate", 115200, 1)
    max_line = section.integer("max_line", 1024, 16)
    encoding = section.text("encoding", "utf-8")
    newline = section.choice("newline", ["\r\n", "\n"], "\r\n")
    section.done()
    try:
        "".encode(encoding)
    except LookupError:
        raise section.error("encoding", f"{encoding!r} is not a known text encoding") from None
    common = dict(max_line=max_line, encoding=encoding, newline=newline, clock=clock, name=prefix)
    if port is not None:
        return SerialConsole(port, queue, **common)
    return SerialConsole(queue=queue, opener=lambda: open_serial(url, baudrate), **common)
