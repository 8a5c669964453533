"""The box's configuration: one TOML file, read and checked once at start.

`load_config(path)` finds the file (see `find_config` for the search order), checks every
key, and returns a frozen `Config`. Any mistake stops the start with a `ConfigError` whose
message names the file, the key and what is allowed: the person reading it is at a table
with a screwdriver, not in a debugger.

The pin map is data: hardware/pinout.toml (the file the wiring guide is written from),
with single pins overridden by [pins]. Only the parts the configuration enables are
checked, and a pin used twice, or used by a part while a bus that needs it is enabled,
is refused with both uses named. The pin map itself is checked like this file (every
section, bus and key, each of the right kind); its mistakes are reported against it.
Files are read through engines.core.files: a folder, a device or bytes that are not
UTF-8 are refused naming the file, like any other mistake.
"""
from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from engines import registry
from drivers.errors import ConfigError  # one error for every configuration problem, drivers' too
from engines.core import settings
from engines.core.errors import worded
from engines.core.files import read_toml
from engines.core.i18n import Worded
from engines.core.limits import player_names_ok
from firmware import texts  # noqa: F401 (registers the box's catalog: the configuration's mistakes)

ENV_VAR = "CORBEILLE_CONFIG"
SYSTEM_CONFIG = Path("/etc/corbeille/corbeille.toml")

_HERE = Path(__file__).resolve().parent
# In a checkout the wiring guide's own file is used; an installed copy (no hardware/
# beside the package) uses the identical copy shipped as package data.
REPO_PINOUT = _HERE.parent / "hardware" / "pinout.toml"
PACKAGE_PINOUT = _HERE / "pinout.toml"

GPIO_RANGE = (0, 27)             # the 40-pin header's BCM GPIO numbers
HEADER_UARTS = ("/dev/serial0", "/dev/ttyS0", "/dev/ttyAMA0")   # all on GPIO 14/15
GAMES = registry.names()      # every registered game (engines/registry.py)
MAX_PLAYERS = 12                 # Dividends seats up to 12
MAX_SEATS = 6
# The SPI clocks luma's spi() accepts (luma.core.interface.serial), in Hz.
SPI_BUS_SPEEDS = tuple(int(mhz * 1_000_000) for mhz in
                       (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52))
# Old key -> the library's name for it. The old names are still read, with a warning.
ALIASES = {
    ("timing", "long_press_s"): "hold_time",     # gpiozero's Button(hold_time=)
    ("console", "baud"): "baudrate",             # pyserial's Serial(baudrate=)
}
log = logging.getLogger("corbeille")


@dataclass(frozen=True)
class GameDefaults:
    """What the setup screen proposes for a new game: the game, the players, the language,
    and every registered game's own settings (engines/registry.py `game_settings`), read as
    attributes too: `config.game.format`, `config.game.rounds` (0: no agreed number)."""
    game: str
    players: tuple[str, ...]
    language: str
    settings: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __getattr__(self, name):
        settings = self.__dict__.get("settings", {})
        if name in settings:
            return settings[name]
        raise AttributeError(f"no game setting {name!r}; declared: {', '.join(settings)}")


@dataclass(frozen=True)
class StateConfig:
    dir: Path                    # the journal lives here

    @property
    def parsed(self) -> Path:
        """Where the box keeps the TOML it has parsed (engines.core.files.keep_parsed_in):
        a box file is parsed once, not at every resume."""
        return Path(self.dir) / "parsed"


@dataclass(frozen=True)
class BoxesConfig:
    dir: Path | None             # the owner's box files, <dir>/<game>.toml; None: the shipped ones


@dataclass(frozen=True)
class OperatorConfig:
    type: str
    display: str
    interface: str
    width: int
    height: int
    i2c_address: int
    rotate: int
    input: str
    # Burn-in care and buses, named as luma names them (contrast(), --i2c-port, --spi-bus-speed).
    contrast: int
    dim_after_s: float           # 0: never dim
    dim_contrast: int
    i2c_port: int
    spi_bus_speed: int


@dataclass(frozen=True)
class BoardConfig:
    type: str
    panel: str
    rotate: int
    contrast: int                # the SSD1322 board (type = "oled"); e-ink has none
    dim_after_s: float
    dim_contrast: int
    spi_bus_speed: int           # the SSD1322 board; Waveshare's and Inky's libraries fix theirs


