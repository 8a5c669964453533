"""Dividends' corrections beside cash, certificates, cards and markers: whose turn it is in
the year's turn order, and the year under way; each in the history with its reason, undone
like any action, refused with nothing changed, accepted during the turn-order auction; and a
position entered by corrections equal to the same position played."""
import pytest

from dividends_helpers import new_game, play, roll_keeping_markers, step, to_actions
from engines.core.errors import IllegalAction

PLAYERS = ["Ana", "Ben", "Cid"]


def state(game):
    return game.snapshot(), len(game.log)


def test_whose_turn_moves_the_year_on_to_him_before_he_trades():
    game = new_game(PLAYERS)
    to_actions(game)
    events = play(game, 'set_turn Cid "Ana and Ben played at the table"')
    assert game.decision().params["player"] == "Cid"
    assert events[-1].text("en") == "Correction Cid turn, instead of Ana: Ana and Ben played at the table"
    before = state(game)
    company = game.decision().option("buy").fields["company"].values[0]
    play(game, f"buy Cid {company}")
    with pytest.raises(IllegalAction, match="at the start of a turn only"):
        play(game, 'set_turn Ana "x"')
    game.undo()
    assert state(game) == before
    play(game, "done Cid")
    assert step(game) != "actions"            # Cid was the last of the year's order


def test_whose_turn_is_refused_outside_the_players_turns():
    game = new_game(PLAYERS)
    before = state(game)
    with pytest.raises(IllegalAction, match="at the start of a turn only"):
        play(game, 'set_turn Ben "x"')
    assert state(game) == before


def test_the_year_is_corrected_and_undone():
    game = new_game(PLAYERS)
    events = play(game, 'set_year 4 "three years played before the box"')
    assert game.s.year == 4 and events[-1].text("en").endswith(": three years played before the box")
    before = state(game)
    with pytest.raises(IllegalAction, match="year = 6 is not allowed"):
        play(game, 'set_year 6 "x"')
    assert state(game) == before
    play(game, 'set_year 5 "x"')
    game.undo()
    assert state(game) == before


def test_a_correction_during_the_turn_order_auction():
    game = new_game(PLAYERS)
    roll_keeping_markers(game)
    assert step(game) == "auction"
    play(game, "bid Ana 50", 'adjust_cash Ben +100 "x"', 'set_year 2 "x"')
    assert step(game) == "auction" and game.s.year == 2 and game.step.high_bid_of(0) == 50
    with pytest.raises(IllegalAction, match="at the start of a turn only"):
        play(game, 'set_turn Ben "x"')


def test_a_position_entered_by_corrections_is_the_position_reached_by_play():
    played = new_game(PLAYERS)
    to_actions(played)
    company = played.decision().option("buy").fields["company"].values[0]
    play(played, f"buy Ana {company}", "done Ana")
    entered = new_game(PLAYERS)
    to_actions(entered)
    play(entered, f'adjust_certs Ana {company} +1 "under way"',
         f'adjust_cash Ana {played.cash(0) - entered.cash(0):+d} "under way"',
         f'adjust_cards Ana -{entered.s.hands[0]} "handed back at the end of her turn"', 'set_turn Ben "under way"')
    keep = ("players", "companies")
    assert {k: entered.snapshot().get(k) for k in keep} == {k: played.snapshot().get(k) for k in keep}
    assert entered.decision().params["player"] == played.decision().params["player"] == "Ben"
    for game in (played, entered):
        play(game, "done Ben")
    assert {k: entered.snapshot().get(k) for k in keep} == {k: played.snapshot().get(k) for k in keep}
