"""The command language as a protocol: exported games read back to the same state, and
`corbeille script` prints the state as JSON or says exactly what is wrong (docs/protocol.md).
"""
import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from cli_helpers import call
from props import props

from engines.core.actions import MAX_LINE_BYTES, split_line
from engines.core.errors import IllegalAction, ProtocolError
from engines.maxibourse.actions import ACTIONS
from engines.maxibourse.game import MaxiBourse
from firmware.script import ScriptError, device_roll, export_script, run_script
from maxibourse_random import random_game

ROOT = Path(__file__).resolve().parents[2]
PICKS = ("UBS", "BP", "ELF", "ESSO", "FIAT")
MB_BOX = ROOT / "engines" / "maxibourse" / "box" / "maxibourse.toml"


def started_script(players=("Sophie", "Thierry", "Didier"), seed=7, fmt="junior", extra=()):
    """A script past the starting picks (junior: five lots each), `first` the first player."""
    lines = ["# a small game", "game maxibourse", f"format {fmt}", "players " + " ".join(players), f"seed {seed}",
             *extra]
    lines += [f"pick {p} {c}" for c in PICKS for p in players]
    lines.append(f"first {players[0]}")
    return "\n".join(lines) + "\n"


def corbeille(tmp_path, text, name="game.txt"):
    """Run `corbeille script FILE` as the owner would; returns the completed process."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "firmware.cli", "script", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


# ------------------------------------------------------------ round trips
@props(12)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), fmt=st.sampled_from(["junior", "senior", "masters"]),
       options=st.sampled_from([{}, {"payday": "manual"}, {"rounds": 2}, {"vertical_bonus": "once", "dice": "device"}]))
def test_exported_random_games_read_back_to_the_same_state(seed, players, fmt, options):
    rng = random.Random(seed)
    header, actions, game = random_game(rng, players=players, fmt=fmt, settings=options, max_actions=200,
                                        corrections=rng.random() < 0.3)
    text = export_script(header, actions)
    again = run_script(text, "export.txt")
    assert again.log == actions
    assert again.snapshot() == game.snapshot()
    assert export_script(again.header, again.log) == text  # exporting is stable


def test_export_keeps_the_header():
    header = {"game": "maxibourse", "format": "masters", "players": ["Ana", "Ben"], "seed": 42,
              "settings": {"payday": "manual", "rounds": 4, "vertical_bonus": "once"}}
    game = run_script(export_script(header, []))
    assert game.format == "masters" and game.seed == 42 and game.players == ["Ana", "Ben"]
    assert game.settings == {"payday": "manual", "vertical_bonus": "once", "rounds": 4, "dice": "physical",
                             "picks": "chosen"}


def test_undo_in_a_script_forgets_the_previous_action():
    text = started_script() + "roll 3 4\ntitre BP SONY\nundo\n"
    game = run_script(text)
    assert [a.kind for a in game.log[-1:]] == ["roll"]
    assert game.snapshot() == run_script(started_script() + "roll 3 4\n").snapshot()


# ----------------------------------------------------------- device dice
def test_roll_without_dice_is_filled_from_the_seed_and_recorded():
    text = started_script(seed=11) + "roll\n"
    first, second = run_script(text), run_script(text)
    rolled = first.log[-1]
    assert rolled == second.log[-1]
    assert rolled.kind == "roll" and 1 <= rolled.d1 <= 6 and 1 <= rolled.d2 <= 6
    assert (rolled.d1, rolled.d2) == device_roll(11, len(first.log) - 1)
    # the dice are in the history: the exported script has them and replays without rolling
    exported = export_script(first.header, first.log)
    assert exported.splitlines()[-1] == f"roll {rolled.d1} {rolled.d2}"
    assert MaxiBourse.replay(first.header, first.log).snapshot() == first.snapshot()


def test_device_dice_depend_on_the_seed_and_the_moment():
    rolls = {device_roll(seed, 16) for seed in range(30)}
    assert len(rolls) > 10  # not a constant
    assert {device_roll(5, i) for i in range(30)} != {device_roll(5, 16)}
    assert all(1 <= d <= 6 for r in rolls for d in r)


# ---------------------------------------------------- corbeille script
def test_corbeille_script_prints_the_state_as_json(tmp_path):
    done = corbeille(tmp_path, started_script() + "roll 3 4\ntitre SONY\ndeclare Sophie 1\nsettle\n")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    for key in ("players", "companies", "turn", "pending"):
        assert key in state
    assert [p["name"] for p in state["players"]] == ["Sophie", "Thierry", "Didier"]
    for player in state["players"]:
        assert {"name", "cash", "lots", "wealth", "status"} <= set(player)
        assert player["status"] == "playing"
    sophie = state["players"][0]
    assert sophie["lots"]["SONY"] == 1 and sophie["cash"] == 5_000_000 - 300_000  # au cours at the nominal 300
    assert sophie["wealth"] == sophie["cash"] + sum(n * 1000 * state["companies"][c]["price"]
                                                    for c, n in sophie["lots"].items())
    for company in state["companies"].values():
        assert {"price", "bank_lots"} <= set(company)
    assert state["companies"]["SONY"] == {**state["companies"]["SONY"], "price": 300, "bank_lots": 9}
    assert state["turn"] == "Sophie"
    assert {"prompt", "actor", "options"} <= set(state["pending"])


def test_corbeille_script_reads_standard_input():
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "script", "-"], cwd=ROOT, input=started_script(),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["turn"] == "Sophie"


def error_of(tmp_path, text):
    """What `corbeille script FILE` says of a script it refuses."""
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    done = call("script", path)
    assert done.returncode != 0 and done.stdout == ""
    assert "Traceback" not in done.stderr, done.stderr
    return done.stderr


def line_of(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(needle))


def test_script_error_names_the_line_what_is_wrong_and_what_is_allowed(tmp_path):
    text = started_script() + "roll 3 4\ntitre SONY\ndeclare Sophie 1\nsettle\ndeclare Thierry 3\nend\n"
    err = error_of(tmp_path, text)
    assert f"game.txt:{line_of(text, 'declare Thierry 3')}:" in err
    assert "declare Thierry 3" in err  # the offending line is shown
    assert "lots = 3" in err and "allowed" in err and "0, 1, 2" in err


def test_script_error_for_an_action_not_possible_now_names_when_it_is_then_what_is_allowed(tmp_path):
    """An action its decision does not offer: the rule of when it is possible (the game's
    catalog), then what is allowed now."""
    text = started_script() + "settle\n"
    err = error_of(tmp_path, text)
    assert f"game.txt:{line_of(text, 'settle')}:" in err
    assert "settle: the buyers pay only at the settlement, once the lots are shared out (MB5); allowed now: " in err
    assert "roll" in err and "sell" in err


@pytest.mark.parametrize("lines, message", [
    ("bid Jean 50\nbid Jean 100\n",
     "Jean already holds the high bid ($50); player allowed: Marie"),
    ("bid Jean 50\nsold\nbuy Jean CEDARPINES\ninfluence Jean CEDARPINES +1\nbuy Jean CEDARPINES\n",
     "Jean has played an influence card: buying and selling are over for this turn; allowed now: adjust_cards, "
     "adjust_cash, adjust_certs, done, influence, set_marker, set_turn, set_year"),
    ("bid Jean 50\nsold\nsell Jean CEDARPINES\n",
     "Jean holds no CEDARPINES certificate; allowed now: adjust_cards, adjust_cash, adjust_certs, buy, done, "
     "influence, set_marker, set_turn, set_year"),
])
def test_script_error_says_the_rules_reason_first_then_what_is_allowed(tmp_path, lines, message):
    """A refused line says the rule that refuses it before the list of what is allowed
    (here Dividends: "Un joueur dont l'enchère a été dépassée peut surenchérir"; "Après
    l'achat et la vente de certificats d'action, le joueur dont c'est le tour peut jouer des
    cartes influence")."""
    text = "game dividends\nplayers Jean Marie\ndice +1 +1 +1\n" + lines
    err = error_of(tmp_path, text)
    assert f"game.txt:{len(text.splitlines())}: {message}\n" in err  # the refused line is the last


def test_script_error_for_an_unknown_player_names_the_players(tmp_path):
    text = started_script() + "sell Zoe UBS 1\n"
    err = error_of(tmp_path, text)
    assert f"game.txt:{line_of(text, 'sell Zoe')}:" in err
    assert "'Zoe' is not a player" in err and "Sophie, Thierry, Didier" in err


def test_script_error_for_an_unknown_company_lists_the_allowed_ones(tmp_path):
    text = started_script() + "sell Sophie NOPE 1\n"
    err = error_of(tmp_path, text)
    assert "company = NOPE is not allowed" in err and "allowed: UBS, BP, ELF, ESSO, FIAT" in err


def test_script_error_for_an_unknown_action_lists_the_known_ones(tmp_path):
    text = started_script() + "buy Sophie SONY 1\n"
    err = error_of(tmp_path, text)
    assert f"game.txt:{line_of(text, 'buy')}:" in err
    assert "unknown action 'buy'" in err
    for kind in ACTIONS.kinds():
        assert kind in err


@pytest.mark.parametrize("line,words", [
    ("sell Sophie UBS", ["sell takes", "PLAYER COMPANY LOTS"]),
    ("sell Sophie UBS two", ["lots must be a whole number", "'two'"]),
    ("price SONY 30", ["must be written with its sign", "+60"]),
    ('adjust_cash Sophie +10 "unclosed', ["No closing quotation"]),
])
def test_script_error_for_a_badly_written_line(tmp_path, line, words):
    err = error_of(tmp_path, started_script() + line + "\n")
    for word in words:
        assert word in err


@pytest.mark.parametrize("header,words", [
    ("format giant\nplayers Ana Ben\n", ["format = giant", "junior, senior, masters"]),
    ("game monopoly\nplayers Ana Ben\n", ["unknown game 'monopoly'", "maxibourse"]),
    ("players Ana\npick Ana SONY\n", ["1 players", "2 to 6"]),
    ("players Ana Ben Cid Dan Eve Fay Gus\n", ["7 players", "2 to 6"]),
    ("players Ana ana\n", ["unique"]),
    ("seed x\nplayers Ana Ben\n", ["game.txt:1:", "seed must be a whole number in digits 0-9, got 'x'"]),
    ("format junior\n", ["must name the players"]),
    ("players Ana Ben\nset payday weekly\n", ["payday = weekly", "each_round, manual"]),
    ("players Ana Ben\nset colour blue\n", ["colour", "payday"]),
])
def test_script_error_for_a_bad_header(tmp_path, header, words):
    err = error_of(tmp_path, header)
    assert "game.txt:" in err
    for word in words:
        assert word in err


def test_the_state_before_the_bad_line_is_what_a_script_would_have_reached(tmp_path):
    good = started_script() + "roll 3 4\n"
    with pytest.raises(ScriptError) as refused:
        run_script(good + "titre BP NOPE\n", "game.txt")
    assert refused.value.line == len(good.splitlines()) + 1
    assert "NOPE" in str(refused.value)


def test_a_missing_file_is_reported(tmp_path):  # exit 1, the file named
    done = call("script", tmp_path / "none.txt")
    assert done.returncode != 0 and "none.txt" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("reason", ["card misread\nfixed by the table", "a\rb", "a\vb", "a\u2028b", "   "])
def test_a_reason_must_be_one_printable_line(reason):
    """A reason with a line break would be written on two lines by export_script: refused."""
    header = {"game": "maxibourse", "players": ["Ana", "Ben"], "seed": 0}
    game = MaxiBourse(header)
    before = game.snapshot()
    with pytest.raises(IllegalAction) as refused:
        game.apply(ACTIONS.classes["adjust_cash"](0, +10_000, reason))
    assert refused.value.key == "error.text" and "one line of printable text" in str(refused.value)
    assert game.snapshot() == before and game.log == []


@pytest.mark.parametrize("text,line,message", [
    ("game maxibourse\nformat giant\nplayers A B\npick A SONY\n", 2, "format = giant is not allowed; allowed: junior, senior, masters"),
    ("players A B\nset payday weekly\n", 2, "payday = weekly is not allowed; allowed: each_round, manual"),
    ("players A\nformat junior\n", 1, "1 players: this game takes 2 to 6"),
    ('players A B\nadjust_cash A +10 "oops\n', 2, "cannot read the line: No closing quotation"),
])
def test_header_and_quoting_errors_point_at_their_line(text, line, message):
    with pytest.raises(ScriptError) as error:
        run_script(text, "game.txt")
    assert error.value.line == line and message in error.value.message


# ------------------------------------------------- reading a line (linear)

WORDS_ALPHABET = st.sampled_from(list("ab #'\"\\\t\r") + ["é", "²", " ", "\u00a0", "x y"])


@props(300)
@given(line=st.lists(WORDS_ALPHABET, max_size=30).map("".join))
@example(line="a#b 'c d'\"e\\\"f\" \\g")
@example(line="'' \"\" a''b")
@example(line='"a\\b" \\')
def test_split_line_reads_a_line_as_shlex_does(line):
    """One pass, the same words as shlex.split(comments=True) (the reference it is
    checked against); the same refusals for an open quote or a trailing backslash."""
    try:
        expected = shlex.split(line, comments=True)
    except ValueError:
        # the same refusal (shlex names a backslash at the end inside "..." differently)
        with pytest.raises(ProtocolError, match="No closing quotation|No escaped character"):
            split_line(line)
    else:
        assert split_line(line) == expected



def test_a_console_line_that_cannot_be_read_is_said_in_the_language_asked():
    from engines import game_class

    actions = game_class("maxibourse").ACTIONS
    with pytest.raises(ProtocolError) as refused:
        actions.parse('adjust_cash Ana +10 "oops', ["Ana", "Ben"])
    assert refused.value.message("en") == """cannot read 'adjust_cash Ana +10 "oops': No closing quotation"""
    assert refused.value.message("fr") == """'adjust_cash Ana +10 "oops' illisible : guillemet non refermé"""

@pytest.mark.parametrize("size", [MAX_LINE_BYTES + 1, 400_000, 5_000_000])
def test_a_line_over_the_limit_is_refused_at_its_line(size):
    """docs/protocol.md: a line holds at most 1 024 bytes (the serial console's buffer)."""
    text = started_script() + "adjust_cash Sophie +10 " + "x" * (size - 23) + "\nroll 3 4\n"
    with pytest.raises(ScriptError) as refused:
        run_script(text, "long.txt")
    assert refused.value.line == len(started_script().splitlines()) + 1
    assert f"the line is {size} bytes long; a line holds at most 1024 bytes" in refused.value.message
    assert len(str(refused.value)) < 300           # the error shows the line's start, not all of it


def test_a_line_of_exactly_the_limit_is_read():
    reason = "r" * (MAX_LINE_BYTES - len("adjust_cash Sophie +10000 ''"))
    line = f"adjust_cash Sophie +10000 '{reason}'"
    assert len(line.encode()) == MAX_LINE_BYTES
    game = run_script(started_script() + line + "\n")
    assert game.log[-1].reason == reason


def test_the_limit_counts_bytes_not_characters():
    line = "adjust_cash Sophie +10000 '" + "é" * 600 + "'"     # 628 characters, 1 228 bytes
    with pytest.raises(ScriptError, match="1228 bytes long"):
        run_script(started_script() + line + "\n")


# ------------------------------------------------------------- numbers
@pytest.mark.parametrize("line, words", [
    ("roll 3 ²", "d2 must be a whole number in digits 0-9, got '²'"),
    ("roll ٣ 4", "d1 must be a whole number in digits 0-9, got '٣'"),
    ("roll 3 " + "4" * 5000, None),
    ("sell Sophie UBS " + "1" * 19, "lots: 19 digits is too many (at most 18)"),
    ("sell Sophie UBS 1__0", "must be a whole number in digits 0-9, got '1__0'"),
    ("price SONY +" + "6" * 30, "delta: 30 digits is too many"),
])
def test_numbers_are_ascii_digits_with_a_bound(line, words):
    text = started_script()
    game = run_script(text)
    with pytest.raises(ScriptError) as refused:
        run_script(text + line + "\n", "n.txt")
    assert refused.value.line == len(text.splitlines()) + 1
    assert words is None and "bytes long" in refused.value.message or words in refused.value.message
    assert "invalid literal" not in str(refused.value) and "Exceeds the limit" not in str(refused.value)
    assert game.snapshot() == run_script(text).snapshot()


@pytest.mark.parametrize("header, line, words", [
    ("players A B\nseed ²\n", 2, "seed must be a whole number in digits 0-9, got '²'"),
    ("players A B\nseed " + "7" * 19 + "\n", 2, "seed: 19 digits is too many (at most 18)"),
    ("players A B\nseed -3\n", None, None),
    ("players A B\nset rounds ²\n", 2, "setting rounds = ² is not allowed; allowed: 0 to 999"),
    ("players A B\nset rounds 1000\n", 2, "setting rounds = 1,000 is not allowed; allowed: 0 to 999"),
    ("players A B\nset rounds " + "9" * 40 + "\n", 2, "set rounds: 40 digits is too many"),
    ("players A B\nset rounds 999\n", None, None),
])
def test_header_numbers_are_checked_at_their_line(header, line, words):
    if line is None:
        run_script(header)
        return
    with pytest.raises(ScriptError) as refused:
        run_script(header, "h.txt")
    assert refused.value.line == line and words in refused.value.message


# ------------------------------------------ header errors at their own line
def test_an_unknown_game_is_refused_at_the_game_line():
    with pytest.raises(ScriptError) as refused:
        run_script("# x\ngame monopoly\nplayers A B\nroll 3 4\n")
    assert refused.value.line == 2 and "unknown game 'monopoly'; known: maxibourse, dividends" in refused.value.message


def test_an_action_of_another_game_says_which_game_the_header_chose():
    with pytest.raises(ScriptError) as refused:
        run_script("game dividends\nplayers A B C\nroll 3 4\n")
    assert refused.value.line == 3
    assert "unknown action 'roll'" in refused.value.message
    assert "the game is dividends, chosen at line 1" in refused.value.message


@pytest.mark.parametrize("make, words", [
    (lambda p: p.mkdir(), "is a folder, not a box file"),
    (lambda p: p.symlink_to("/dev/null"), "is a device or a pipe, not a box file"),
    (lambda p: p.write_bytes(b"verified = true\n\xff\n"), ":2: byte 0xFF (column 1) is not UTF-8 text"),
    (lambda p: p.write_text("lots_per_company = [\n"), "not valid TOML"),
    (lambda p: p.write_text(MB_BOX.read_text().replace("lots_per_company = 10", "lots_per_company = 0")),
     "lots_per_company: 0 is below the minimum 1"),
    (lambda p: None, "box file not found"),
])
def test_a_box_line_naming_something_unreadable_is_refused_at_the_box_line(tmp_path, make, words):
    path = tmp_path / "box.toml"
    make(path)
    text = f"game maxibourse\nplayers A B\nbox {path}\nseed 1\npick A SONY\n"
    with pytest.raises(ScriptError) as refused:
        run_script(text, "b.txt")
    assert refused.value.line == 3, str(refused.value)
    assert refused.value.message.startswith(f"{path}") and words in refused.value.message


# ------------------------------------------------- the file itself, by `corbeille script`
def script_error(tmp_path, data: bytes, name="game.txt"):
    path = tmp_path / name
    path.write_bytes(data)
    done = call("script", path)
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr, done.stderr
    return path, done.stderr


def test_a_latin1_script_names_the_file_and_line(tmp_path):
    path, err = script_error(tmp_path, "players Zoé Ana\n".encode("latin-1"))
    assert err == f"corbeille: {path}:1: byte 0xE9 (column 11) is not UTF-8 text: a script is a UTF-8 text " \
                  "file; save it as UTF-8 (or check that it is the right file)\n"


def test_a_binary_script_is_refused(tmp_path):
    path, err = script_error(tmp_path, bytes(range(256)) * 4, "game.bin")
    assert err.startswith(f"corbeille: {path}:2: byte 0x80")


def test_a_folder_given_as_script_is_refused(tmp_path):
    done = call("script", tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == f"corbeille: {tmp_path}: is a folder, not a script; give the path of the file itself\n"


def test_a_device_given_as_script_is_refused_without_reading_it():
    done = call("script", "/dev/zero")
    assert done.returncode == 1
    assert done.stderr == "corbeille: /dev/zero: is a device or a pipe, not a script; give the path of a text file\n"


def test_a_script_with_a_byte_order_mark_and_crlf_reads_as_the_same_game(tmp_path):
    text = started_script() + "roll 3 4\n"
    path = tmp_path / "windows.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    done = call("script", path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(run_script(text).snapshot()))


def test_standard_input_that_is_not_utf8_is_refused():
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "script", "-"], cwd=ROOT,
                          input=b"players A B\n\xff\n", capture_output=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.decode().startswith("corbeille: <stdin>:2: byte 0xFF (column 1) is not UTF-8 text")


# ------------------------------------------------------ corbeille box check
def box_check(*args):
    """`corbeille box check ARGS` (tests/core/test_smallest_box_files.py runs the real process)."""
    return call("box", "check", *args)


def test_box_check_reads_the_shipped_box_files():
    done = box_check(MB_BOX, "--game", "maxibourse")
    assert done.returncode == 0 and done.stdout.startswith(f"{MB_BOX}: a box file of Maxi Bourse, 40 companies")
    dv = ROOT / "engines" / "dividends" / "box" / "dividends.toml"
    done = box_check(dv, "--game", "dividends")
    assert done.returncode == 0 and "a box file of Dividends, 5 companies in play: CEDARPINES" in done.stdout


@pytest.mark.parametrize("name, holds", [("avendre", "known: 43 titles, 60 squares"),
                                         ("shark", "known: 120 map cells, 6 zones"),
                                         ("richesses", "known: 24 productions, 34 countries, 144 titles")])
def test_box_check_names_the_game_it_read_and_what_a_file_without_companies_holds(name, holds):
    """Without --game, the one game whose box file it can be, said so with how to choose."""
    path = ROOT / "engines" / name / "box" / f"{name}.toml"
    done = box_check(path)
    first, second = done.stdout.splitlines()[:2]
    assert done.returncode == 0 and ("companies" not in first) == (name != "shark")
    assert first.startswith(f"{path}: a box file of ") and f"(read as a box file of {name}: the only game" in first
    assert "--game maxibourse|dividends|avendre|shark|richesses says which game it is for" in first
    assert second.startswith(holds)
    done = box_check(path, "--game", name)
    assert "read as" not in done.stdout


def test_box_check_of_a_file_no_game_reads_says_the_game_it_was_read_as_and_asks_for_game(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text(f"lots_per_company = {2 ** 70}\n", encoding="utf-8")
    done = box_check(path)
    assert done.returncode == 1
    assert done.stderr == (f"corbeille: {path}: lots_per_company: {2 ** 70} is above the maximum 100, what the game "
                           "can hold; allowed: 1 to 100 (read as a box file of maxibourse: it fits no game as it is; "
                           "--game maxibourse|dividends|avendre|shark|richesses says which game it is for)\n"
                           "missing for the game to start: sectors\n")


@pytest.mark.parametrize("make, words", [
    (lambda p: p.mkdir(), "is a folder, not a box file; give the path of the file itself"),
    (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n"), ":1: byte 0x89 (column 1) is not UTF-8 text"),
    (lambda p: p.write_text(MB_BOX.read_text().replace("nominal = 300", "nominal = 350", 1)),
     "nominal: 350 is not allowed; allowed: 100, 200, 300"),
    (lambda p: None, "box file not found; check the path"),
])
def test_box_check_exits_1_naming_the_file(tmp_path, make, words):
    path = tmp_path / "mybox.toml"
    make(path)
    done = box_check(path)
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"corbeille: {path}") and words in done.stderr, done.stderr


@pytest.mark.parametrize("command", [["export"], ["replay"], ["script", str(ROOT / "examples" / "sony.txt")]])
def test_a_configuration_that_cannot_be_read_stops_a_command_with_its_name(tmp_path, command):
    config = tmp_path / "corbeille.toml"
    config.write_bytes(b"[game]\nplayers = [\"Zo\xe9\"]\n")
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "--config", str(config), *command], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    if command[0] == "script":      # a script does not read the configuration
        assert done.returncode == 0, done.stderr
        return
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"corbeille: {config}:2: byte 0xE9 (column 15) is not UTF-8 text")


