"""What a decision builds (the box builds one after every action, an undo or a
replay check many). What the set-up alone fixes (corrections, the companies, the price
targets, a turn's card effects, the trade between a set of players) is built once per
game and shared by every decision that offers it; what the state decides is built each
time. Counted by identity, not timed: and every decision is the one a game built from
nothing, in the same state, gives."""
import copy

from dividends_helpers import new_game as dv_game, to_actions
from engines.core.ledger import BANK
from game_helpers import play
from maxibourse_helpers import started


def fresh(game):
    """The same game, in the same state, with nothing kept from earlier decisions."""
    other = type(game)(game.header)
    other.s = copy.deepcopy(game.s)
    return other


def options(decision):
    return {o.kind: o for o in decision.options}


def test_maxi_bourse_decisions_share_what_the_set_up_fixes():
    game = started(["Ana", "Ben", "Cid"])
    play(game, "roll 1 2")
    first, again = options(game.decision()), options(game.decision())
    for kind in ("adjust_cash", "adjust_lots", "set_price", "set_nominal", "trade", "price", "pay", "receive"):
        assert again[kind] is first[kind], kind
    assert game.decision() == fresh(game).decision()


def test_maxi_bourse_decisions_follow_the_players_still_in_and_the_bank():
    game = started(["Ana", "Ben", "Cid", "Dan"])
    play(game, "roll 1 2")
    before = options(game.decision())
    company = game.companies[0]
    game.s.ruined[2] = True                      # Cid out of the game
    game.s.lots.held[company][BANK] = 0         # the bank holds no lot of the first company
    after = options(game.decision())
    assert after["receive"].fields["player"].values == (0, 1, 3)
    assert before["receive"].fields["player"].values == (0, 1, 2, 3)
    assert after["trade"].fields["seller"].values == (0, 1, 3)
    assert company not in after["titre"].fields["company"].values
    assert company in before["titre"].fields["company"].values
    # corrections: for the players still in (MB8), one set per set of players still in
    assert after["adjust_cash"].fields["player"].values == (0, 1, 3)
    assert before["adjust_cash"].fields["player"].values == (0, 1, 2, 3)
    assert options(game.decision())["adjust_cash"] is after["adjust_cash"]
    assert game.decision() == fresh(game).decision()


def test_maxi_bourse_card_options_are_each_seats_own():
    game = started(["Ana", "Ben", "Cid"])
    play(game, "roll 1 2")
    ana = options(game.decision())
    play(game, "end")
    play(game, "roll 1 2")
    ben = options(game.decision())
    assert ana["forced"].fields["player"].value == 0 and ben["forced"].fields["player"].value == 1
    assert ben["forced"] is not ana["forced"]
    assert game.decision() == fresh(game).decision()


def test_dividends_decisions_share_their_corrections_and_follow_the_chart():
    game = dv_game(["Ana", "Ben", "Cid"])
    to_actions(game)
    first, again = options(game.decision()), options(game.decision())
    for kind in ("adjust_cash", "adjust_certs", "adjust_cards", "set_marker"):
        assert again[kind] is first[kind], kind
    company = game.companies[0]
    game.s.certs.held[company][BANK] = 0         # none left on the chart
    assert company not in options(game.decision())["buy"].fields["company"].values
    assert game.decision() == fresh(game).decision()


def test_what_is_built_once_is_kept_per_game_and_per_arguments():
    """engines/core/per_game.py: one result per game and arguments, none shared between
    games, so a game with other players or another box never offers another's options."""
    from engines.core.per_game import per_game

    built = []

    @per_game
    def options(game, seat):
        built.append((game, seat))
        return (seat,)

    one, two = started(["Ana", "Ben", "Cid"]), started(["Ana", "Ben"])
    assert options(one, 0) is options(one, 0) and options(one, 1) == (1,)
    assert options(two, 0) is not options(one, 0)
    assert built == [(one, 0), (one, 1), (two, 0)]


def test_maxi_bourse_card_options_follow_the_game_they_are_built_for():
    """The square's card effects are kept by the game, not by the process: two games with
    other players each offer their own."""
    three, four = started(["Ana", "Ben", "Cid"]), started(["Ana", "Ben", "Cid", "Dan"])
    four.s.ruined[3] = True                      # Dan out: the players still in are the three's seats
    play(three, "roll 1 2")
    play(four, "roll 1 2")
    mine, theirs = options(three.decision()), options(four.decision())
    assert mine["pay"].fields["player"].values == theirs["pay"].fields["player"].values == (0, 1, 2)
    assert mine["pay"] is not theirs["pay"]
    assert three.decision() == fresh(three).decision() and four.decision() == fresh(four).decision()
