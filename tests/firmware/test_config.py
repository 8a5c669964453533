"""firmware.config: search order, defaults, every error message form, and the pin map
(hardware/pinout.toml) against the wiring guide that is written from it."""
import dataclasses
import os
import re
import tomllib
from pathlib import Path

import pytest

from engines import registry
from engines.core import settings
from firmware import config as cfg
from firmware.config import ConfigError, config_from_dict, load_config

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "firmware" / "corbeille.example.toml"
README = ROOT / "hardware" / "README.md"
SRC = Path("/etc/corbeille/corbeille.toml")      # only names the file in messages


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    """No test sees the real /etc, $HOME or a systemd environment."""
    for name in ("CORBEILLE_CONFIG", "STATE_DIRECTORY", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(cfg, "SYSTEM_CONFIG", tmp_path / "etc" / "corbeille.toml")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(data: dict) -> str:
    with pytest.raises(ConfigError) as e:
        config_from_dict(data, SRC)
    return str(e.value)


FULL = {   # the full build of hardware/README.md
    "operator": {"type": "oled"},
    "board": {"type": "eink"},
    "seats": {"count": 6, "leds": True},
    "buzzer": {"enabled": True},
    "rfid": {"enabled": True},
}


# ---- defaults and search order

def test_defaults_are_a_desktop_simulation(tmp_path):
    c = load_config()
    assert c.source is None
    # the settings of Maxi Bourse and Dividends, then those of the games registered after
    # them, each with the default its engine declares (engines/registry.py)
    declared = {key: default for key, (default, _, _) in cfg.GAME_SETTINGS.items()}
    assert c.game == cfg.GameDefaults("maxibourse", (), "fr", declared)
    assert {"format": "junior", "dice": "physical", "payday": "each_round", "vertical_bonus": "per_group",
            "rounds": 0, "bid_step": 50, "companies": ""}.items() <= declared.items()
    assert (c.game.format, c.game.rounds, c.game.bid_step) == ("junior", 0, 50)
    assert c.operator == cfg.OperatorConfig("terminal", "ssd1306", "i2c", 128, 64, 0x3C, 0, "buttons",
                                            128, 120.0, 16, 1, 8_000_000)
    assert c.board.type == "none" and c.seats.count == 0 and not c.buzzer.enabled
    assert not c.rfid.enabled and not c.console.enabled and c.console.baudrate == 115200
    assert c.timing == cfg.TimingConfig(1.0, 5.0, 4.0, 2.0, 5.0, 7.0)
    assert c.state.dir == tmp_path / "home" / ".local" / "share" / "corbeille"
    assert dict(c.pins) == {"button_up": 5, "button_down": 6, "button_ok": 13, "button_back": 19}
    assert c.seat_leds is None


def test_config_is_frozen():
    c = load_config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.seats.count = 3
    with pytest.raises(TypeError):
        c.pins["button_up"] = 2


def test_schema_keys_are_the_dataclass_fields():
    for section, keys in cfg.SCHEMA.items():
        if section == "game":   # its own keys, then the games' settings in one mapping
            keys = [*cfg.GAME_KEYS, "settings"]
        assert [f.name for f in dataclasses.fields(cfg.SECTION_CLASSES[section])] == list(keys)


def test_the_game_table_holds_every_registered_games_declared_settings():
    """Each game's settings (and formats) are keys of [game], with the declared default and
    allowed values: the configuration proposes only what the game accepts."""
    for name in registry.names():
        cls = registry.spec(name).engine_class()
        declared = {key: settings.entry(d)[:2] for key, d in cls.SETTINGS.items()}
        declared.update({"format": (cls.FORMATS[0], cls.FORMATS)} if cls.FORMATS else {})
        for key, (default, allowed) in declared.items():
            written, check = cfg.SCHEMA["game"][key]
            assert written == default or key == "format", (name, key)
            if isinstance(allowed, tuple):
                assert all(check(value) == value for value in allowed), (name, key)
                with pytest.raises(cfg._Bad, match="allowed values are " + ", ".join(map(str, allowed))):
                    check("not-" + str(allowed[0]))
            elif isinstance(allowed, range):
                assert check(allowed[0]) == allowed[0] and check(allowed[-1]) == allowed[-1], (name, key)
                for outside in (allowed[0] - 1, allowed[-1] + 1, True, str(allowed[0])):
                    with pytest.raises(cfg._Bad, match=f"must be an integer from {allowed[0]} to {allowed[-1]}"):
                        check(outside)
    assert load_config().game.bid_step == 50 and "\n#bid_step = 50\n" in cfg.game_settings_toml()
    assert "game.bid_step = -5: must be an integer from 1 to 999" in error_of({"game": {"bid_step": -5}})


def test_a_setting_the_declaration_does_not_allow_is_refused_naming_file_key_value_and_allowed(tmp_path):
    """Dividends declares bid_step from 1 to 999 (a raise of 0 would never end an auction):
    the configuration refuses 0 at start, from the declaration, like the game does."""
    from engines.core.errors import IllegalAction
    from engines.dividends.game import Dividends

    path = write(tmp_path / "corbeille.toml", "[game]\nbid_step = 0\n")
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert str(e.value) == f"{path}: game.bid_step = 0: must be an integer from 1 to 999"
    with pytest.raises(IllegalAction, match="setting bid_step = 0 is not allowed; allowed: 1 to 999"):
        Dividends({"players": ["A", "B", "C", "D"], "settings": {"bid_step": 0}})


def test_a_declared_range_with_a_step_is_checked_with_its_step():
    check = cfg._declared(range(50, 1001, 50))
    assert check(100) == 100
    for bad in (75, 0, 1050):
        with pytest.raises(cfg._Bad, match="must be an integer from 50 to 1000 in steps of 50"):
            check(bad)
    assert settings.refusal("bid_step", 75, range(50, 1001, 50)).message("en") == \
        "setting bid_step = 75 is not allowed; allowed: 50 to 1,000 in steps of 50"


def test_two_games_declaring_one_setting_differently_are_refused(monkeypatch):
    specs = {"a": registry.GameSpec("a", "x:A", prefix="a", players=(2, 6),
                                    settings={"dice": ("physical", ("physical", "device"))}),
             "b": registry.GameSpec("b", "x:B", prefix="b", players=(2, 6),
                                    settings={"dice": ("device", ("physical", "device"))})}
    monkeypatch.setattr(registry, "games", lambda: specs)
    with pytest.raises(ValueError, match="setting 'dice': a declares .*, b .*one configuration key must mean one thing"):
        registry.game_settings()


@pytest.mark.parametrize("present, expected", [
    (("explicit", "env", "system", "user"), "explicit"),
    (("env", "system", "user"), "env"),
    (("system", "user"), "system"),
    (("user",), "user"),
    ((), None),
])
def test_search_order(tmp_path, monkeypatch, present, expected):
    files = {
        "explicit": tmp_path / "explicit.toml",
        "env": tmp_path / "env.toml",
        "system": cfg.SYSTEM_CONFIG,
        "user": tmp_path / "home" / ".config" / "corbeille" / "corbeille.toml",
    }
    for name in present:
        write(files[name], f'[game]\nplayers = ["{name}"]\n')
    if "env" in present:
        monkeypatch.setenv("CORBEILLE_CONFIG", str(files["env"]))
    c = load_config(files["explicit"] if "explicit" in present else None)
    assert c.source == (files[expected] if expected else None)
    assert c.game.players == ((expected,) if expected else ())


def test_user_config_follows_xdg_config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    path = write(tmp_path / "xdg" / "corbeille" / "corbeille.toml", "[seats]\ncount = 2\n")
    assert load_config().source == path


def test_relative_xdg_config_home_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative")
    assert cfg.user_config_path() == tmp_path / "home" / ".config" / "corbeille" / "corbeille.toml"


def test_a_file_named_explicitly_must_exist(tmp_path, monkeypatch):
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(missing))}: no such file \(named by --config\)"):
        load_config(missing)
    monkeypatch.setenv("CORBEILLE_CONFIG", str(missing))
    with pytest.raises(ConfigError, match=r"no such file \(named by \$CORBEILLE_CONFIG\)"):
        load_config()


