"""A `Screen` as plain text lines: for the serial console (`screen`) and for `corbeille sim`
in a terminal too small for the pixel view (80x24 fits)."""
from __future__ import annotations

import sys

from firmware.screen import Screen


def screen_text(screen: Screen, width: int = 40, max_items: int = 9) -> list[str]:
    out = [f"== {screen.title} =="]
    out += [_row(line, width) for line in screen.lines]
    if screen.kind in ("speaking", "auction"):
        for i, item in enumerate(screen.items):
            out.append(("> " if i == screen.highlight else "  ") + _row(item, width - 2))
    elif screen.kind == "confirm":
        out.append("  ".join(f"[{item}]" if i == screen.selected else f" {item} " for i, item in enumerate(screen.items)))
    elif screen.kind == "qr":
        out.append(str(screen.items[0]) if screen.items else "")
    elif screen.kind == "amount":
        out.append(f"  < {screen.items[0] if screen.items else ''} >")
    else:
        items = list(enumerate(screen.items))
        if len(items) > max_items:            # a window around the selection, like the screen
            start = min(max(0, screen.selected - max_items // 2), len(items) - max_items)
            items = items[start:start + max_items]
        for i, item in items:
            out.append(("> " if i == screen.selected else "  ") + _row(item, width - 2))
    if screen.status:
        out.append(screen.status)
    if screen.footer:
        out.append(f"[{screen.footer}]")
    return out


def _row(text, width):
    left, tab, right = str(text).partition("\t")
    if not tab:
        return left
    return left + " " * max(1, width - len(left) - len(right)) + right


class TextView:
    """Writes each new Screen as text to a stream, clearing the terminal first."""

    def __init__(self, stream=None, clear: bool = True):
        self.stream = stream or sys.stdout
        self.clear = clear
        self._last = None

    def show(self, screen: Screen, help_line: str = "") -> bool:
        if screen == self._last:
            return False
        self._last = screen
        text = "\n".join(screen_text(screen)) + ("\n\n" + help_line if help_line else "") + "\n"
        if self.clear:
            text = "\x1b[H\x1b[2J" + text
        self.stream.write(text)
        self.stream.flush()
        return True
