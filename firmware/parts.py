"""The box's parts, built from the configuration (firmware/config.py) with the drivers.

`build_hardware(config, queue)` turns the checked `Config` into the plain dicts each
driver factory reads (docs/drivers.md) and builds the parts. A configuration mistake
stops the start (ConfigError, naming the key); a part that is configured but does not
answer (a missing I2C expander, a serial port that is not there) starts degraded: it is
named in the operator screen's status line and the game goes on without it.
"""
from __future__ import annotations

import logging
import time

from drivers.errors import BusError, ConfigError
from engines.core.actions import MAX_LINE_BYTES
from firmware.app import Hardware, Part

log = logging.getLogger("corbeille")


def operator_display_config(config) -> dict:
    op = config.operator
    size = {"width": op.width, "height": op.height}
    if op.type == "oled":
        d = {"type": "oled", "name": "operator", "display": op.display, "interface": op.interface,
             "rotate": op.rotate, "i2c_address": op.i2c_address, "i2c_port": op.i2c_port,
             "contrast": op.contrast, "dim_after_s": op.dim_after_s, "dim_contrast": op.dim_contrast, **size}
        if op.interface == "spi":
            d.update(gpio_data_command=config.pins["operator_dc"], gpio_reset=config.pins["operator_rst"],
                     spi_device=1, spi_bus_speed=op.spi_bus_speed)
        return d
    if op.type == "png":
        return {"type": "png", "name": "operator", "directory": str(config.state.dir / "screens"), "keep": 20, **size}
    return {"type": op.type, "name": "operator", **size}


def board_display_config(config) -> dict | None:
    b = config.board
    if b.type == "oled":
        return {"type": "oled", "name": "board", "display": "ssd1322", "interface": "spi", "width": 256,
                "height": 64, "rotate": b.rotate, "gpio_data_command": config.pins["board_dc"],
                "gpio_reset": config.pins["board_rst"], "spi_device": 0, "spi_bus_speed": b.spi_bus_speed,
                "contrast": b.contrast, "dim_after_s": b.dim_after_s, "dim_contrast": b.dim_contrast}
    if b.type == "eink":
        return {"type": "eink", "name": "board", "panel": b.panel, "rotate": b.rotate}
    return None


def operator_inputs_config(config) -> dict:
    p = config.pins
    timing = {"hold_time": config.timing.hold_time, "poweroff_hold_time": config.timing.poweroff_hold_time}
    if config.operator.input == "encoder":
        return {"kind": "encoder", "a": p["encoder_a"], "b": p["encoder_b"], "push": p["encoder_push"],
                "back": p["encoder_back"], **timing}
    return {"kind": "buttons", "up": p["button_up"], "down": p["button_down"], "ok": p["button_ok"],
            "back": p["button_back"], **timing}


def build_hardware(config, queue, *, clock=time.monotonic, pin_factory=None, gpio: bool = True) -> Hardware:
    """The box's parts. With ``gpio=False`` the buttons and the buzzer are left out, for
    ``add_gpio_parts`` to add once the first frame is shown (``corbeille run``)."""
    from drivers.displays import build_display

    hw = Hardware()
    if config.timing.poweroff_hold_time:
        from drivers.power import PowerSwitch
        hw.power = PowerSwitch()
    try:
        hw.operator = build_display(operator_display_config(config), prefix="operator", clock=clock)
        hw.parts.append(Part("display", hw.operator))
        board = board_display_config(config)
        if board is not None:
            try:
                hw.board = build_display(board, prefix="board", clock=clock)
                hw.parts.append(Part("board", hw.board))
            except (BusError, OSError) as error:
                log.warning("quotation board unavailable: %s", error)
                hw.failed.append("board")
        if config.seat_leds is not None:
            from drivers.outputs import build_seat_lights
            wiring = config.seat_leds
            try:
                hw.lights = build_seat_lights({"expander": wiring.expander, "ports": list(wiring.ports),
                                               "i2c_address": wiring.i2c_address}, clock=clock)
                hw.parts.append(Part("lights", hw.lights))
            except (BusError, OSError) as error:
                log.warning("seat lights unavailable: %s", error)
                hw.failed.append("lights")
        if config.rfid.enabled:
            from drivers.rfid import build_rfid_reader
            reader = build_rfid_reader({"port": config.rfid.port}, queue, clock=clock).start()
            hw.inputs.append(reader)
            hw.parts.append(Part("rfid", reader))
        if config.console.enabled:
            from drivers.serial_console import build_serial_console
            # The command language's line limit (docs/protocol.md), the same for scripts.
            hw.console = build_serial_console({"port": config.console.port, "baudrate": config.console.baudrate,
                                               "max_line": MAX_LINE_BYTES}, queue, clock=clock).start()
            hw.parts.append(Part("console", hw.console))
    except BaseException:
        hw.close()
        raise
    if gpio:
        add_gpio_parts(hw, config, queue, clock=clock, pin_factory=pin_factory)
    return hw


def add_gpio_parts(hw: Hardware, config, queue, *, clock=time.monotonic, pin_factory=None) -> Hardware:
    """The parts on GPIO pins (gpiozero): the operator's buttons, the seat buttons, the
    buzzer. ``corbeille run`` adds them after its first frame: loading gpiozero takes
    longer than everything else before that frame (docs/performance.md, start), and a
    frame needs none of them. A failure closes every part, as in ``build_hardware``."""
    from drivers.inputs import build_operator_inputs, build_seat_buttons

    try:
        hw.inputs.append(_gpio(lambda: build_operator_inputs(operator_inputs_config(config), queue,
                                                             pin_factory=pin_factory, clock=clock)))
        if config.seats.count:
            pins = [config.pins[f"seat_button_{n}"] for n in range(1, config.seats.count + 1)]
            hw.inputs.append(_gpio(lambda: build_seat_buttons({"pins": pins, "hold_time": config.timing.hold_time},
                                                              queue, pin_factory=pin_factory, clock=clock)))
        if config.buzzer.enabled:
            from drivers.outputs import build_beeper
            hw.beeper = _gpio(lambda: build_beeper({"type": "buzzer", "pin": config.pins["buzzer"]},
                                                   pin_factory=pin_factory, clock=clock))
            hw.parts.append(Part("buzzer", hw.beeper))
    except BaseException:
        hw.close()
        raise
    return hw


def _gpio(build):
    """Build a gpiozero part; no pin backend here (a desktop) is a clear ConfigError."""
    import warnings

    try:
        with warnings.catch_warnings():
            # gpiozero warns once per backend it cannot load before giving up: the one
            # message below says it better.
            warnings.filterwarnings("ignore", category=Warning, module="gpiozero")
            return build()
    except ConfigError:
        raise
    except Exception as error:
        from gpiozero.exc import BadPinFactory
        if isinstance(error, BadPinFactory):
            raise ConfigError("no GPIO pins here (gpiozero found no pin backend): on a desktop run "
                              "`corbeille sim`, or set GPIOZERO_PIN_FACTORY=mock to try `run` with "
                              "simulated pins") from error
        raise
