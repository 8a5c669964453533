"""The desktop stand-in for a panel: a frame drawn as text in a terminal.

Each character cell shows two pixel rows with Unicode half blocks (' ', '▀', '▄', '█'),
so a 128x64 operator screen takes 128 columns by 32 lines and is readable in any
terminal. With ``ansi`` on, grey frames (the SSD1322 board) keep their shades: the
upper pixel is the foreground colour of '▀', the lower one the background, from the
xterm 256-colour grey ramp. Redrawing is in place: the cursor goes back up over the
previous frame (or to a fixed ``row`` so two displays can share one terminal), which
is what ``make run`` shows on a laptop.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, TextIO

from PIL import Image

from drivers.config import Section
from drivers.display import MODES, Display

_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def _grey_index(value: int) -> int:
    """xterm-256 colour for a grey level: 16 is black, 232..255 the ramp, 231 white."""
    if value < 4:
        return 16
    if value > 247:
        return 231
    return 232 + round((value - 4) / 243 * 23)


def render_text(image: Image.Image, *, ansi: bool = False, border: bool = False,
                downscale: int = 1) -> list[str]:
    """``image`` as lines of text, two pixel rows per line (see the module docstring).

    Lit pixels (non-zero) are drawn; without ``ansi`` greys are thresholded at 50 %.
    ``downscale`` averages n x n pixel blocks first, for panels wider than a terminal.
    """
    grey = image.convert("L")
    if downscale > 1:
        grey = grey.reduce(downscale)
    width, height = grey.size
    if height % 2:
        padded = Image.new("L", (width, height + 1))
        padded.paste(grey)
        grey = padded
        height += 1
    pixels = grey.load()
    lines = []
    for y in range(0, height, 2):
        if ansi:
            parts, last = [], None
            for x in range(width):
                colours = (_grey_index(pixels[x, y]), _grey_index(pixels[x, y + 1]))
                if colours != last:
                    parts.append(f"\x1b[38;5;{colours[0]};48;5;{colours[1]}m")
                    last = colours
                parts.append("▀")
            parts.append("\x1b[0m")
            line = "".join(parts)
        else:
            line = "".join(_BLOCKS[pixels[x, y] >= 128, pixels[x, y + 1] >= 128] for x in range(width))
        lines.append(line)
    if border:
        lines = ["┌" + "─" * width + "┐"] + [f"│{line}│" for line in lines] + ["└" + "─" * width + "┘"]
    return lines


class TerminalDisplay(Display):
    """A ``Display`` drawn into a text stream (stdout by default), redrawn in place.

    ``row`` (1-based) pins the drawing to that terminal line with absolute cursor
    moves; without it each frame moves the cursor up over the previous one.
    """

    def __init__(self, size=(128, 64), mode="1", *, stream: TextIO | None = None,
                 ansi: bool | None = None, border: bool = True, row: int | None = None,
                 downscale: int = 1, name: str = "terminal"):
        super().__init__(size, mode, name)
        self.stream = stream if stream is not None else sys.stdout
        if ansi is None:
            isatty = getattr(self.stream, "isatty", None)
            ansi = mode != "1" and bool(isatty and isatty())
        self.ansi = ansi
        self.border = border
        self.row = row
        self.downscale = max(1, int(downscale))
        self._drawn_lines = 0

    @classmethod
    def from_config(cls, config: Mapping[str, Any], *, prefix: str = "display",
                    stream: TextIO | None = None) -> "TerminalDisplay":
        section = Section(config, prefix)
        section.choice("type", ["terminal"], "terminal")
        display = cls(
            (section.integer("width", 128, 1, 4096), section.integer("height", 64, 1, 4096)),
            section.choice("mode", MODES, "1"),
            stream=stream,
            ansi=section.boolean("ansi", None),
            border=section.boolean("border", True),
            row=section.integer("row", None, 1),
            downscale=section.integer("downscale", 1, 1, 16),
            name=section.text("name", "terminal"))
        section.done()
        return display

    def _send(self, frame: Image.Image) -> None:
        lines = render_text(frame, ansi=self.ansi, border=self.border, downscale=self.downscale)
        if self.row is not None:
            text = "".join(f"\x1b[{self.row + i};1H{line}" for i, line in enumerate(lines))
        else:
            back = f"\x1b[{self._drawn_lines}F" if self._drawn_lines else ""
            text = back + "\n".join(lines) + "\n"
        self.stream.write(text)
        self.stream.flush()
        self._drawn_lines = len(lines)