def test_state_dir_order(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert load_config().state.dir == tmp_path / "data" / "corbeille"
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/corbeille:/var/lib/other")
    assert load_config().state.dir == Path("/var/lib/corbeille")
    assert config_from_dict({"state": {"dir": "/srv/games"}}).state.dir == Path("/srv/games")


# ---- every error message form names the file, the key and what is allowed

@pytest.mark.parametrize("data, message", [
    ({"game": {"format": "maxi"}},
     'game.format = "maxi": allowed values are junior, senior, masters'),
    ({"game": {"game": "monopoly"}},
     'game.game = "monopoly": allowed values are maxibourse, dividends'),
    ({"game": {"language": "de"}}, 'game.language = "de": allowed values are fr, en'),
    ({"game": {"rounds": -1}}, "game.rounds = -1: must be an integer from 0 to 999"),
    ({"game": {"players": ["Anne", "Anne"]}},
     'game.players = ["Anne", "Anne"]: must be a list of up to 12 distinct names'),
    ({"seats": {"count": 9}}, "seats.count = 9: must be an integer from 0 to 6"),
    ({"seats": {"count": True}}, "seats.count = true: must be an integer from 0 to 6"),
    ({"seats": {"leds": "yes"}}, 'seats.leds = "yes": must be true or false'),
    ({"operator": {"i2c_address": 200}},
     "operator.i2c_address = 200: must be an integer from 0x03 to 0x77"),
    ({"operator": {"display": "ssd1322"}},
     'operator.display = "ssd1322": allowed values are ssd1306, sh1106, ssd1309'),
    ({"board": {"panel": "kindle"}},
     'board.panel = "kindle": allowed values are waveshare_epd7in5_V2, inky'),
    ({"console": {"baudrate": 14400}},
     "console.baudrate = 14400: allowed values are 9600, 19200, 38400, 57600, 115200, 230400"),
    ({"timing": {"hold_time": 0}}, "timing.hold_time = 0: must be a number of seconds from 0.2 to 10"),
    ({"timing": {"poweroff_hold_time": 1}},
     "timing.poweroff_hold_time = 1: must be 0 (off) or a number of seconds from 2 to 60"),
    ({"operator": {"contrast": 256}}, "operator.contrast = 256: must be an integer from 0 to 255"),
    ({"operator": {"spi_bus_speed": 3_000_000}},
     "operator.spi_bus_speed = 3000000: allowed values are 500000, 1000000, 2000000, 4000000, 8000000"),
    ({"state": {"dir": "games"}}, 'state.dir = "games": must be an absolute path, or "" for the default'),
    ({"rfid": {"port": ""}}, 'rfid.port = "": must be a serial device such as "/dev/serial0"'),
    ({"game": {"colour": "red"}},
     "unknown key game.colour: known keys are "),   # every registered game's settings, sorted
    ({"sound": {}}, "unknown section [sound]: known sections are board, boxes, buzzer, console, game, "
                    "operator, pins, rfid, seats, state, timing"),
    ({"seats": 6}, "seats = 6: must be a table [seats]"),
    ({"pins": {"seat_led_1": 5}}, "unknown key pins.seat_led_1: known keys are board_dc, board_rst, "),
    ({"pins": {"button_up": 28}}, "pins.button_up = 28: must be a BCM GPIO number from 0 to 27"),
])
def test_error_names_file_key_and_what_is_allowed(data, message):
    assert error_of(data).startswith(f"{SRC}: {message}")


def test_a_toml_syntax_error_names_the_file(tmp_path):
    path = write(tmp_path / "bad.toml", "[game\n")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}:1: not valid TOML: .* \(column 6\)$"):
        load_config(path)


