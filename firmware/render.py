"""The operator screen: a ``Screen`` drawn for a display, as a pure function.

``render_screen(screen, size, mode)`` returns a new image and reads nothing else, so the
same Screen always gives the same pixels (the reference images in tests/reference/render
rely on it). The layout, at 128x64 with the 6x9 font (21 characters a line):

    title bar     inverted; a "!" key cap first on error screens
    body          5 rows (4 with a status line, 6 without footer); scroll bar on the right
    status        "!" key cap + the degraded parts: drawn whenever set, never scrolled away
    footer        key hints, "OK valider  ◄ retour": the keys drawn as key caps

Any text of up to 21 characters fits its line whole at 128 pixels; a longer one is cut
with "…", body lines wrap instead.

Conventions for whoever builds Screens (all texts already translated):
* A line "left\\tright" is a two-column line: right part right-aligned, left part cut to
  make room (payday breakdowns, rankings, private views). Other body lines wrap.
* menu: ``lines`` (a short prompt, optional) stay on top, ``items`` scroll below so that
  ``items[selected]`` is visible, and it is inverted.
* amount: ``lines`` above, ``items[selected]`` is the value being edited, drawn large.
* confirm: ``lines`` above, ``items`` (e.g. "Oui", "Non") as buttons on the last row.
* speaking / auction: ``lines`` above, ``items`` one entry per seat in seat order, and the
  entry ``highlight`` (the seat lit, whose turn it is to answer) inverted.
* other kinds (message, private, payday, ranking, error): ``lines`` with ``selected`` the
  first line shown, for bodies longer than the screen.

Displays 2x or 3x the minimum size (256x128, 384x192, 800x480) get the font scaled 2x or
3x; a wider display (256x64) gets longer lines. OLEDs light text on black; ``paper=True``
(the default for displays 400 pixels wide or more, which are e-ink panels) draws dark on
light instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from firmware.fonts import FONT
from firmware.screen import Screen

BASE = (128, 64)     # the smallest display: the 1-bit operator OLED
MAX_SCALE = 3
# (ink, background, dim) for a lit display (OLED: light on black), and the dim ink on paper.
COLOURS = {"1": (255, 0, 255), "L": (255, 0, 150), "RGB": ((255,) * 3, (0,) * 3, (150,) * 3)}
PAPER_DIM = {"1": 0, "L": 100, "RGB": (100,) * 3}


@dataclass
class Canvas:
    """An image with the font metrics and colours of one display, and the one ImageDraw
    that draws the whole frame (making one per shape cost more than the shapes)."""
    image: Image.Image
    scale: int
    ink: object
    bg: object        # background
    dim: object       # secondary text: grey where the display has greys
    draw: ImageDraw.ImageDraw = None
    inks: dict = field(default_factory=dict, repr=False)   # colour -> Pillow's ink for it

    def __post_init__(self):
        if self.draw is None:
            self.draw = ImageDraw.Draw(self.image)
        self.cw = FONT.width * self.scale          # character width
        self.lh = FONT.height * self.scale         # line height
        self.width, self.height = self.image.size

    @classmethod
    def new(cls, size, mode="1", paper=None, scale=None):
        if mode not in ("1", "L", "RGB"):
            raise ValueError(f"mode {mode!r}: expected '1', 'L' or 'RGB'")
        width, height = int(size[0]), int(size[1])
        if scale is None:
            scale = max(1, min(width // BASE[0], height // BASE[1], MAX_SCALE))
        on_paper = width >= 400 if paper is None else paper
        ink, background, dim = COLOURS[mode]
        if on_paper:
            ink, background, dim = background, ink, PAPER_DIM[mode]
        return cls(Image.new(mode, (width, height), background), scale, ink, background, dim)

    def text(self, x, y, text, fill=None, scale=None):
        """Draw ``text`` with its cell's top-left corner at (x, y); returns its width."""
        mask = FONT.mask(text, scale or self.scale)
        if mask.width:
            self.blit(x, y, mask, self.ink if fill is None else fill)
        return mask.width

    def pattern(self, x, y, mask, fill=None):
        """A cached 1-bit pattern (a dotted rule or track), drawn as one bitmap."""
        if mask.height:
            self.blit(x, y, mask, self.ink if fill is None else fill)

    def blit(self, x, y, mask, fill):
        """``mask`` (a 1-bit image, ink = 1) drawn at (x, y) in ``fill``: what
        ``ImageDraw.bitmap`` does, through the same C call, without working out the ink of
        the colour and loading the mask again on each of the dozen blits of a frame, which
        would weigh on every menu frame. The ink is worked out once per colour
        as ``bitmap`` works it out; the masks are images made whole in memory (nothing
        to load). tests/firmware/test_drawing.py checks the pixels against ``bitmap``'s."""
        ink = self.inks.get(fill)
        if ink is None:
            ink = self.inks[fill] = self.draw._getink(fill)[0]
        self.draw.draw.draw_bitmap((x, y), mask.im, ink)

    def fit(self, text, width, ellipsis=True):
        return FONT.fit(text, width, self.scale, ellipsis)

    def bar(self, x0, y0, x1, y1, fill=None):
        """Filled rectangle, inclusive corners."""
        if x1 >= x0 and y1 >= y0:
            self.draw.rectangle((x0, y0, x1, y1), fill=self.ink if fill is None else fill)

    def columns(self, x0, x1, y, text, fill=None):
        """One line between x0 and x1: cut with "…", or "left\\tright" in two columns."""
        fill = self.ink if fill is None else fill
        left, tab, right = text.partition("\t")
        if tab:
            right = self.fit(right, x1 - x0)
            rw = FONT.measure(right, self.scale)
            self.text(x1 - rw, y, right, fill)
            left = self.fit(left, x1 - x0 - rw - self.cw)
        mask = line_mask(left, x1 - x0, self.scale)
        if mask.width:
            self.blit(x0, y, mask, fill)


