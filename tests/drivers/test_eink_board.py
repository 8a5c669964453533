"""The e-ink refresh policy on a stand-in panel, and the QuotationBoard around it."""
import threading
import time

import pytest
from PIL import Image, ImageDraw

from drivers.displays import build_display
from drivers.eink import (InkyPanel, QuotationBoard, RefreshPolicy, StandInPanel,
                          WavesharePanel)
from drivers.errors import ConfigError

SIZE = (80, 48)


def price(n, size=SIZE):
    image = Image.new("1", size, 1)                       # white paper
    ImageDraw.Draw(image).text((2, 2), f"{n:04d}", fill=0)
    return image


def refreshes(panel):
    return [c for c in panel.calls if c[0] in ("display", "display_partial", "clear")]


@pytest.fixture
def panel():
    return StandInPanel(SIZE)


def test_first_frame_is_full_then_partials_then_full_after_five(panel):
    policy = RefreshPolicy(panel, max_partials=5, full_interval=5, partial_interval=1)
    kinds = []
    t = 0.0
    for n in range(8):
        policy.submit(price(n))
        t += 5                                  # always allowed
        kinds.append(policy.tick(t))
    assert kinds == ["full", "partial", "partial", "partial", "partial", "partial", "full", "partial"]
    assert panel.calls[:3] == [("init", "full"), ("display", None), ("sleep", None)]
    assert panel.calls[3:6] == [("init", "partial"), ("display_partial", None), ("sleep", None)]
    assert panel.asleep
    assert list(panel.image.getdata()) == list(price(7).getdata())


@pytest.mark.parametrize("max_partials", [0, 1, 3])
def test_max_partials_is_configurable(panel, max_partials):
    policy = RefreshPolicy(panel, max_partials=max_partials, full_interval=0, partial_interval=0)
    kinds = []
    for n in range(8):
        policy.submit(price(n))
        kinds.append(policy.tick(float(n)))
    runs = "".join("F" if k == "full" else "p" for k in kinds)
    assert runs == (("F" + "p" * max_partials) * 8)[:8]


def test_more_than_five_partials_is_refused(panel):
    with pytest.raises(ValueError):
        RefreshPolicy(panel, max_partials=6)


def test_never_faster_than_the_panel_allows(panel):
    policy = RefreshPolicy(panel, full_interval=5, partial_interval=1)
    policy.submit(price(1))
    assert policy.tick(10.0) == "full"
    policy.submit(price(2))
    assert policy.next_due(10.2) == pytest.approx(11.0)
    assert policy.tick(10.9) is None
    assert policy.tick(11.0) == "partial"
    for n, t in zip(range(3, 7), (12, 13, 14, 15)):
        policy.submit(price(n))
        assert policy.tick(t) == "partial"
    policy.submit(price(7))                     # sixth change: a full refresh is due,
    assert policy.next_due(16) == pytest.approx(20)   # 5 s after the last start
    assert policy.tick(19.9) is None
    assert policy.tick(20) == "full"


def test_only_the_newest_pending_frame_is_sent(panel):
    policy = RefreshPolicy(panel, full_interval=5, partial_interval=1)
    policy.submit(price(1))
    policy.tick(0)
    for n in range(2, 20):
        policy.submit(price(n))
    assert policy.tick(0.5) is None
    assert policy.tick(1.0) == "partial"
    assert len(refreshes(panel)) == 2
    assert list(panel.image.getdata()) == list(price(19).getdata())
    assert policy.tick(100) is None


def test_unchanged_frames_are_never_sent(panel):
    policy = RefreshPolicy(panel)
    assert policy.submit(price(1))
    policy.tick(0)
    assert policy.submit(price(1)) is False
    assert policy.tick(100) is None
    policy.submit(price(2))                     # changed, then changed back before the
    policy.submit(price(1))                     # panel could refresh: nothing to do
    assert not policy.pending and policy.tick(200) is None
    assert len(refreshes(panel)) == 1


def test_a_frame_equal_to_one_being_drawn_is_dropped_after_the_refresh(panel):
    policy = RefreshPolicy(panel, full_interval=0, partial_interval=0)
    original_display = panel.display

    def display_and_resubmit(image):
        original_display(image)
        policy.submit(price(1))                 # the game redraws the same frame meanwhile

    panel.display = display_and_resubmit
    policy.submit(price(1))
    assert policy.tick(0) == "full"
    assert policy.tick(1) is None and len(refreshes(panel)) == 1