def test_errors_from_a_file_name_that_file(tmp_path):
    path = write(tmp_path / "c.toml", "[seats]\ncount = 9\n")
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert str(e.value) == f"{path}: seats.count = 9: must be an integer from 0 to 6"


# ---- pins

def test_pin_used_by_two_parts_names_both():
    data = {**FULL, "pins": {"seat_button_1": 17}}
    assert error_of(data) == f"{SRC}: pins: GPIO 17 is used by both seat_button_1 and eink_rst"


@pytest.mark.parametrize("data, message", [
    ({"operator": {"type": "oled"}, "pins": {"button_up": 3}},
     'GPIO 3 is used by both the I2C bus (scl, needed by operator.interface = "i2c") and button_up'),
    ({"seats": {"count": 1, "leds": True}, "pins": {"seat_button_1": 2}},
     "GPIO 2 is used by both the I2C bus (sda, needed by seats.leds = true) and seat_button_1"),
    ({"board": {"type": "eink"}, "pins": {"button_ok": 8}},
     'GPIO 8 is used by both the SPI0 bus (ce0, needed by board.type = "eink") and button_ok'),
    ({"board": {"type": "oled"}, "pins": {"board_dc": 9}},
     'GPIO 9 is used by both the SPI0 bus (miso, needed by board.type = "oled") and board_dc'),
    ({"rfid": {"enabled": True}, "pins": {"button_back": 15}},
     'GPIO 15 is used by both the UART (rxd, needed by rfid.port = "/dev/serial0") and button_back'),
    ({"console": {"enabled": True, "port": "/dev/ttyAMA0"}, "pins": {"button_back": 14}},
     'GPIO 14 is used by both the UART (txd, needed by console.port = "/dev/ttyAMA0") and button_back'),
])
def test_pin_needed_by_an_enabled_bus_names_both(data, message):
    assert error_of(data) == f"{SRC}: pins: {message}"


