"""Damaged inputs: every file and line the box reads, mutated, must be read or refused with
a message naming the file (and line or key), never a traceback, and a refusal must leave
the game as it was.

Categories: scripts (both games), configurations, pin maps, box files (both games, also
through a script's `box` line), RDM6300 frames and serial console lines. `make test`
draws a fixed (derandomised) sample of each; `make fuzz` draws FUZZ_SCALE times more with
fresh seeds and prints how many of each were tried and refused (tests/props.py `tried`).
docs/reliability.md "Input files" has the figures of a long run.
"""
import random
import re
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from props import props, tried

from drivers.events import InputEvent
from drivers.rfid import Rdm6300Decoder, rdm6300_frame
from drivers.serial_console import LineSplitter
from engines.core.actions import MAX_LINE_BYTES
from engines.core.errors import BoxFileError, CorbeilleError
from engines.core.files import read_text
from engines.dividends import random_play as dv_random
from engines.dividends.box import load_box as load_dv_box
from engines.maxibourse.box import load_box as load_mb_box
from firmware import config as cfg
from firmware.app import App, Hardware, Part
from firmware.config import ConfigError, config_from_dict, load_config
from firmware.controller import Controller
from firmware.script import ScriptError, export_script, run_script
from firmware.session import Session
from drivers.clock import ManualClock
from drivers.display import DummyDisplay
from maxibourse_random import random_game as mb_random_game

ROOT = Path(__file__).resolve().parents[2]
MB_BOX = ROOT / "engines" / "maxibourse" / "box" / "maxibourse.toml"
DV_BOX = ROOT / "engines" / "dividends" / "box" / "dividends.toml"


def _exported(kind: str, seed: int, actions: int) -> str:
    rng = random.Random(seed)
    if kind == "maxibourse":
        header, log, _ = mb_random_game(rng, players=4, fmt="junior", settings={}, max_actions=actions,
                                        corrections=True)
    else:
        header, log, _ = dv_random.random_game(rng, players=4, max_actions=actions, corrections=True)
    return export_script(header, log)


# The inputs mutated: the shipped examples and two exported random games (one per game).
SCRIPTS = [(ROOT / "examples" / "sony.txt").read_bytes(), (ROOT / "examples" / "twa.txt").read_bytes(),
           _exported("maxibourse", 3, 80).encode(), _exported("dividends", 4, 80).encode()]
EXAMPLE_CONFIG = ROOT / "firmware" / "corbeille.example.toml"
CONFIGS = [
    # the example with every setting switched on (as tests/firmware/test_config.py does)
    re.sub(rb"(?m)^#(?=\[|[a-z_0-9]+ = )", b"", EXAMPLE_CONFIG.read_bytes()),
    b'[game]\nplayers = ["Ana", "Ben", "Cid"]\nrounds = 3\n[operator]\ntype = "oled"\n[board]\ntype = "eink"\n'
    b'[seats]\ncount = 6\nleds = true\n[buzzer]\nenabled = true\n[rfid]\nenabled = true\n'
    b'[console]\nenabled = true\nport = "/dev/ttyGS0"\n[pins]\nbuzzer = 27\n',
]
PINOUT = cfg.REPO_PINOUT.read_bytes()
FULL = {"operator": {"type": "oled"}, "board": {"type": "eink"}, "seats": {"count": 6, "leds": True},
        "buzzer": {"enabled": True}, "rfid": {"enabled": True}, "console": {"enabled": True, "port": "/dev/ttyGS0"}}
BOXES = [(MB_BOX.read_bytes(), load_mb_box, "maxibourse"), (DV_BOX.read_bytes(), load_dv_box, "dividends")]

# Pieces a mutation writes: bytes that are not UTF-8, digits of other scripts, huge numbers,
# quotes, comments, line breaks of every kind, over-long lines, header lines, TOML values
# of every type.
PIECES = [
    b"\xff", b"\xe9", b"\xc3", b"\x00", "²".encode(), "١٢".encode(), "Ａ".encode(), b"9" * 5000, b"-1", b"0",
    b"1_000", b"+60", b'"', b"'", b"\\", b"#", b"\n", b"\r", b"\r\n", b"\x0b", b"\x1c", "\u2028".encode(),
    b" ", b"\t", b"\xef\xbb\xbf", b"x" * (MAX_LINE_BYTES + 1), b"undo", b"roll", b"game dividends",
    b"game maxibourse", b"game x", b"players A a", b"players A B", b"box /tmp", b"box /dev/null",
    b"box /nonexistent.toml", b"set rounds 1000", b"set rounds 999", b"seed 1", b"format masters",
    b'"x"', b"5", b"true", b"[1, 2]", b"{a = 1}", b"3.5", b'""', b"0x99", b"1979-05-27", b"[]", b'"GPA9"',
    b"28", b"[x]", b"[[x]]", b"=", b"[" * 3000, b'"mcp23017"', b'"/dev/serial0"', b'["Ana", "ana"]', b'["A#"]',
    b'"eink"', b'"oled"', b'"spi"', b"6", b"1000", b'"~nobody-here/x"', b"inf", b"nan",
]
OPS = ("replace", "insert", "delete", "drop_line", "dup_line", "swap_lines", "new_line", "word", "value")
edits = st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 2**31), st.sampled_from(PIECES)),
                 min_size=1, max_size=6)


