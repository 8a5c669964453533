"""Only the changed part of a frame on the I2C bus, for SSD1306- and SH1106-class OLEDs.

luma's ``ssd1306.display`` and ``sh1106.display`` send the whole frame on every call:
1 024 bytes for 128x64, about 23 ms on I2C at 400 kHz, the largest cost of a press on
the box. These panels keep the frame in their own RAM as pages of 8 pixel rows, one byte
per column (bit 0 the top row), and a menu move changes two or three of the eight pages.
``PageWriter`` remembers what the panel's RAM holds and sends, through the luma device's
own ``command``/``data`` (so through luma's serial interface), only the pages that
changed, and within each only the columns from the first to the last that changed:

* SSD1306 family (ssd1305, ssd1309, ssd1315...: luma's ``ssd1306.display``), horizontal
  addressing as luma sets it up: a COLUMNADDR/PAGEADDR window, then its bytes. Adjacent
  changed pages share one window when that sends fewer bytes than a window each.
* SH1106 (page addressing only): per changed page, the page and the start column, then
  its bytes. luma's panel starts at RAM column ``page_address_offset`` (2).

What the panel holds is unknown at first and after a bus error: then the whole frame
goes, as luma would send it. Any other luma device keeps its own ``display``.
"""
from __future__ import annotations

from PIL import Image


def page_writer(device) -> "PageWriter | None":
    """A ``PageWriter`` for ``device`` when its frames are luma's ``ssd1306.display`` or
    ``sh1106.display``, else None (the device's own ``display`` is then the way)."""
    from luma.oled.device import sh1106, ssd1306

    display = type(device).display
    if display is ssd1306.display:
        return PageWriter(device, "ssd1306")
    if display is sh1106.display:
        return PageWriter(device, "sh1106")
    return None


class PageWriter:
    """Sends the changed pages of each frame (see the module docstring).

    ``pages`` is what the panel's RAM holds (one ``bytes`` per page), None when unknown;
    ``forget()`` makes the next frame go whole (after the panel was reset or cleared by
    someone else)."""

    WINDOW = 6          # SSD1306: COLUMNADDR c0 c1 PAGEADDR p0 p1

    def __init__(self, device, kind: str):
        if kind not in ("ssd1306", "sh1106"):
            raise ValueError(f"PageWriter drives ssd1306 or sh1106 panels, not {kind!r}")
        self.device = device
        self.kind = kind
        self.width, self.height = device._w, device._h           # the panel, unrotated
        self.count = self.height // 8
        self.pages: list[bytes] | None = None

    def forget(self) -> None:
        self.pages = None

    def write(self, image: Image.Image) -> None:
        """Send ``image`` (the device's size and mode, as for ``device.display``)."""
        device = self.device
        assert image.mode == device.mode and image.size == device.size
        new = self.pack(device.preprocess(image))
        old, self.pages = self.pages, None      # unknown until every byte went through
        changed = []
        for p, page in enumerate(new):
            if old is None:
                changed.append((p, 0, self.width - 1))
            elif page != old[p]:
                changed.append((p, *_span(old[p], page)))
        if self.kind == "ssd1306":
            for p0, p1, c0, c1 in self._windows(changed):
                device.command(device._const.COLUMNADDR, device._colstart + c0, device._colstart + c1,
                               device._const.PAGEADDR, p0, p1)
                device.data(list(b"".join(new[p][c0:c1 + 1] for p in range(p0, p1 + 1))))
        else:
            for p, c0, c1 in changed:
                column = device._page_address_offset + c0
                device.command(0xB0 + p, column & 0x0F, 0x10 | (column >> 4))
                device.data(list(new[p][c0:c1 + 1]))
        self.pages = new

    def pack(self, image: Image.Image) -> list[bytes]:
        """The panel's pages for a 1-bit ``image``: byte x of page p holds column x of
        rows 8p..8p+7, bit 0 the top row. Turned a quarter clockwise, each image row is
        one column, its bytes the pages bottom first with the top row in bit 0."""
        if image.mode != "1":
            image = image.convert("1")
        column_major = _turned_bytes(image)
        n = self.count
        return [column_major[n - 1 - p::n] for p in range(n)]

    def _windows(self, changed):
        """SSD1306 windows (p0, p1, c0, c1) covering the changed pages: a run of adjacent
        pages shares one window when that costs fewer bytes than separate ones."""
        windows = []
        for p, c0, c1 in changed:
            if windows:
                q0, q1, d0, d1 = windows[-1]
                if q1 == p - 1:
                    a, b = min(c0, d0), max(c1, d1)
                    merged = self.WINDOW + (p - q0 + 1) * (b - a + 1)
                    apart = 2 * self.WINDOW + (q1 - q0 + 1) * (d1 - d0 + 1) + (c1 - c0 + 1)
                    if merged <= apart:
                        windows[-1] = (q0, p, a, b)
                        continue
            windows.append((p, p, c0, c1))
        return windows


def _turned_bytes(image: Image.Image) -> bytes:
    """``image.transpose(ROTATE_270).tobytes()`` (a 1-bit image) through Pillow's C objects
    themselves: the two wrappers (a new Image for the turned copy, the encoder looked up by
    name and driven by a loop) would weigh on packing every frame.
    tests/drivers/test_partial_pages.py checks the bytes against the wrappers'."""
    image.load()
    turned = image.im.transpose(Image.Transpose.ROTATE_270)
    encoder = Image.core.raw_encoder("1", "1")
    encoder.setimage(turned, (0, 0) + turned.size)
    chunks = []
    while True:
        _, done, chunk = encoder.encode(65536)
        chunks.append(chunk)
        if done:
            break
    if done < 0:
        raise OSError(f"Pillow's raw encoder failed ({done})")
    return b"".join(chunks)


def _span(old: bytes, new: bytes) -> tuple[int, int]:
    """(first, last) index where two equal-length, different byte strings differ."""
    diff = int.from_bytes(old, "big") ^ int.from_bytes(new, "big")
    n = len(new)
    first = n - 1 - (diff.bit_length() - 1) // 8
    last = n - 1 - ((diff & -diff).bit_length() - 1) // 8
    return first, last