def test_bus_pins_are_free_while_the_bus_is_off():
    # A desktop operator screen uses no I2C, a USB console no UART pins.
    c = config_from_dict({"pins": {"button_up": 3}, "console": {"enabled": True, "port": "/dev/ttyUSB0"},
                          "seats": {"count": 1}, "buzzer": {"enabled": True}})
    assert c.pins["button_up"] == 3


def test_only_enabled_parts_are_checked():
    # No board: the e-ink pins are not in use. Four seats: seat 5 and 6 pins are not either.
    c = config_from_dict({"seats": {"count": 4}, "pins": {"seat_button_1": 17, "button_up": 21}})
    assert c.pins["seat_button_1"] == 17 and "seat_button_5" not in c.pins and "eink_rst" not in c.pins


def test_rfid_and_console_cannot_share_a_port():
    message = error_of({"rfid": {"enabled": True}, "console": {"enabled": True}})
    assert message.startswith(f'{SRC}: rfid.port = console.port = "/dev/serial0": ')


@pytest.mark.parametrize("panel", ["waveshare_epd7in5_V2", "inky"])
@pytest.mark.parametrize("operator_input", ["buttons", "encoder"])
def test_the_full_build_fits_with_either_panel_and_input(panel, operator_input):
    data = {**FULL, "board": {"type": "eink", "panel": panel},
            "operator": {"type": "oled", "input": operator_input},
            "console": {"enabled": True, "port": "/dev/ttyGS0"}}
    c = config_from_dict(data)
    assert len(c.pins) == 4 + 6 + 1 + (4 if panel != "inky" else 3)
    assert c.seat_leds == cfg.SeatLedWiring("mcp23017", 0x20, ("GPA0", "GPA1", "GPA2", "GPA3", "GPA4", "GPA5"))


def test_full_build_pins():
    assert dict(config_from_dict(FULL).pins) == {
        "button_up": 5, "button_down": 6, "button_ok": 13, "button_back": 19,
        "seat_button_1": 4, "seat_button_2": 12, "seat_button_3": 16,
        "seat_button_4": 20, "seat_button_5": 21, "seat_button_6": 23,
        "buzzer": 26, "eink_rst": 17, "eink_dc": 25, "eink_busy": 24, "eink_pwr": 18,
    }


def test_quotation_oled_and_spi_operator_fit_the_full_build():
    config_from_dict({**FULL, "board": {"type": "oled"}})
    config_from_dict({**FULL, "operator": {"type": "oled", "interface": "spi"}})


def test_an_override_moves_a_pin():
    c = config_from_dict({**FULL, "pins": {"buzzer": 27}})
    assert c.pins["buzzer"] == 27


def test_installed_pinout_copy_is_identical():
    # firmware/pinout.toml is what a non-editable install reads; it must not drift.
    assert cfg.PACKAGE_PINOUT.read_bytes() == cfg.REPO_PINOUT.read_bytes()


# ---- the example file

def uncommented(text: str) -> str:
    """The example with every setting switched on: '#key = v' and '#[section]' lines."""
    return re.sub(r"(?m)^#(?=\[|[a-z_0-9]+ = )", "", text)


def test_example_loads_and_equals_defaults():
    example = load_config(EXAMPLE)
    assert dataclasses.replace(example, source=None) == load_config()