@dataclass(frozen=True)
class SeatsConfig:
    count: int
    leds: bool


@dataclass(frozen=True)
class BuzzerConfig:
    enabled: bool


@dataclass(frozen=True)
class RfidConfig:
    enabled: bool
    port: str


@dataclass(frozen=True)
class ConsoleConfig:
    enabled: bool
    port: str
    baudrate: int                # pyserial's name


@dataclass(frozen=True)
class TimingConfig:
    hold_time: float             # gpiozero's name: a press held this long is a long press
    poweroff_hold_time: float    # OK + Back held this long power the box off; 0: never
    speaking_window_s: float
    auction_step_s: float
    private_view_s: float
    silence_s: float             # an open auction no rule times (Dividends' tokens): silence this long sells


@dataclass(frozen=True)
class WebConfig:
    """The table's live web view (`corbeille web`, docs/web.md): its own process and unit."""
    enabled: bool                # off: no web process, and the box writes no live channel
    host: str                    # the address uvicorn listens on ("0.0.0.0": every interface)
    port: int
    access_point: bool           # the box's own Wi-Fi where the house has none (NetworkManager)
    ap_ssid: str
    ap_password: str             # "": an open network; else WPA2, 8 to 63 characters


@dataclass(frozen=True)
class VenueConfig:
    """A club's evening on an MQTT broker (docs/venue.md): the box's publisher
    (`corbeille publish`) and the venue's board and league (`corbeille venue`) read it."""
    enabled: bool                # this box publishes its public events to the venue's broker
    broker: str                  # the broker's host name or address
    port: int                    # 1883 plain, 8883 with TLS
    venue: str                   # the first level under corbeille/: the club or café
    table: str                   # this box's topic level and, by default, its broker account
    username: str                # "": the table's name
    password: str
    tls: bool
    ca_file: str                 # "": the system's certificate authorities
    host: str                    # `corbeille venue` serves its page on this address and port
    serve_port: int
    league: str                  # the league's SQLite file; "": league.sqlite in the state folder


@dataclass(frozen=True)
class SeatLedWiring:
    """Seat LEDs hang off an I/O expander: seat n lights `ports[n - 1]`."""
    expander: str
    i2c_address: int
    ports: tuple[str, ...]


@dataclass(frozen=True)
class Config:
    game: GameDefaults
    state: StateConfig
    operator: OperatorConfig
    board: BoardConfig
    seats: SeatsConfig
    buzzer: BuzzerConfig
    rfid: RfidConfig
    console: ConsoleConfig
    timing: TimingConfig
    web: WebConfig
    venue: VenueConfig
    # BCM pin of every GPIO the enabled parts use, [pins] overrides applied.
    pins: Mapping[str, int] = field(hash=False)
    seat_leds: SeatLedWiring | None
    source: Path | None          # the file read; None means built-in defaults
    boxes: BoxesConfig = BoxesConfig(None)


# ---- Checks: each takes a TOML value and returns the value to keep, or raises _Bad
# with what is allowed.

class _Bad(Exception):
    """A value a check refuses: what is allowed, in the words of the catalog's
    `ui.config.<key>` (said in the language a command is asked in)."""

    def __init__(self, key: str, /, **params):
        self.worded = Worded("ui.config." + key, **params)
        super().__init__(str(self.worded))


Check = Callable[[Any], Any]


