"""Displays: one small interface in front of every screen the box can drive.

``Display`` is what renderers hand frames to: ``size``, ``mode``, ``show(image)``,
``clear()``, ``close()``, ``name``. ``show`` skips a frame identical to the last one
sent and returns False, because luma's SSD1306/SH1106 drivers resend the whole frame
on every call (about 1 KB over I2C, ~25 ms at 400 kHz) and an e-ink panel takes
seconds: "a frame goes to a display only when it differs from the last one" is ours.

``OledDisplay`` wraps any luma.oled device, built from a configuration dict through
``luma.core.cmdline`` exactly as luma's own command-line helpers do, so every device
and interface luma knows is available without a table of our own.

The factory that picks a driver by ``config["type"]`` lives in ``drivers.displays``:
it imports the concrete displays (e-ink, terminal, window, the fault guard), which all
import this module, so keeping it here would tie them in an import circle.
"""
from __future__ import annotations

import argparse
import collections
import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from drivers.config import Section
from drivers.errors import BusError, ConfigError

log = logging.getLogger(__name__)

MODES = ("1", "L", "RGB")


def convert(image: Image.Image, mode: str) -> Image.Image:
    """``image`` in ``mode``; greys become 1-bit by a plain threshold at 50 %.

    PIL's default 1-bit conversion dithers, which turns anti-aliased text into noise
    on a 128x64 panel; a threshold keeps letters crisp.
    """
    if image.mode == mode:
        return image
    if mode == "1":
        grey = image if image.mode == "L" else image.convert("L")
        return grey.point(lambda v: 255 if v >= 128 else 0).convert("1", dither=Image.Dither.NONE)
    return image.convert(mode)


class Display:
    """A screen. Subclasses implement ``_send(frame)``; this class skips repeats.

    ``show`` converts the image to ``mode`` (so a renderer may draw in "L" for any
    display), compares it with the last frame sent and calls ``_send`` only when it
    differs. The cache is updated only after ``_send`` returned, so a frame lost to a
    bus error is sent again next time rather than counted as shown.
    ``tick(now)`` lets slow or failing displays finish work between frames; the
    firmware calls it from its loop. ``degraded`` and ``last_error`` say whether the
    display is currently failing (only wrappers and e-ink set them).
    """

    name = "display"
    degraded = False
    last_error = ""
    every_second = True     # can redraw every second (a countdown); e-ink cannot

    def __init__(self, size: tuple[int, int], mode: str, name: str | None = None):
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
        self.size = (int(size[0]), int(size[1]))
        self.mode = mode
        if name is not None:
            self.name = name
        # What show compares with (forget clears it) and the last frame sent: for a 1-bit
        # frame a private copy of the image, compared in C (XOR, then its bounding box);
        # for other modes its bytes. Taking a small 1-bit frame's bytes goes through
        # Pillow's encoder, about a third of handing a menu frame to an OLED.
        self._last_key: Image.Image | bytes | None = None
        self._last_sent: Image.Image | bytes | None = None
        self.frames_sent = 0
        self.frames_skipped = 0

    def prepare(self, image: Image.Image) -> Image.Image:
        """The frame as it will be sent: checked for size, converted to ``mode``."""
        if image.size != self.size:
            raise ValueError(f"{self.name}: frame is {image.size[0]}x{image.size[1]}, "
                             f"display is {self.size[0]}x{self.size[1]}")
        return convert(image, self.mode)

    def show(self, image: Image.Image) -> bool:
        """Send ``image`` unless it equals the last frame sent; True when it was sent."""
        frame = self.prepare(image)
        if _same(frame, self._last_key):
            self.frames_skipped += 1
            return False
        self._send(frame)
        self._last_key = self._last_sent = frame.copy() if frame.mode == "1" else frame.tobytes()
        self.frames_sent += 1
        return True

    def clear(self) -> None:
        """Blank the screen (skipped, like any frame, when it is already blank)."""
        self.show(Image.new(self.mode, self.size))

    def forget(self) -> None:
        """Drop the memory of the last frame, so the next one is sent whatever it is.

        Used after a reconnection: the panel may have lost what it was showing.
        """
        self._last_key = None

    @property
    def last_frame(self) -> Image.Image | None:
        """The last frame actually sent (a copy), or None; a frame of another mode than 1-bit
        is rebuilt from its bytes when asked for."""
        if self._last_sent is None:
            return None
        if isinstance(self._last_sent, Image.Image):
            return self._last_sent.copy()
        return Image.frombytes(self.mode, self.size, self._last_sent)

    def tick(self, now: float | None = None) -> None:
        """Do pending work (retries, delayed e-ink refreshes). Nothing to do here."""

    def close(self) -> None:
        """Release the hardware. Safe to call twice."""

    def _send(self, frame: Image.Image) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r} {self.size[0]}x{self.size[1]} {self.mode}>"


