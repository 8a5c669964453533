"""The one font every Corbeille screen, board and report is drawn with.

A monospaced bitmap font kept as data (``fixed6x9``) and drawn with Pillow masks, so a
frame is the same pixels on a Pi, a laptop and CI, whatever Pillow or FreeType version is
installed: reference images can then be compared pixel for pixel. Larger displays use the
same glyphs scaled by a whole factor (2x, 3x), which keeps them crisp on 1-bit panels.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from firmware.fonts import fixed6x9

ELLIPSIS = "…"
_NORMAL_CACHE = 4096      # distinct texts remembered in their drawn form
# Where a line may break: at a space, but not inside a French amount ("1 200 000") nor
# before the spaced punctuation of French typography ("ELF : 300", "Vendre ?").
_BREAK = re.compile(r"(?<!«) (?![:;!?»])(?!(?<=\d )\d)")


# "#" is ink, anything else paper: one translation per pixel row, then one image per band.
_INK = {ord("#"): "\xff"}
_PAPER = re.compile("[^\xff]")


class _Glyphs(Mapping):
    """Character -> its ``width`` x ``height`` 1-bit image, cut from its band on first use
    (cutting all 216 at start-up took longer than reading the whole font art)."""

    def __init__(self, bands: dict[str, tuple[Image.Image, tuple[int, int, int, int]]]):
        self._where = bands
        self._cut: dict[str, Image.Image] = {}

    def __getitem__(self, char: str) -> Image.Image:
        try:
            return self._cut[char]
        except KeyError:
            band, box = self._where[char]
            glyph = self._cut[char] = band.crop(box)
            return glyph

    def __contains__(self, char) -> bool:
        return char in self._where

    def __iter__(self):
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


def _parse(art: str) -> _Glyphs:
    """The glyphs of ``art`` (format: fixed6x9.py). Each band of glyphs becomes one image
    made from its rows in a single call: parsed pixel by pixel, the font would weigh on
    every start, most of all on a Pi Zero 2 W."""
    width, height = fixed6x9.WIDTH, fixed6x9.HEIGHT
    where = {}
    lines = art.strip("\n").split("\n")
    for i, line in enumerate(lines):
        if not line.startswith(">"):
            continue
        chars = line[2::7]
        band_width = 2 + 7 * len(chars)
        rows = [row.ljust(band_width)[:band_width].translate(_INK) for row in lines[i + 1:i + 1 + height]]
        data = _PAPER.sub("\x00", "".join(rows)).encode("latin-1")
        band = Image.frombytes("L", (band_width, height), data).convert("1", dither=Image.Dither.NONE)
        for k, char in enumerate(chars):
            where[char] = (band, (2 + 7 * k, 0, 2 + 7 * k + width, height))
    return _Glyphs(where)


class BitmapFont:
    """A monospaced bitmap font: every character is ``width`` x ``height`` pixels."""

    def __init__(self, art: str, width: int, height: int, ascent: int):
        self.width, self.height, self.ascent = width, height, ascent
        self.glyphs = _parse(art)
        self._blank = Image.new("1", (width, height))
        self._normal: dict[str, str] = {}

    def normal(self, text: str) -> str:
        """``text`` as it will be drawn, one glyph per character: composed accents (NFC),
        any space (no-break, thin...) a space, a letter we lack its base letter (ő -> o),
        anything else "?". Widths are counted on this form. Each distinct text is
        normalised once: screens and boards redraw the same texts press after press."""
        try:
            return self._normal[text]
        except (KeyError, TypeError):
            pass
        out = self._normalise(text)
        if isinstance(text, str):
            if len(self._normal) >= _NORMAL_CACHE:
                self._normal.clear()
            self._normal[text] = out
        return out

    def _normalise(self, text) -> str:
        out = []
        for char in unicodedata.normalize("NFC", str(text)):
            if char in self.glyphs or char == " ":
                out.append(char)
            elif char.isspace() or unicodedata.category(char) == "Zs":
                out.append(" ")
            else:
                base = unicodedata.normalize("NFKD", char)[:1]
                out.append(base if base in self.glyphs else "?")
        return "".join(out)

    def measure(self, text: str, scale: int = 1) -> int:
        return len(self.normal(text)) * self.width * scale

    def fit(self, text: str, width: int, scale: int = 1, ellipsis: bool = True) -> str:
        """``text`` cut to ``width`` pixels, ending with "…" when something was cut."""
        text = self.normal(text)
        room = max(0, width // (self.width * scale))
        if len(text) <= room:
            return text
        if not ellipsis or room == 0:
            return text[:room]
        return text[:room - 1].rstrip() + ELLIPSIS

    def wrap(self, text: str, width: int, scale: int = 1) -> list[str]:
        """``text`` broken into lines of at most ``width`` pixels, at spaces when it can
        (see ``_BREAK``); a word longer than a line is split. An empty text is one empty line."""
        room = max(1, width // (self.width * scale))
        lines, line = [], ""
        for word in _BREAK.split(self.normal(text)):
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= room:
                line = candidate
                continue
            if line:
                lines.append(line)
            while len(word) > room:
                lines.append(word[:room])
                word = word[room:]
            line = word
        lines.append(line)
        return lines

    def mask(self, text: str, scale: int = 1) -> Image.Image:
        """``text`` as a 1-bit mask (ink = 1), ``scale`` times the font size."""
        return _mask(self, self.normal(text), scale)

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill, scale: int = 1) -> int:
        """Draw ``text`` with its cell's top-left corner at ``xy``; returns its width."""
        mask = self.mask(text, scale)
        if mask.width:
            draw.bitmap(xy, mask, fill=fill)
        return mask.width


@lru_cache(maxsize=2048)
def _mask(font: BitmapFont, text: str, scale: int) -> Image.Image:
    # Screens redraw the same few strings on every press: caching their masks keeps a
    # frame within its budget (PRODUCT.md) without touching pixels one by one.
    line = Image.new("1", (font.width * len(text), font.height))   # an empty text is 0 wide
    for i, char in enumerate(text):
        line.paste(font.glyphs.get(char, font._blank), (i * font.width, 0))
    if scale != 1 and text:
        line = line.resize((line.width * scale, line.height * scale), Image.Resampling.NEAREST)
    return line


FONT = BitmapFont(fixed6x9.GLYPHS, fixed6x9.WIDTH, fixed6x9.HEIGHT, fixed6x9.ASCENT)
