"""The display factory: ``build_display(config)`` picks a driver by ``config["type"]``.

It lives apart from ``drivers.display`` (the ``Display`` base class, the OLED and the
in-memory displays) because it names every concrete display and each of those imports
the base class: one module holding both was an import circle. Hardware displays come back wrapped in
``drivers.faults.GuardedDisplay`` so a bus error never reaches the game loop. Each
driver module is imported only when a display of its kind is built, so a start imports
the one it uses (a desktop run never loads the e-ink code).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from drivers.config import Section
from drivers.display import MODES, Display, DummyDisplay, OledDisplay, OledOptions, PngDisplay

DISPLAY_TYPES = ("oled", "eink", "terminal", "window", "png", "dummy")


def build_display(config: Mapping[str, Any], *, prefix: str = "display", stream=None,
                  events=None, clock: Callable[[], float] = time.monotonic,
                  serial_interface=None, panel=None) -> Display:
    """The display described by ``config`` (one table of the configuration file).

    ``config["type"]`` is one of oled, eink, terminal, window, png, dummy; the keys each
    reads are listed in docs/drivers.md. Backends may be passed in: ``serial_interface``
    (oled), ``panel`` (eink), ``stream`` (terminal), ``events`` (window: a queue that
    receives a quit event when the window is closed). OLED and e-ink displays come back
    guarded: bus errors mark them degraded and are retried, never raised.
    """
    section = Section(config, prefix)
    kind = section.choice("type", DISPLAY_TYPES)
    if kind == "oled":
        from drivers.faults import GuardedDisplay

        options = OledOptions(config, prefix)
        return GuardedDisplay(
            opener=lambda: OledDisplay.from_config(options, serial_interface=serial_interface, clock=clock),
            size=options.size, mode=options.mode, name=options.name, clock=clock)
    if kind == "eink":
        from drivers.eink import QuotationBoard

        return QuotationBoard.from_config(config, prefix=prefix, panel=panel, clock=clock)
    if kind == "terminal":
        from drivers.terminal import TerminalDisplay

        return TerminalDisplay.from_config(config, prefix=prefix, stream=stream)
    if kind == "window":
        from drivers.window import WindowDisplay

        return WindowDisplay.from_config(config, prefix=prefix, events=events, clock=clock)

    width = section.integer("width", 128, 1, 4096)
    height = section.integer("height", 64, 1, 4096)
    mode = section.choice("mode", MODES, "1")
    if kind == "png":
        display = PngDisplay((width, height), mode, name=section.text("name", "png"),
                             directory=section.text("directory", None),
                             keep=section.integer("keep", 100, 1))
    else:
        display = DummyDisplay((width, height), mode, name=section.text("name", "dummy"))
    section.done()
    return display
