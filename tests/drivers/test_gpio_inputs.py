"""Buttons and encoder on gpiozero's MockFactory, with time driven by a ManualClock."""
import queue
import time

import pytest

from drivers.events import InputEvent
from drivers.inputs import (OperatorButtons, OperatorEncoder, PressTracker, SeatButtons,
                            build_operator_inputs, build_seat_buttons)
from drivers.errors import ConfigError


def drain(q):
    events = []
    while True:
        try:
            events.append(q.get_nowait())
        except queue.Empty:
            return events


def kinds(events):
    return [(e.name, e.kind) for e in events]


@pytest.fixture
def events():
    return queue.Queue()


@pytest.fixture
def operator(pins, clock, events):
    # hold_time 0.8 s rather than the 1 s default: the timings below were written for it.
    device = OperatorButtons(5, 6, 13, 19, queue=events, pin_factory=pins, clock=clock, hold_time=0.8)
    yield device
    device.close()


def press(pins, pin):
    pins.pin(pin).drive_low()


def release(pins, pin):
    pins.pin(pin).drive_high()


def test_short_press_acts_on_the_first_edge_and_reports_press_on_release(pins, clock, events, operator):
    press(pins, 13)
    assert drain(events) == [InputEvent("ok", "down", 100.0)]          # no delay at all
    clock.advance(0.15)
    release(pins, 13)
    assert drain(events) == [InputEvent("ok", "up", 100.15), InputEvent("ok", "press", 100.15)]


def test_bounces_within_20_ms_are_ignored(pins, clock, events, operator):
    press(pins, 5)
    for dt in (0.002, 0.003, 0.004, 0.005):     # contacts chattering, then settled down
        clock.advance(dt / 4)
        release(pins, 5)
        press(pins, 5)
    clock.advance(0.2)
    release(pins, 5)
    for _ in range(3):
        clock.advance(0.003)
        press(pins, 5)
        release(pins, 5)
    clock.advance(0.1)
    assert kinds(drain(events)) == [("up", "down"), ("up", "up"), ("up", "press")]
    assert not operator.is_pressed("up")


def test_a_glitch_shorter_than_the_window_never_leaves_a_button_stuck(pins, clock, events, operator):
    press(pins, 6)
    clock.advance(0.005)
    release(pins, 6)                            # ignored: inside the window...
    assert kinds(drain(events)) == [("down", "down")]
    clock.advance(0.016)                        # ...but read again when it closes
    assert kinds(drain(events)) == [("down", "up"), ("down", "press")]
    assert not operator.is_pressed("down")


def test_long_press_is_reported_once_when_the_hold_time_is_reached(pins, clock, events, operator):
    press(pins, 19)
    clock.advance(0.79)
    assert kinds(drain(events)) == [("back", "down")]
    clock.advance(0.01)
    assert drain(events) == [InputEvent("back", "long_press", pytest.approx(100.8))]
    clock.advance(5)
    assert drain(events) == []
    release(pins, 19)
    assert kinds(drain(events)) == [("back", "up")]                    # no "press" after a long one


def test_a_released_press_cancels_its_hold(pins, clock, events, operator):
    press(pins, 19)
    clock.advance(0.5)
    release(pins, 19)
    clock.advance(0.1)
    press(pins, 19)                             # second press: its own 0.8 s
    clock.advance(0.5)
    assert "long_press" not in [e.kind for e in drain(events)]
    clock.advance(0.3)
    assert kinds(drain(events)) == [("back", "long_press")]


def test_hold_time_and_debounce_are_configurable(pins, clock, events):
    device = OperatorButtons(5, 6, 13, 19, queue=events, pin_factory=pins, clock=clock,
                             hold_time=2.0, debounce=0.05)
    try:
        press(pins, 13)
        clock.advance(0.03)
        release(pins, 13)
        clock.advance(0.01)
        press(pins, 13)
        clock.advance(1.9)
        assert kinds(drain(events)) == [("ok", "down")]
        clock.advance(0.1)
        assert kinds(drain(events)) == [("ok", "long_press")]
    finally:
        device.close()


