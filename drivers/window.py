"""The desktop stand-in as a window: luma.emulator's pygame device, scaled up.

luma.emulator (and pygame) are optional: they are imported only when a window display
is built, and their absence is a ConfigError saying what to install. luma's pygame
device calls ``sys.exit()`` when the window is closed or Escape is pressed in it; here
that becomes a quiet stop plus, if an events queue was given, an
``InputEvent("window", "quit", t)`` so the firmware decides how to end (it may have a
journal to close).
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from drivers.config import Section
from drivers.display import MODES, Display, convert
from drivers.errors import ConfigError
from drivers.events import InputEvent

TRANSFORMS = ("identity", "smoothscale", "scale2x", "none")


class WindowDisplay(Display):
    """A ``Display`` shown in a pygame window (``device`` is the luma emulator)."""

    def __init__(self, size=(128, 64), mode="1", *, scale: int = 4, transform: str = "identity",
                 title: str = "Corbeille", events=None,
                 clock: Callable[[], float] = time.monotonic, name: str = "window",
                 prefix: str = "display"):
        super().__init__(size, mode, name)
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # no banner over the game
        try:
            from luma.emulator.device import pygame as pygame_device
        except (ImportError, RuntimeError) as exc:
            raise ConfigError(
                f"{prefix}.type: 'window' needs luma.emulator and pygame "
                f"(pip install luma.emulator): {exc}") from exc
        try:
            self.device = pygame_device(width=self.size[0], height=self.size[1], mode="RGB",
                                        transform=transform, scale=scale)
        except RuntimeError as exc:   # "Emulator requires pygame to be installed"
            raise ConfigError(f"{prefix}.type: 'window' cannot open: {exc}") from exc
        self.device._pygame.display.set_caption(title)
        self.events = events
        self._clock = clock
        self.closed_by_user = False

    @classmethod
    def from_config(cls, config: Mapping[str, Any], *, prefix: str = "display", events=None,
                    clock: Callable[[], float] = time.monotonic) -> "WindowDisplay":
        section = Section(config, prefix)
        section.choice("type", ["window"], "window")
        display = cls(
            (section.integer("width", 128, 1, 4096), section.integer("height", 64, 1, 4096)),
            section.choice("mode", MODES, "1"),
            scale=section.integer("scale", 4, 1, 16),
            transform=section.choice("transform", TRANSFORMS, "identity"),
            title=section.text("title", "Corbeille"),
            events=events, clock=clock, name=section.text("name", "window"), prefix=prefix)
        section.done()
        return display

    def _send(self, frame: Image.Image) -> None:
        if self.closed_by_user:
            return
        try:
            self.device.display(convert(frame, "RGB"))
        except SystemExit:
            self.closed_by_user = True
            if self.events is not None:
                self.events.put(InputEvent("window", "quit", self._clock()))

    def close(self) -> None:
        if not self.closed_by_user:
            self.closed_by_user = True
            self.device._pygame.display.quit()
