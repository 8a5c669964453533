"""Shark's corrections beside cash and shares: the map (a building put, removed or moved, the
counts and values following by SH2 with no bonus and no payment), the value without the grid,
whose turn it is; each in the history with its reason, undone like any action, refused with
nothing changed; and a position entered by corrections equal to the same position played."""
import pytest

from engines.core.actions import cell_text
from engines.core.errors import IllegalAction
from shark_helpers import act, new_game, position

BEN = 1


def state(game):
    return game.snapshot(), len(game.log)


def test_a_building_put_removed_and_moved_moves_counts_and_values_but_no_money():
    game = new_game()
    cash = [game.cash(s) for s in range(3)]
    events = act(game, 'put_building C2 RED "placed three turns ago, never entered"')
    assert game.s.pieces[(1, 2)] == "RED" and game.s.used["RED"] == 1 and game.s.on_board["RED"] == 1
    assert game.s.values["RED"] == 1
    assert events[-1].text("en") == "Correction - RED +C2: placed three turns ago, never entered"
    act(game, 'put_building C3 RED "and its neighbour"')
    assert game.s.values["RED"] == 2                        # SH2: a chain of two
    act(game, 'move_building C3 E5 "on the wrong cell"')
    assert game.s.values["RED"] == 1 and game.s.used["RED"] == 2 and game.s.on_board["RED"] == 2
    act(game, 'remove_building E5 "never there"')
    assert game.s.used["RED"] == 1 and game.s.on_board["RED"] == 1 and (4, 4) not in game.s.pieces
    assert [game.cash(s) for s in range(3)] == cash         # no bonus, no rise, no fall
    assert all(game.s.shares.bank(c) + sum(game.shares(c, s) for s in range(3)) == 40 for c in game.companies)
    before = game.snapshot()
    act(game, 'remove_building C2 "x"')
    game.undo()
    assert game.snapshot() == before


def test_a_map_correction_a_table_cannot_take_is_refused_with_nothing_changed():
    game = new_game()
    act(game, 'put_building C2 RED "x"')
    before = state(game)
    for line, message in (('put_building C2 BLUE "x"', "C2 already holds a Red building"),
                          ('remove_building D4 "x"', "D4: no building there"),
                          ('move_building D4 C2 "x"', "D4: no building there"),
                          ('put_building D2 BLUE "x"', "D2 touches a Red building: two colours never touch"),
                          ('put_building Z99 BLUE "x"', "cell = Z99 is not allowed")):
        with pytest.raises(IllegalAction, match=message):
            act(game, line)
        assert state(game) == before
    act(game, "roll 1 BLUE")                                 # a building is being placed
    with pytest.raises(IllegalAction, match="Ana is placing a building") as refused:
        act(game, 'put_building D4 RED "x"')
    assert "posez-le, ou annulez le lancer" in refused.value.message("fr")


def test_the_supply_of_18_is_the_limit_of_a_colour():
    game = new_game()
    cells = sorted(game.box.zones)[:18]
    position(game, {f"{chr(65 + r)}{c + 1}": "GREEN" for r, c in cells})
    with pytest.raises(IllegalAction, match="GREEN: all 18 buildings are used already"):
        act(game, 'put_building H8 GREEN "x"')


def test_values_follow_the_map_after_a_correction_during_a_turn_and_the_falls_are_not_paid():
    game = new_game(deal=["BLUE", "BLUE", "BLUE"])
    position(game, {"D1": "BLUE", "D2": "BLUE", "D3": "BLUE"})
    act(game, "adjust_cash Ben +5000 'start'")
    act(game, "roll 1 BLUE")
    act(game, "place Ana " + cell_text(game.legal_cells(1, "BLUE")[0]))
    act(game, "done Ana")                                       # Ben's turn, in the middle of the round
    cash = [game.cash(s) for s in range(3)]
    act(game, 'remove_building D3 "one blue too many"')
    assert [game.cash(s) for s in range(3)] == cash
    assert game.snapshot()["turn"] == "Ben"


def test_whose_turn_is_corrected_at_the_start_of_a_turn_only():
    game = new_game()
    before = state(game)
    events = act(game, 'set_turn Cid "Ben and Cid swapped seats"')
    assert game.snapshot()["turn"] == "Cid" and events[-1].text("en").endswith(": Ben and Cid swapped seats")
    act(game, "roll 1 RED")
    with pytest.raises(IllegalAction, match="at the start of a turn only"):
        act(game, 'set_turn Ana "x"')
    game.undo()
    with pytest.raises(IllegalAction, match="already Cid's turn"):
        act(game, 'set_turn Cid "x"')
    game.undo()
    assert state(game) == before


def test_without_the_grid_a_value_is_corrected_and_no_map_is_offered():
    game = new_game(grid="none")
    kinds = {o.kind for o in game.decision().options}
    assert "set_value" in kinds and not kinds & {"put_building", "remove_building", "move_building"}
    act(game, 'set_value BLUE 3 "misread"')
    assert game.s.values["BLUE"] == 3
    act(game, "roll 1 BLUE")
    act(game, "built Ana 4")
    act(game, "done Ana")
    before = state(game)
    with pytest.raises(IllegalAction, match="BLUE has 1 buildings on the board"):
        act(game, 'set_value BLUE 0 "x"')
    assert state(game) == before


def test_a_position_entered_by_corrections_is_the_position_reached_by_play():
    played = new_game(deal=["RED", "BLUE", "GREEN"])
    act(played, "roll 1 RED")
    cell = played.legal_cells(1, "RED")[0]
    act(played, f"place Ana {cell_text(cell)}")
    act(played, "done Ana")
    entered = new_game(deal=["RED", "BLUE", "GREEN"])
    act(entered, f'put_building {cell_text(cell)} RED "under way"')
    act(entered, f'adjust_cash Ana +{played.cash(0)} "bonus"')
    act(entered, 'set_turn Ben "under way"')
    keep = ("players", "companies", "map", "turn", "step", "phase")
    assert {k: entered.snapshot()[k] for k in keep} == {k: played.snapshot()[k] for k in keep}
    for game in (played, entered):                  # and both play on alike
        act(game, "roll 2 BLUE")
        act(game, f"place Ben {cell_text(game.legal_cells(2, 'BLUE')[0])}")
    assert {k: entered.snapshot()[k] for k in keep} == {k: played.snapshot()[k] for k in keep}


def test_the_buildings_used_are_corrected_at_least_those_on_the_map_and_the_18th_ends_the_game():
    game = new_game()
    act(game, 'put_building C2 BLUE "x"')
    before = state(game)
    with pytest.raises(IllegalAction, match="BLUE: 0 used, fewer than the 1 on the board"):
        act(game, 'set_used BLUE 0 "x"')
    assert state(game) == before
    events = act(game, 'set_used BLUE 17 "chains removed before the box"')
    assert game.s.used["BLUE"] == 17 and game.s.on_board["BLUE"] == 1
    assert events[-1].text("en") == "Correction - BLUE 17/18: chains removed before the box"
    act(game, "roll 1 BLUE")
    act(game, "place Ana " + cell_text(game.legal_cells(1, "BLUE")[0]))   # the 18th blue building
    assert game.over and game.snapshot()["end"] == "buildings"
