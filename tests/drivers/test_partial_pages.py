"""Only the changed pages on the I2C bus (drivers/partial_pages.py), checked under luma's
real SSD1306 / SSD1309 / SH1106 device classes and luma's real i2c interface, on a model
controller (oled_ram.py) that keeps the display RAM the bytes on the bus would fill."""
import errno

import pytest
from hypothesis import given
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from drivers.display import OledDisplay
from drivers.errors import BusError
from drivers.partial_pages import PageWriter, _span, _turned_bytes, page_writer
from firmware.render import render_screen
from firmware.screen import Screen
from oled_ram import PanelRam
from props import props

KINDS = {"ssd1306": ("ssd1306", 0), "ssd1309": ("ssd1306", 0), "sh1106": ("sh1106", 2)}
ITEMS = ("Case Titre", "Carte : cours", "Carte : payer", "Carte : recevoir", "Payer à chacun", "Vente forcée")


def menu(selected):
    return render_screen(Screen("menu", "Ana : case ?", lines=("Ana fait 1 et 2",), items=ITEMS,
                                selected=selected, footer="OK valider"))


def panel(display="ssd1306", rotate=0):
    kind, offset = KINDS[display]
    ram = PanelRam(kind, column_offset=offset)
    oled = OledDisplay.from_config({"display": display, "rotate": rotate}, serial_interface=i2c(bus=ram, address=0x3C))
    ram.clear_log()
    return oled, ram


def full_redraw(display, frame, rotate=0):
    """The RAM after luma's own display() of ``frame`` (the whole frame sent)."""
    kind, offset = KINDS[display]
    ram = PanelRam(kind, column_offset=offset)
    oled = OledDisplay.from_config({"display": display, "rotate": rotate}, serial_interface=i2c(bus=ram, address=0x3C))
    oled.device.display(frame)
    return ram


@pytest.mark.parametrize("display", sorted(KINDS))
def test_a_menu_move_sends_only_the_pages_it_changes(display):
    oled, ram = panel(display)
    assert oled.show(menu(0))
    assert ram.image().tobytes() == menu(0).tobytes()
    assert ram.data_bytes == 1024                       # the panel's RAM was unknown: all of it
    ram.clear_log()

    assert oled.show(menu(1))                            # the bar moves from row 1 to row 2
    assert ram.image().tobytes() == menu(1).tobytes()
    assert ram.ram == full_redraw(display, menu(1)).ram  # the same RAM as a full redraw
    # Rows 19..36 changed: pages 2, 3 and 4, within the bar's columns.
    pages = {b - 0xB0 for _, reg, data in ram.writes if reg == 0x00 for b in data[:1] if 0xB0 <= b <= 0xB7}
    windows = [data for _, reg, data in ram.writes if reg == 0x00 and data[:1] == [0x21]]
    assert pages == {2, 3, 4} or windows == [[0x21, 0, 125, 0x22, 2, 4]]
    assert ram.data_bytes <= 3 * 126
    assert ram.payload_bytes <= 400, ram.payload_bytes     # the target: <= 400 a menu move


@pytest.mark.parametrize("display", sorted(KINDS))
def test_an_unchanged_frame_sends_nothing_and_one_pixel_sends_one_byte(display):
    oled, ram = panel(display)
    frame = menu(0)
    oled.show(frame)
    ram.clear_log()
    assert not oled.show(frame.copy())
    assert ram.writes == []
    dot = frame.copy()
    dot.putpixel((70, 62), 0 if frame.getpixel((70, 62)) else 255)
    assert oled.show(dot)
    assert ram.data_bytes == 1 and ram.image().tobytes() == dot.tobytes()


def test_adjacent_pages_share_a_window_when_it_is_cheaper():
    oled, ram = panel("ssd1306")
    blank = Image.new("1", (128, 64))
    oled.show(blank)
    ram.clear_log()
    two = blank.copy()
    ImageDraw.Draw(two).rectangle((10, 6, 20, 9), fill=255)     # pages 0 and 1, columns 10..20
    assert oled.show(two)
    assert [data for _, reg, data in ram.writes if reg == 0x00] == [[0x21, 10, 20, 0x22, 0, 1]]
    assert ram.data_bytes == 2 * 11
    far = two.copy()
    ImageDraw.Draw(far).point([(0, 20), (127, 31)], fill=255)   # page 2 at column 0, page 3 at 127
    ram.clear_log()
    assert oled.show(far)
    assert [data for _, reg, data in ram.writes if reg == 0x00] == [[0x21, 0, 0, 0x22, 2, 2],
                                                                  [0x21, 127, 127, 0x22, 3, 3]]
    assert ram.image().tobytes() == far.tobytes()