def test_example_lists_every_key_with_its_default_and_corbeille_settings_the_games_own(tmp_path):
    """The example holds the box's keys; `corbeille settings` the games' own, generated from
    the registry: together, every key of the schema with its default, and a new game's
    settings need no edit of the example."""
    example = tomllib.loads(uncommented(EXAMPLE.read_text(encoding="utf-8")))
    games_own = tomllib.loads(uncommented(cfg.game_settings_toml()))
    defaults = {s: {k: d for k, (d, _) in keys.items()} for s, keys in cfg.SCHEMA.items()}
    assert {s: v for s, v in example.items() if s != "pins"} == \
        {**defaults, "game": {k: defaults["game"][k] for k in cfg.GAME_KEYS}}
    assert games_own == {k: v for k, v in defaults["game"].items() if k not in cfg.GAME_KEYS}
    text = uncommented(EXAMPLE.read_text(encoding="utf-8")).replace("[game]\n", "[game]\n" + uncommented(cfg.game_settings_toml()))
    switched_on = load_config(write(tmp_path / "on.toml", text))
    assert dataclasses.replace(switched_on, source=None) == load_config()


def test_corbeille_settings_prints_every_registered_games_settings(capsys):
    from firmware.cli import main

    assert main(["settings"]) == 0
    out = capsys.readouterr().out
    assert out == cfg.game_settings_toml()
    assert f"# games (game = ...): {', '.join(registry.names())}\n" in out
    assert "# bid_step (dividends" in out and "): a whole number from 1 to 999\n" in out
    assert "# dice (maxibourse, dividends" in out and "): physical, device\n" in out   # and the games after them


# ---- hardware/README.md wiring tables against pinout.toml

HEADER = {  # BCM -> physical pin of the 40-pin header
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23,
    12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40,
    22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}


def readme_tables():
    """Each markdown table of the README as a list of {header: cell} rows."""
    tables, rows, header = [], None, None
    for line in README.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
            if header is None:
                header, rows = cells, []
            elif not set("".join(cells)) <= set("-: "):
                rows.append(dict(zip(header, cells)))
        elif header is not None:
            tables.append(rows)
            header = None
    return tables


def lookup(pinout, dotted):
    value = pinout
    for part in dotted.split("."):
        value = value[part]
    return value


def test_readme_wiring_tables_match_pinout():
    pinout, _ = cfg.read_pinout(cfg.REPO_PINOUT)
    seen, checked = set(), 0
    for rows in readme_tables():
        for row in rows:
            key = row.get("pinout.toml", "—")
            if key in ("", "—"):
                continue
            value = lookup(pinout, key)
            if "BCM" in row:
                assert row["BCM"] == str(value), f"{key}: README says GPIO {row['BCM']}, pinout.toml {value}"
                assert row["Header pin"] == str(HEADER[value]), f"{key}: wrong header pin"
            else:
                assert row["Expander pin"] == value, f"{key}: README says {row['Expander pin']}"
            seen.add(key)
            checked += 1
    every = {f"{s}.{k}" for s in cfg.PART_SECTIONS for k in pinout[s]}
    every |= {f"seat_leds.{k}" for k in pinout["seat_leds"] if k.startswith("seat_led_")}
    every |= {f"bus.{b}.{k}" for b, signals in pinout["bus"].items() for k in signals}
    assert every - seen == set(), "pins missing from hardware/README.md"
    assert checked >= len(every)


def test_docs_hardware_examples_load():
    text = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    for block in blocks:
        config_from_dict(tomllib.loads(block), SRC)


# ---- files that are not a configuration at all (engines.core.files)

def test_a_config_that_is_not_utf8_names_the_file_and_line(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('[game]\n# joueurs préférés\nplayers = ["Ana", "Ben"]\n'.encode("latin-1"))
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert str(e.value).startswith(f"{path}:2: byte 0xE9 (column 13) is not UTF-8 text")
    assert "save it as UTF-8" in str(e.value)


def test_a_binary_config_is_refused_with_its_name(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(bytes(range(256)))
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}:2: byte 0x80"):   # after the 0x0A
        load_config(path)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf[seats]\ncount = 2\n")
    assert load_config(path).seats.count == 2


def test_a_bad_byte_after_a_byte_order_mark_is_the_one_named(tmp_path):
    """The mark is dropped before decoding: the byte named is the bad one, at its line and
    column in the text."""
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf[seats]\ncount = \xff2\n")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}:2: byte 0xFF \(column 9\)"):
        load_config(path)


