"""The floor of a frame: the same frame drawn by Pillow alone, measured in the same run.

A renderer does two things: it lays a frame out (what text goes where, cut or wrapped),
and it has Pillow put the pixels there. The floor is the second part alone: the frame's
texts and shapes, recorded while the renderer drew it, drawn again on a new image with
one ImageDraw, texts through Pillow's own text drawing (``ImageDraw.text`` with the box's
6x9 font loaded as a Pillow bitmap font) and shapes through ``rectangle`` / ``bitmap``.
The floor's image is checked to be the renderer's, pixel for pixel, so both draw the same.

``record(render, *args)`` -> (image, Frame); ``Frame.floor()`` draws it by Pillow alone;
``best_of(fn)`` times a call (the median of several batches, garbage collector paused).
"""
from __future__ import annotations

import gc
import statistics
import struct
import tempfile
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from firmware.fonts import FONT


# ------------------------------------------------------------ the font, for Pillow
def _codes():
    """Character -> byte code in the Pillow font (PIL fonts have 256 slots): Latin-1
    characters keep their code, the others take the control-code slots Latin-1 leaves."""
    free = [c for c in list(range(1, 32)) + list(range(127, 160))]
    codes = {}
    for char in sorted(FONT.glyphs):
        if ord(char) < 256 and ord(char) not in range(127, 160):
            codes[char] = ord(char)
    for char in sorted(FONT.glyphs):
        if char not in codes:
            codes[char] = free.pop(0)
    codes[" "] = 32
    return codes


CODES = _codes()
TRANSLATE = str.maketrans({char: chr(code) for char, code in CODES.items()})


@lru_cache(maxsize=4)
def pillow_font(scale: int) -> ImageFont.ImageFont:
    """The 6x9 font, ``scale`` times, as a Pillow bitmap font (written as .pil + .pbm
    and read back with ``ImageFont.load``, Pillow's own loader)."""
    w, h = FONT.width * scale, FONT.height * scale
    atlas = Image.new("1", (w * 256, h))
    metrics = bytearray(256 * 20)
    for char, code in CODES.items():
        glyph = FONT.glyphs[char] if char in FONT.glyphs else Image.new("1", (FONT.width, FONT.height))
        if scale != 1:
            glyph = glyph.resize((w, h), Image.Resampling.NEAREST)
        atlas.paste(glyph, (code * w, 0))
        struct.pack_into(">10h", metrics, code * 20, w, 0, 0, 0, w, h, code * w, 0, code * w + w, h)
    with tempfile.TemporaryDirectory(prefix="corbeille-font-") as tmp:
        path = Path(tmp) / "fixed6x9.pil"
        path.write_bytes(b"PILfont\n;;;;;;%d;\nDATA\n" % h + bytes(metrics))
        atlas.save(path.with_suffix(".pbm"))
        return ImageFont.load(str(path))


# -------------------------------------------------------------------- recording
@lru_cache(maxsize=4)
def _glyph_codes(scale: int) -> dict:
    """The pixels of each glyph ``scale`` times (as ``FONT.mask`` draws it) -> its character.
    Glyphs drawn alike read as one character: the floor draws the same pixels either way."""
    codes = {}
    for char in sorted(CODES):
        glyph = FONT.glyphs[char] if char in FONT.glyphs else Image.new("1", (FONT.width, FONT.height))
        if scale != 1:
            glyph = glyph.resize((glyph.width * scale, glyph.height * scale), Image.Resampling.NEAREST)
        codes.setdefault(glyph.tobytes(), char)
    return codes


def _read_text(bitmap: Image.Image):
    """(text, scale) when ``bitmap`` is a line of the box's font (each cell one of its glyphs,
    at one scale), else None. The renderer's text masks are read back from their pixels, so
    the recorder needs no note from the font or the renderer, whatever they keep cached."""
    width, height = bitmap.size
    scale = height // FONT.height
    cell = FONT.width * scale
    if bitmap.mode != "1" or not width or not scale or height % FONT.height or width % cell:
        return None
    codes = _glyph_codes(scale)
    text = []
    for x in range(0, width, cell):
        char = codes.get(bitmap.crop((x, 0, x + cell, height)).tobytes())
        if char is None:
            return None
        text.append(char)
    return "".join(text), scale


