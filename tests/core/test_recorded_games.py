"""Every recorded game (tests/recorded_games.py) replays to the state it was recorded with.

This is the safety net of refactors that must change no rule: if one fails, the message
names the game and the first key of its final state that differs. Remake the records
(`python -m tests.recorded_games`) only for a deliberate change of a rule, said in the commit.
"""
import pytest

from firmware.script import run_script
from tests.recorded_games import GAMES, _snapshot, as_now, first_difference, load, plan, without_later_corrections

RECORDS = [(name, row) for name in GAMES for row in load(name)]
_PLAYED = {}    # (game, index) -> its script's game, until the second test below reads it


def played(name, row):
    """The game a record's script plays: both replay tests read it (neither changes it), so
    the script is run once for the two of them when they run in the same process."""
    key = (name, row["index"])
    game = _PLAYED.pop(key, None)
    if game is None:
        game = _PLAYED[key] = run_script(row["script"], f"recorded {name} #{row['index']}")
    return game


def test_the_records_cover_every_game_and_player_count():
    from engines.dividends.game import MAX_PLAYERS, MIN_PLAYERS

    counts = {name: set() for name in GAMES}
    for name, row in RECORDS:
        players = next(line for line in row["script"].splitlines() if line.startswith("players "))
        counts[name].add(len(players.split()) - 1)
    assert counts["maxibourse"] == set(range(2, 7))
    assert counts["dividends"] == set(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    assert len(RECORDS) == len(plan()) > 250
    scripts = [row["script"] for _, row in RECORDS]
    assert sum("\nundo\n" in s for s in scripts) > 100  # undos in the middle of games
    assert sum("cash-poor start" in s for s in scripts) == len(scripts) // 2


@pytest.mark.parametrize("name,row", RECORDS, ids=[f"{name}-{row['index']}" for name, row in RECORDS])
def test_a_recorded_game_replays_to_its_recorded_state(name, row):
    game = played(name, row)
    difference = first_difference(as_now(name, row["snapshot"]), without_later_corrections(name, _snapshot(game)))
    assert difference is None, f"{name} #{row['index']}: {difference}"


@pytest.mark.parametrize("name,row", RECORDS, ids=[f"{name}-{row['index']}" for name, row in RECORDS])
def test_a_recorded_game_replays_the_same_without_the_check(name, row):
    """A resume replays the journal's actions without the decision check (they were checked
    when first applied): the same state as the recorded one, undos included."""
    game = played(name, row)
    log = [game.ACTIONS.from_json(a.to_json()) for a in game.log]
    again = type(game).replay(game.header, log, checked=False)
    difference = first_difference(as_now(name, row["snapshot"]), without_later_corrections(name, _snapshot(again)))
    assert difference is None, f"{name} #{row['index']}: {difference}"


def test_a_changed_amount_is_named_by_its_key():
    recorded = {"players": [{"cash": 100, "lots": {"A": 1}}]}
    assert first_difference(recorded, {"players": [{"cash": 90, "lots": {"A": 1}}]}) == \
        "/players[0]/cash: recorded 100, now 90"
