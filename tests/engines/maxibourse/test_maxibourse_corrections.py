"""Maxi Bourse's corrections beside cash, lots, prices and nominals: whose turn it is, a pawn
on the board, the turns a player skips and the round under way; each in the history with its
reason, undone like any action, refused with nothing changed; and a position entered by
corrections equal to the same position played."""
import pytest

from engines.core.errors import IllegalAction
from maxibourse_helpers import play, started

PLAYERS = ["Ana", "Ben", "Cid"]


def state(game):
    return game.snapshot(), len(game.log)


def test_whose_turn_is_corrected_before_the_roll_and_the_round_goes_on_from_him():
    game = started(PLAYERS)
    events = play(game, 'set_turn Cid "Cid plays first"')
    assert game.decision().params["player"] == "Cid"
    assert events[-1].text("en") == "Correction Cid turn, instead of Ana: Cid plays first"
    before = state(game)
    with pytest.raises(IllegalAction, match="already Cid's turn"):
        play(game, 'set_turn Cid "x"')
    assert state(game) == before
    play(game, "roll 1 2")
    with pytest.raises(IllegalAction, match="at the start of a turn only"):
        play(game, 'set_turn Ana "x"')
    game.undo_to(before[1])
    assert state(game) == before


def test_pawn_skip_and_round_are_set_and_undone_with_no_money():
    game = started(PLAYERS)
    money = game.s.ledger.total()
    play(game, 'set_pawn Ben 7 "moved wrongly"', 'set_skip Ben 1 "fined, not entered"', 'set_round 3 "under way"')
    assert game.s.pawns[1] == 7 and game.s.skip[1] == 1 and game.s.round == 3
    assert game.snapshot()["players"][1]["skip_turns"] == 1 and game.s.ledger.total() == money
    before = state(game)
    with pytest.raises(IllegalAction, match="turns = 5 is not allowed"):
        play(game, 'set_skip Ben 5 "x"')
    assert state(game) == before
    play(game, 'set_skip Ben 0 "x"')
    game.undo()
    assert state(game) == before


def test_a_skipped_turn_set_by_correction_is_skipped():
    game = started(PLAYERS)
    play(game, 'set_skip Ben 1 "fined last turn"', "roll 1 2", "end")
    assert game.decision().params["player"] == "Cid" and game.s.skip[1] == 0


def test_a_position_entered_by_corrections_is_the_position_reached_by_play():
    played = started(PLAYERS)
    play(played, "roll 1 2", "end")
    entered = started(PLAYERS)
    play(entered, f'set_pawn Ana {played.s.pawns[0]} "under way"', 'set_turn Ben "under way"')
    keep = ("players", "companies")
    assert {k: entered.snapshot().get(k) for k in keep} == {k: played.snapshot().get(k) for k in keep}
    assert entered.decision().params["player"] == played.decision().params["player"] == "Ben"
    for game in (played, entered):
        play(game, "roll 2 4")
    assert {k: entered.snapshot().get(k) for k in keep} == {k: played.snapshot().get(k) for k in keep}
    assert entered.s.pawns == played.s.pawns
