"""The serial console's lines answered: an action in the command language, `key NAME
[long|down|up]` (a button, as if pressed), `screen` (the screen as text), `state` (the
game's snapshot as JSON) and `undo`. It works the controller as the buttons do, through its
public methods: an action applied here is refused, journaled and shown exactly as one
entered on the box."""
from __future__ import annotations

import json

from engines.core.errors import CorbeilleError
from firmware.texts import t

KEYS = ("up", "down", "ok", "back")     # the operator's four buttons
KINDS = {"press": "press", "long": "long_press", "long_press": "long_press", "down": "down", "up": "up"}


class ConsoleLines:
    """The console's answers, through `controller`."""

    def __init__(self, controller):
        self.controller = controller

    def answer(self, line: str) -> str:
        from firmware.textscreen import screen_text

        c = self.controller
        words = (line or "").split()
        if not words:
            return ""
        head = words[0].lower()
        if head == "key":
            return self.key(words[1:])
        if head == "screen":
            return "\n".join(screen_text(c.screen()))
        if head == "state":
            return json.dumps(c.session.snapshot(), ensure_ascii=False) if c.session else "{}"
        if c.session is None:
            return t("console.no_game", c.lang)
        if head == "undo":
            return "ok" if c.undo() else c.stack[-1].get("msg", "error")
        try:
            act = c.session.actions.parse(line, c.session.players)
        except (CorbeilleError, ValueError) as error:
            from firmware.script import said
            return said(error, c.lang)       # an unreadable line in the box's language
        # Chance left out (dice, a tile, a deal): the engine fills it with the device's draw.
        from firmware.script import fill_dice
        act = fill_dice(c.session.game, act)
        if c.apply(act):
            return "ok"
        return c.stack.pop().get("msg", "error")

    def key(self, words) -> str:
        """`key NAME [long|down|up]`: a button, as if pressed; anything else is refused
        with what is allowed (a typo must not reach the UI as an unknown event)."""
        name = words[0].lower() if words else ""
        kind = KINDS.get(words[1].lower() if len(words) > 1 else "press")
        seat = name.startswith("seat") and name[4:].isascii() and name[4:].isdigit() and len(name) <= 6
        if not (name in KEYS or seat) or kind is None or len(words) > 2:
            return ("key NAME [long|down|up]: NAME is " + ", ".join(KEYS) + " or seat1, seat2...; got "
                    + repr(" ".join(words)))
        from drivers.events import InputEvent
        self.controller.handle(InputEvent(name, kind, self.controller.now))
        return "ok"