def _show(value: Any) -> str:
    """A value the way it was written in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{...}"
    return str(value)


def _choice(*allowed: Any) -> Check:
    def check(value):
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise _Bad("choice", allowed=", ".join(str(a) for a in allowed))
        return value
    return check


def _integer(low: int, high: int, show: Callable[[int], str] = str) -> Check:
    def check(value):
        if type(value) is not int or not low <= value <= high:
            raise _Bad("integer", low=show(low), high=show(high))
        return value
    return check


def _seconds(low: float, high: float) -> Check:
    def check(value):
        if type(value) not in (int, float) or not low <= value <= high:
            raise _Bad("seconds", low=f"{low:g}", high=f"{high:g}")
        return float(value)
    return check


def _seconds_or_off(low: float, high: float) -> Check:
    def check(value):
        if type(value) not in (int, float) or not (value == 0 or low <= value <= high):
            raise _Bad("seconds_or_off", low=f"{low:g}", high=f"{high:g}")
        return float(value)
    return check


def _boolean(value):
    if type(value) is not bool:
        raise _Bad("boolean")
    return value


def _port(value):
    if type(value) is not str or not value.strip():
        raise _Bad("port", example='"/dev/serial0"')
    return value


def _players(value):
    # The engines' own rule for names (engines.core.limits): a name the configuration
    # proposes is one a game accepts.
    if type(value) is not list or len(value) > MAX_PLAYERS or not player_names_ok(value):
        raise _Bad("players", most=str(MAX_PLAYERS))
    return tuple(value)


def _path(value):
    # "" lets the box choose (see _default_state_dir); anything else must be absolute
    # so the journal never lands somewhere that depends on the current directory.
    if type(value) is not str or "\0" in value:
        raise _Bad("path", empty='""')
    try:
        absolute = not value or Path(value).expanduser().is_absolute()
    except RuntimeError:            # "~someone" whose home directory is unknown
        raise _Bad("home", empty='""') from None
    if not absolute:
        raise _Bad("path", empty='""')
    return value


def _host(value):
    if type(value) is not str or not value.strip() or any(c.isspace() for c in value):
        raise _Bad("host", every='"0.0.0.0"', local='"127.0.0.1"')
    return value


def _ssid(value):
    if type(value) is not str or not 1 <= len(value.encode()) <= 32 or not value.isprintable():
        raise _Bad("ssid")
    return value


def _wpa_password(value):
    if type(value) is not str or not (value == "" or (8 <= len(value) <= 63 and value.isascii()
                                                       and value.isprintable())):
        raise _Bad("wpa", empty='""')
    return value


def _topic_level(value):
    # One MQTT topic level, and a Mosquitto account name: no wildcard, no separator.
    if type(value) is not str or not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", value):
        raise _Bad("topic")
    return value


def _broker(value):
    if type(value) is not str or not value.strip() or any(c.isspace() for c in value):
        raise _Bad("broker", address='"192.168.1.10"', name='"venue.local"')
    return value


def _account(value):
    if value == "":
        return value
    return _topic_level(value)


def _text(value):
    if type(value) is not str or "\0" in value:
        raise _Bad("text")
    return value


def _declared(allowed) -> Check:
    """The check of a game setting from its declaration (engines/core/settings.py): a tuple
    of allowed values, a range of whole numbers or a text, so the configuration accepts
    exactly what the game accepts."""
    allowed = settings.allowed_of(allowed)
    if isinstance(allowed, tuple):
        return _choice(*allowed)
    if allowed is str:
        return _text

    def check(value):
        if not settings.allows(allowed, value):
            raise _Bad("integer" if allowed.step == 1 else "integer_steps", low=str(allowed.start),
                       high=str(allowed[-1]), step=str(allowed.step))
        return value
    return check


GAME_SETTINGS = registry.game_settings()
GAME_KEYS = ("game", "players", "language")  # [game]'s own keys; the others are the games' settings


def game_settings_toml() -> str:
    """Every registered game's own settings as lines of the [game] table, commented out,
    with the games declaring each one and what is allowed (`corbeille settings`): the
    example configuration lists the box's own keys and points here, so a new game's
    settings are documented by its declaration alone."""
    lines = ["# The games' own settings: keys of the configuration's [game] table, beside game,",
             "# players and language. Each registered game declares its own (engines/<game>/__init__.py),",
             "# with its default and what is allowed; the setup proposes these values for a new game",
             "# of a game that declares the setting. To change one, copy its line under [game] in",
             "# the configuration and remove the \"#\".",
             "#",
             f"# games (game = ...): {', '.join(GAMES)}"]
    for key, (default, allowed, by) in GAME_SETTINGS.items():
        lines += ["", f"# {key} ({', '.join(by)}): {settings.describe(allowed)}"]
        meanings = {}
        for name in by:
            declaration = registry.spec(name).settings.get(key)
            meaning = settings.entry(declaration)[2] if declaration else "the rulebook's formats (the formats the game declares)"
            meanings.setdefault(meaning, []).append(name)
        for meaning, names in meanings.items():
            if meaning:
                lines.append(f"#   {meaning}" if len(meanings) == 1 else f"#   {', '.join(names)}: {meaning}")
        lines.append(f"#{key} = {_show(default)}")
    return "\n".join(lines) + "\n"


# Every key the file may hold: section -> key -> (default as written in TOML, check).
# corbeille.example.toml lists the same keys with the same defaults, except the games' own
# settings, which `corbeille settings` prints (game_settings_toml; a test checks both).
SCHEMA: dict[str, dict[str, tuple[Any, Check]]] = {
    "game": {
        "game": (GAMES[0], _choice(*GAMES)),
        "players": ([], _players),
        "language": ("fr", _choice("fr", "en")),
        # then every game's own settings, as its engine declares them (see game_settings_toml)
        **{key: (default, _declared(allowed)) for key, (default, allowed, _) in GAME_SETTINGS.items()},
    },
    "state": {
        "dir": ("", _path),
    },
    "boxes": {
        "dir": ("", _path),
    },
    "operator": {
        "type": ("terminal", _choice("oled", "terminal", "window", "png", "dummy")),
        "display": ("ssd1306", _choice("ssd1306", "sh1106", "ssd1309")),
        "interface": ("i2c", _choice("i2c", "spi", "noop")),
        "width": (128, _integer(8, 1024)),
        "height": (64, _integer(8, 1024)),
        "i2c_address": (0x3C, _integer(0x03, 0x77, show=lambda n: f"0x{n:02X}")),
        "rotate": (0, _integer(0, 3)),
        "input": ("buttons", _choice("buttons", "encoder")),
        "contrast": (128, _integer(0, 255)),
        "dim_after_s": (120.0, _seconds_or_off(5, 86400)),
        "dim_contrast": (16, _integer(0, 255)),
        "i2c_port": (1, _integer(0, 22)),
        "spi_bus_speed": (8_000_000, _choice(*SPI_BUS_SPEEDS)),
    },
    "board": {
        "type": ("none", _choice("none", "oled", "eink")),
        "panel": ("waveshare_epd7in5_V2", _choice("waveshare_epd7in5_V2", "inky")),
        "rotate": (0, _integer(0, 3)),
        "contrast": (128, _integer(0, 255)),
        "dim_after_s": (0.0, _seconds_or_off(5, 86400)),
        "dim_contrast": (16, _integer(0, 255)),
        "spi_bus_speed": (8_000_000, _choice(*SPI_BUS_SPEEDS)),
    },
    "seats": {
        "count": (0, _integer(0, MAX_SEATS)),
        "leds": (False, _boolean),
    },
    "buzzer": {
        "enabled": (False, _boolean),
    },
    "rfid": {
        "enabled": (False, _boolean),
        "port": ("/dev/serial0", _port),
    },
    "console": {
        "enabled": (False, _boolean),
        "port": ("/dev/serial0", _port),
        "baudrate": (115200, _choice(9600, 19200, 38400, 57600, 115200, 230400)),
    },
    "timing": {
        "hold_time": (1.0, _seconds(0.2, 10)),
        "poweroff_hold_time": (5.0, _seconds_or_off(2, 60)),
        # One silence for a whole speaking round (every seat still to answer may press at
        # once, firmware/speaking_round.py): a Titre nobody else answers takes two of them
        # (the others, then the lander's second round), 8 s, under the 10 s a table waits.
        "speaking_window_s": (4.0, _seconds(1, 600)),
        "auction_step_s": (2.0, _seconds(0.2, 60)),
        "private_view_s": (5.0, _seconds(1, 600)),
        # 7 s, not 3: at 3 s the tokens would be dealt before the table reacts.
        # Seven seconds is the only length a rulebook of the box's games gives an open
        # auction's silence (Richesses du Monde: "Il ne peut s'écouler plus de 7 secondes
        # de silence au cours d'une enchère"), and it leaves 4 quiet seconds to decide a
        # raise before the buzzer counts the last 3.
        "silence_s": (7.0, _seconds(0.5, 60)),
    },
    "web": {
        "enabled": (False, _boolean),
        "host": ("0.0.0.0", _host),
        "port": (8080, _integer(1, 65535)),
        "access_point": (False, _boolean),
        "ap_ssid": ("Corbeille", _ssid),
        "ap_password": ("", _wpa_password),
    },
    "venue": {
        "enabled": (False, _boolean),
        "broker": ("localhost", _broker),
        "port": (1883, _integer(1, 65535)),
        "venue": ("club", _topic_level),
        "table": ("table1", _topic_level),
        "username": ("", _account),
        "password": ("", _text),
        "tls": (False, _boolean),
        "ca_file": ("", _path),
        "host": ("0.0.0.0", _host),
        "serve_port": (8090, _integer(1, 65535)),
        "league": ("", _path),
    },
}
SECTION_CLASSES = {
    "game": GameDefaults, "state": StateConfig, "operator": OperatorConfig,
    "board": BoardConfig, "seats": SeatsConfig, "buzzer": BuzzerConfig,
    "rfid": RfidConfig, "console": ConsoleConfig, "timing": TimingConfig,
    "web": WebConfig, "boxes": BoxesConfig, "venue": VenueConfig,
}


# ---- Finding the file


def _xdg_dir(variable: str, fallback: str) -> Path:
    # The XDG spec says a relative value is invalid and must be ignored.
    value = os.environ.get(variable, "")
    return Path(value) if value and Path(value).is_absolute() else Path.home() / fallback


def user_config_path() -> Path:
    return _xdg_dir("XDG_CONFIG_HOME", ".config") / "corbeille" / "corbeille.toml"


def _default_state_dir() -> Path:
    # Under systemd, StateDirectory=corbeille sets $STATE_DIRECTORY (/var/lib/corbeille);
    # it may list several directories separated by colons, the first is ours.
    from_systemd = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if from_systemd:
        return Path(from_systemd)
    return _xdg_dir("XDG_DATA_HOME", ".local/share") / "corbeille"


def find_config(path: str | os.PathLike | None = None) -> Path | None:
    """The file to read, or None for built-in defaults.

    Order: the explicit path (--config), $CORBEILLE_CONFIG, /etc/corbeille/corbeille.toml,
    the user's config dir. A file named explicitly must exist; the other two are optional.
    """
    named = path or os.environ.get(ENV_VAR)
    if named:
        named = Path(named).expanduser()
        if not named.exists():
            how = "--config" if path else f"${ENV_VAR}"
            raise worded(ConfigError, "ui.config.no_file", named=str(named), how=how)
        return named
    for candidate in (SYSTEM_CONFIG, user_config_path()):
        # exists(), not is_file(): a folder or a device where the file belongs is
        # reported by load_config, not silently skipped.
        if candidate.exists():
            return candidate
    return None


# ---- Loading


def load_config(path: str | os.PathLike | None = None) -> Config:
    """Find, read and check the configuration; see the module docstring."""
    source = find_config(path)
    data: dict[str, Any] = {}
    if source is not None:
        data = read_toml(source, "configuration file", ConfigError)
    return config_from_dict(data, source)


def config_from_dict(data: Mapping[str, Any], source: Path | None = None,
                     pinout_file: Path | None = None) -> Config:
    """Check a parsed TOML document; `source` names it in messages. The pin map is
    hardware/pinout.toml unless `pinout_file` names another."""
    where = str(source) if source else Worded("ui.config.defaults")
    data = _renamed(data, where)
    known_sections = [*SCHEMA, "pins"]
    for name, value in data.items():
        if name not in known_sections:
            raise worded(ConfigError, "ui.config.section", where=where, name=name,
                         known=", ".join(sorted(known_sections)))
        if not isinstance(value, dict):
            raise worded(ConfigError, "ui.config.table", where=where, name=name, value=_show(value))

    sections = {}
    for name, keys in SCHEMA.items():
        given = data.get(name, {})
        _refuse_unknown(where, name, given, keys)
        values = {}
        for key, (default, check) in keys.items():
            value = given.get(key, default)
            try:
                values[key] = check(value)
            except _Bad as bad:
                raise worded(ConfigError, "ui.config.value", where=where, key=f"{name}.{key}", value=_show(value),
                             reason=bad.worded) from None
        if name == "state":
            values["dir"] = Path(values["dir"]).expanduser() if values["dir"] else _default_state_dir()
        if name == "boxes":
            values["dir"] = Path(values["dir"]).expanduser() if values["dir"] else None
        if name == "game":
            values = {**{key: values.pop(key) for key in GAME_KEYS}, "settings": MappingProxyType(values)}
        sections[name] = SECTION_CLASSES[name](**values)

    pinout, pinout_file = read_pinout(pinout_file)
    pins, seat_leds = _wire(sections, pinout, data.get("pins", {}), where, str(pinout_file))
    _check_model(sections, where)
    return Config(**sections, pins=MappingProxyType(pins), seat_leds=seat_leds, source=source)


def _renamed(data: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """`data` with the old key names of ALIASES replaced by the libraries' names."""
    if not any(isinstance(data.get(section), dict) and old in data[section] for section, old in ALIASES):
        return data
    data = {name: dict(value) if isinstance(value, dict) else value for name, value in data.items()}
    for (section, old), new in ALIASES.items():
        table = data.get(section)
        if not isinstance(table, dict) or old not in table:
            continue
        if new in table:
            raise ConfigError(f"{where}: {section}.{old} and {section}.{new} are the same setting: "
                              f"keep {section}.{new} only")
        table[new] = table.pop(old)
        log.warning("%s: %s.%s is now called %s.%s (the library's name); the old name still works",
                    where, section, old, section, new)
    return data


