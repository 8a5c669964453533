"""`corbeille sim`: the box on a desktop, in a terminal.

The operator screen is drawn in the terminal (two pixel rows per line, 130x34 cells),
with a 128x64 quotation board (paging through the sectors) below it when the terminal
has 70 lines; a smaller terminal gets the same screens as text. The keyboard stands in for the
buttons (drivers/keyboard.py): Up/Down arrows or k/j, Enter (OK), Left/Backspace/Esc (Back),
B (long Back: undo), O (long OK: the menu), K/J or PgUp/PgDn (long Up/Down: bigger or
smaller amount steps), 1-6 (seat buttons), ! @ # $ % ^ (hold a seat button, for
auctions), q (quit). The game is journaled in the state directory like on the box, so
quitting and starting again resumes it.
"""
from __future__ import annotations

import os
import queue as queue_module
import shutil
import signal
import sys
import time

from drivers.events import InputEvent
from drivers.keyboard import KEYS, LONG, SHORT, KeyboardReader, KeyDecoder
from firmware.app import Hardware, start_app
from firmware.texts import t
from firmware.textscreen import TextView

PIXEL_COLUMNS, PIXEL_LINES = 130, 36      # a 128x64 frame with its border, plus the help line

SIM_KEYS = dict(KEYS)
SIM_KEYS.update({
    "q": ("quit", SHORT), "Q": ("quit", SHORT), "\x03": ("quit", SHORT),
    "O": ("ok", LONG), "o": ("ok", LONG),
    "K": ("up", LONG), "J": ("down", LONG), "\x1b[5~": ("up", LONG), "\x1b[6~": ("down", LONG),
})


class TextOperator:
    """The operator 'display' of a small terminal: Screens written as text."""

    size, mode, degraded = (128, 64), "1", False

    def __init__(self, stream):
        self.view = TextView(stream)

    def show_screen(self, screen, help_line=""):
        self.view.show(screen, help_line)

    def close(self):
        pass


def run_sim(config, *, lang=None, text=False, stdin=None, stdout=None, state_dir=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if state_dir is not None:
        from dataclasses import replace
        from pathlib import Path
        config = replace(config, state=replace(config.state, dir=Path(state_dir)))
    from engines.core.files import keep_parsed_in
    keep_parsed_in(config.state.parsed)   # box files parsed once, not at every resume
    events = queue_module.Queue()
    size = shutil.get_terminal_size((80, 24))
    pixels = not text and size.columns >= PIXEL_COLUMNS and size.lines >= PIXEL_LINES
    board = None
    if pixels:
        from drivers.terminal import TerminalDisplay
        operator = TerminalDisplay((128, 64), "1", stream=stdout, row=1, border=True, name="operator")
        if size.lines >= PIXEL_LINES + 34:       # room for a 128x64 quotation board below
            board = TerminalDisplay((128, 64), "1", stream=stdout, row=PIXEL_LINES + 1, border=True,
                                    name="board")
    else:
        operator = TextOperator(stdout)
    from drivers.outputs import RecordingBeeper, RecordingSeatLights
    keyboard = KeyboardReader(stdin.fileno(), events, decoder=KeyDecoder(SIM_KEYS))
    hw = Hardware(operator=operator, board=board, inputs=[keyboard], lights=RecordingSeatLights(),
                  beeper=RecordingBeeper(bell=stdout))
    app = None
    previous = signal.signal(signal.SIGTERM, lambda *_: events.put(InputEvent("quit", "quit", time.monotonic())))
    stdout.write("\x1b[?25l\x1b[H\x1b[2J")          # hide the cursor, clear
    try:
        app = start_app(config, hw, queue=events, lang=lang, seat_buttons=range(6))
        # The key hints in the language of the box now: a switch from the menu rewrites them.
        if pixels:
            def write_help(line):
                stdout.write(f"\x1b[{PIXEL_LINES - 1};1H\x1b[2K{line[:size.columns]}")
                stdout.flush()
            app.on_help = write_help
            app.help_line = lambda lang: t("sim.help", lang)
        else:
            app.help_line = lambda lang: (t("sim.too_small", lang) + "\n" if not text else "") + t("sim.help", lang)
        stdout.flush()
        keyboard.start()
        app.run()
    finally:
        keyboard.stop()
        signal.signal(signal.SIGTERM, previous)
        if app is not None and app.journal is not None:
            app.journal.close()
        bottom = PIXEL_LINES + (35 if board is not None else 1)
        stdout.write(f"\x1b[?25h\x1b[{bottom};1H\n" if pixels else "\x1b[?25h\n")
        stdout.flush()
    return 0


def stdin_is_terminal(stdin=None) -> bool:
    stdin = stdin or sys.stdin
    try:
        return os.isatty(stdin.fileno())
    except (AttributeError, ValueError, OSError):
        return False
