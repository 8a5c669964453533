"""Model-aware hardware checks (drivers/pi_model.py, firmware/config.py) and the keys named
after the libraries they feed. The model is read from a folder laid out like a
Pi's root ($CORBEILLE_SYSROOT): proc/device-tree/model and the dev/serial0 symlink."""
import logging
from pathlib import Path

import pytest

from drivers.pi_model import read_model, serial_layout
from firmware import config as cfg
from firmware.config import ConfigError, config_from_dict

SRC = Path("/etc/corbeille/corbeille.toml")
PI3 = "Raspberry Pi 3 Model B Plus Rev 1.3"
PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
ZERO2 = "Raspberry Pi Zero 2 W Rev 1.0"


@pytest.fixture(autouse=True)
def desktop(monkeypatch, tmp_path):
    """By default an empty root: not a Pi, whatever machine runs the tests."""
    empty = tmp_path / "empty-root"
    empty.mkdir()
    monkeypatch.setenv("CORBEILLE_SYSROOT", str(empty))
    monkeypatch.setattr(cfg, "SYSTEM_CONFIG", tmp_path / "etc" / "corbeille.toml")


def pi_root(tmp_path, monkeypatch, model, serial0=None):
    root = tmp_path / "pi-root"
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    (root / "dev").mkdir()
    if serial0:
        (root / "dev" / "serial0").symlink_to(serial0)      # as udev makes it: "ttyS0"
    monkeypatch.setenv("CORBEILLE_SYSROOT", str(root))
    return root


def error_of(data):
    with pytest.raises(ConfigError) as e:
        config_from_dict(data, SRC)
    return str(e.value)


def test_the_model_is_read_from_the_device_tree(tmp_path, monkeypatch):
    assert read_model() is None                                  # the desktop fixture
    pi_root(tmp_path, monkeypatch, PI4)
    assert read_model() == PI4


# ---- UARTs per model

@pytest.mark.parametrize("model", [ZERO2, PI3, PI4])
def test_with_bluetooth_on_ttyama0_the_header_is_the_mini_uart(tmp_path, monkeypatch, model):
    pi_root(tmp_path, monkeypatch, model, serial0="ttyS0")
    for port in ("/dev/serial0", "/dev/ttyS0"):
        assert config_from_dict({"rfid": {"enabled": True, "port": port}}).rfid.port == port
    message = error_of({"rfid": {"enabled": True, "port": "/dev/ttyAMA0"}})
    assert message == (f'{SRC}: rfid.port = "/dev/ttyAMA0": on a {model}, /dev/ttyAMA0 is the Bluetooth '
                       "UART, not the header's GPIO 14/15, which are /dev/ttyS0: set port = \"/dev/serial0\" "
                       "(or add dtoverlay=disable-bt to config.txt to give the header the PL011 UART)")


def test_rfid_on_serial0_and_a_console_on_ttyama0_is_refused_on_a_pi_4(tmp_path, monkeypatch):
    # The case the old check accepted: the console would be talking to Bluetooth.
    pi_root(tmp_path, monkeypatch, PI4, serial0="ttyS0")
    message = error_of({"rfid": {"enabled": True}, "console": {"enabled": True, "port": "/dev/ttyAMA0"}})
    assert message.startswith(f'{SRC}: console.port = "/dev/ttyAMA0": on a {PI4}, /dev/ttyAMA0 is the Bluetooth UART')


def test_with_disable_bt_serial0_and_ttyama0_are_one_port(tmp_path, monkeypatch):
    pi_root(tmp_path, monkeypatch, PI4, serial0="ttyAMA0")
    assert config_from_dict({"rfid": {"enabled": True, "port": "/dev/ttyAMA0"}}).rfid.enabled
    message = error_of({"rfid": {"enabled": True}, "console": {"enabled": True, "port": "/dev/ttyAMA0"}})
    assert message == (f'{SRC}: rfid.port = "/dev/serial0" and console.port = "/dev/ttyAMA0" are both '
                       f"/dev/ttyAMA0 on a {PI4}: one serial port serves one device; give the console "
                       "another port (a USB adapter)")
    message = error_of({"rfid": {"enabled": True, "port": "/dev/ttyS0"}})
    assert "/dev/ttyS0 is Bluetooth's or switched off (disable-bt)" in message


def test_on_a_pi_5_serial0_is_the_debug_connector(tmp_path, monkeypatch):
    pi_root(tmp_path, monkeypatch, PI5, serial0="ttyAMA10")
    message = error_of({"rfid": {"enabled": True}})
    assert message == (f'{SRC}: rfid.port = "/dev/serial0": on a {PI5}, /dev/ttyAMA10 is the debug '
                       "connector's UART (/dev/serial0 points to /dev/ttyAMA10), not the header's GPIO "
                       '14/15, which are /dev/ttyAMA0: set port = "/dev/ttyAMA0" and add dtparam=uart0=on '
                       "to config.txt")
    assert config_from_dict({"rfid": {"enabled": True, "port": "/dev/ttyAMA0"}}).rfid.enabled