@pytest.mark.parametrize("make, words", [
    (lambda p: p.mkdir(), "is a folder, not a configuration file"),
    (lambda p: p.symlink_to("/dev/null"), "is a device or a pipe, not a configuration file"),
    (lambda p: os.mkfifo(p), "is a device or a pipe"),     # opened without waiting for a writer
])
def test_a_folder_or_a_device_is_refused_with_its_name(tmp_path, make, words):
    path = tmp_path / "corbeille.toml"
    make(path)
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert str(e.value).startswith(f"{path}: {words}")


def test_a_folder_where_the_system_config_belongs_is_reported_not_skipped(tmp_path):
    cfg.SYSTEM_CONFIG.mkdir(parents=True)
    with pytest.raises(ConfigError, match="is a folder"):
        load_config()


def test_an_unreadable_config_says_what_to_do(tmp_path, monkeypatch):
    # Tests may run as root, which reads any file: the refusal the kernel gives is simulated.
    import engines.core.files as files

    def refuse(path, *args):
        raise PermissionError(13, "Permission denied", str(path))
    path = write(tmp_path / "secret.toml", "[seats]\ncount = 1\n")
    monkeypatch.setattr(files.os, "open", refuse)
    with pytest.raises(ConfigError, match=r"permission denied.*chmod a\+r secret.toml"):
        load_config(path)


@pytest.mark.parametrize("text, where, words", [
    ("a = " + "[" * 5000, 1, "arrays or tables nested too deeply (a configuration file nests a few levels)"),
    ("[game]\n\nb = \"[[[\"\nc = " + "[" * 3000 + "\n", 4, "nested too deeply"),
    ("[game]\nrounds = 1" + "0" * 5000 + "\n", 2, "a number of 5001 digits (the numbers of a configuration file "
                                                  "have a few digits)"),
])
def test_toml_the_parser_chokes_on_is_refused_with_the_file_and_line(tmp_path, text, where, words):
    """In the box's words, with the file and line: nothing of Python's (sys.set_int_max_str_digits)."""
    path = write(tmp_path / "deep.toml", text)
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert str(e.value).startswith(f"{path}:{where}: not valid TOML: ") and words in str(e.value), str(e.value)
    assert "sys." not in str(e.value) and "int_max" not in str(e.value)


@pytest.mark.parametrize("players", [["Anne", "anne"], ["Jean Pierre"], ["Jo#"], ['"Zoe"'], [""], ["\t"]])
def test_player_names_follow_the_engines_rule(players):
    """A name the configuration proposes must be one the engines accept (same check)."""
    from engines.maxibourse.game import MaxiBourse
    assert "distinct names" in error_of({"game": {"players": players}})
    with pytest.raises(ValueError):
        MaxiBourse({"players": players + ["Other"]})


def test_rounds_have_the_limit_of_set_rounds():
    from engines.core.errors import IllegalAction
    from engines.core.limits import MAX_ROUNDS
    from engines.maxibourse.game import MaxiBourse
    assert config_from_dict({"game": {"rounds": MAX_ROUNDS}}).game.rounds == MAX_ROUNDS
    assert f"from 0 to {MAX_ROUNDS}" in error_of({"game": {"rounds": MAX_ROUNDS + 1}})
    MaxiBourse({"players": ["A", "B"], "settings": {"rounds": MAX_ROUNDS}})
    with pytest.raises(IllegalAction, match=f"rounds = {MAX_ROUNDS + 1:,} is not allowed; allowed: 0 to {MAX_ROUNDS}"):
        MaxiBourse({"players": ["A", "B"], "settings": {"rounds": MAX_ROUNDS + 1}})


# ---- a damaged pin map: named against the pin map, never a traceback

PINOUT_TEXT = cfg.REPO_PINOUT.read_text(encoding="utf-8")


def pinout_error(monkeypatch, tmp_path, text, data=FULL, binary=None) -> str:
    path = tmp_path / "pinout.toml"
    if binary is None:
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(binary)
    monkeypatch.setattr(cfg, "REPO_PINOUT", path)
    with pytest.raises(ConfigError) as e:
        config_from_dict(data, SRC)
    message = str(e.value)
    assert message.startswith(f"{path}:"), message
    return message