def test_seat_buttons_report_holds_for_auctions(pins, clock, events):
    seats = SeatButtons([20, 21, None, 23], queue=events, pin_factory=pins, clock=clock)
    try:
        assert seats.seats == [1, 2, 4]
        press(pins, 21)
        press(pins, 23)
        clock.advance(1.0)
        release(pins, 21)
        assert kinds(drain(events)) == [("seat2", "down"), ("seat4", "down"),
                                        ("seat2", "long_press"), ("seat4", "long_press"),
                                        ("seat2", "up")]
        assert seats.is_pressed("seat4") and not seats.is_pressed("seat2")
    finally:
        seats.close()


def test_no_more_than_six_seats(pins, events):
    with pytest.raises(ValueError):
        SeatButtons(list(range(2, 9)), queue=events, pin_factory=pins)


def test_encoder_turns_are_up_and_down_presses(pins, clock, events):
    knob = OperatorEncoder(20, 21, 16, 12, queue=events, pin_factory=pins, clock=clock)
    try:
        a, b = pins.pin(20), pins.pin(21)
        for _ in range(2):                          # two detents clockwise
            a.drive_low(); b.drive_low(); a.drive_high(); b.drive_high()
        b.drive_low(); a.drive_low(); b.drive_high(); a.drive_high()   # one back
        press(pins, 16)
        clock.advance(0.1)
        release(pins, 16)
        press(pins, 12)
        clock.advance(1)
        assert kinds(drain(events)) == [("down", "press"), ("down", "press"), ("up", "press"),
                                        ("ok", "down"), ("ok", "up"), ("ok", "press"),
                                        ("back", "down"), ("back", "long_press")]
    finally:
        knob.close()


def test_encoder_direction_can_be_reversed(pins, clock, events):
    knob = OperatorEncoder(20, 21, 16, 12, clockwise="up", queue=events, pin_factory=pins, clock=clock)
    try:
        a, b = pins.pin(20), pins.pin(21)
        a.drive_low(); b.drive_low(); a.drive_high(); b.drive_high()
        assert kinds(drain(events)) == [("up", "press")]
    finally:
        knob.close()


def test_real_timers_with_the_real_clock(pins, events):
    # The default clock and thread timers, with a short hold: the long press arrives
    # from a timer thread while the button is held.
    device = OperatorButtons(5, 6, 13, 19, queue=events, pin_factory=pins, hold_time=0.1)
    try:
        start = time.monotonic()
        press(pins, 13)
        down = events.get(timeout=1)
        held = events.get(timeout=2)
        assert (down.kind, held.kind) == ("down", "long_press")
        assert held.t - down.t >= 0.1 and held.t >= start
    finally:
        device.close()


def test_press_tracker_alone():
    tracker = PressTracker("ok", debounce=0.02, hold_time=0.8)
    assert kinds(tracker.edge(True, 0.0)) == [("ok", "down")]
    assert tracker.edge(False, 0.01) is None
    assert tracker.edge(True, 0.5) == []
    assert tracker.check_hold(0.7) == []
    assert kinds(tracker.check_hold(0.8)) == [("ok", "long_press")]
    assert tracker.check_hold(0.9) == []
    assert kinds(tracker.edge(False, 1.0)) == [("ok", "up")]


def test_build_operator_buttons_and_encoder_from_config(pins, clock, events):
    buttons = build_operator_inputs({"kind": "buttons", "up": 5, "down": "GPIO6", "ok": 13,
                                     "back": 19, "hold_time": 1.5}, events,
                                    pin_factory=pins, clock=clock)
    assert isinstance(buttons, OperatorButtons)
    assert buttons.trackers["ok"].hold_time == 1.5
    buttons.close()
    knob = build_operator_inputs({"kind": "encoder", "a": 20, "b": 21, "push": 16, "back": 12},
                                 events, pin_factory=pins, clock=clock)
    assert isinstance(knob, OperatorEncoder) and knob.clockwise == "down"
    knob.close()


def test_build_seat_buttons_from_config(pins, clock, events):
    seats = build_seat_buttons({"pins": [20, 21, 22]}, events, pin_factory=pins, clock=clock)
    assert seats.seats == [1, 2, 3]
    seats.close()