def test_panel_error_keeps_the_frame_and_forces_a_full_refresh():
    broken = {"on": False}
    panel = StandInPanel(SIZE, fail=lambda name: broken["on"] and name == "display_partial")
    policy = RefreshPolicy(panel, full_interval=5, partial_interval=1)
    policy.submit(price(1))
    policy.tick(0)
    policy.submit(price(2))
    broken["on"] = True
    with pytest.raises(OSError):
        policy.tick(1)
    assert policy.pending
    broken["on"] = False
    assert policy.tick(2) is None               # a full refresh now: 5 s interval
    assert policy.tick(6) == "full"
    assert list(panel.image.getdata()) == list(price(2).getdata())


def test_board_queues_and_ticks_with_injected_time(clock):
    panel = StandInPanel(SIZE)
    board = QuotationBoard(panel, clock=clock, background=False)
    assert board.size == SIZE and board.mode == "1"
    assert board.show(price(1)) is True
    assert board.show(price(1)) is False        # identical to the last frame handed over
    assert board.tick() == "full"
    board.show(price(2))
    assert board.tick() is None                 # t + 0: too soon for a partial
    clock.advance(1)
    assert board.tick() == "partial"
    board.clear()
    clock.advance(1)
    board.tick()
    assert panel.image.convert("L").getextrema() == (255, 255)   # all white


def test_board_in_portrait_rotates_frames_for_the_panel(clock):
    panel = StandInPanel(SIZE)
    board = QuotationBoard(panel, rotate=1, clock=clock, background=False)
    assert board.size == (48, 80)
    portrait = Image.new("1", (48, 80), 1)
    portrait.putpixel((0, 0), 0)                 # top-left in portrait
    board.show(portrait)
    board.tick()
    assert panel.image.getpixel((79, 0)) == 0    # top-right on the panel, turned clockwise


def test_board_degrades_on_panel_errors_and_recovers(clock):
    failing = {"on": True}
    panel = StandInPanel(SIZE, fail=lambda name: failing["on"] and name == "init")
    board = QuotationBoard(panel, clock=clock, background=False)
    board.show(price(1))
    assert board.tick() is None and board.degraded
    assert "init failed" in board.last_error
    failing["on"] = False
    clock.advance(0.4)
    assert board.tick() is None                  # backing off
    clock.advance(0.1)
    assert board.tick() is None                  # backoff over, but a full refresh
    clock.advance(4.5)                           # waits 5 s after the failed attempt
    assert board.tick() == "full" and not board.degraded


def test_board_opens_its_panel_late(clock):
    attempts = []

    def opener():
        attempts.append(clock())
        if len(attempts) == 1:
            raise OSError("SPI not ready")
        return StandInPanel(SIZE)

    board = QuotationBoard(opener, size=SIZE, clock=clock, background=False)
    assert board.degraded
    board.show(price(3))
    clock.advance(0.5)
    assert board.tick() == "full"
    assert list(board.panel.image.getdata()) == list(price(3).getdata())


def test_background_thread_refreshes_on_its_own():
    panel = StandInPanel(SIZE)
    board = QuotationBoard(panel, full_interval=0.05, partial_interval=0.02)
    try:
        board.show(price(1))
        board.show(price(2))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and list(panel.image.getdata()) != list(price(2).getdata()):
            time.sleep(0.01)
        assert list(panel.image.getdata()) == list(price(2).getdata())
        assert panel.asleep or threading.active_count() > 0
    finally:
        board.close()
    assert not board._thread.is_alive()


def test_from_config_with_stand_in_panel(tmp_path, clock):
    board = build_display({"type": "eink", "panel": "stand-in", "width": 80, "height": 48,
                           "directory": str(tmp_path), "background": False,
                           "full_interval": 2, "partial_interval": 0.5, "max_partials": 2},
                          clock=clock)
    assert isinstance(board, QuotationBoard) and board.policy.max_partials == 2
    board.show(price(5))
    board.tick()
    assert (tmp_path / "board-00001.png").exists()


@pytest.mark.parametrize("config, message", [
    ({"panel": "kindle"}, "display.panel: 'kindle' is not one of waveshare, inky, stand-in, waveshare_<model>"),
    ({"max_partials": 9}, "display.max_partials: 9 is above the maximum 5"),
    ({"full_interval": -1}, "display.full_interval: -1 is below the minimum 0"),
    ({"refresh": 3}, "display.refresh: unknown setting"),
])
def test_eink_config_errors(config, message):
    with pytest.raises(ConfigError, match=message):
        build_display(dict({"type": "eink", "panel": "stand-in", "background": False}, **config))


