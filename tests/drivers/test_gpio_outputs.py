"""Seat LEDs and buzzer on gpiozero's MockFactory; the recording stand-ins."""
import io
import time

import pytest

from drivers.errors import ConfigError
from drivers.outputs import (TUNES, Beeper, RecordingBeeper, RecordingSeatLights, SeatLights,
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
    lights.blink(1, on_time=0.3, off_time=0.3, n=2)
    # returned before the pattern ended (a blocking blink would return after its 1.2 s):
    # the last "off" is not there yet; no wall-clock bound, so a loaded machine cannot fail it
    assert len(pins.pin(20).states) < 5
    assert wait_until(lambda: len(pins.pin(20).states) >= 5, timeout=5.0)
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
        beeper.confirm()
        assert len(pins.pin(18).states) < 5          # returned before the pattern ended
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
        started = time.monotonic()
        beeper.error()
        beeper.tick()
        beeper.wait()
        # the tick cut the error pattern short: both together end well before the error alone
        # would (a bound from the pattern itself, not from how fast this machine is)
        error_alone = sum(length for _, length in TUNES["error"])
        assert time.monotonic() - started < error_alone
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


class RecordingBus:
    """An smbus stand-in recording register writes (fake-rpi's SMBus prints instead)."""

    def __init__(self):
        self.writes = []
        self.broken = False

    def write_byte_data(self, address, register, value):
        if self.broken:
            raise OSError(121, "Remote I/O error")
        self.writes.append((address, register, value))

    def close(self):
        pass


def test_seat_lights_through_an_mcp23017():
    bus = RecordingBus()
    lights = build_seat_lights({"expander": "mcp23017", "i2c_address": 0x21,
                                "ports": ["GPA0", "GPA1", None, "GPB7"]}, i2c_bus=bus)
    assert lights.seats == [1, 2, 4]
    # each port: its level first (off), then made an output
    assert bus.writes[:2] == [(0x21, 0x14, 0x00), (0x21, 0x00, 0xFE)]
    assert bus.writes[-1] == (0x21, 0x01, 0x7F)
    bus.writes.clear()
    lights.light(1)
    lights.light(4)
    lights.light_only(2)
    assert bus.writes == [(0x21, 0x14, 0x01), (0x21, 0x15, 0x80),                  # 1 on, 4 on
                          (0x21, 0x14, 0x00), (0x21, 0x15, 0x00), (0x21, 0x14, 0x02)]  # 1, 4 off; 2 on
    assert lights.is_lit(2) and not lights.is_lit(1)
    bus.writes.clear()
    lights.blink(1, on_time=0.01, off_time=0.01, n=2)
    assert wait_until(lambda: len(bus.writes) >= 4)
    assert [w[2] & 1 for w in bus.writes[:4]] == [1, 0, 1, 0]
    lights.close()
    assert (0x21, 0x00, 0xFF) in bus.writes                 # released back to inputs


def test_expander_bus_error_degrades_the_lights(clock):
    from drivers.outputs import Mcp23017
    bus = RecordingBus()
    lights = SeatLights(["GPA0"], expander=Mcp23017(bus), clock=clock)
    bus.broken = True
    lights.light(1)
    assert lights.degraded and "Remote I/O error" in lights.last_error
    bus.broken = False
    clock.advance(0.5)
    lights.light(1)
    assert not lights.degraded and bus.writes[-1] == (0x20, 0x14, 0x01)


@pytest.mark.parametrize("config, message", [
    ({"expander": "pcf8574"}, "seat_lights.expander: 'pcf8574' is not one of none, mcp23017"),
    ({"expander": "mcp23017", "ports": ["GPC1"]}, r"seat_lights.ports\[0\]: 'GPC1' is not an MCP23017 port"),
    ({"expander": "mcp23017", "ports": ["GPA0"], "i2c_address": 0x40}, "seat_lights.i2c_address: 64 is above"),
])
def test_expander_config_errors(config, message):
    with pytest.raises(ConfigError, match=message):
        build_seat_lights(config, i2c_bus=RecordingBus())


def test_missing_expander_bus_is_a_bus_error():
    from drivers.errors import BusError
    with pytest.raises(BusError, match="cannot open I2C bus 9"):
        build_seat_lights({"expander": "mcp23017", "ports": ["GPA0"], "i2c_port": 9})