@pytest.mark.parametrize("old, new, words", [
    ("[buzzer]", "[buzzers]", "unknown section [buzzers] in the pin map"),
    ("[bus.uart]", "[bus.serial]", "unknown bus [bus.serial]"),
    ("[bus.spi0]", "[spare]", "unknown section [spare]"),
    ("[bus.i2c]          # I2C1: operator OLED, seat-LED expander, Inky's ID EEPROM\nsda = 2\nscl = 3\n", "",
     "section [bus.i2c] is missing from the pin map; it holds GPIO numbers: sda, scl"),
    ("button_ok = 13\n", "", "buttons.button_ok is missing from the pin map"),
    ("buzzer = 26", "buzzer = [26]", "buzzer.buzzer = [26]: must be a BCM GPIO number from 0 to 27"),
    ("buzzer = 26", "buzzer = {pin = 26}", "buzzer.buzzer = {...}: must be a BCM GPIO number"),
    ("buzzer = 26", 'buzzer = "26"', 'buzzer.buzzer = "26": must be a BCM GPIO number'),
    ("buzzer = 26", "buzzer = true", "buzzer.buzzer = true: must be a BCM GPIO number"),
    ("sda = 2", "sda = 40", "bus.i2c.sda = 40: must be a BCM GPIO number from 0 to 27"),
    ("button_up = 5", "button_up = 5\nbuton_down = 6", "unknown key buttons.buton_down in the pin map"),
    ('seat_led_2 = "GPA1"', 'seat_led_2 = "GPC1"', 'seat_leds.seat_led_2 = "GPC1": allowed values are GPA0'),
    ('seat_led_2 = "GPA1"', 'seat_led_2 = "GPA0"', "seat_led_2 = \"GPA0\": already the port of seat_led_1"),
    ("i2c_address = 0x20", "i2c_address = 0x99", "seat_leds.i2c_address = 153: must be an integer from 0x03"),
])
def test_a_damaged_pin_map_names_the_pin_map_and_the_key(monkeypatch, tmp_path, old, new, words):
    assert old in PINOUT_TEXT
    message = pinout_error(monkeypatch, tmp_path, PINOUT_TEXT.replace(old, new, 1))
    assert words in message, message


@pytest.mark.parametrize("section, value, words", [
    ("buttons", 4, "buttons = 4: must be a table [buttons]"),
    ("bus", 3, "bus = 3: must be a table of buses"),
    ("seat_leds", ["GPA0"], 'seat_leds = ["GPA0"]: must be a table [seat_leds]'),
])
def test_a_pin_map_section_that_is_not_a_table(section, value, words):
    data = tomllib.loads(PINOUT_TEXT)
    data[section] = value
    with pytest.raises(ConfigError) as e:
        cfg.check_pinout(data, "pinout.toml")
    assert str(e.value).startswith(f"pinout.toml: {words}")


def test_a_binary_pin_map_names_the_pin_map(monkeypatch, tmp_path):
    message = pinout_error(monkeypatch, tmp_path, "", binary=b"\x00\xff" * 64)
    assert ":1: byte 0xFF (column 2) is not UTF-8 text: a pin map is a UTF-8 text file" in message


def test_a_conflict_written_in_the_pin_map_is_reported_against_the_pin_map(monkeypatch, tmp_path):
    message = pinout_error(monkeypatch, tmp_path, PINOUT_TEXT.replace("seat_button_1 = 4", "seat_button_1 = 5"))
    assert "the pin map gives GPIO 5 to both button_up and seat_buttons.seat_button_1" in message
    assert str(SRC) not in message
    message = pinout_error(monkeypatch, tmp_path, PINOUT_TEXT.replace("ce0 = 8", "ce0 = 2"))
    assert "GPIO 2 is written for both the I2C bus (sda" in message and "SPI0 bus (ce0)" in message


def test_a_conflict_made_by_the_configuration_stays_the_configuration_s():
    # [pins] moved seat_button_1 onto a pin the pin map gives to the buttons.
    assert error_of({**FULL, "pins": {"seat_button_1": 5}}) == \
        f"{SRC}: pins: GPIO 5 is used by both button_up and seat_button_1"