@lru_cache(maxsize=512)
def line_mask(text: str, width: int, scale: int) -> Image.Image:
    """The mask of ``text`` cut to ``width`` pixels (with "…"): what ``Canvas.columns`` draws,
    looked up once instead of normalised, cut and looked up again, for the dozen lines a
    frame redraws press after press. Bounded like the masks it holds."""
    return FONT.mask(FONT.fit(text, width, scale), scale)


@lru_cache(maxsize=64)
def dotted(scale: int, span: int) -> Image.Image:
    """A dotted vertical rule ``scale`` pixels wide: a ``scale``-pixel dot every
    ``2 * scale`` pixels, the dots starting within ``span`` pixels of its top."""
    starts = range(0, max(0, span), 2 * scale)
    if not starts:
        return Image.new("1", (scale, 0))
    row_on, row_off = b"\xff" * scale, b"\x00" * scale
    rows = [row_on if (y % (2 * scale)) < scale else row_off for y in range(starts[-1] + scale)]
    return Image.frombytes("L", (scale, len(rows)), b"".join(rows)).convert("1", dither=Image.Dither.NONE)


def render_screen(screen: Screen, size=BASE, mode="1", *, paper: bool | None = None) -> Image.Image:
    """``screen`` drawn at ``size`` in ``mode`` ("1", "L" or "RGB"); see the module docstring."""
    c = Canvas.new(size, mode, paper)
    if screen.kind == "qr":
        return _qr_screen(c, screen)
    top = _title_bar(c, screen)
    bottom = c.height
    caps = ()              # the key caps on the row right under the body
    if screen.footer:
        bottom -= c.lh
        caps = _footer(c, bottom, screen.footer)
    if screen.status:
        bottom -= c.lh
        caps = _flagged(c, bottom, screen.status)
    body = Body(c, top, bottom, caps)
    BODIES.get(screen.kind, _text_body)(body, screen)
    return c.image


def _title_bar(c, screen):
    c.bar(0, 0, c.width - 1, c.lh - 1)
    if screen.kind == "error":
        _flagged(c, 0, screen.title, on_bar=True)
    else:
        c.columns(c.scale, c.width - c.scale, 0, screen.title, fill=c.bg)
    return c.lh + c.scale      # one pixel (scaled) between the bar and the body


def _flagged(c, y, text, on_bar=False):
    """``text`` after a narrow "!" key cap: error titles and degraded parts read as
    warnings. A text starting with "!" ("! tableau", the controller's form) always gets
    the cap in place of its "!"; any other text gets it when both fit, since a text of
    21 characters must be shown whole. Returns the cap's span [(x0, x1)], or []."""
    s = c.scale
    flagged = text.startswith("!")
    text = text[1:].lstrip() if flagged else text
    fill, bg = (c.bg, c.ink) if on_bar else (c.ink, c.bg)
    x, caps = s, []
    if flagged or FONT.measure(text, s) <= c.width - 5 * s:
        c.bar(0, y, 3 * s - 1, y + c.lh - 1, fill)
        c.text(-s, y, "!", fill=bg)          # the glyph's ink is its third column
        x, caps = 4 * s, [(0, 3 * s - 1)]
    c.columns(x, c.width - s, y, text, fill=fill)
    return caps


