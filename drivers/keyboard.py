"""The desktop stand-in for the buttons: keys read from a terminal, same InputEvents.

Keys (QWERTY and AZERTY both work; the box speaks French first):

    Up arrow, k            up        Down arrow, j           down
    Enter                  ok        Backspace, Esc, Left    back
    B (capital)            long press of back
    Right arrow            nothing: the box has no such button (as OK it would start the
                           game from "[Jouer] Retour Régler", where a move is meant)
    1-6, or & é " ' ( -    press of seat 1-6 (the AZERTY digit row unshifted)
    ! @ # $ % ^, or F1-F6  hold seat 1-6: the first stroke presses and holds it
                           (down, long_press), the next stroke of the same seat, or
                           its plain digit, releases it (up), as auctions need

A terminal reports no key releases, so a short key sends "down", "up", "press" at
once, like a quick tap on a real button, and a long one "down", "long_press", "up".

``KeyDecoder`` is the pure mapping (bytes in, events out); ``KeyboardReader`` runs it
in a background thread on a file descriptor, switching a terminal to cbreak mode
(keys arrive one by one, no echo; Ctrl-C still interrupts) and restoring it on stop.
A lone Esc is told from the start of an arrow key's escape sequence by a short wait
(``escape_timeout``). End of input puts ``InputEvent("keyboard", "eof", t)``.
"""
from __future__ import annotations

import codecs
import os
import queue as queue_module
import select
import threading
import time
from collections.abc import Callable

from drivers.events import DOWN, LONG_PRESS, PRESS, UP, InputEvent

ESC = "\x1b"
SHORT, LONG, HOLD = "short", "long", "hold"

KEYS: dict[str, tuple[str, str]] = {
    "\x1b[A": ("up", SHORT), "\x1bOA": ("up", SHORT), "k": ("up", SHORT),
    "\x1b[B": ("down", SHORT), "\x1bOB": ("down", SHORT), "j": ("down", SHORT),
    "\r": ("ok", SHORT), "\n": ("ok", SHORT),
    "\x7f": ("back", SHORT), "\x08": ("back", SHORT), ESC: ("back", SHORT),
    "\x1b[D": ("back", SHORT), "\x1bOD": ("back", SHORT),
    "B": ("back", LONG),
}
for _seat, (_digit, _azerty, _shifted, _fkey) in enumerate(zip(
        "123456", "&é\"'(-", "!@#$%^",
        ("\x1bOP", "\x1bOQ", "\x1bOR", "\x1bOS", "\x1b[15~", "\x1b[17~")), start=1):
    KEYS[_digit] = KEYS[_azerty] = (f"seat{_seat}", SHORT)
    KEYS[_shifted] = KEYS[_fkey] = (f"seat{_seat}", HOLD)


class KeyDecoder:
    """Turns keyboard bytes into InputEvents; keeps the held seats between strokes."""

    def __init__(self, keys: dict[str, tuple[str, str]] | None = None):
        self.keys = KEYS if keys is None else keys
        self.held: set[str] = set()
        self._buffer = ""
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="ignore")

    @property
    def waiting_escape(self) -> bool:
        """True while an Esc may still be the start of a longer sequence."""
        return self._buffer.startswith(ESC)

    def feed(self, data: bytes, now: float) -> list[InputEvent]:
        self._buffer += self._utf8.decode(data)
        events: list[InputEvent] = []
        while self._buffer:
            length = self._sequence_length(self._buffer)
            if length is None:
                break                                   # incomplete escape sequence
            key, self._buffer = self._buffer[:length], self._buffer[length:]
            events += self._key(key, now)
        return events

    def flush(self, now: float) -> list[InputEvent]:
        """No more bytes came after an Esc: a lone Esc is Back, a cut sequence is dropped."""
        pending, self._buffer = self._buffer, ""
        if pending == ESC:
            return self._key(ESC, now)
        return []

    @staticmethod
    def _sequence_length(buffer: str) -> int | None:
        if buffer[0] != ESC:
            return 1
        if len(buffer) == 1:
            return None
        if buffer[1] == "O":                           # SS3: Esc O <letter>
            return 3 if len(buffer) >= 3 else None
        if buffer[1] != "[":                           # Esc then another key: Esc alone
            return 1
        for i in range(2, len(buffer)):                # CSI: Esc [ params... final
            if 0x40 <= ord(buffer[i]) <= 0x7E:
                return i + 1
            if not 0x20 <= ord(buffer[i]) <= 0x3F:
                return i                                # malformed: drop what came so far
        return None

    def _key(self, key: str, now: float) -> list[InputEvent]:
        if key not in self.keys:
            return []
        name, how = self.keys[key]
        if name in self.held and name.startswith("seat"):
            self.held.discard(name)                     # any stroke of a held seat releases it
            return [InputEvent(name, UP, now)]
        if how == HOLD:
            self.held.add(name)
            return [InputEvent(name, DOWN, now), InputEvent(name, LONG_PRESS, now)]
        if how == LONG:
            return [InputEvent(name, DOWN, now), InputEvent(name, LONG_PRESS, now),
                    InputEvent(name, UP, now)]
        return [InputEvent(name, DOWN, now), InputEvent(name, UP, now), InputEvent(name, PRESS, now)]


class KeyboardReader:
    """Reads keys from ``fd`` in a background thread and puts InputEvents on ``queue``.

    ``cbreak`` switches a terminal ``fd`` to cbreak mode while running (ignored for a
    pipe or file). ``start()`` begins, ``stop()`` ends and restores the terminal.
    """

    def __init__(self, fd: int, queue: queue_module.Queue, *,
                 clock: Callable[[], float] = time.monotonic, cbreak: bool = True,
                 escape_timeout: float = 0.05, decoder: KeyDecoder | None = None):
        self.fd = fd
        self.queue = queue
        self.decoder = decoder or KeyDecoder()
        self._clock = clock
        self._cbreak = cbreak
        self._escape_timeout = escape_timeout
        self._saved_mode = None
        self._stop_r, self._stop_w = os.pipe()
        self._thread: threading.Thread | None = None
        self.eof = False

    def start(self) -> "KeyboardReader":
        if self._cbreak and os.isatty(self.fd):
            import termios
            import tty

            self._saved_mode = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        self._thread = threading.Thread(target=self._run, name="keyboard", daemon=True)
        self._thread.start()
        return self

    def _put(self, events):
        for event in events:
            self.queue.put(event)

    def _run(self) -> None:
        while True:
            timeout = self._escape_timeout if self.decoder.waiting_escape else None
            readable, _, _ = select.select([self.fd, self._stop_r], [], [], timeout)
            if self._stop_r in readable:
                return
            if not readable:
                self._put(self.decoder.flush(self._clock()))
                continue
            try:
                data = os.read(self.fd, 1024)
            except OSError:
                data = b""
            if not data:
                self._put(self.decoder.flush(self._clock()))
                self.eof = True
                self.queue.put(InputEvent("keyboard", "eof", self._clock()))
                return
            self._put(self.decoder.feed(data, self._clock()))

    def stop(self) -> None:
        if self._thread is not None:
            os.write(self._stop_w, b"x")
            self._thread.join(timeout=2)
            self._thread = None
        if self._saved_mode is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved_mode)
            self._saved_mode = None
        for fd in (self._stop_r, self._stop_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._stop_r = self._stop_w = -1

    close = stop

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