def _refuse_unknown(where: str, section: str, given: Mapping, known: Mapping) -> None:
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise worded(ConfigError, "ui.config.key", where=where, key=f"{section}.{unknown[0]}",
                     known=", ".join(sorted(known)))


# ---- Pins


def pinout_path() -> Path:
    return REPO_PINOUT if REPO_PINOUT.is_file() else PACKAGE_PINOUT


# What hardware/pinout.toml must hold, exactly: a section, bus or key missing, a key nobody
# reads (a typo) or a value of the wrong kind is refused when the file is read, naming the
# pin map and the key, as the configuration's own keys are.
BUS_SIGNALS = {"i2c": ("sda", "scl"), "spi0": ("mosi", "miso", "sclk", "ce0", "ce1"), "uart": ("txd", "rxd")}
PIN_SECTIONS = {   # the sections of GPIO numbers a [pins] table may override
    "buttons": ("button_up", "button_down", "button_ok", "button_back"),
    "encoder": ("encoder_a", "encoder_b", "encoder_push", "encoder_back"),
    "operator_spi": ("operator_dc", "operator_rst"),
    "seat_buttons": tuple(f"seat_button_{n}" for n in range(1, MAX_SEATS + 1)),
    "buzzer": ("buzzer",),
    "eink_waveshare": ("eink_rst", "eink_dc", "eink_busy", "eink_pwr"),
    "eink_inky": ("eink_rst", "eink_dc", "eink_busy"),
    "board_oled": ("board_dc", "board_rst"),
}
PART_SECTIONS = tuple(PIN_SECTIONS)
# Their libraries hard-code these pins: an override in [pins] could never take effect.
FIXED_PIN_SECTIONS = ("eink_waveshare", "eink_inky")
BUS_NAMES = {"i2c": "the I2C bus", "spi0": "the SPI0 bus", "uart": "the UART"}
SEAT_LED_PORTS = tuple(f"GP{bank}{n}" for bank in "AB" for n in range(8))   # the MCP23017's pins
SEAT_LEDS = {
    "expander": _choice("mcp23017"),
    "i2c_address": _integer(0x03, 0x77, show=lambda n: f"0x{n:02X}"),
    **{f"seat_led_{n}": _choice(*SEAT_LED_PORTS) for n in range(1, MAX_SEATS + 1)},
}