def mutate(data: bytes, ops) -> bytes:
    """Apply the edits, each at a position drawn from its number (so shrinking works)."""
    for op, n, piece in ops:
        lines = data.split(b"\n")
        i = n % (len(lines) or 1)
        if op == "replace":
            at = n % (len(data) or 1)
            data = data[:at] + piece + data[at + 1 + n % 8:]
        elif op == "insert":
            at = n % (len(data) + 1)
            data = data[:at] + piece + data[at:]
        elif op == "delete":
            at = n % (len(data) or 1)
            data = data[:at] + data[at + 1 + n % 20:]
        elif op == "drop_line":
            data = b"\n".join(lines[:i] + lines[i + 1:])
        elif op == "dup_line":
            data = b"\n".join(lines[:i + 1] + lines[i:])
        elif op == "swap_lines":
            j = (n // 7) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif op == "new_line":
            data = b"\n".join(lines[:i] + [piece] + lines[i:])
        elif op == "word":                  # one word of a line: an argument, a name, a number
            words = lines[i].split(b" ")
            words[(n // 7) % len(words)] = piece
            lines[i] = b" ".join(words)
            data = b"\n".join(lines)
        elif op == "value":                 # the value of a `key = value` line (TOML)
            keyed = [k for k, line in enumerate(lines) if b" = " in line and not line.startswith(b"#")]
            if keyed:
                k = keyed[n % len(keyed)]
                lines[k] = lines[k].split(b" = ")[0] + b" = " + piece
                data = b"\n".join(lines)
    return data


def snapshot_of(game):
    return game.snapshot(), len(game.log)


def assert_names(message: str, path) -> None:
    assert message.startswith(f"{path}:"), message
    assert "Traceback" not in message


# ------------------------------------------------------------------ scripts
def check_script(path: Path) -> bool:
    """Read and run a script file as `corbeille script` does; True if it was refused.
    A refused line must leave the game as the previous line left it."""
    seen = {}

    def record(game, act):
        seen["game"], seen["state"] = game, snapshot_of(game)
    try:
        run_script(read_text(path, "script", CorbeilleError), str(path), on_action=record)
        return False
    except CorbeilleError as error:
        assert_names(str(error), path)
        if isinstance(error, ScriptError) and "game" in seen:
            assert snapshot_of(seen["game"]) == seen["state"], f"line {error.line} changed the game"
        return True


@props(25)
@given(script=st.sampled_from(SCRIPTS), ops=edits)
@example(script=SCRIPTS[0], ops=[("word", 5 * 7 + 9, "²".encode())])
@example(script=SCRIPTS[0], ops=[("new_line", 3, b"9" * 5000)])
@example(script=SCRIPTS[2], ops=[("new_line", 2, b"box /tmp")])
@example(script=SCRIPTS[3], ops=[("replace", 10, b"\xff")])
def test_mutated_scripts_are_run_or_refused_at_a_line(tmp_path_factory, script, ops):
    path = tmp_path_factory.mktemp("script") / "game.txt"
    path.write_bytes(mutate(script, ops))
    tried("scripts", check_script(path))


# ---------------------------------------------------------- configurations
@props(25)
@given(text=st.sampled_from(CONFIGS), ops=edits)
@example(text=CONFIGS[1], ops=[("value", 0, b'["Ana", "ana"]')])
@example(text=CONFIGS[0], ops=[("value", 0, b'"~nobody-here/x"')])
def test_mutated_configurations_load_or_name_the_file_and_key(tmp_path_factory, text, ops):
    path = tmp_path_factory.mktemp("config") / "corbeille.toml"
    path.write_bytes(mutate(text, ops))
    try:
        load_config(path)
        refused = False
    except ConfigError as error:
        assert_names(str(error), path)
        refused = True
    tried("configurations", refused)


CONFIG_KEYS = sorted({key for keys in cfg.SCHEMA.values() for key in keys} | {"buzzer", "button_up", "colour"})
CONFIG_VALUES = st.one_of(
    st.booleans(), st.integers(-2**63, 2**63 - 1), st.integers(0, 30), st.floats(), st.text(max_size=8),
    st.lists(st.text(max_size=4), max_size=3), st.just({}),
    st.sampled_from(["oled", "eink", "inky", "spi", "encoder", "/dev/serial0", "/dev/ttyGS0", "~nobody-here/x",
                     "/tmp/\x00", "dividends", ["Ana", "ana"], ["Ana", "Ben"], 6, 999, 1000, 0x20]))


@props(60)
@given(data=st.dictionaries(st.sampled_from([*cfg.SCHEMA, "pins", "sound"]),
                            st.one_of(st.dictionaries(st.sampled_from(CONFIG_KEYS), CONFIG_VALUES, max_size=4),
                                      CONFIG_VALUES), max_size=5))
@example(data={"state": {"dir": "~nobody-here/x"}})
@example(data={"game": {"players": ["Ana", "ana"]}})
def test_configuration_values_of_every_type_are_checked_naming_the_key(data):
    """Parsed configurations with values of every TOML type in every key: accepted, or
    refused naming the file and the section or key."""
    source = Path("/etc/corbeille/corbeille.toml")
    try:
        config_from_dict(data, source)
        refused = False
    except ConfigError as error:
        message = str(error)
        assert_names(message, source)
        assert re.match(rf"{re.escape(str(source))}: (unknown (key|section) )?\[?(\w+(\.\w+)?)\]?", message), message
        refused = True
    tried("configuration values", refused)


# ------------------------------------------------------------------ pin maps
@props(25)
@given(ops=edits)
@example(ops=[("value", 3, b'"26"')])
@example(ops=[("value", 3, b"[26]")])
@example(ops=[("drop_line", 30, b"")])
def test_mutated_pin_maps_load_or_name_the_pin_map_and_key(tmp_path_factory, ops):
    path = tmp_path_factory.mktemp("pinout") / "pinout.toml"
    path.write_bytes(mutate(PINOUT, ops))
    try:
        config_from_dict(FULL, Path("/etc/corbeille/corbeille.toml"), pinout_file=path)
        refused = False
    except ConfigError as error:     # no [pins] in FULL: every problem is the pin map's
        assert_names(str(error), path)
        refused = True
    tried("pin maps", refused)


# --------------------------------------------------------------- box files
@props(25)
@given(box=st.sampled_from(BOXES), ops=edits)
@example(box=BOXES[0], ops=[("value", 1, b"[1, 2]")])
@example(box=BOXES[1], ops=[("value", 4, b"{a = 1}")])
def test_mutated_box_files_load_or_name_the_file_and_key(tmp_path_factory, box, ops):
    """A box file read on its own, then by a script's `box` line: a refusal names the
    box file, and the script's error points at the `box` line."""
    text, load, game = box
    folder = tmp_path_factory.mktemp("box")
    path = folder / "box.toml"
    path.write_bytes(mutate(text, ops))
    try:
        load(path)
        refused = False
    except BoxFileError as error:
        assert_names(str(error), path)
        refused = True
    tried("box files", refused)
    script = SCRIPTS[2] if game == "maxibourse" else SCRIPTS[3]
    lines = script.decode().splitlines()
    header_end = next(i for i, line in enumerate(lines) if line.startswith("seed"))
    lines.insert(header_end + 1, f"box {path}")
    with_box = folder / "game.txt"
    with_box.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if refused:
        with pytest.raises(ScriptError) as error:
            run_script(with_box.read_text(encoding="utf-8"), str(with_box))
        assert error.value.line == header_end + 2 and str(path) in error.value.message, str(error.value)
    else:
        check_script(with_box)


# ----------------------------------------------------------- serial frames
TAGS = ["0A1B2C3D4E", "0000000001", "FFFFFFFFFF"]


@props(40)
@given(chunks=st.lists(st.one_of(st.binary(max_size=20), st.sampled_from([rdm6300_frame(t) for t in TAGS]),
                                 st.sampled_from([b"\x02", b"\x03", b"\x020A1B2C3D4E", b"\x02" + b"F" * 12])),
                       max_size=20),
       cuts=st.lists(st.integers(1, 16), max_size=10))
def test_rfid_frames_give_only_real_tags_and_never_change_the_game(chunks, cuts):
    """Noise, cut frames and real frames, fed in arbitrary pieces: the decoder gives only
    tags whose whole frame was received, and the box shows them without touching the game."""
    data = b"".join(chunks)
    decoder, tags, at = Rdm6300Decoder(), [], 0
    for cut in cuts + [len(data)]:
        tags += decoder.feed(data[at:at + cut])
        at += cut
    for tag in tags:
        assert len(tag) == 10 and rdm6300_frame(tag) in data
    app = console_app()
    before = snapshot_of(app.controller.session.game)
    for n, tag in enumerate(tags):
        app.step(InputEvent("rfid", "tag", 1.0 + n, tag))
    assert snapshot_of(app.controller.session.game) == before
    tried("rfid frames", not tags)


class Console:
    """The serial console part, recording what the box answers."""

    def __init__(self):
        self.replies = []

    def write_line(self, text):
        self.replies.append(text)
        return True


def console_app():
    from maxibourse_helpers import started
    c = Controller(None)
    c.attach(Session(started(["Ana", "Ben", "Cid"])))
    hw = Hardware(operator=DummyDisplay(), console=Console(), parts=[Part("display", None)])
    app = App(c, hw, clock=ManualClock(), strict=True)     # strict: any exception fails the test
    app.refresh()
    return app


CONSOLE_LINES = [b"roll 3 4", b"roll", b"titre BP SONY", b"declare Ana 1", b"sell Ana UBS 1", b"key ok",
                 b"key seat2 press", b"key down long", b"screen", b"state", b"undo", b"end", b"settle",
                 b"adjust_cash Ana +10000 'a reason'", b"set_price SONY 400 fix"]


@props(40)
@given(lines=st.lists(st.sampled_from(CONSOLE_LINES), min_size=1, max_size=8), ops=edits,
       cuts=st.lists(st.integers(1, 64), max_size=10))
@example(lines=[b"key seat\xc2\xb2 press"], ops=[("insert", 0, b"")], cuts=[])
@example(lines=[b"roll 3 4"], ops=[("word", 7, "²".encode())], cuts=[])
@example(lines=[b"key ok"], ops=[("insert", 0, b"x" * 2000)], cuts=[3])
@example(lines=[b"roll 3 4"], ops=[("new_line", 0, b"x" * (MAX_LINE_BYTES + 1)), ("replace", 1, b"\xff")],
         cuts=[])                          # 1 024 bytes, one of them bad: decoded with U+FFFD, 1 026
def test_console_lines_are_answered_and_a_refusal_changes_nothing(lines, ops, cuts):
    """Mutated command lines over the serial link: split by the driver (lines over the
    limit dropped), answered by the box; the game changes only on `ok`."""
    data = mutate(b"\r\n".join(lines) + b"\r\n", ops)
    splitter = LineSplitter(MAX_LINE_BYTES)
    received, at = [], 0
    for cut in cuts + [len(data)]:
        received += splitter.feed(data[at:at + cut])
        at += cut
    app = console_app()
    console = app.hw.console
    for n, line in enumerate(received):
        assert len(line.encode("utf-8")) <= MAX_LINE_BYTES
        before = snapshot_of(app.controller.session.game)
        app.step(InputEvent("console", "line", 1.0 + n, line))
        reply = console.replies[-1] if console.replies else ""
        head = (line.split() or [""])[0].lower()
        refused = reply != "ok" and head not in ("screen", "state")
        if refused:
            assert snapshot_of(app.controller.session.game) == before, (line, reply)
        tried("console lines", refused)
        console.replies.clear()


def test_a_unicode_seat_digit_on_the_console_is_refused_not_an_internal_error():
    app = console_app()
    before = snapshot_of(app.controller.session.game)
    screen = app.controller.screen()
    app.step(InputEvent("console", "line", 1.0, "key seat² press"))
    assert app.hw.console.replies == ["key NAME [long|down|up]: NAME is up, down, ok, back or seat1, seat2...; "
                                      "got 'seat² press'"]
    assert snapshot_of(app.controller.session.game) == before and app.controller.screen() == screen


def test_the_fuzzed_inputs_are_valid_before_they_are_damaged(tmp_path):
    """Mutations start from inputs the box reads without complaint."""
    for n, text in enumerate(CONFIGS):
        (tmp_path / f"{n}.toml").write_bytes(text)
        load_config(tmp_path / f"{n}.toml")
    config_from_dict(FULL)
    for script in SCRIPTS:
        run_script(script.decode(), "seed.txt")
    load_mb_box(MB_BOX)
    load_dv_box(DV_BOX)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    from engines.core.files import MAX_BYTES
    path = tmp_path / "huge.txt"
    with open(path, "wb") as f:                 # sparse: the size without the bytes
        f.truncate(MAX_BYTES + 1)
    with pytest.raises(CorbeilleError) as refused:
        read_text(path, "script", CorbeilleError)
    assert str(refused.value) == (f"{path}: {MAX_BYTES + 1} bytes is too big for a script (at most {MAX_BYTES}); "
                                  "check that it is the right file")
