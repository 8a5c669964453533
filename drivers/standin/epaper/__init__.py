"""A desktop stand-in for the waveshare-epaper package, for a machine without the panel: put
this folder's parent (drivers/standin) first on PYTHONPATH and `board.type = "eink"` runs
as on the box (800x480 Waveshare 7.5" V2), through drivers/eink.py's `WavesharePanel` and
the vendor's API, as the start benchmark runs it (bench/press_bench.py).
``epaper.epaper(model).EPD()`` takes frames and turns them into the panel's buffer as the
vendor's driver does, and sends them nowhere."""
from types import SimpleNamespace


class EPD:
    width, height = 800, 480

    def __init__(self):
        self.buffers = 0

    def init(self):
        return 0

    def init_part(self):
        return 0

    def getbuffer(self, image):
        # The vendor's 7in5_V2 getbuffer: 1-bit, inverted (its ink is 0), packed bytes.
        return bytearray(image.convert("1").tobytes())

    def display(self, buffer):
        self.buffers += 1

    def display_Partial(self, buffer, x0, y0, x1, y1):
        self.buffers += 1

    def Clear(self):
        pass

    def sleep(self):
        pass


def epaper(model):
    return SimpleNamespace(EPD=EPD)