def _gpio(value):
    if type(value) is not int or not GPIO_RANGE[0] <= value <= GPIO_RANGE[1]:
        raise _Bad("gpio", low=str(GPIO_RANGE[0]), high=str(GPIO_RANGE[1]))
    return value


def read_pinout(path: Path | None = None) -> tuple[dict[str, Any], Path]:
    """hardware/pinout.toml as a dict, checked, and the path it came from."""
    path = path or pinout_path()
    return check_pinout(read_toml(path, "pin map", ConfigError), path), path


def check_pinout(data: Mapping[str, Any], path) -> dict[str, Any]:
    """The pin map with every section, bus and key present and of the right kind."""
    tables: dict[str, tuple[Mapping[str, Check], str]] = {
        **{f"bus.{bus}": (dict.fromkeys(signals, _gpio), "GPIO numbers")
           for bus, signals in BUS_SIGNALS.items()},
        **{name: (dict.fromkeys(keys, _gpio), "GPIO numbers") for name, keys in PIN_SECTIONS.items()},
        "seat_leds": (SEAT_LEDS, "the seat LED expander"),
    }
    known_top = ["bus", *PIN_SECTIONS, "seat_leds"]
    for name in data:
        if name not in known_top:
            raise ConfigError(f"{path}: unknown section [{name}] in the pin map: known sections are "
                              + ", ".join(sorted(known_top)))
    bus = data.get("bus", {})
    if not isinstance(bus, dict):
        raise ConfigError(f"{path}: bus = {_show(bus)}: must be a table of buses [bus.i2c], [bus.spi0], [bus.uart]")
    for name in bus:
        if name not in BUS_SIGNALS:
            raise ConfigError(f"{path}: unknown bus [bus.{name}] in the pin map: known buses are "
                              + ", ".join(BUS_SIGNALS))
    checked: dict[str, Any] = {"bus": {}}
    for dotted, (keys, holds) in tables.items():
        parent, _, name = dotted.rpartition(".")
        given = (bus if parent else data).get(name)
        if given is None:
            raise ConfigError(f"{path}: section [{dotted}] is missing from the pin map; it holds "
                              f"{holds}: " + ", ".join(keys))
        if not isinstance(given, dict):
            raise ConfigError(f"{path}: {dotted} = {_show(given)}: must be a table [{dotted}]")
        unknown = sorted(set(given) - set(keys))
        if unknown:
            raise ConfigError(f"{path}: unknown key {dotted}.{unknown[0]} in the pin map: known keys are "
                              + ", ".join(keys))
        values = {}
        for key, check in keys.items():
            if key not in given:
                raise ConfigError(f"{path}: {dotted}.{key} is missing from the pin map")
            try:
                values[key] = check(given[key])
            except _Bad as bad:
                raise ConfigError(f"{path}: {dotted}.{key} = {_show(given[key])}: {bad}") from None
        (checked["bus"] if parent else checked)[name] = values
    ports = [checked["seat_leds"][f"seat_led_{n}"] for n in range(1, MAX_SEATS + 1)]
    for n, port in enumerate(ports, 1):
        if ports.index(port) + 1 != n:
            raise ConfigError(f"{path}: seat_leds.seat_led_{n} = {_show(port)}: already the port of "
                              f"seat_led_{ports.index(port) + 1}; each seat LED has its own port")
    return checked


