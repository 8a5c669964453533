"""`corbeille selftest`: check the wiring of a box, part by part.

Draws a test pattern (border, diagonal, checkerboard, the display's name and size) on
each display, lights each seat LED in turn, sounds the buzzer, then reports every button
as it is pressed (on the operator screen and on standard output) until Back is held or
the time is up. Nothing here touches a game or the journal.
"""
from __future__ import annotations

import queue as queue_module
import time

from PIL import Image, ImageDraw

from firmware.fonts import FONT
from firmware.render import render_screen
from firmware.screen import Screen
from firmware.texts import t


def test_pattern(size, mode="1", label="") -> Image.Image:
    w, h = size
    image = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=255)
    draw.line((0, 0, w - 1, h - 1), fill=255)
    draw.line((0, h - 1, w - 1, 0), fill=255)
    cell = max(4, min(w, h) // 8)
    for y in range(0, cell * 2, cell // 2):               # a small checkerboard, top left
        for x in range(0, cell * 2, cell // 2):
            if (x // (cell // 2) + y // (cell // 2)) % 2 == 0:
                draw.rectangle((2 + x, 2 + y, 1 + x + cell // 2, 1 + y + cell // 2), fill=255)
    text = f"{label} {w}x{h}".strip()
    tw = FONT.measure(text, 1)
    x0, y0 = max(1, (w - tw) // 2), max(1, h - FONT.height - 3)
    draw.rectangle((x0 - 1, y0 - 1, x0 + tw, y0 + FONT.height), fill=0)
    FONT.draw(draw, (x0, y0), text, 255, 1)
    return image.convert(mode) if mode != "L" else image


def run_selftest(hw, events: queue_module.Queue, *, lang="fr", out=print, duration: float = 30.0,
                 clock=time.monotonic, sleep=time.sleep, step_s: float = 0.3) -> dict:
    """Run the checks on `hw` (firmware.app.Hardware); returns what was seen, for tests."""
    seen = {"displays": [], "leds": [], "buzzer": [], "buttons": []}
    for display in (hw.operator, hw.board):
        if display is None:
            continue
        name = getattr(display, "name", "display")
        display.show(test_pattern(display.size, display.mode, name))
        seen["displays"].append(name)
        out(f"{name}: test pattern {display.size[0]}x{display.size[1]}")
    sleep(step_s * 3)
    if hw.lights is not None:
        for seat in getattr(hw.lights, "seats", range(1, 7)):
            hw.lights.all_off()
            hw.lights.light(seat)
            seen["leds"].append(seat)
            out(t("selftest.leds", lang, seat=seat))
            sleep(step_s)
        hw.lights.all_off()
    if hw.beeper is not None:
        for pattern in ("tick", "confirm", "error"):
            hw.beeper.play(pattern)
            seen["buzzer"].append(pattern)
            sleep(step_s)
        out(t("selftest.buzzer", lang))
    lines = [t("selftest.press", lang)]
    _show(hw, lines, lang)
    out(lines[0])
    end = clock() + duration
    while clock() < end:
        try:
            event = events.get(timeout=max(0.0, min(0.5, end - clock())))
        except queue_module.Empty:
            continue
        if event.kind not in ("press", "long_press", "tag", "line"):
            continue
        label = event.name + (" (long)" if event.kind == "long_press" else "") + (f" {event.data}" if event.data else "")
        seen["buttons"].append(label)
        line = t("selftest.pressed", lang, button=label)
        out(line)
        lines = (lines + [line])[-4:]
        _show(hw, lines, lang)
        if event.name == "back" and event.kind == "long_press":
            break
    out(t("selftest.done", lang))
    _show(hw, [t("selftest.done", lang)], lang)
    return seen


def _show(hw, lines, lang):
    op = hw.operator
    screen = Screen("message", t("selftest.title", lang), tuple(lines))
    if hasattr(op, "show_screen"):
        op.show_screen(screen)
    else:
        op.show(render_screen(screen, op.size, op.mode))
