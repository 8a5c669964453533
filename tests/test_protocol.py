"""The command language as a protocol: exported games read back to the same state, and
`corbeille script` prints the state as JSON or says exactly what is wrong (docs/protocol.md).
"""
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from props import props

from engines.core.errors import IllegalAction
from engines.maxibourse.actions import ACTIONS
from engines.maxibourse.game import MaxiBourse, snapshot
from firmware.script import ScriptError, device_roll, export_script, run_script
from mb_random import random_game

ROOT = Path(__file__).resolve().parent.parent
PICKS = ("UBS", "BP", "ELF", "ESSO", "FIAT")


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
    assert snapshot(again) == snapshot(game)
    assert export_script(again.header, again.log) == text  # exporting is stable


def test_export_keeps_the_header():
    header = {"game": "maxibourse", "format": "masters", "players": ["Ana", "Ben"], "seed": 42,
              "settings": {"payday": "manual", "rounds": 4, "vertical_bonus": "once"}}
    game = run_script(export_script(header, []))
    assert game.format == "masters" and game.seed == 42 and game.players == ["Ana", "Ben"]
    assert game.settings == {"payday": "manual", "vertical_bonus": "once", "rounds": 4, "dice": "physical"}


def test_undo_in_a_script_forgets_the_previous_action():
    text = started_script() + "roll 3 4\ntitre BP SONY\nundo\n"
    game = run_script(text)
    assert [a.kind for a in game.log[-1:]] == ["roll"]
    assert snapshot(game) == snapshot(run_script(started_script() + "roll 3 4\n"))


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
    assert snapshot(MaxiBourse.replay(first.header, first.log)) == snapshot(first)


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
    done = corbeille(tmp_path, text)
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


def test_script_error_for_an_action_not_possible_now_lists_the_allowed_ones(tmp_path):
    """Where the game has no reason of its own to give, the generic message: the action is
    not possible now, then what is."""
    text = started_script() + "settle\n"
    err = error_of(tmp_path, text)
    assert f"game.txt:{line_of(text, 'settle')}:" in err
    assert "settle is not possible now; allowed: " in err and "roll" in err and "sell" in err


@pytest.mark.parametrize("lines, message", [
    ("bid Jean 50\nbid Jean 100\n",
     "Jean already holds the high bid (50); player allowed: Marie"),
    ("bid Jean 50\nsold\nbuy Jean CEDARPINES\ninfluence Jean CEDARPINES +1\nbuy Jean CEDARPINES\n",
     "Jean has played an influence card: buying and selling are over for this turn; allowed now: adjust_cards, "
     "adjust_cash, adjust_certs, done, influence, set_marker"),
    ("bid Jean 50\nsold\nsell Jean CEDARPINES\n",
     "Jean holds no CEDARPINES certificate; allowed now: adjust_cards, adjust_cash, adjust_certs, buy, done, "
     "influence, set_marker"),
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
    ("seed x\nplayers Ana Ben\n", ["game.txt:1:", "seed takes one whole number"]),
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


def test_a_missing_file_is_reported(tmp_path):
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "script", str(tmp_path / "none.txt")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "none.txt" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("reason", ["card misread\nfixed by the table", "a\rb", "a\vb", "a\u2028b", "   "])
def test_a_reason_must_be_one_printable_line(reason):
    """A reason with a line break would be written on two lines by export_script: refused."""
    header = {"game": "maxibourse", "players": ["Ana", "Ben"], "seed": 0}
    game = MaxiBourse(header)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as refused:
        game.apply(ACTIONS.classes["adjust_cash"](0, +10_000, reason))
    assert refused.value.key == "error.text" and "one line of printable text" in str(refused.value)
    assert snapshot(game) == before and game.log == []


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