def _footer(c, y, footer):
    """Key hints, "OK valider  ◄ retour": hints are separated by two spaces, and the first
    word of each (the key) is drawn as an inverted key cap, which also sets the footer
    apart from the body rows just above it. Returns the caps' spans [(x0, x1)]."""
    s = c.scale
    hints = [h.strip() for h in footer.split("  ") if h.strip()]
    x, right, caps = 0, c.width - s, []
    for hint in hints:
        key, _, action = hint.partition(" ")
        key = c.fit(key, right - x - s)
        if not key:
            break
        kw = FONT.measure(key, s)
        c.bar(x, y, x + kw, y + c.lh - 1)
        c.text(x + s, y, key, fill=c.bg)
        caps.append((x, x + kw))
        x += kw + s + c.cw // 2
        if action:
            x += c.text(x, y, c.fit(action, right - x))
        x += c.cw
    return caps


class Body:
    """The rows between the title bar and the status/footer lines (``caps``: the spans of
    the key caps on the row right under them)."""

    def __init__(self, c, top, bottom, caps=()):
        self.c, self.top, self.bottom, self.caps = c, top, bottom, tuple(caps)
        self.x0, self.x1 = c.scale, c.width - c.scale   # text area; the scroll bar is at x1
        self.rows = max(1, (bottom - top) // c.lh)

    def y(self, row):
        return self.top + row * self.c.lh

    def wrap(self, lines):
        """Body lines, wrapped to the text width; two-column lines are kept whole."""
        out = []
        for line in lines:
            for part in str(line).split("\n"):
                out.extend([part] if "\t" in part else FONT.wrap(part, self.x1 - self.x0, self.c.scale))
        return out

    def line(self, row, text, inverted=False, scrolling=False):
        c = self.c
        if inverted:   # stop short of the scroll bar so the two never merge
            c.bar(0, self.y(row), self.x1 - (2 if scrolling else 1) * c.scale, self.y(row) + c.lh - 1)
            if self.y(row) + c.lh >= self.bottom:
                # A highlighted last row sits right on the key caps under it: without a
                # line between them the caps read as part of the row (their glyphs never
                # use that top line).
                for x0, x1 in self.caps:
                    c.bar(x0, self.bottom, x1, self.bottom + c.scale - 1, fill=c.bg)
        c.columns(self.x0, self.x1, self.y(row), text, fill=c.bg if inverted else c.ink)

    def list(self, entries, first_row, mark=None):
        """``entries`` from ``first_row`` down, scrolled so that ``mark`` is visible (kept
        near the middle: a pure function cannot remember the previous scroll position)."""
        room = self.rows - first_row
        start = 0
        if len(entries) > room and mark is not None:
            start = min(max(0, mark - room // 2), len(entries) - room)
        for i, text in enumerate(entries[start:start + room]):
            self.line(first_row + i, text, inverted=(start + i == mark), scrolling=len(entries) > room)
        self.scroll_bar(first_row, start, room, len(entries))

    def scroll_bar(self, first_row, start, shown, total):
        if total <= shown:
            return
        c, s = self.c, self.c.scale
        y0, y1 = self.y(first_row), self.y(self.rows) - 1
        x = c.width - s
        if y1 >= y0:
            c.pattern(x, y0, dotted(s, y1 - y0 + 1))         # dotted track
        span = y1 - y0 + 1
        t0 = y0 + span * start // total
        t1 = y0 + span * min(total, start + shown) // total - 1
        c.bar(x, t0, c.width - 1, max(t1, t0 + 2 * s))       # solid thumb


def _text_body(body, screen):
    lines = body.wrap(screen.lines)
    start = min(max(0, screen.selected), max(0, len(lines) - body.rows))
    for row, text in enumerate(lines[start:start + body.rows]):
        body.line(row, text)
    body.scroll_bar(0, start, body.rows, len(lines))


def _header(body, screen, keep):
    """Draw the wrapped ``lines`` above a list or control, leaving ``keep`` rows free."""
    lines = body.wrap(screen.lines)[:max(0, body.rows - keep)]
    for row, text in enumerate(lines):
        body.line(row, text)
    return len(lines)


def _menu_body(body, screen):
    first = _header(body, screen, keep=min(len(screen.items), 3) or 1)
    body.list([str(i) for i in screen.items], first, mark=screen.selected if screen.items else None)


def _seats_body(body, screen):
    first = _header(body, screen, keep=min(len(screen.items), 2) or 0)
    body.list([str(i) for i in screen.items], first, mark=screen.highlight)


def _amount_body(body, screen):
    if not screen.items:
        return _text_body(body, screen)
    c = body.c
    value = str(screen.items[min(max(0, screen.selected), len(screen.items) - 1)])
    width = body.x1 - body.x0 - 2 * c.cw                 # room left for the ▲▼ spinner
    spinner = FONT.measure(value, c.scale) <= width
    width = width if spinner else body.x1 - body.x0
    big = 2 * c.scale if FONT.measure(value, 2 * c.scale) <= width else c.scale
    first = _header(body, screen, keep=2 if big > c.scale else 1)
    top = body.y(first)
    height = body.y(body.rows) - top
    value = FONT.fit(value, width, big)
    vw, vh = FONT.measure(value, big), FONT.height * big
    y = top + max(0, (height - vh) // 2)
    c.text(body.x0 + (width - vw) // 2, y, value, scale=big)
    if not spinner:
        return
    # The spinner says "up/down changes this", whatever the input device.
    ax = body.x1 - c.cw
    c.text(ax, y + vh // 2 - c.lh + c.scale, "▲")
    c.text(ax, y + vh // 2 - c.scale, "▼")


def _confirm_body(body, screen):
    if not screen.items:
        return _text_body(body, screen)
    c, s = body.c, body.c.scale
    height = c.lh + 2 * s                                  # a framed button row
    lines = body.wrap(screen.lines)[:max(0, (body.bottom - body.top - height) // c.lh)]
    for row, text in enumerate(lines):
        body.line(row, text)
    y0 = body.bottom - height
    n = len(screen.items)
    cell = (c.width - s) // n
    for i, label in enumerate(screen.items):
        x0, x1 = i * cell + s, (i + 1) * cell - s
        label = c.fit(str(label), x1 - x0 - 2 * s)
        chosen = i == screen.selected
        if chosen:
            c.bar(x0, y0, x1, y0 + height - 1)
        else:
            c.draw.rectangle((x0, y0, x1, y0 + height - 1), outline=c.ink, width=s)
        lw = FONT.measure(label, s)
        c.text(x0 + (x1 - x0 + 1 - lw) // 2, y0 + s, label, fill=c.bg if chosen else c.ink)


def _grid_body(body, screen):
    """A placement on a grid: ``items`` are the map's rows (one character a cell: "." free,
    " " no cell, "*" the cursor, any other a piece, drawn as its letter), ``lines`` the
    preview beside the map. The map is drawn from the top; rows past the body are cut."""
    c, s = body.c, body.c.scale
    pitch = c.cw + s                              # a cell: one character and a gap
    width = max((len(row) for row in screen.items), default=0)
    for i, row in enumerate(screen.items[:body.rows]):
        y = body.y(i)
        for j, ch in enumerate(row):
            x = body.x0 + j * pitch
            if ch == "*":
                c.bar(x, y, x + pitch - 1, y + c.lh - 1)
            elif ch == ".":
                c.draw.rectangle((x + s, y + 2 * s, x + pitch - 2 * s, y + c.lh - 2 * s), outline=c.ink, width=s)
            elif ch != " ":
                c.text(x + s // 2, y, ch)
    x0 = body.x0 + width * pitch + c.cw
    lines = [str(line) for line in screen.lines][:body.rows]
    for i, line in enumerate(lines):
        c.columns(x0, body.x1, body.y(i), line)


def _qr_screen(c, screen):
    """A QR code (``items[0]``) on the whole height, two pixels a module where that fits
    (a 128x64 screen: a phone reads it from a seat), dark modules on a light square (lit
    on an OLED, paper on e-ink); the title and ``lines`` (the address) beside it, each cut
    into pieces that fit."""
    from firmware.qr import qr_matrix

    matrix = qr_matrix(screen.items[0])
    light, dark = (c.ink, c.bg) if c.ink > c.bg else (c.bg, c.ink)
    quiet = 1
    pitch = max(1, c.height // (len(matrix) + 2 * quiet))
    side = (len(matrix) + 2 * quiet) * pitch
    c.bar(0, 0, side - 1, side - 1, fill=light)
    for r, row in enumerate(matrix):
        for col, module in enumerate(row):
            if module:
                x, y = (col + quiet) * pitch, (r + quiet) * pitch
                c.bar(x, y, x + pitch - 1, y + pitch - 1, fill=dark)
    x0, x1 = side + c.cw // 2, c.width - c.scale
    y = 0
    for text in [screen.title, *screen.lines]:
        for piece in FONT.wrap(str(text), x1 - x0, c.scale):
            if y + c.lh > c.height:
                return c.image
            c.text(x0, y, piece)
            y += c.lh
    return c.image


BODIES = {
    "grid": _grid_body,
    "menu": _menu_body,
    "amount": _amount_body,
    "confirm": _confirm_body,
    "speaking": _seats_body,
    "auction": _seats_body,
}


def clock_strip(image: Image.Image, text: str, *, paper: bool | None = None) -> Image.Image:
    """``image`` (a board's frame) with a seat clock's line in an inverted bar across its
    bottom row: "what is sold · who leads" and, after a tab, the seconds left."""
    c = Canvas.new(image.size, image.mode, paper)
    c.image.paste(image)
    y = c.height - c.lh
    c.bar(0, y, c.width - 1, c.height - 1)
    c.columns(c.scale, c.width - c.scale, y, text, fill=c.bg)
    return c.image
