"""Which Raspberry Pi this is, and which serial device sits on the header's GPIO 14/15.

The UART names differ per model, and the configuration check (firmware/config.py) must
know them to refuse a port that cannot reach the reader or the console wired to the
header:

- Pi 5 (and 500, CM5): GPIO 14/15 are UART0, /dev/ttyAMA0, switched on by
  ``dtparam=uart0=on`` in config.txt. /dev/serial0 is the debug connector between the
  HDMI sockets (/dev/ttyAMA10), not the header.
- Models with Bluetooth (Zero W, Zero 2 W, 3, 3A+, 3B+, 4, 400, CM4): the header has the
  mini UART, /dev/ttyS0, and /dev/serial0 points to it; the PL011, /dev/ttyAMA0, is
  Bluetooth's. With ``dtoverlay=disable-bt`` (or ``miniuart-bt``) the PL011 moves to the
  header and /dev/serial0 points to /dev/ttyAMA0 instead.
- Older models without Bluetooth (Pi 1, 2, Zero): /dev/ttyAMA0 on the header.

Facts are read under ``sysroot`` (``$CORBEILLE_SYSROOT``, default "/"): the model from
/proc/device-tree/model, where /dev/serial0 points from the symlink itself. Tests point
it at a folder laid out like a Pi's root.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SYSROOT_VAR = "CORBEILLE_SYSROOT"
SERIAL_ALIAS = "/dev/serial0"
MINI_UART = "/dev/ttyS0"
PL011 = "/dev/ttyAMA0"
PI5_DEBUG = "/dev/ttyAMA10"

# Model names as /proc/device-tree/model starts them.
PI5_MODELS = ("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5")
BLUETOOTH_MODELS = ("Raspberry Pi Zero W", "Raspberry Pi Zero 2 W", "Raspberry Pi 3",
                    "Raspberry Pi 4", "Raspberry Pi 400", "Raspberry Pi Compute Module 4")
# What install.sh and docs/hardware.md support (lgpio exists for them: armv7l, aarch64).
SUPPORTED_MODELS = ("Raspberry Pi Zero 2 W", "Raspberry Pi 3", "Raspberry Pi 4",
                    "Raspberry Pi 400", "Raspberry Pi 5")


def sysroot() -> Path:
    return Path(os.environ.get(SYSROOT_VAR) or "/")


def _under(root: Path, device: str) -> Path:
    return root / device.lstrip("/")


def read_model(root: Path | None = None) -> str | None:
    """"Raspberry Pi 4 Model B Rev 1.4", or None off a Pi."""
    root = sysroot() if root is None else root
    try:
        text = _under(root, "/proc/device-tree/model").read_bytes()
    except OSError:
        return None
    return text.rstrip(b"\0").decode("ascii", "replace").strip() or None


def _is(model: str, names: tuple[str, ...]) -> bool:
    # "Raspberry Pi 3" must not match "Raspberry Pi 3 Model B" wrongly nor "Raspberry Pi
    # 30": a name matches when followed by nothing or a space.
    return any(model == n or model.startswith(n + " ") for n in names)


@dataclass(frozen=True)
class SerialLayout:
    """The model's serial devices: which is on the header, and what the others are."""
    model: str
    header: str                          # the device on GPIO 14/15
    elsewhere: dict[str, str]            # device -> what it is instead
    serial0: str                         # what /dev/serial0 resolves to
    enable: str                          # what to do so the header UART is there

    def resolve(self, port: str) -> str:
        return self.serial0 if port == SERIAL_ALIAS else port


def serial_layout(model: str, root: Path | None = None) -> SerialLayout:
    """The serial devices of `model`, /dev/serial0 read under `root` when it exists."""
    root = sysroot() if root is None else root
    link = _under(root, SERIAL_ALIAS)
    resolved = None
    if link.is_symlink():
        target = os.readlink(link)
        resolved = "/dev/" + os.path.basename(target)
    if _is(model, PI5_MODELS):
        return SerialLayout(model, PL011, {PI5_DEBUG: "the debug connector's UART"},
                            resolved or PI5_DEBUG,
                            'set port = "/dev/ttyAMA0" and add dtparam=uart0=on to config.txt')
    if _is(model, BLUETOOTH_MODELS):
        if resolved == PL011:          # dtoverlay=disable-bt or miniuart-bt
            return SerialLayout(model, PL011, {MINI_UART: "Bluetooth's or switched off (disable-bt)"},
                                PL011, 'set port = "/dev/serial0"')
        return SerialLayout(model, MINI_UART, {PL011: "the Bluetooth UART"}, MINI_UART,
                            'set port = "/dev/serial0" (or add dtoverlay=disable-bt to config.txt '
                            'to give the header the PL011 UART)')
    return SerialLayout(model, PL011, {}, resolved or PL011, 'set port = "/dev/serial0"')


def header_uart_problem(layout: SerialLayout, port: str) -> str | None:
    """Why `port` cannot be the header UART on this model, or None when it is (or when it
    is another kind of port: a USB adapter, a pyserial URL)."""
    device = layout.resolve(port)
    if not (device.startswith("/dev/ttyAMA") or device.startswith("/dev/ttyS")):
        return None
    if device == layout.header:
        return None
    what = layout.elsewhere.get(device, "not on GPIO 14/15")
    via = f" ({port} points to {device})" if device != port else ""
    return (f"on a {layout.model}, {device} is {what}{via}, not the header's GPIO 14/15, "
            f"which are {layout.header}: {layout.enable}")