def _enabled(s: Mapping[str, Any]) -> tuple[list[tuple[str, list[str] | None]], dict[str, str]]:
    """The pinout sections in use (with the keys used, None for all) and the buses in use,
    each bus with the setting that needs it."""
    op, board, seats = s["operator"], s["board"], s["seats"]
    parts: list[tuple[str, list[str] | None]] = [("encoder" if op.input == "encoder" else "buttons", None)]
    buses: dict[str, str] = {}
    if op.type == "oled":
        if op.interface == "spi":
            parts.append(("operator_spi", None))
            buses["spi0"] = 'operator.interface = "spi"'
        elif op.interface == "i2c":
            buses["i2c"] = 'operator.interface = "i2c"'
    if seats.count:
        parts.append(("seat_buttons", [f"seat_button_{n}" for n in range(1, seats.count + 1)]))
        if seats.leds:
            buses.setdefault("i2c", "seats.leds = true")
    if s["buzzer"].enabled:
        parts.append(("buzzer", None))
    if board.type == "eink":
        parts.append(("eink_inky" if board.panel == "inky" else "eink_waveshare", None))
        buses.setdefault("spi0", 'board.type = "eink"')
        if board.panel == "inky":   # the wHAT identifies itself through an I2C EEPROM
            buses.setdefault("i2c", 'board.panel = "inky"')
    elif board.type == "oled":
        parts.append(("board_oled", None))
        buses.setdefault("spi0", 'board.type = "oled"')
    for name in ("rfid", "console"):
        part = s[name]
        if part.enabled and part.port in HEADER_UARTS:
            buses.setdefault("uart", f"{name}.port = {_show(part.port)}")
    return parts, buses


