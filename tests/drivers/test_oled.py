"""OledDisplay: the real luma drivers, built from configuration, on mocked buses."""
from unittest import mock

import fake_rpi.smbus
import pytest
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from drivers.display import OledDisplay, OledOptions
from drivers.displays import build_display
from drivers.errors import BusError, ConfigError


def frame(size=(128, 64), mode="1", text="A", xy=(10, 10)):
    image = Image.new(mode, size)
    ImageDraw.Draw(image).text(xy, text, fill="white")
    return image


class RecordingBus(fake_rpi.smbus.SMBus):
    """fake-rpi's SMBus, recording every block written (and not printing it)."""

    def __init__(self):
        self.writes = []

    def write_i2c_block_data(self, address, register, data):
        self.writes.append((address, register, list(data)))


def data_bytes(serial):
    return sum(len(c.args[0]) for c in serial.data.call_args_list)


def test_noop_interface_builds_the_real_device_from_config():
    display = OledDisplay.from_config({"type": "oled", "display": "ssd1306", "interface": "noop"})
    import luma.oled.device

    assert isinstance(display.device, luma.oled.device.ssd1306)
    assert display.size == (128, 64) and display.mode == "1"
    assert display.show(frame()) is True
    assert display.show(frame()) is False


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106", "ssd1309"])
def test_unchanged_frame_sends_nothing_on_the_bus(kind):
    serial = mock.Mock(unsafe=True)
    display = OledDisplay.from_config({"display": kind, "interface": "i2c"}, serial_interface=serial)
    serial.reset_mock()

    assert display.show(frame(text="1")) is True
    first = data_bytes(serial)
    assert first == 128 * 64 // 8          # the whole frame, one bit per pixel
    commands = serial.command.call_count

    assert display.show(frame(text="1")) is False
    assert data_bytes(serial) == first and serial.command.call_count == commands

    assert display.show(frame(text="2")) is True
    # Only the pages (and columns) the new character touches: drivers/partial_pages.py,
    # whose exact bytes tests/drivers/test_partial_pages.py checks on a model panel.
    assert 0 < data_bytes(serial) - first <= 2 * 8
    assert display.frames_sent == 2 and display.frames_skipped == 1


def test_exact_bytes_on_a_fake_rpi_smbus():
    bus = RecordingBus()
    device_config = {"display": "ssd1306", "width": 128, "height": 32}
    display = OledDisplay.from_config(device_config, serial_interface=i2c(bus=bus, address=0x3C))
    bus.writes.clear()
    image = Image.new("1", (128, 32))
    image.putpixel((0, 0), 1)      # top-left pixel: bit 0 of the first byte of page 0
    image.putpixel((127, 31), 1)   # bottom-right: bit 7 of the last byte of page 3
    assert display.show(image)
    commands = [w for w in bus.writes if w[1] == 0x00]
    data = [b for w in bus.writes if w[1] == 0x40 for b in w[2]]
    assert commands == [(0x3C, 0x00, [0x21, 0, 127, 0x22, 0, 3])]   # column/page window
    assert len(data) == 128 * 32 // 8
    assert data[0] == 0x01 and data[-1] == 0x80 and sum(data) == 0x81
    bus.writes.clear()
    assert not display.show(image)
    assert bus.writes == []


def test_greyscale_quotation_oled_takes_grey_frames():
    serial = mock.Mock(unsafe=True)
    display = OledDisplay.from_config(
        {"display": "ssd1322", "interface": "spi", "width": 256, "height": 64}, serial_interface=serial)
    assert display.size == (256, 64) and display.mode == "L"
    grey = Image.new("L", (256, 64), 0)
    ImageDraw.Draw(grey).rectangle((0, 0, 3, 0), fill=255)
    serial.reset_mock()
    assert display.show(grey)
    sent = [b for c in serial.data.call_args_list for b in c.args[0]]
    assert 0xFF in sent          # four full-brightness pixels, two per byte
    serial.reset_mock()
    assert not display.show(grey)
    assert serial.data.call_count == 0


def test_rotation_swaps_the_size():
    display = OledDisplay.from_config({"display": "sh1106", "interface": "noop", "rotate": 1})
    assert display.size == (64, 128)
    assert display.show(Image.new("1", (64, 128), 1))


def test_grey_and_colour_frames_are_thresholded_for_a_mono_panel():
    display = OledDisplay.from_config({"interface": "noop"})
    grey = Image.new("L", (128, 64), 200)
    assert display.show(grey)
    assert display.last_frame.mode == "1" and display.last_frame.getpixel((0, 0)) == 255
    assert not display.show(Image.new("RGB", (128, 64), (200, 200, 200)))


def test_wrong_frame_size_is_a_programming_error():
    display = OledDisplay.from_config({"interface": "noop"})
    with pytest.raises(ValueError, match="frame is 64x64"):
        display.show(Image.new("1", (64, 64)))


def test_i2c_eio_becomes_a_bus_error():
    class BrokenBus(RecordingBus):
        def write_i2c_block_data(self, address, register, data):
            import errno
            raise OSError(errno.EIO, "Remote I/O error")

    good = RecordingBus()
    interface = i2c(bus=good, address=0x3C)
    display = OledDisplay.from_config({"display": "ssd1306"}, serial_interface=interface)
    interface._bus = BrokenBus()
    with pytest.raises(BusError, match="0x3C"):
        display.show(frame())
    interface._bus = good
    assert display.show(frame()), "the frame that failed is not remembered as sent"