def _same(frame: Image.Image, key) -> bool:
    """``frame`` equals the remembered one (see Display.__init__)."""
    if key is None:
        return False
    if isinstance(key, Image.Image):
        return key.mode == frame.mode and frame.im.chop_xor(key.im).getbbox() is None
    return frame.tobytes() == key


# --------------------------------------------------------------------------- luma OLED

class _RaisingParser(argparse.ArgumentParser):
    """argparse calls sys.exit on bad input; a configuration error must raise instead."""

    def __init__(self, prefix: str, **kwargs):
        super().__init__(**kwargs)
        self._prefix = prefix

    def error(self, message):
        raise ConfigError(f"{self._prefix}: {message}")


# Keys the OLED factory reads itself; every other key must be one of luma's options.
_OLED_OWN_KEYS = ("type", "name", "contrast", "dim_after_s", "dim_contrast")
_OLED_DEFAULTS = {"display": "ssd1306", "interface": "i2c"}


def _luma_parser(prefix: str) -> argparse.ArgumentParser:
    from luma.core import cmdline

    return cmdline.create_parser(
        description="Corbeille display", autocomplete=False,
        parser=_RaisingParser(prefix, prog="corbeille-display", add_help=False))


def _greyscale_class(display: str) -> bool:
    import luma.oled.device
    from luma.oled.device.greyscale import greyscale_device

    cls = getattr(luma.oled.device, display)
    return isinstance(cls, type) and issubclass(cls, greyscale_device)


class OledOptions:
    """A validated OLED configuration: luma's argparse namespace plus our own keys.

    Validation happens here, eagerly, so a typo is a ConfigError at start-up even when
    the display itself cannot be reached yet (and is then retried, degraded).
    """

    def __init__(self, config: Mapping[str, Any], prefix: str = "display"):
        from luma.core import cmdline

        section = Section(config, prefix)
        section.choice("type", ["oled"], "oled")
        self.name = section.text("name", "oled")
        self.contrast = section.integer("contrast", None, 0, 255)
        # Burn-in care: after this long without a new frame the panel drops to dim_contrast,
        # and the next frame brings `contrast` back. 0: never.
        self.dim_after = section.number("dim_after_s", 0.0, 0)
        self.dim_contrast = section.integer("dim_contrast", 16, 0, 255)
        if self.dim_after and self.contrast is None:
            raise section.error("dim_after_s", "needs contrast too (the level a new frame brings back)")
        oled_types = cmdline.get_display_types().get("oled", [])
        display = section.choice("display", oled_types, _OLED_DEFAULTS["display"])
        interfaces = cmdline.get_interface_types()
        interface = section.choice("interface", interfaces, _OLED_DEFAULTS["interface"])
        argv = ["--display", display, "--interface", interface]

        parser = _luma_parser(prefix)
        actions = {a.dest: a for a in parser._actions if a.option_strings}
        for dest in sorted(actions):
            action = actions[dest]
            if dest in ("display", "interface", "config") or not section.has(dest):
                continue
            flag = action.option_strings[-1] if action.option_strings[-1].startswith("--") \
                else action.option_strings[0]
            if isinstance(action, argparse._StoreTrueAction):
                if section.boolean(dest):
                    argv.append(flag)
                continue
            if dest == "i2c_address":
                value = section.raw(dest)
                if isinstance(value, int) and not isinstance(value, bool):
                    value = hex(value)
                elif not isinstance(value, str):
                    raise section.error(dest, f"{value!r} is not an address like '0x3C'")
                try:
                    int(value, 0)
                except ValueError:
                    raise section.error(dest, f"{value!r} is not an address like '0x3C'") from None
            elif action.choices is not None:
                value = section.choice(dest, action.choices)
            elif action.type is int:
                value = section.integer(dest)
            elif action.type is float:
                value = section.number(dest)
            elif action.type is bool:
                value = section.boolean(dest)
            else:
                value = section.text(dest)
            if value is None:
                continue
            argv += [flag, str(value)]
        section.done(also_known=[d for d in actions if d != "config"])

        self.argv = argv
        self.args = parser.parse_args(argv)
        self.greyscale = _greyscale_class(display)

    @property
    def size(self) -> tuple[int, int]:
        a = self.args
        return (a.width, a.height) if a.rotate % 2 == 0 else (a.height, a.width)

    @property
    def mode(self) -> str:
        """What a renderer should draw: 1-bit, grey (SSD1322...), or colour."""
        if self.args.mode == "1":
            return "1"
        return "L" if self.greyscale else ("RGB" if self._colour() else "1")

    def _colour(self) -> bool:
        import luma.oled.device
        from luma.oled.device.color import color_device

        cls = getattr(luma.oled.device, self.args.display)
        return isinstance(cls, type) and issubclass(cls, color_device)