def test_line_numbers_count_line_ends_as_an_editor_does():
    """A U+2028 or a form feed inside a line is not a line end: the next lines keep the
    numbers an editor shows."""
    text = "# note\u2028more\x0c\nplayers A B\nseed 1\npick A NOPE\n"
    with pytest.raises(ScriptError) as refused:
        run_script(text)
    assert refused.value.line == 4
    assert run_script("players A B\r\nseed 4\rpick A SONY\n").log[0].company == "SONY"


# ------------------------------------------------------ the command line's language and paths
def cli(*args, cwd=ROOT):
    """`corbeille ARGS` from `cwd`: from the project's folder in this process (cli_helpers.call),
    from any other in a process of its own, whose folder is what the test is about."""
    if cwd == ROOT:
        return call(*args)
    return subprocess.run([sys.executable, "-m", "firmware.cli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_lang_fr_says_a_scripts_refusal_in_french(tmp_path):
    text = started_script() + "settle\n"
    (tmp_path / "game.txt").write_text(text, encoding="utf-8")
    done = cli("--lang", "fr", "script", tmp_path / "game.txt")
    assert done.returncode == 1
    assert f"game.txt:{line_of(text, 'settle')}: settle : les acheteurs paient seulement au règlement" in done.stderr
    assert "possible maintenant : " in done.stderr
    done = cli("script", tmp_path / "game.txt")                       # English without --lang
    assert "settle: the buyers pay only at the settlement" in done.stderr


def test_a_scripts_box_file_is_read_beside_the_script_from_any_folder_and_exported_so(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "my-copy.toml").write_text(MB_BOX.read_text(encoding="utf-8"), encoding="utf-8")
    lines = started_script().splitlines()
    (folder / "game.txt").write_text("\n".join([*lines[:5], "box my-copy.toml", *lines[5:]]) + "\n", encoding="utf-8")
    journal = tmp_path / "journal.sqlite"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = cli("script", folder / "game.txt", "--journal", journal, cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    exported = cli("export", "--journal", journal, cwd=elsewhere)
    assert f"box {folder / 'my-copy.toml'}" in exported.stdout.splitlines()
    (tmp_path / "again.txt").write_text(exported.stdout, encoding="utf-8")
    again = cli("script", tmp_path / "again.txt", cwd=ROOT)          # from yet another folder
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(done.stdout)


def test_lang_fr_says_box_check_in_french(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text(f"lots_per_company = {2 ** 70}\n", encoding="utf-8")
    done = cli("--lang", "fr", "box", "check", path, "--game", "maxibourse")
    assert done.returncode == 1
    assert done.stderr == (f"corbeille: {path}: lots_per_company: {2 ** 70} dépasse le maximum 100, ce que le jeu "
                           "peut contenir ; possible : de 1 à 100\n"
                           "manque pour commencer la partie : sectors\n")
    done = cli("--lang", "fr", "box", "check", ROOT / "engines" / "shark" / "box" / "shark.toml")
    assert done.stdout.startswith(f"{ROOT / 'engines' / 'shark' / 'box' / 'shark.toml'} : un fichier de boîte de Shark, "
                                  "4 sociétés en jeu : RED, YELLOW, GREEN, BLUE (lu comme un fichier de boîte de shark")


def test_lang_fr_says_a_scripts_unreadable_lines_in_french(tmp_path):
    for line, said in (("roll 3", "action inconnue « roll » ; connues : dice, bid, "),
                       ("bid Zoe 50", "bid : joueur « Zoe » inconnu ; joueurs : Jean, Marie"),
                       ("bid", "bid prend bid PLAYER AMOUNT, reçu 0 argument")):
        (tmp_path / "game.txt").write_text(f"game dividends\nplayers Jean Marie\n{line}\n", encoding="utf-8")
        done = cli("--lang", "fr", "script", tmp_path / "game.txt")
        assert done.returncode == 1 and f"game.txt:3: {said}" in done.stderr, done.stderr
        assert line != "roll 3" or "(le jeu est dividends, choisi à la ligne 1)" in done.stderr