def test_before_the_uart_is_enabled_the_models_default_layout_is_used(tmp_path, monkeypatch):
    pi_root(tmp_path, monkeypatch, PI5)                          # no /dev/serial0 yet
    assert "debug connector" in error_of({"console": {"enabled": True}})
    assert serial_layout(ZERO2).header == "/dev/ttyS0"


def test_usb_adapters_and_pyserial_urls_are_not_header_uarts(tmp_path, monkeypatch):
    pi_root(tmp_path, monkeypatch, PI5, serial0="ttyAMA10")
    c = config_from_dict({"rfid": {"enabled": True, "port": "/dev/ttyAMA0"},
                          "console": {"enabled": True, "port": "/dev/ttyUSB0"}})
    assert c.console.port == "/dev/ttyUSB0"
    assert config_from_dict({"console": {"enabled": True, "port": "loop://"}}).console.enabled


def test_off_a_pi_any_port_name_is_taken_as_written():
    assert config_from_dict({"rfid": {"enabled": True, "port": "/dev/ttyAMA0"}}).rfid.enabled


# ---- E-ink pins are fixed by the libraries

@pytest.mark.parametrize("key", ["eink_rst", "eink_dc", "eink_busy", "eink_pwr"])
def test_eink_pin_overrides_are_refused_because_they_would_do_nothing(key):
    message = error_of({"board": {"type": "eink"}, "pins": {key: 5}})
    assert message == (f"{SRC}: pins.{key}: the e-ink panels' pins are fixed by their libraries "
                       "(Waveshare's epdconfig.py, Pimoroni's inky), which take no pin settings, so this "
                       "override would do nothing: remove it and wire the panel as hardware/pinout.toml says")


def test_the_quotation_oleds_pins_can_still_be_moved():
    c = config_from_dict({"board": {"type": "oled"}, "pins": {"board_dc": 4}})
    assert c.pins["board_dc"] == 4


# ---- Keys named after their libraries; the old names still read, with a warning

def test_long_press_s_is_read_as_gpiozeros_hold_time(caplog):
    with caplog.at_level(logging.WARNING, logger="corbeille"):
        c = config_from_dict({"timing": {"long_press_s": 1.5}}, SRC)
    assert c.timing.hold_time == 1.5
    assert f"{SRC}: timing.long_press_s is now called timing.hold_time" in caplog.text


def test_baud_is_read_as_pyserials_baudrate(caplog):
    with caplog.at_level(logging.WARNING, logger="corbeille"):
        c = config_from_dict({"console": {"baud": 9600}}, SRC)
    assert c.console.baudrate == 9600
    assert "console.baud is now called console.baudrate" in caplog.text


def test_old_and_new_name_together_are_refused():
    assert error_of({"console": {"baud": 9600, "baudrate": 9600}}) == (
        f"{SRC}: console.baud and console.baudrate are the same setting: keep console.baudrate only")


def test_the_new_names_give_no_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="corbeille"):
        config_from_dict({"console": {"baudrate": 9600}, "timing": {"hold_time": 2.0}}, SRC)
    assert caplog.text == ""


def test_the_operator_oled_gets_contrast_dimming_and_bus_settings():
    from firmware.parts import board_display_config, operator_display_config, operator_inputs_config

    c = config_from_dict({"operator": {"type": "oled", "interface": "spi", "contrast": 60, "dim_after_s": 30,
                                       "dim_contrast": 4, "spi_bus_speed": 16_000_000},
                          "board": {"type": "oled", "contrast": 200}, "timing": {"poweroff_hold_time": 8}})
    op = operator_display_config(c)
    assert (op["contrast"], op["dim_after_s"], op["dim_contrast"], op["spi_bus_speed"]) == (60, 30.0, 4, 16_000_000)
    board = board_display_config(c)
    assert (board["contrast"], board["dim_after_s"], board["spi_bus_speed"]) == (200, 0.0, 8_000_000)
    assert operator_inputs_config(c)["poweroff_hold_time"] == 8.0
    i2c = operator_display_config(config_from_dict({"operator": {"type": "oled", "i2c_port": 3}}))
    assert i2c["i2c_port"] == 3 and "spi_bus_speed" not in i2c
    # What parts.py hands over, the display driver accepts.
    from drivers.display import OledOptions

    assert OledOptions({**op, "interface": "noop"}, "operator").contrast == 60
    assert OledOptions({**board, "interface": "noop"}, "board").args.spi_bus_speed == 8_000_000