def _luma_errors():
    import luma.core.error as e

    return e


class OledDisplay(Display):
    """Any luma.oled device (SSD1306, SH1106, SSD1309, SSD1322...) behind ``Display``.

    Build one with ``OledDisplay.from_config(config)``; pass ``serial_interface=`` to put
    a mock or a fake-rpi bus under the real luma driver (tests count the bytes it sends).
    A luma bus error (DeviceNotFoundError on I2C EIO, OSError on SPI) becomes BusError.
    """

    def __init__(self, device, *, name: str = "oled", mode: str | None = None,
                 contrast: int | None = None, dim_after: float = 0.0, dim_contrast: int = 16,
                 clock: Callable[[], float] = time.monotonic):
        from drivers.partial_pages import page_writer

        self.device = device
        if mode is None:
            mode = "1" if device.mode == "1" else "RGB"
        super().__init__(device.size, mode, name)
        self._closed = False
        self.contrast = contrast
        self.dim_after = dim_after if contrast is not None else 0.0
        self.dim_contrast = dim_contrast
        self._clock = clock
        self._changed_at = clock()
        self.dimmed = False
        if contrast is not None:
            self._guard_bus(device.contrast, contrast)
        # SSD1306/SH1106: only the changed pages go on the bus (drivers/partial_pages.py).
        self.pages = page_writer(device)
        self._write = self.pages.write if self.pages is not None else device.display

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | OledOptions, *, serial_interface=None,
                    prefix: str = "display", clock: Callable[[], float] = time.monotonic) -> "OledDisplay":
        options = config if isinstance(config, OledOptions) else OledOptions(config, prefix)
        device = _create_luma_device(options, serial_interface)
        return cls(device, name=options.name, mode=options.mode, contrast=options.contrast,
                   dim_after=options.dim_after, dim_contrast=options.dim_contrast, clock=clock)

    def _send(self, frame: Image.Image) -> None:
        if self.dimmed:
            self._guard_bus(self.device.contrast, self.contrast)
            self.dimmed = False
        self._guard_bus(self._write, convert(frame, self.device.mode))
        self._changed_at = self._clock()

    def tick(self, now: float | None = None) -> None:
        """Dim the panel once nothing new has been shown for ``dim_after`` seconds: an OLED
        pixel lit for hours at full brightness wears and leaves a ghost (burn-in)."""
        now = self._clock() if now is None else now
        if self.dim_after and not self.dimmed and now - self._changed_at >= self.dim_after:
            self._guard_bus(self.device.contrast, self.dim_contrast)
            self.dimmed = True

    def forget(self) -> None:
        super().forget()
        if self.pages is not None:            # the panel's RAM is unknown too
            self.pages.forget()

    def _guard_bus(self, fn, *args):
        errors = _luma_errors()
        try:
            return fn(*args)
        except (errors.DeviceNotFoundError, errors.DevicePermissionError) as exc:
            raise BusError(str(exc)) from exc

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._guard_bus(self.device.cleanup)      # display off, then release the bus
        except OSError:
            # The panel did not take the "off" commands (that is why we are closing):
            # still release the bus, or every reconnection attempt would leak a file.
            try:
                self.device._serial_interface.cleanup()
            except Exception:
                pass
            raise


