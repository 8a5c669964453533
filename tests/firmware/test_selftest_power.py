"""`corbeille selftest` finishes and reports each part pass or fail; OK + Back held power
the box off through the helper units (drivers/power.py) while the service stays hardened."""
import os
import queue
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.display import DummyDisplay
from drivers.events import InputEvent
from drivers.power import PowerOffUnavailable, PowerSwitch
from firmware.app import App, Hardware
from firmware.config import config_from_dict
from firmware.controller import Controller
from firmware.parts import build_hardware
from firmware.selftest import run_selftest
from firmware.session import Session
from maxibourse_helpers import started

ROOT = Path(__file__).resolve().parents[2]


def config(tmp_path, **sections):
    data = {"state": {"dir": str(tmp_path / "state")}, "operator": {"type": "dummy"}}
    data.update(sections)
    return config_from_dict(data)


def results(seen):
    return {part: ok for part, ok, _ in seen["results"]}


def test_selftest_on_mock_pins_presses_every_button_itself_and_passes(tmp_path):
    factory = MockFactory()
    events = queue.Queue()
    hw = build_hardware(config(tmp_path, seats={"count": 2}), events, pin_factory=factory)
    out = []
    try:
        seen = run_selftest(hw, events, out=out.append, lang="en", duration=30, sleep=lambda s: None)
    finally:
        hw.close()
        factory.close()
    assert results(seen) == {"operator": True, "up": True, "down": True, "ok": True, "back": True,
                             "seat1": True, "seat2": True}
    assert "PASS seat2 (mock pin, driven by the self-test)" in out
    assert out[-2:] == ["7 passed, 0 failing", "Self-test done"]


def test_selftest_with_an_encoder_expects_its_turns_too(tmp_path):
    factory = MockFactory()
    events = queue.Queue()
    hw = build_hardware(config(tmp_path, operator={"type": "dummy", "input": "encoder"}), events,
                        pin_factory=factory)
    try:
        seen = run_selftest(hw, events, out=lambda line: None, duration=30, sleep=lambda s: None)
    finally:
        hw.close()
        factory.close()
    assert results(seen) == {"operator": True, "up": True, "down": True, "ok": True, "back": True}


class _Buttons:
    """Real-pin stand-in: buttons nobody presses (not mock pins, so the test waits)."""
    buttons = {"ok": object(), "back": object()}


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 1.0                 # every look at the clock takes a second
        return self.now


def test_buttons_not_pressed_in_time_fail_and_the_test_ends(tmp_path):
    events = queue.Queue()
    events.put(InputEvent("ok", "press", 0.0))
    hw = Hardware(operator=DummyDisplay(name="operator"), inputs=[_Buttons()])
    out = []
    seen = run_selftest(hw, events, out=out.append, lang="en", duration=5, clock=_Clock(), sleep=lambda s: None)
    assert results(seen) == {"operator": True, "ok": True, "back": False}
    assert "FAIL back: not pressed within 5 s" in out
    assert out[-2] == "2 passed, 1 failing"


def test_a_degraded_display_and_a_part_that_did_not_start_fail(tmp_path):
    display = DummyDisplay(name="board")
    display.degraded, display.last_error = True, "I2C: no answer at 0x3C"
    hw = Hardware(operator=DummyDisplay(name="operator"), board=display, failed=["lights"])
    out = []
    seen = run_selftest(hw, queue.Queue(), out=out.append, lang="en", duration=0, sleep=lambda s: None)
    assert results(seen) == {"operator": True, "board": False, "lights": False}
    assert "FAIL board: I2C: no answer at 0x3C" in out and "FAIL lights: did not start" in out


def test_the_selftest_command_finishes_on_mock_pins_on_a_desktop(tmp_path):
    cfg = tmp_path / "corbeille.toml"
    cfg.write_text(f'[state]\ndir = "{tmp_path / "state"}"\n[operator]\ntype = "dummy"\n[buzzer]\nenabled = true\n')
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    result = subprocess.run([sys.executable, "-m", "firmware.cli", "--config", str(cfg), "--lang", "en",
                             "selftest"], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert "PASS buzzer" in result.stdout and "6 passed, 0 failing" in result.stdout


# ---- Power off from the buttons

def test_power_request_creates_the_file_the_path_unit_watches(tmp_path):
    switch = PowerSwitch(tmp_path)
    assert switch.available
    assert switch.request() == tmp_path / "poweroff" and (tmp_path / "poweroff").exists()


def test_power_request_outside_the_service_is_refused(monkeypatch):
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    with pytest.raises(PowerOffUnavailable, match="only in the installed service"):
        PowerSwitch().request()


def test_power_switch_reads_systemds_runtime_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("RUNTIME_DIRECTORY", f"{tmp_path}:/run/other")
    assert PowerSwitch().runtime_dir == tmp_path


def app_with(hw):
    c = Controller(None)
    c.attach(Session(started(["Ana", "Ben"])))
    return App(c, hw, strict=True)


def test_the_power_long_press_asks_for_a_power_off_and_the_game_goes_on(tmp_path):
    hw = Hardware(operator=DummyDisplay(), power=PowerSwitch(tmp_path))
    app = app_with(hw)
    app.step(InputEvent("power", "long_press", 1.0))
    assert (tmp_path / "poweroff").exists() and app.powering_off
    assert not app.stopping            # systemd stops the service on the way down


def test_without_a_helper_the_power_combination_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    app = app_with(Hardware(operator=DummyDisplay(), power=PowerSwitch()))
    screen = app.controller.screen()
    app.step(InputEvent("power", "long_press", 1.0))
    assert not app.powering_off and not app.stopping and app.controller.screen() == screen


def test_build_hardware_fits_the_power_switch_unless_switched_off(tmp_path):
    factory = MockFactory()
    try:
        hw = build_hardware(config(tmp_path), queue.Queue(), pin_factory=factory)
        assert isinstance(hw.power, PowerSwitch)
        hw.close()
        hw = build_hardware(config(tmp_path, timing={"poweroff_hold_time": 0}), queue.Queue(), pin_factory=factory)
        assert hw.power is None
        hw.close()
    finally:
        factory.close()