def _wire(s, pinout, overrides, where, pinout_where):
    """The GPIO map of the enabled parts, checked; and the seat LED wiring.

    A pin used twice is reported against the file that wrote it: the configuration when
    one of the two comes from its [pins], else the pin map itself."""
    known = sorted({key for section in PART_SECTIONS for key in pinout[section]})
    fixed = {key for section in FIXED_PIN_SECTIONS for key in pinout[section]}
    for key, value in overrides.items():
        if key not in known:
            raise ConfigError(f"{where}: unknown key pins.{key}: known keys are " + ", ".join(known))
        if key in fixed:
            raise ConfigError(f"{where}: pins.{key}: the e-ink panels' pins are fixed by their "
                              "libraries (Waveshare's epdconfig.py, Pimoroni's inky), which take no "
                              "pin settings, so this override would do nothing: remove it and wire "
                              "the panel as hardware/pinout.toml says")
        if type(value) is not int or not GPIO_RANGE[0] <= value <= GPIO_RANGE[1]:
            raise ConfigError(f"{where}: pins.{key} = {_show(value)}: must be a BCM GPIO number "
                              f"from {GPIO_RANGE[0]} to {GPIO_RANGE[1]}")

    parts, buses = _enabled(s)
    owner: dict[int, tuple[str, bool]] = {}     # pin -> (its use, moved by [pins])
    for bus, why in buses.items():
        for signal, pin in pinout["bus"][bus].items():
            if pin in owner:
                raise ConfigError(f"{pinout_where}: GPIO {pin} is written for both {owner[pin][0]} and "
                                  f"{BUS_NAMES[bus]} ({signal}) in the pin map; fix [bus.{bus}]")
            owner[pin] = (f"{BUS_NAMES[bus]} ({signal}, needed by {why})", False)
    pins: dict[str, int] = {}
    for section, keys in parts:
        for key, pin in pinout[section].items():
            if keys is not None and key not in keys:
                continue
            moved = key in overrides
            pin = overrides.get(key, pin)
            if pin in owner:
                other, other_moved = owner[pin]
                if moved or other_moved:
                    raise ConfigError(f"{where}: pins: GPIO {pin} is used by both {other} and {key}")
                raise ConfigError(f"{pinout_where}: the pin map gives GPIO {pin} to both {other} and "
                                  f"{section}.{key}; fix the pin map, or move one of them with [pins] in "
                                  "the configuration")
            owner[pin] = (key, moved)
            pins[key] = pin

    if s["rfid"].enabled and s["console"].enabled and s["rfid"].port == s["console"].port:
        raise ConfigError(f"{where}: rfid.port = console.port = {_show(s['rfid'].port)}: "
                          "one serial port serves one device; give the console another port")

    seat_leds = None
    if s["seats"].leds and s["seats"].count:
        leds = pinout["seat_leds"]
        seat_leds = SeatLedWiring(
            expander=leds["expander"], i2c_address=leds["i2c_address"],
            ports=tuple(leds[f"seat_led_{n}"] for n in range(1, s["seats"].count + 1)))
    return pins, seat_leds


# ---- The model's serial ports (drivers/pi_model.py): on a Raspberry Pi, a port that is
# not the header's UART on this model is refused, naming the model and what to do.


def _check_model(s, where):
    from drivers.pi_model import header_uart_problem, read_model, serial_layout

    model = read_model()
    if model is None:                    # not a Pi (a desktop): nothing to compare with
        return
    layout = serial_layout(model)
    devices = {}
    for name in ("rfid", "console"):
        part = s[name]
        if not part.enabled:
            continue
        problem = header_uart_problem(layout, part.port)
        if problem:
            raise ConfigError(f"{where}: {name}.port = {_show(part.port)}: {problem}")
        device = layout.resolve(part.port)
        if device in devices:
            other = devices[device]
            raise ConfigError(f"{where}: rfid.port = {_show(s[other].port)} and console.port = "
                              f"{_show(part.port)} are both {device} on a {model}: one serial port "
                              "serves one device; give the console another port (a USB adapter)")
        devices[device] = name