@pytest.mark.parametrize("config, message", [
    ({"kind": "joystick"}, "operator.kind: 'joystick' is not one of buttons, encoder"),
    ({"up": 5, "down": 6, "ok": 13}, "operator.back: missing"),
    ({"up": 5, "down": 6, "ok": 13, "back": "GPIO5"}, "operator.back: pin 'GPIO5' is already used by operator.up"),
    ({"up": 5, "down": 6, "ok": 13, "back": 19, "hold_time": 0}, "operator.hold_time: 0 is below"),
    ({"up": 5, "down": 6, "ok": 13, "back": "GPIO99"}, "operator: GPIO99 is not a valid pin"),
    ({"up": 5, "down": 6, "ok": 13, "back": 19, "bounce_time": 0.1}, "operator.bounce_time: unknown"),
])
def test_operator_config_errors(pins, events, config, message):
    with pytest.raises(ConfigError, match=message):
        build_operator_inputs(config, events, pin_factory=pins)


def test_pins_shared_between_parts_are_refused(pins, events):
    operator = build_operator_inputs({"up": 5, "down": 6, "ok": 13, "back": 19}, events, pin_factory=pins)
    try:
        with pytest.raises(ConfigError, match="seats: pin GPIO13 is already in use"):
            build_seat_buttons({"pins": [20, 13]}, events, pin_factory=pins)
        assert not pins.pin(20).when_changed      # the half-built seat set was released
    finally:
        operator.close()


def test_seat_config_errors(pins, events):
    with pytest.raises(ConfigError, match="seats.pins: 7 pins given, at most 6"):
        build_seat_buttons({"pins": [1, 2, 3, 4, 5, 6, 7]}, events, pin_factory=pins)
    with pytest.raises(ConfigError, match=r"seats.pins\[1\]: 2.5 is not a pin"):
        build_seat_buttons({"pins": [20, 2.5]}, events, pin_factory=pins)


def test_the_default_hold_time_is_the_configurations(pins, clock, events):
    # One name (gpiozero's hold_time) and one default for the long press, driver and file.
    from firmware.config import SCHEMA
    from drivers.inputs import HOLD_TIME

    assert SCHEMA["timing"]["hold_time"][0] == HOLD_TIME == 1.0
    device = OperatorButtons(5, 6, 13, 19, queue=events, pin_factory=pins, clock=clock)
    try:
        press(pins, 19)
        clock.advance(0.99)
        assert kinds(drain(events)) == [("back", "down")]
        clock.advance(0.01)
        assert kinds(drain(events)) == [("back", "long_press")]
    finally:
        device.close()


def test_ok_and_back_held_together_for_5_s_send_one_power_long_press(pins, clock, events, operator):
    press(pins, 13)
    clock.advance(0.1)
    press(pins, 19)
    clock.advance(4.99)
    assert ("power", "long_press") not in kinds(drain(events))
    clock.advance(0.01)
    assert drain(events) == [InputEvent("power", "long_press", pytest.approx(105.1))]
    clock.advance(10)
    assert drain(events) == []


def test_releasing_either_button_cancels_the_power_hold(pins, clock, events, operator):
    press(pins, 13)
    press(pins, 19)
    clock.advance(3)
    release(pins, 13)
    clock.advance(0.1)
    press(pins, 13)                              # the hold starts again from here
    clock.advance(4.9)
    assert "power" not in [e.name for e in drain(events)]
    clock.advance(0.1)
    assert kinds(drain(events)) == [("power", "long_press")]


def test_power_hold_is_configurable_and_0_switches_it_off(pins, clock, events):
    off = build_operator_inputs({"up": 5, "down": 6, "ok": 13, "back": 19, "poweroff_hold_time": 0},
                                events, pin_factory=pins, clock=clock)
    try:
        press(pins, 13)
        press(pins, 19)
        clock.advance(60)
        assert "power" not in [e.name for e in drain(events)]
    finally:
        off.close()


def test_encoder_push_and_back_make_the_power_combination(pins, clock, events):
    device = build_operator_inputs({"kind": "encoder", "a": 5, "b": 6, "push": 13, "back": 19,
                                    "poweroff_hold_time": 2.0}, events, pin_factory=pins, clock=clock)
    try:
        press(pins, 13)
        press(pins, 19)
        clock.advance(2.0)
        assert ("power", "long_press") in kinds(drain(events))
    finally:
        device.close()