@pytest.mark.parametrize("config, message", [
    ({"display": "ssd1307"}, "display.display: 'ssd1307' is not one of"),
    ({"interface": "usb"}, "display.interface: 'usb' is not one of"),
    ({"width": "wide"}, "display.width: 'wide' is not a whole number"),
    ({"rotate": 5}, "display.rotate: 5 is not one of 0, 1, 2, 3"),
    ({"i2c_address": "sixty"}, "display.i2c_address: 'sixty' is not an address"),
    ({"hieght": 64}, "display.hieght: unknown setting"),
    ({"contrast": 300}, "display.contrast: 300 is above the maximum 255"),
])
def test_config_errors_name_the_key(config, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        OledOptions(dict({"type": "oled"}, **config))


def test_unsupported_size_is_a_config_error():
    with pytest.raises(ConfigError, match="width/height"):
        OledDisplay.from_config({"interface": "noop", "width": 100, "height": 10})


def test_integer_i2c_address_and_contrast():
    serial = mock.Mock(unsafe=True)
    options = OledOptions({"i2c_address": 0x3D, "contrast": 0x40})
    assert options.args.i2c_address == "0x3d"
    OledDisplay.from_config(options, serial_interface=serial)
    assert mock.call(0x81, 0x40) in serial.command.call_args_list   # SETCONTRAST


def test_missing_i2c_bus_at_start_leaves_the_display_degraded_not_dead(tmp_path):
    # /dev/i2c-7 does not exist here: luma raises DeviceNotFoundError; build_display
    # keeps going, degraded, and will retry opening the bus.
    display = build_display({"type": "oled", "interface": "i2c", "i2c_port": 7})
    assert display.degraded and "I2C device not found" in display.last_error
    assert display.show(frame()) is False


def test_closing_a_display_on_a_dead_bus_still_releases_the_bus():
    class DeadBus(RecordingBus):
        closed = False

        def write_i2c_block_data(self, address, register, data):
            import errno
            raise OSError(errno.EIO, "Remote I/O error")

    interface = i2c(bus=RecordingBus(), address=0x3C)
    display = OledDisplay.from_config({"display": "ssd1306"}, serial_interface=interface)
    interface._bus = DeadBus()
    interface._managed = True            # as if luma had opened /dev/i2c-1 itself
    interface._bus.close = lambda: setattr(DeadBus, "closed", True)
    with pytest.raises(BusError):
        display.close()
    assert DeadBus.closed


# ---- Burn-in care: contrast from the configuration, dimmed after idle

def contrast_commands(serial):
    """The contrast levels sent: luma's contrast(level) is the command pair 0x81, level."""
    return [c.args[1] for c in serial.command.call_args_list if c.args[:1] == (0x81,)]


def test_configured_contrast_is_sent_at_start_through_lumas_contrast():
    from drivers.clock import ManualClock

    serial = mock.Mock(unsafe=True)
    OledDisplay.from_config({"contrast": 90}, serial_interface=serial, clock=ManualClock(0))
    assert contrast_commands(serial)[-1] == 90


def test_an_idle_panel_dims_and_the_next_new_frame_brings_the_contrast_back():
    from drivers.clock import ManualClock

    clock = ManualClock(start=0.0)
    serial = mock.Mock(unsafe=True)
    display = OledDisplay.from_config({"contrast": 128, "dim_after_s": 60, "dim_contrast": 8},
                                      serial_interface=serial, clock=clock)
    display.show(frame(text="1"))
    serial.reset_mock()
    clock.advance(59.9)
    display.tick(clock())
    assert contrast_commands(serial) == [] and not display.dimmed
    clock.advance(0.1)
    display.tick(clock())
    display.tick(clock())                    # dims once, not at every tick
    assert contrast_commands(serial) == [8] and display.dimmed
    display.show(frame(text="1"))            # the same frame: nothing new, stays dim
    assert contrast_commands(serial) == [8]
    display.show(frame(text="2"))
    assert contrast_commands(serial) == [8, 128] and not display.dimmed


def test_the_guarded_operator_display_passes_ticks_to_the_dimmer():
    from drivers.clock import ManualClock

    clock = ManualClock(start=0.0)
    serial = mock.Mock(unsafe=True)
    display = build_display({"type": "oled", "contrast": 100, "dim_after_s": 30}, clock=clock,
                            serial_interface=serial)
    display.show(frame())
    clock.advance(30)
    display.tick(clock())
    assert contrast_commands(serial)[-1] == 16 and display.inner.dimmed


def test_dimming_needs_a_contrast_to_come_back_to():
    with pytest.raises(ConfigError, match="display.dim_after_s: needs contrast too"):
        OledOptions({"dim_after_s": 60})


def test_i2c_port_and_spi_bus_speed_are_lumas_own_settings():
    options = OledOptions({"interface": "i2c", "i2c_port": 3})
    assert options.args.i2c_port == 3
    options = OledOptions({"interface": "spi", "spi_bus_speed": 16_000_000})
    assert options.args.spi_bus_speed == 16_000_000
