"""A Vendre!'s corrections beside cash, pawns and titles: loans, the trip of the double game,
the bank's owner and whose turn it is; each in the history with its reason, undone like any
action, refused with nothing changed, accepted during a shop auction; and a position entered
by corrections equal to the same position played."""
import pytest

from avendre_helpers import new_game, prompt
from engines.core.errors import IllegalAction
from game_helpers import play


def state(game):
    return game.snapshot(), len(game.log)


def refused(game, line, key):
    before = state(game)
    with pytest.raises(IllegalAction) as error:
        play(game, line)
    assert error.value.key == key, str(error.value)
    assert state(game) == before
    return error.value


def test_loans_are_recorded_and_cancelled_with_no_cash_and_count_at_the_settlement():
    game = new_game()
    cash = [game.cash(s) for s in range(-1, 3)]
    fortune = game.fortunes()[2]
    events = play(game, 'adjust_loans Cid +2 "two loans nobody recorded"')
    assert game.snapshot()["players"][2]["loans"] == 2 and game.snapshot()["players"][2]["loans_owed"] == 2200
    assert events[-1].text("en") == "Correction Cid loans 2: two loans nobody recorded"
    assert [game.cash(s) for s in range(-1, 3)] == cash and game.fortunes()[2] == fortune - 2200   # AV13
    before = state(game)
    play(game, 'adjust_loans Cid -1 "one was repaid"')
    assert game.snapshot()["players"][2]["loans"] == 1
    game.undo()
    assert state(game) == before
    refused(game, 'adjust_loans Cid -3 "x"', "error.av.loans_held")


def test_the_bank_owner_is_set_and_cleared_and_takes_a_quarter_of_the_bank():
    game = new_game()
    play(game, 'set_bank_owner Ben "Ben bought the bank"')
    assert game.snapshot()["bank"]["owner"] == "Ben"
    refused(game, 'set_bank_owner Ben "x"', "error.av.bank_owner_same")
    play(game, 'clear_bank_owner "nobody bought it"')
    assert game.snapshot()["bank"]["owner"] is None
    refused(game, 'clear_bank_owner "x"', "error.av.bank_owner_none")


def test_the_trip_of_the_double_game_sets_the_titles_needed():
    game = new_game(mode="double")
    assert game.needed(0) == 3
    play(game, 'set_trip Ana 2 "restarted, not entered"')
    assert game.s.trips[0] == 2 and game.needed(0) == 6
    assert "set_trip" not in {o.kind for o in new_game(mode="simple").decision().options}    # one trip


def test_whose_turn_is_corrected_at_the_start_of_a_turn_only():
    game = new_game()
    play(game, 'set_turn Cid "Cid sits there"')
    assert game.decision().params["player"] == "Cid"
    refused(game, 'set_turn Cid "x"', "error.turn_same")
    play(game, "roll 3")
    refused(game, 'set_turn Ana "x"', "error.turn_not_start")


def test_a_correction_during_a_shop_auction():
    game = new_game()
    play(game, 'give_title Ana 1 "x"', 'give_title Ana 32 "x"', f'adjust_cash Ana -{game.cash(0)} "x"', "roll 3",
         "auction_shop Ana 1")
    assert prompt(game) == "prompt.av.shop_auction_open"
    half = game.title("1").pa // 2
    play(game, f"bid Ben {half + 50}")
    play(game, 'adjust_loans Cid +1 "x"', 'adjust_cash Cid +100 "x"')
    assert prompt(game) == "prompt.av.shop_auction" and game.step.auction.high == half + 50


def test_a_position_entered_by_corrections_is_the_position_reached_by_play():
    played = new_game()
    play(played, "roll 3", "card_none Ana")         # Ana pays the rent of square 3, draws a card that says nothing
    entered = new_game()
    for s in range(3):
        delta = played.cash(s) - entered.cash(s)
        if delta:
            play(entered, f'adjust_cash {entered.players[s]} {delta:+d} "under way"')
    play(entered, f'set_pawn Ana {played.s.track.positions[0]} "under way"')
    for name in range(1, 44):
        owner = played.owner(str(name))
        if owner >= 0:
            play(entered, f'give_title {entered.players[owner]} {name} "under way"')
    play(entered, 'set_turn Ben "under way"')
    keep = ("players", "bank")
    assert {k: entered.snapshot()[k] for k in keep} == {k: played.snapshot()[k] for k in keep}
    assert entered.decision().params["player"] == played.decision().params["player"] == "Ben"
    for game in (played, entered):                 # and both play on alike
        play(game, "roll 4")
    assert {k: entered.snapshot()[k] for k in keep} == {k: played.snapshot()[k] for k in keep}