class _Recorder(ImageDraw.ImageDraw):
    """Pillow's ImageDraw as ``ImageDraw.Draw`` makes it while recording: it draws, and notes
    each call for the floor. Calls on one image go to one Frame, however many ImageDraws the
    renderer makes. Its drawing core (``.draw``, which ``bitmap`` and the renderer's blits
    call) is wrapped to note each bitmap; the colour of each ink is noted as ``_getink``
    works it out, the floor naming colours as the renderer's calls do."""

    def __init__(self, image, frames):
        super().__init__(image)
        self._fills = {}                    # Pillow's ink -> the colour it was worked out from
        self.draw = _RecordingCore(self.draw, self)
        for frame in frames:
            if frame.image is image:
                self.frame = frame
                break
        else:
            self.frame = Frame(image.mode, image.size, image.getpixel((0, 0)), [])
            self.frame.image = image
            frames.append(self.frame)

    def _getink(self, ink, fill=None):
        got = super()._getink(ink, fill)
        for colour, value in ((ink, got[0]), (fill, got[1])):
            if colour is not None and value is not None:
                self._fills[value] = colour
        return got

    def rectangle(self, xy, fill=None, outline=None, width=1):
        self.frame.ops.append(("rectangle", (xy,), {"fill": fill, "outline": outline, "width": width}))
        self.frame.blits.append(self.frame.ops[-1])
        super().rectangle(xy, fill=fill, outline=outline, width=width)

    def note_bitmap(self, xy, im, ink):
        bitmap = Image.Image()._new(im)     # the mask drawn, as an Image again
        fill = self._fills[ink]
        text = _read_text(bitmap)
        if text is not None:
            self.frame.ops.append(("text", (tuple(xy), text[0].translate(TRANSLATE)),
                                   {"font": pillow_font(text[1]), "fill": fill}))
            self.frame.blits.append(("bitmap", (tuple(xy), bitmap), {"fill": fill}))
        else:
            self.frame.ops.append(("bitmap", (tuple(xy), bitmap), {"fill": fill}))
            self.frame.blits.append(self.frame.ops[-1])


class _RecordingCore:
    """Pillow's drawing core of one ImageDraw, noting each bitmap drawn through it."""

    def __init__(self, core, recorder):
        self._core, self._recorder = core, recorder

    def __getattr__(self, name):
        return getattr(self._core, name)

    def draw_bitmap(self, xy, im, ink):
        self._recorder.note_bitmap(xy, im, ink)
        self._core.draw_bitmap(xy, im, ink)


class Frame:
    image = None            # while recording: the image drawn on

    def __init__(self, mode, size, background, ops):
        self.mode, self.size, self.background, self.ops = mode, size, background, ops
        self.blits = []         # the same, texts as the renderer's own ready-made masks

    def floor(self, blit: bool = False) -> Image.Image:
        """The frame drawn by Pillow alone: a new image, one ImageDraw, the recorded calls;
        with ``blit``, each text is its ready-made mask (no text drawing at all: what is
        left of a frame once every text and layout is known in advance)."""
        image = Image.new(self.mode, self.size, self.background)
        draw = ImageDraw.Draw(image)
        for name, args, kwargs in (self.blits if blit else self.ops):
            getattr(draw, name)(*args, **kwargs)
        return image

    @property
    def texts(self) -> int:
        return sum(1 for op in self.ops if op[0] == "text")


@contextmanager
def recording():
    """Within: every ImageDraw Pillow makes (``ImageDraw.Draw``) is a recorder, so whatever
    draws through Pillow is recorded, the renderer none the wiser; yields the list of
    Frames drawn."""
    frames = []
    draw = ImageDraw.Draw
    ImageDraw.Draw = lambda image, mode=None: _Recorder(image, frames)
    try:
        yield frames
    finally:
        for frame in frames:
            frame.image = None
        ImageDraw.Draw = draw


def record(render, *args, **kwargs):
    """(image, Frame) of one call of ``render``; the floor is checked to draw the same."""
    with recording() as frames:
        image = render(*args, **kwargs)
    assert len(frames) == 1, f"{len(frames)} canvases drawn for one frame"
    frame = frames[0]
    frame.image = None
    for blit in (False, True):
        if frame.floor(blit).tobytes() != image.tobytes():
            raise AssertionError("the Pillow-alone floor does not draw the renderer's frame")
    return image, frame


# ----------------------------------------------------------------------- timing
def paired(fn, floor, number: int = 50, batches: int = 9) -> tuple[float, float]:
    """Seconds per call of ``fn`` and of ``floor``, their batches alternating so that a
    busy machine weighs on both alike (medians, as ``best_of``)."""
    a, b = [], []
    for _ in range(batches):
        a.append(best_of(fn, number, 1))
        b.append(best_of(floor, number, 1))
    return statistics.median(a), statistics.median(b)


def best_of(fn, number: int = 200, batches: int = 7) -> float:
    """Seconds per call of ``fn``: the median over ``batches`` batches of ``number`` calls,
    with the garbage collector paused (it is measured where it runs: whole presses)."""
    per_call = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        fn()
        for _ in range(batches):
            start = time.perf_counter()
            for _ in range(number):
                fn()
            per_call.append((time.perf_counter() - start) / number)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(per_call)