def _create_luma_device(options: OledOptions, serial_interface=None):
    """``luma.core.cmdline.create_device``, or the same steps around a given interface."""
    from luma.core import cmdline
    import luma.core.framebuffer

    errors = _luma_errors()
    args = options.args
    try:
        if serial_interface is None:
            return cmdline.create_device(args)
        import luma.oled.device

        device_class = getattr(luma.oled.device, args.display)
        framebuffer = getattr(luma.core.framebuffer, args.framebuffer)(
            num_segments=args.num_segments, debug=args.debug)
        params = dict(vars(args), framebuffer=framebuffer)
        return device_class(serial_interface=serial_interface, **params)
    except errors.DeviceDisplayModeError as exc:
        raise ConfigError(f"display.width/height: {exc}") from exc
    except errors.DeviceAddressError as exc:
        raise ConfigError(f"display.i2c_address: {exc}") from exc
    except (errors.DeviceNotFoundError, errors.DevicePermissionError) as exc:
        raise BusError(str(exc)) from exc
    except (ImportError, RuntimeError) as exc:
        # RPi.GPIO refuses to load off a Pi; spidev or smbus2 may be missing.
        raise ConfigError(f"display.interface: {args.interface!r} cannot be used here: {exc}") from exc


# --------------------------------------------------------------------------- captures

class DummyDisplay(Display):
    """luma's ``dummy`` device: keeps the last image, needs nothing. ``image`` is that image."""

    def __init__(self, size=(128, 64), mode="1", name="dummy"):
        super().__init__(size, mode, name)
        from luma.core.device import dummy

        self.device = dummy(width=self.size[0], height=self.size[1],
                            mode="1" if mode == "1" else "RGB")

    def _send(self, frame):
        self.device.display(convert(frame, self.device.mode))

    @property
    def image(self) -> Image.Image | None:
        return self.device.image


class PngDisplay(DummyDisplay):
    """Keeps the last ``keep`` frames in memory and, given a directory, writes each as PNG.

    For tests (compare ``frames`` with reference images) and for looking at a screen on
    a machine with no terminal or window: files are ``<name>-00001.png``... plus
    ``<name>-latest.png`` rewritten on every frame. A disk that refuses them (full,
    read-only) costs the files, never the frame or the box: the failure is logged once.
    """

    def __init__(self, size=(128, 64), mode="1", name="png", directory: str | None = None,
                 keep: int = 100):
        super().__init__(size, mode, name)
        self.directory = directory
        self.frames: collections.deque[Image.Image] = collections.deque(maxlen=max(1, keep))
        self._refused = False
        if directory:
            self._write(lambda: os.makedirs(directory, exist_ok=True))

    def _send(self, frame):
        super()._send(frame)
        self.frames.append(frame.copy())
        if self.directory:
            self._write(lambda: self._save(frame))

    def _save(self, frame):
        number = self.frames_sent + 1
        frame.save(os.path.join(self.directory, f"{self.name}-{number:05d}.png"))
        latest = os.path.join(self.directory, f"{self.name}-latest.png")
        frame.save(latest + ".tmp", format="PNG")
        os.replace(latest + ".tmp", latest)

    def _write(self, write) -> None:
        try:
            write()
            self._refused = False
        except OSError as error:
            if not self._refused:
                log.warning("%s: frames not written to %s: %s", self.name, self.directory, error)
            self._refused = True
