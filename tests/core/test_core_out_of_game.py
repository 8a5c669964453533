"""engines/core/out_of_game.py: the refusal of an action aimed at a player out of the game
speaks only for the field `Game.check` names (the first one the decision refuses, whose
allowed values it adds), and only when that field names a player out."""
import pytest

from avendre_helpers import new_game, play, set_cash
from engines.core.errors import IllegalAction
from engines.core.out_of_game import out_refusal


@pytest.fixture
def ana_out():
    game = new_game()
    set_cash(game, "Ana", 10)
    play(game, "roll 3", "leave Ana")
    assert game.s.out == [0]
    return game


def refused_field(game, act):
    """The field `Game.check` passes to the game's `refusal` hook for `act` (None: its kind
    is not offered), or "accepted" when check lets it through."""
    seen = []
    hook = game.refusal
    game.refusal = lambda act, decision, field: seen.append(field) or hook(act, decision, field)
    try:
        game.check(act)
    except IllegalAction:
        return seen[0]
    finally:
        del game.refusal
    return "accepted"


def refusal_of(game, line):
    act = game.ACTIONS.parse(line, game.players)
    field = refused_field(game, act)
    return out_refusal(game, act, None if field == "accepted" else field, "error.av.out")


def test_check_passes_the_hook_the_first_refused_field_in_the_options_order(ana_out):
    parse = lambda line: ana_out.ACTIONS.parse(line, ana_out.players)
    assert refused_field(ana_out, parse('adjust_cash Ana +99999999 "x"')) == "player"   # both refused: the first
    assert refused_field(ana_out, parse('adjust_cash Ben +99999999 "x"')) == "delta"
    assert refused_field(ana_out, parse('set_pawn Ben 99 "x"')) == "square"
    assert refused_field(ana_out, parse("no_card Ben")) is None                          # a kind not offered now
    assert refused_field(ana_out, parse('adjust_cash Ben +1000 "x"')) == "accepted"


def test_the_first_refused_field_naming_a_player_out_gives_the_games_reason(ana_out):
    refused = refusal_of(ana_out, 'adjust_cash Ana +1000 "x"')
    assert refused.key == "error.av.out" and refused.params == {"player": "Ana"}
    # the amount is refused too, but the player comes first in the option: his reason
    assert 99_999_999 not in ana_out.decision().option("adjust_cash").fields["delta"]
    assert refusal_of(ana_out, 'adjust_cash Ana +99999999 "x"').key == "error.av.out"


def test_no_reason_when_the_refused_field_is_not_a_player_out(ana_out):
    assert refusal_of(ana_out, 'adjust_cash Ben +1000 "x"') is None          # allowed: nothing to say
    assert refusal_of(ana_out, 'set_pawn Ben 99 "x"') is None                 # the square is refused, not Ben
    assert refusal_of(ana_out, "no_card Ben") is None                         # a kind not offered now
    with pytest.raises(IllegalAction) as refused:
        play(ana_out, 'set_pawn Ben 99 "x"')
    assert refused.value.key == "error.field"                                 # the generic message stays
