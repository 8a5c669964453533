"""A 125 kHz RFID reader (RDM6300) on a UART: players tap a card to say who they are.

The RDM6300 sends, at 9600 baud, 14-byte frames: STX (0x02), 10 ASCII hex digits
(2 for a version byte, 8 for the tag), 2 ASCII hex digits of checksum (the XOR of the
5 bytes the 10 digits encode), ETX (0x03). It repeats the frame for as long as the
card lies on the antenna.

``Rdm6300Decoder`` checks frames and resynchronises on garbage (a frame cut by noise
is counted in ``bad_frames`` and reading restarts at the next STX); ``TagFilter`` makes
a card held on the reader count once, until it has been absent for ``gap`` seconds;
``RfidReader`` runs both in a background thread (drivers.serial_link) and puts
``InputEvent("rfid", "tag", t, data="0A1B2C3D4E")`` (the 10 hex digits) on the queue.
"""
from __future__ import annotations

import queue as queue_module
import time
from collections.abc import Callable, Mapping
from typing import Any

from drivers.config import Section
from drivers.events import TAG, InputEvent
from drivers.faults import Backoff, ReportsFaults
from drivers.serial_link import SerialLink, open_serial

STX, ETX = 0x02, 0x03
DATA_DIGITS, CHECK_DIGITS = 10, 2
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def rdm6300_frame(tag: str) -> bytes:
    """The frame an RDM6300 sends for ``tag`` (10 hex digits): for tests and simulators."""
    if len(tag) != DATA_DIGITS or any(c not in "0123456789ABCDEFabcdef" for c in tag):
        raise ValueError(f"a tag is 10 hex digits, got {tag!r}")
    checksum = 0
    for i in range(0, DATA_DIGITS, 2):
        checksum ^= int(tag[i:i + 2], 16)
    return bytes([STX]) + tag.upper().encode() + f"{checksum:02X}".encode() + bytes([ETX])


class Rdm6300Decoder:
    """Bytes in, valid tags out (upper-case hex); counts what it had to reject."""

    def __init__(self):
        self._frame: bytearray | None = None
        self.frames = 0
        self.bad_frames = 0
        self.discarded = 0        # bytes outside any frame

    def feed(self, data: bytes) -> list[str]:
        tags = []
        for byte in data:
            if byte == STX:
                if self._frame is not None:          # a new frame before the last ended
                    self.bad_frames += 1
                self._frame = bytearray()
                continue
            if self._frame is None:
                self.discarded += 1
                continue
            if len(self._frame) < DATA_DIGITS + CHECK_DIGITS:
                if byte in _HEX:
                    self._frame.append(byte)
                else:                                # garbage inside a frame: resync
                    self.bad_frames += 1
                    self._frame = None
                continue
            frame, self._frame = bytes(self._frame), None
            if byte == ETX and self._checksum_ok(frame):
                self.frames += 1
                tags.append(frame[:DATA_DIGITS].decode().upper())
            else:
                self.bad_frames += 1
        return tags

    @staticmethod
    def _checksum_ok(frame: bytes) -> bool:
        value = 0
        for i in range(0, DATA_DIGITS, 2):
            value ^= int(frame[i:i + 2], 16)
        return value == int(frame[DATA_DIGITS:], 16)


class TagFilter:
    """A tag counts once per presentation: again only after ``gap`` seconds unseen."""

    def __init__(self, gap: float = 0.5):
        self.gap = gap
        self._last_seen: dict[str, float] = {}

    def seen(self, tag: str, now: float) -> bool:
        """Record a frame of ``tag`` at ``now``; True if this is a new presentation."""
        for old in [t for t, at in self._last_seen.items() if now - at > self.gap]:
            del self._last_seen[old]
        new = tag not in self._last_seen
        self._last_seen[tag] = now
        return new


class RfidReader(ReportsFaults):
    """An RDM6300 on ``port`` (or opened by ``opener``), putting tag events on ``queue``."""

    health_from = "link"

    def __init__(self, port=None, queue: queue_module.Queue | None = None, *,
                 opener: Callable[[], object] | None = None, gap: float = 0.5,
                 clock: Callable[[], float] = time.monotonic, backoff: Backoff | None = None,
                 name: str = "rfid"):
        if queue is None:
            raise ValueError("RfidReader needs a queue")
        self.queue = queue
        self.name = name
        self.decoder = Rdm6300Decoder()
        self.filter = TagFilter(gap)
        self.link = SerialLink(port, opener=opener, on_data=self._data, name=name,
                               clock=clock, backoff=backoff)


    def _data(self, data: bytes, now: float) -> None:
        for tag in self.decoder.feed(data):
            if self.filter.seen(tag, now):
                self.queue.put(InputEvent(self.name, TAG, now, tag))

    def start(self) -> "RfidReader":
        self.link.start()
        return self

    def stop(self) -> None:
        self.link.stop()

    close = stop


def build_rfid_reader(config: Mapping[str, Any], queue: queue_module.Queue, *, port=None,
                      clock: Callable[[], float] = time.monotonic,
                      prefix: str = "rfid") -> RfidReader:
    """An RfidReader from ``config`` (not started). ``port`` overrides the configured one."""
    section = Section(config, prefix)
    url = section.text("port", "/dev/serial0")
    baudrate = section.integer("baudrate", 9600, 1)
    gap = section.number("gap", 0.5, 0.05, 10)
    section.done()
    if port is not None:
        return RfidReader(port, queue, gap=gap, clock=clock, name=prefix)
    return RfidReader(queue=queue, opener=lambda: open_serial(url, baudrate), gap=gap,
                      clock=clock, name=prefix)