def test_waveshare_package_is_loaded_lazily_and_reported_when_missing(clock):
    # waveshare-epaper is not installed on the desktop (it loads SPI code on import):
    # building the board says what is missing instead of failing on import of drivers.
    try:
        import epaper  # noqa: F401
        pytest.skip("waveshare-epaper is installed here")
    except ImportError:
        pass
    with pytest.raises(ConfigError, match="display.panel: 'waveshare' needs the waveshare-epaper"):
        build_display({"type": "eink", "background": False}, clock=clock)
    with pytest.raises(ConfigError, match="board.panel: 'waveshare' needs"):
        build_display({"type": "eink", "panel": "waveshare_epd7in5_V2", "background": False},
                      prefix="board", clock=clock)


class FakeEPD:
    """The method names and buffer format of waveshare-epaper's epd7in5_V2.EPD."""

    width, height = 800, 480

    def __init__(self):
        self.calls = []

    def init(self):
        self.calls.append("init")
        return 0

    def init_part(self):
        self.calls.append("init_part")
        return 0

    def getbuffer(self, image):
        buf = bytearray(image.convert("1").tobytes("raw"))
        return bytearray(b ^ 0xFF for b in buf)

    def display(self, buf):
        self.calls.append(("display", len(buf)))

    def display_Partial(self, buf, x0, y0, x1, y1):
        self.calls.append(("display_Partial", len(buf), x0, y0, x1, y1))

    def Clear(self):
        self.calls.append("Clear")

    def sleep(self):
        self.calls.append("sleep")


def test_waveshare_adapter_calls_the_vendor_api():
    epd = FakeEPD()
    panel = WavesharePanel(epd)
    policy = RefreshPolicy(panel, full_interval=0, partial_interval=0)
    policy.submit(price(1, (800, 480)))
    policy.tick(0)
    policy.submit(price(2, (800, 480)))
    policy.tick(1)
    assert epd.calls == ["init", ("display", 48000), "sleep",
                         "init_part", ("display_Partial", 48000, 0, 0, 800, 480), "sleep"]


def test_inky_adapter_maps_white_and_black_to_its_palette():
    class FakeInky:
        width, height = 400, 300
        WHITE, BLACK = 0, 1

        def set_image(self, image):
            self.image = image

        def show(self):
            self.shown = True

    inky = FakeInky()
    panel = InkyPanel(inky)
    image = Image.new("1", (400, 300), 1)
    image.putpixel((5, 5), 0)
    panel.display(image)
    assert inky.shown and inky.image.mode == "P"
    assert inky.image.getpixel((0, 0)) == 0 and inky.image.getpixel((5, 5)) == 1


def test_waveshare_board_from_config_loads_epaper_lazily(monkeypatch, clock):
    import sys
    import types

    loaded = []
    fake = types.ModuleType("epaper")

    def epaper(model):
        loaded.append(model)
        if model != "epd7in5_V2":
            error = ModuleNotFoundError(f"No module named 'epaper.lib.{model}'")
            error.name = f"epaper.lib.{model}"
            raise error
        return types.SimpleNamespace(EPD=FakeEPD)

    fake.epaper = epaper
    monkeypatch.setitem(sys.modules, "epaper", fake)
    board = build_display({"type": "eink", "panel": "waveshare_epd7in5_V2", "background": False},
                          clock=clock)
    assert loaded == ["epd7in5_V2"] and board.size == (800, 480)
    board.show(price(1, (800, 480)))
    assert board.tick() == "full"
    assert board.panel.epd.calls == ["init", ("display", 48000), "sleep"]
    with pytest.raises(ConfigError, match="display.model: 'epd9in9' is not a waveshare-epaper module"):
        build_display({"type": "eink", "model": "epd9in9", "background": False}, clock=clock)


def test_the_desktop_stand_in_for_waveshare_epaper_drives_the_board(monkeypatch, clock):
    """drivers/standin/epaper, first on the path, is the vendor's package as the box imports
    it: the board built from the configuration draws through it, off a Pi."""
    import sys
    from pathlib import Path

    standin = Path(__file__).resolve().parents[2] / "drivers" / "standin"
    monkeypatch.syspath_prepend(str(standin))
    monkeypatch.delitem(sys.modules, "epaper", raising=False)
    try:
        board = build_display({"type": "eink", "panel": "waveshare_epd7in5_V2", "background": False},
                              clock=clock)
        assert sys.modules["epaper"].__file__.startswith(str(standin))
        assert board.size == (800, 480)
        board.show(price(1, (800, 480)))
        assert board.tick() == "full" and board.panel.epd.buffers == 1
    finally:
        sys.modules.pop("epaper", None)       # the next test imports what this machine has
