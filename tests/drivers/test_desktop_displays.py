"""Desktop stand-ins: terminal text, PNG capture, luma's dummy, the pygame window."""
import io
import os
import queue

import pytest
from PIL import Image, ImageDraw

from drivers.display import DummyDisplay, PngDisplay
from drivers.displays import build_display
from drivers.errors import ConfigError
from drivers.terminal import TerminalDisplay, render_text


def test_half_blocks_two_pixel_rows_per_line():
    image = Image.new("1", (4, 4))
    for xy in [(0, 0), (1, 1), (2, 0), (2, 1), (3, 3)]:
        image.putpixel(xy, 1)
    assert render_text(image) == ["▀▄█ ", "   ▄"]


def test_odd_height_is_padded_and_border_drawn():
    image = Image.new("1", (2, 3), 1)
    assert render_text(image, border=True) == ["┌──┐", "│██│", "│▀▀│", "└──┘"]


def test_grey_thresholds_without_ansi_and_keeps_shades_with_it():
    image = Image.new("L", (2, 2))
    image.putpixel((0, 0), 200)
    image.putpixel((1, 1), 100)
    assert render_text(image) == ["▀ "]
    line = render_text(image, ansi=True)[0]
    assert line.count("▀") == 2 and line.endswith("\x1b[0m")
    assert "\x1b[38;5;" in line and "48;5;16m" in line      # black lower half of cell 1


def test_downscale_for_wide_boards():
    image = Image.new("L", (256, 64), 255)
    lines = render_text(image, downscale=2)
    assert len(lines) == 16 and len(lines[0]) == 128


def test_terminal_redraws_in_place_and_skips_repeats():
    out = io.StringIO()
    display = TerminalDisplay((8, 4), stream=out, border=False)
    first = Image.new("1", (8, 4))
    ImageDraw.Draw(first).line((0, 0, 7, 0), fill=1)
    assert display.show(first)
    assert out.getvalue() == "▀▀▀▀▀▀▀▀\n        \n"
    assert not display.show(first)
    display.clear()
    assert out.getvalue().endswith("\x1b[2F" + "        \n" * 2)


def test_terminal_at_a_fixed_row():
    out = io.StringIO()
    display = TerminalDisplay((2, 2), stream=out, border=False, row=5)
    display.show(Image.new("1", (2, 2), 1))
    assert out.getvalue() == "\x1b[5;1H██"


def test_terminal_from_config_and_its_errors():
    out = io.StringIO()
    display = build_display({"type": "terminal", "width": 128, "height": 64, "border": False}, stream=out)
    assert isinstance(display, TerminalDisplay) and display.size == (128, 64)
    display.show(Image.new("1", (128, 64)))
    assert out.getvalue().count("\n") == 32
    with pytest.raises(ConfigError, match="display.ansi: 'yes' is not true or false"):
        build_display({"type": "terminal", "ansi": "yes"})


def test_dummy_keeps_the_last_image():
    display = build_display({"type": "dummy", "width": 32, "height": 16})
    assert isinstance(display, DummyDisplay)
    image = Image.new("1", (32, 16))
    image.putpixel((3, 3), 1)
    display.show(image)
    assert display.image.getpixel((3, 3)) and not display.image.getpixel((0, 0))


@pytest.mark.parametrize("mode", ["1", "L", "RGB"])
def test_a_frame_is_skipped_only_when_every_pixel_is_the_same(mode):
    """1-bit frames are compared as images (XOR in C), other modes by their bytes: a
    single pixel anywhere makes a frame new, and drawing on an image after showing it
    does not change what the display remembers."""
    display = DummyDisplay((128, 64), mode)
    image = Image.new(mode, (128, 64))
    assert display.show(image) is True and display.show(image.copy()) is False
    for xy in ((0, 0), (127, 63), (64, 31)):
        changed = image.copy()
        changed.putpixel(xy, 1 if mode == "1" else (200 if mode == "L" else (0, 0, 200)))
        assert display.show(changed) is True, xy
        assert display.last_frame.tobytes() == changed.tobytes()
        changed.putpixel((1, 1), 1 if mode == "1" else 255 if mode == "L" else (255, 0, 0))   # after show
        assert display.last_frame.getpixel((1, 1)) in (0, (0, 0, 0))
        assert display.show(image) is True
    display.forget()
    assert display.show(image) is True
    assert display.frames_sent == 8 and display.frames_skipped == 1


def test_png_capture_keeps_and_writes_frames(tmp_path):
    display = build_display({"type": "png", "width": 16, "height": 8, "mode": "L",
                             "directory": str(tmp_path), "keep": 2, "name": "op"})
    assert isinstance(display, PngDisplay) and display.mode == "L"
    for shade in (10, 20, 20, 30):
        display.show(Image.new("L", (16, 8), shade))
    assert [f.getpixel((0, 0)) for f in display.frames] == [20, 30]
    assert sorted(os.listdir(tmp_path)) == ["op-00001.png", "op-00002.png", "op-00003.png", "op-latest.png"]
    assert Image.open(tmp_path / "op-latest.png").getpixel((0, 0)) == 30


@pytest.mark.parametrize("config, message", [
    ({"type": "olde"}, "display.type: 'olde' is not one of oled, eink, terminal, window, png, dummy"),
    ({}, "display.type: missing"),
    ({"type": "png", "mode": "P"}, "display.mode: 'P' is not one of 1, L, RGB"),
    ({"type": "dummy", "width": 0}, "display.width: 0 is below the minimum 1"),
    ({"type": "dummy", "colour": 1}, "display.colour: unknown setting"),
])
def test_factory_config_errors(config, message):
    with pytest.raises(ConfigError, match=message):
        build_display(config)


def test_config_error_is_a_value_error_and_names_the_section():
    with pytest.raises(ValueError, match=r"^board\.type"):
        build_display({"type": "lcd"}, prefix="board")


def test_window_display_with_pygame(monkeypatch):
    pytest.importorskip("pygame", reason="pygame (from luma.emulator) is not installed")
    pytest.importorskip("luma.emulator", reason="luma.emulator is not installed")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    events = queue.Queue()
    display = build_display({"type": "window", "width": 32, "height": 16, "scale": 2}, events=events)
    try:
        image = Image.new("1", (32, 16))
        image.putpixel((1, 1), 1)
        assert display.show(image) and not display.show(image)
        assert display.device._last_image.getpixel((1, 1)) == (255, 255, 255)
        surface = display.device._pygame.display.get_surface()
        assert surface.get_size() == (64, 32)
    finally:
        display.close()


def test_window_closed_by_the_user_becomes_an_event(monkeypatch):
    pytest.importorskip("pygame", reason="pygame (from luma.emulator) is not installed")
    pytest.importorskip("luma.emulator", reason="luma.emulator is not installed")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    events = queue.Queue()
    display = build_display({"type": "window", "width": 8, "height": 8}, events=events,
                            clock=lambda: 42.0)
    try:
        monkeypatch.setattr(display.device, "_abort", lambda: True)
        monkeypatch.setattr(display.device._pygame, "quit", lambda: None)
        assert display.show(Image.new("1", (8, 8), 1))
        event = events.get_nowait()
        assert (event.name, event.kind, event.t) == ("window", "quit", 42.0)
        assert display.closed_by_user
    finally:
        display.close()
