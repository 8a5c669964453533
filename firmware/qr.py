"""QR codes for the box's own screens, by segno (the library Raspberry Pi OS ships as
python3-segno): the operator screen's `qr` frames (firmware/screens/phones.py) draw its
matrix themselves, pixel for pixel (firmware/render.py). The web pages draw none."""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=16)
def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of `text`'s QR code, row by row (True: dark), without the quiet zone.
    The lowest error correction that fits: the smallest code, the largest modules on a
    small screen (a screen is flat and lit, not a printed code that gets creased)."""
    import segno

    code = segno.make(text, error="l", micro=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)
