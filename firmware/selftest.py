"""`corbeille selftest`: check the wiring of a box, part by part.

Draws a test pattern (border, diagonal, checkerboard, the display's name and size) on
each display, lights each seat LED in turn, sounds the buzzer, then reports every button
as it is pressed (on the operator screen and on standard output) until every button has
been seen, Back is held or the time is up; then one pass or fail line per part. The
command's exit status is 1 when a part failed. Nothing here touches a game or the journal.
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


def _expected_buttons(hw) -> list[str]:
    """The button names the inputs can report: operator buttons (an encoder's turns are
    "up"/"down"), seat buttons. Readers (RFID, console) have no buttons."""
    names = []
    for part in hw.inputs:
        buttons = getattr(part, "buttons", None)
        if not isinstance(buttons, dict):
            continue
        if getattr(part, "encoder", None) is not None:
            names += ["up", "down"]
        names += [n for n in buttons if n not in names]
    return names


def _mock_pins(hw) -> list:
    """The inputs on gpiozero's mock pins (a desktop: nobody can press them)."""
    from gpiozero.pins.mock import MockPin

    return [part for part in hw.inputs
            if any(isinstance(getattr(b, "pin", None), MockPin) for b in getattr(part, "buttons", {}).values())]


def _press_mock_buttons(parts, step_s, sleep) -> None:
    """On mock pins the self-test presses each button itself (down, then up), so the path
    from pin to event to report is checked; the report says the pin was a mock."""
    for part in parts:
        for button in part.buttons.values():
            button.pin.drive_low()
            sleep(step_s / 10)
            button.pin.drive_high()
            sleep(step_s / 10)
        encoder = getattr(part, "encoder", None)
        if encoder is not None:                       # one detent each way
            a, b = encoder.a.pin, encoder.b.pin
            for first, second in ((a, b), (b, a)):
                first.drive_low(); second.drive_low(); first.drive_high(); second.drive_high()


def _failure(device) -> str | None:
    if getattr(device, "degraded", False):
        return getattr(device, "last_error", "") or "degraded"
    return None


def run_selftest(hw, events: queue_module.Queue, *, lang="fr", out=print, duration: float = 30.0,
                 clock=time.monotonic, sleep=time.sleep, step_s: float = 0.3) -> dict:
    """Run the checks on `hw` (firmware.app.Hardware); returns what was seen, for tests.

    Every part ends with one line, pass or fail: each display, the lights, the buzzer,
    the serial parts, and each button (pressed within `duration`). It finishes when every
    button has been seen, when Back is held, or when the time is up. On mock pins (a
    desktop) it presses the buttons itself and does not wait for anyone."""
    seen = {"displays": [], "leds": [], "buzzer": [], "buttons": [], "results": []}

    def result(part, why=None, detail=""):
        seen["results"].append((part, why is None, why or detail))
        out(t("selftest.pass", lang, part=part, detail=detail) if why is None
            else t("selftest.fail", lang, part=part, why=why))

    _check_outputs(hw, seen, result, out, lang, sleep, step_s)

    expected = _expected_buttons(hw)
    mocked = _mock_pins(hw)
    lines = [t("selftest.press", lang)]
    _show(hw, lines, lang)
    out(lines[0])
    if mocked:
        _press_mock_buttons(mocked, step_s, sleep)
    pressed: list[str] = []
    end = clock() + (step_s * 10 if mocked else duration)
    while clock() < end and not (expected and set(expected) <= set(pressed)):
        try:
            event = events.get(timeout=max(0.0, min(0.5, end - clock())))
        except queue_module.Empty:
            continue
        if event.kind not in ("press", "long_press", "tag", "line"):
            continue
        label = event.name + (" (long)" if event.kind == "long_press" else "") + (f" {event.data}" if event.data else "")
        seen["buttons"].append(label)
        if event.name not in pressed:
            pressed.append(event.name)
        line = t("selftest.pressed", lang, button=label)
        out(line)
        lines = (lines + [line])[-4:]
        _show(hw, lines, lang)
        if event.name == "back" and event.kind == "long_press":
            break
    mock_note = t("selftest.mock", lang) if mocked else ""
    for name in expected:
        result(name, None if name in pressed else t("selftest.not_pressed", lang, seconds=f"{duration:g}"),
               mock_note)
    passed = sum(1 for _, ok, _ in seen["results"] if ok)
    failed = len(seen["results"]) - passed
    out(t("selftest.summary", lang, passed=passed, failed=failed))
    out(t("selftest.done", lang))
    _show(hw, [t("selftest.done", lang), t("selftest.summary", lang, passed=passed, failed=failed)], lang)
    return seen


def _check_outputs(hw, seen, result, out, lang, sleep, step_s) -> None:
    """Each display's test pattern, each light, the buzzer's patterns, then one line for
    every other part: what a person watches and hears before pressing the buttons."""
    patterns = []
    for display in (hw.operator, hw.board):
        if display is None:
            continue
        name = getattr(display, "name", "display")
        try:
            display.show(test_pattern(display.size, display.mode, name))
        except (OSError, ValueError) as error:
            patterns.append((name, str(error)))
            continue
        seen["displays"].append(name)
        out(f"{name}: test pattern {display.size[0]}x{display.size[1]}")
        patterns.append((name, _failure(display)))
    sleep(step_s * 3)
    for name, why in patterns:
        result(name, why)
    if hw.lights is not None:
        for seat in getattr(hw.lights, "seats", range(1, 7)):
            hw.lights.all_off()
            hw.lights.light(seat)
            seen["leds"].append(seat)
            out(t("selftest.leds", lang, seat=seat))
            sleep(step_s)
        hw.lights.all_off()
        result("lights", _failure(hw.lights))
    if hw.beeper is not None:
        for pattern in ("tick", "confirm", "error"):
            hw.beeper.play(pattern)
            seen["buzzer"].append(pattern)
            sleep(step_s)
        out(t("selftest.buzzer", lang))
        result("buzzer", _failure(hw.beeper))
    shown = {"display", "board", "lights", "buzzer"}
    for part in getattr(hw, "parts", []):
        if part.key not in shown:
            result(part.key, _failure(part.device))
    for key in getattr(hw, "failed", []):
        result(key, "did not start")


def _show(hw, lines, lang):
    op = hw.operator
    screen = Screen("message", t("selftest.title", lang), tuple(lines))
    if hasattr(op, "show_screen"):
        op.show_screen(screen)
    else:
        op.show(render_screen(screen, op.size, op.mode))
