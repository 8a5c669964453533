"""The screen-object protocol: one dataclass per UI frame type.

A frame is what the operator sees and what a key does there. It owns:
  key(ctl, key)         a button on this frame (ctl: the Controller, for the session,
                        the stack, applying actions and the shared helpers)
  tick(ctl, now)        the clock reached `now` (a timer on this frame)
  deadline(ctl)         when `tick` next has something to do, or None
  draw(ctl) -> Screen   what to show
  to_json() / from_json(data)
                        the saved UI state. The JSON form is the one the controller wrote
                        before frames were objects ({"t": type name, field: value...}), so a
                        journal's saved `ui` meta from older firmware still resumes.

`load(data)` turns a saved frame back into its object through the registry of type names;
a type not registered stays a plain dict, which `Controller.restore` refuses (the box then
starts from the decision's root).

Frames also read like the dicts they replace (`frame["t"]`, `frame.get("sel")`), so code
and tests that look at the stack by type name keep working.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

REGISTRY: dict[str, type["Frame"]] = {}


def frame_type(name: str):
    """Class decorator: register a Frame subclass under its saved type name."""
    def register(cls):
        if name in REGISTRY:
            raise ValueError(f"frame type {name!r} registered twice")
        cls.t = name
        REGISTRY[name] = cls
        return cls
    return register


@dataclass
class Frame:
    t: ClassVar[str] = ""
    saved: ClassVar[bool] = True       # False: an overlay not kept across a restart

    # ------------------------------------------------------------ behaviour
    def key(self, ctl, key: str) -> None:
        """A button pressed on this frame; the default does nothing."""

    def tick(self, ctl, now: float) -> None:
        """The clock reached `now`; the default has no timer."""

    def deadline(self, ctl) -> float | None:
        """When `tick` next has something to do (the loop sleeps until then), or None."""
        return None

    def draw(self, ctl):
        raise NotImplementedError(f"{type(self).__name__} draws nothing")

    # --------------------------------------------------------- saved state
    def to_json(self) -> dict:
        out = {"t": self.t}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Frame":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    # ---------------------------------------------------- shared key helpers
    def yes_no(self, ctl, key: str, on_yes) -> None:
        """A Yes / No question (Yes is item 0): Back or No closes it, Yes calls `on_yes()`."""
        if self.move(key, 2):
            return
        if key == "back" or (key == "ok" and self.sel == 1):
            ctl.stack.pop()
        elif key == "ok":
            on_yes()

    def move(self, key: str, count: int) -> bool:
        """Up/Down move the selection (wrapping); True if the key was a move."""
        if key in ("up", "down") and count:
            self.sel = (self.sel + (-1 if key == "up" else 1)) % count
            return True
        return False

    def scroll(self, key: str) -> bool:
        """Up/Down scroll a list of lines (no wrap, never above the first); True if a scroll."""
        if key in ("up", "down"):
            self.sel = max(0, self.sel + (1 if key == "down" else -1))
            return True
        return False

    # ------------------------------------------------ read like the old dicts
    def __getitem__(self, name):
        if name == "t":
            return self.t
        if name in {f.name for f in fields(self)}:
            return getattr(self, name)
        raise KeyError(name)

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default


@dataclass
class Page(Frame):
    """A frame that is only read: Up/Down scroll its lines (`sel`), OK or Back close it."""

    def key(self, ctl, key):
        if not self.scroll(key) and key in ("ok", "back"):
            ctl.stack.pop()


def load(data):
    """A frame object from its saved form (a dict keyed "t"); unregistered types and
    objects already loaded come back as they are."""
    if isinstance(data, dict):
        cls = REGISTRY.get(data.get("t"))
        if cls is not None:
            return cls.from_json(data)
    return data


def dump(frame) -> dict:
    """The saved form of a frame object or a plain dict frame."""
    return frame.to_json() if isinstance(frame, Frame) else dict(frame)
