"""Seat LEDs and buzzer on gpiozero's MockFactory; the recording stand-ins."""
import io
import time

import pytest

from drivers.errors import ConfigError
from drivers.outputs import (Beeper, RecordingBeeper, RecordingSeatLights, SeatLights,
                             build_beeper, build_seat_lights)


def states(pin):
    return [s.state for s in pin.states]


def wait_until(predicate, timeout=2.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


@pytest.fixture
def lights(pins):
    device = SeatLights([20, None, 22], pin_factory=pins)
    yield device
    device.close()


def test_light_and_all_off(pins, lights):
    assert lights.seats == [1, 3]
    lights.light(1)
    lights.light(3)
    assert pins.pin(20).state and pins.pin(22).state
    lights.all_off()
    pins.pin(20).assert_states([False, True, False])
    pins.pin(22).assert_states([False, True, False])


def test_light_only_turns_the_others_off(pins, lights):
    lights.light(1)
    lights.light_only(3)
    assert not pins.pin(20).state and pins.pin(22).state
    assert lights.is_lit(3) and not lights.is_lit(1)


def test_a_seat_without_led_is_skipped_and_a_wrong_seat_refused(pins, lights):
    lights.light(2)                                  # no LED fitted: nothing happens
    with pytest.raises(ValueError):
        lights.light(7)


def test_blink_runs_in_the_background(pins, lights):
    started = time.monotonic()
    lights.blink(1, on_time=0.02, off_time=0.02, n=2)
    assert time.monotonic() - started < 0.02          # returned at once
    assert wait_until(lambda: len(pins.pin(20).states) >= 5)
    pins.pin(20).assert_states([False, True, False, True, False])


def test_active_low_leds(pins):
    lights = SeatLights([20], pin_factory=pins, active_high=False)
    try:
        lights.light(1)
        assert pins.pin(20).state is False
    finally:
        lights.close()


def test_buzzer_patterns_are_background_beeps(pins):
    beeper = Beeper(18, pin_factory=pins)
    try:
        started = time.monotonic()
        beeper.confirm()
        assert time.monotonic() - started < 0.05
        beeper.wait()
        pins.pin(18).assert_states([False, True, False, True, False])
        pins.pin(18).clear_states()
        beeper.tick()
        beeper.wait()
        pins.pin(18).assert_states([False, True, False])
        assert len(pins.pin(18).states) == 3
    finally:
        beeper.close()


def test_error_pattern_is_longer(pins):
    beeper = Beeper(18, pin_factory=pins)
    try:
        beeper.error()
        beeper.wait()
        on_times = [s.timestamp for s in pins.pin(18).states[2::2]]
        assert len(on_times) == 2 and all(t >= 0.2 for t in on_times)
    finally:
        beeper.close()


def test_tonal_buzzer_plays_notes(pwm_pins):
    beeper = Beeper(18, pin_factory=pwm_pins, tonal=True)
    try:
        frequencies = []
        pin = pwm_pins.pin(18)
        original = type(pin)._set_frequency

        def spy(self, value):
            frequencies.append(value)
            original(self, value)

        type(pin)._set_frequency = spy
        try:
            beeper.confirm()
            beeper.wait()
        finally:
            type(pin)._set_frequency = original
        assert [f for f in frequencies if f] == [1320, 1760]
        assert pin.state == 0
    finally:
        beeper.close()


def test_a_new_tonal_pattern_cuts_the_previous_one(pwm_pins):
    beeper = Beeper(18, pin_factory=pwm_pins, tonal=True)
    try:
        beeper.error()
        started = time.monotonic()
        beeper.tick()
        assert time.monotonic() - started < 0.2
        beeper.wait()
        assert pwm_pins.pin(18).state == 0
    finally:
        beeper.close()


def test_gpio_oserror_degrades_instead_of_raising(pins, clock):
    lights = SeatLights([20], pin_factory=pins, clock=clock)
    try:
        led = lights.leds[1]

        def broken():
            raise OSError("gpiochip gone")

        led.on = broken
        assert lights.light(1) is None and lights.degraded
        assert "gpiochip gone" in lights.last_error
        del led.on
        lights.light(1)                               # during backoff: skipped
        assert not pins.pin(20).state
        clock.advance(0.5)
        lights.light(1)
        assert pins.pin(20).state and not lights.degraded
    finally:
        lights.close()


def test_recording_stand_ins():
    lights = RecordingSeatLights([1, 2, 3])
    lights.light(1)
    lights.blink(2)
    lights.light_only(3)
    assert lights.calls == [("light", 1), ("blink", 2), ("light_only", 3)]
    assert lights.state == {1: "off", 2: "off", 3: "on"}
    bell = io.StringIO()
    beeper = RecordingBeeper(bell=bell)
    beeper.tick()
    beeper.error()
    assert beeper.calls == ["tick", "error"] and bell.getvalue() == "\a"


def test_factories(pins, pwm_pins):
    lights = build_seat_lights({"pins": [20, 21]}, pin_factory=pins)
    assert isinstance(lights, SeatLights) and lights.seats == [1, 2]
    lights.close()
    assert isinstance(build_seat_lights({"type": "recording"}), RecordingSeatLights)
    beeper = build_beeper({"pin": 18}, pin_factory=pins)
    assert isinstance(beeper, Beeper) and not beeper.tonal
    beeper.close()
    tonal = build_beeper({"type": "tonal", "pin": 13}, pin_factory=pwm_pins)
    assert tonal.tonal
    tonal.close()
    bell = io.StringIO()
    recording = build_beeper({"type": "recording", "bell": True}, bell=bell)
    recording.error()
    assert bell.getvalue() == "\a"


@pytest.mark.parametrize("build, config, message", [
    (build_beeper, {"type": "piezo"}, "buzzer.type: 'piezo' is not one of buzzer, tonal, recording"),
    (build_beeper, {}, "buzzer.pin: missing"),
    (build_beeper, {"type": "tonal", "pin": 18}, "buzzer: .*PWM"),
    (build_seat_lights, {"pins": [20, 20]}, "seat_lights: pin GPIO20 is already in use"),
    (build_seat_lights, {"pins": [20], "colour": "red"}, "seat_lights.colour: unknown"),
])
def test_output_config_errors(pins, build, config, message):
    with pytest.raises(ConfigError, match=message):
        build(config, pin_factory=pins)
