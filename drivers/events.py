"""The one value every input driver produces: ``InputEvent(name, kind, t, data)``.

Inputs never call game logic; they put these on a ``queue.Queue`` handed to them, and
the firmware's single loop takes them in order (see DESIGN.md, "one loop, one queue").

Names: "up", "down", "ok", "back" (operator), "seat1".."seat6", "rfid", "console".
Kinds:
    "down", "up"      raw edges after debouncing (auctions use holding a seat button)
    "press"           a short press, sent on release
    "long_press"      sent once, when a button has been held for its hold time
    "tag"             an RFID tag was presented (data: the 10 hex digits)
    "line"            a text line arrived on the serial console (data: the line)
``t`` is the driver's clock reading (time.monotonic unless a test injects another).
"""
from __future__ import annotations

from dataclasses import dataclass

PRESS = "press"
LONG_PRESS = "long_press"
DOWN = "down"
UP = "up"
TAG = "tag"
LINE = "line"


@dataclass(frozen=True, slots=True)
class InputEvent:
    name: str
    kind: str
    t: float
    data: str | None = None