@pytest.mark.parametrize("display", sorted(KINDS))
@pytest.mark.parametrize("rotate", [1, 2])
def test_rotated_panels_hold_what_a_full_redraw_would(display, rotate):
    oled, ram = panel(display, rotate)
    size = oled.size
    frames = [Image.new("1", size), Image.new("1", size)]
    ImageDraw.Draw(frames[0]).text((3, 3), "ELF 230", fill=255)
    ImageDraw.Draw(frames[1]).text((3, 3), "ELF 240", fill=255)
    for frame in frames:
        oled.show(frame)
        assert ram.ram == full_redraw(display, frame, rotate).ram


@props(40)
@given(display=st.sampled_from(sorted(KINDS)), first=st.binary(min_size=1024, max_size=1024),
       boxes=st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(0, 40), st.integers(0, 20),
                                st.booleans()), max_size=4))
def test_any_change_leaves_the_panel_showing_the_new_frame(display, first, boxes):
    oled, ram = panel(display)
    a = Image.frombytes("1", (128, 64), first)
    b = a.copy()
    for x, y, w, h, ink in boxes:
        ImageDraw.Draw(b).rectangle((x, y, x + w, y + h), fill=255 if ink else 0)
    oled.show(a)
    ram.clear_log()
    oled.show(b)
    assert ram.image().tobytes() == b.tobytes()
    assert ram.ram == full_redraw(display, b).ram
    assert ram.data_bytes <= 1024 and (ram.writes == []) == (a.tobytes() == b.tobytes())


def test_after_a_bus_error_the_next_frame_goes_whole():
    class Broken(PanelRam):
        def write_i2c_block_data(self, address, register, data):
            raise OSError(errno.EIO, "Remote I/O error")

    oled, ram = panel("ssd1306")
    oled.show(menu(0))
    interface = oled.device._serial_interface
    interface._bus = Broken("ssd1306")
    with pytest.raises(BusError):
        oled.show(menu(1))
    interface._bus = ram
    ram.clear_log()
    assert oled.show(menu(1))
    assert ram.data_bytes == 1024 and ram.image().tobytes() == menu(1).tobytes()


def test_forget_sends_the_whole_next_frame():
    oled, ram = panel("sh1106")
    oled.show(menu(0))
    oled.forget()
    ram.clear_log()
    assert oled.show(menu(0))
    assert ram.data_bytes == 1024


def test_other_luma_devices_keep_their_own_display():
    from unittest import mock

    oled = OledDisplay.from_config({"display": "ssd1322", "interface": "spi", "width": 256, "height": 64},
                                   serial_interface=mock.Mock(unsafe=True))
    assert page_writer(oled.device) is None and oled.pages is None
    assert oled._write == oled.device.display
    with pytest.raises(ValueError, match="ssd1306 or sh1106"):
        PageWriter(oled.device, "ssd1322")


def test_span_finds_the_first_and_last_changed_byte():
    assert _span(bytes(8), bytes([0, 0, 1, 0, 0, 0, 4, 0])) == (2, 6)
    assert _span(bytes(8), bytes([9] + [0] * 7)) == (0, 0)
    assert _span(bytes(8), bytes([0] * 7 + [128])) == (7, 7)


@props(40)
@given(st.integers(1, 300), st.integers(1, 200), st.binary(min_size=1, max_size=64))
def test_turned_bytes_are_pillows_turned_frame_encoded(width, height, seed):
    """The pages are cut from the frame turned a quarter and encoded through Pillow's C
    objects directly (partial_pages._turned_bytes): the bytes of its own transpose and
    tobytes, whatever the size."""
    pattern = (seed * (width * height // len(seed) + 1))[:width * height]
    image = Image.frombytes("L", (width, height), pattern).point(lambda v: 255 if v & 1 else 0).convert("1")
    assert _turned_bytes(image) == image.transpose(Image.Transpose.ROTATE_270).tobytes()


def test_turned_bytes_of_a_frame_larger_than_the_encoders_buffer():
    image = Image.effect_noise((300, 2100), 90).point(lambda v: 255 if v > 128 else 0).convert("1")
    assert len(_turned_bytes(image)) > 65536          # the encoder's buffer filled twice
    assert _turned_bytes(image) == image.transpose(Image.Transpose.ROTATE_270).tobytes()
