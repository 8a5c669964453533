"""Helpers for Dividends tests: games set up from a few lines of the command language.

Positions the rulebook's examples start from are reached with the operator's corrections
(`adjust_certs`, `adjust_cash`, `set_marker`), which are ordinary logged actions."""
from engines.core.ledger import BANK
from engines.dividends.game import Dividends
from game_helpers import cash, play, seat  # noqa: F401 (re-exported for the tests)


def new_game(players, seed=1, **settings):
    return Dividends({"game": "dividends", "players": list(players), "settings": settings, "seed": seed})


def certs(game, name, company):
    return game.count(company, seat(game, name))


def cards(game, name):
    return game.s.hands[seat(game, name)]


def tile(game, company):
    holder = game.s.tiles[company]
    return None if holder is None else game.players[holder]


def step(game):
    return game.step_name()


def give(game, name, company, n):
    if n:
        play(game, f'adjust_certs {name} {company} {n:+d} "test set-up"')


def set_cash(game, name, amount):
    delta = amount - cash(game, name)
    if delta:
        play(game, f'adjust_cash {name} {delta:+d} "test set-up"')


def set_marker(game, company, value):
    play(game, f'set_marker {company} {value} "test set-up"')


def dice_line(game, **moves):
    """A legal `dice` line: the given moves per company (keyword: company id with _ for -),
    the first face of the right die for the others."""
    words = []
    dice = game.decision().option("dice").fields["moves"].items
    for company, die in zip(game.companies, dice):
        move = moves.get(company.replace("-", "_"))
        if move is None:
            move = die.values[-1]
        words.append(f"{move:+d}")
    return "dice " + " ".join(words)


def roll_keeping_markers(game):
    """Step 1 with the markers put back where they were (for tests about later steps)."""
    before = dict(game.s.markers)
    play(game, dice_line(game))
    for company, value in before.items():
        if game.s.markers[company] != value:
            set_marker(game, company, value)


def auction_in_order(game, names):
    """Step 2 with each token going, in order, to the next name for 50 $ (the last one
    is taken by the last bidder)."""
    for name in names[:-1]:
        play(game, f"bid {name} 50", "sold")
    assert step(game) == "actions", step(game)


def to_actions(game, order=None):
    """From step 1 to step 3 with the turn order `order` (default: seat order)."""
    roll_keeping_markers(game)
    auction_in_order(game, list(order or game.players))


def finish_turns(game):
    """Everyone who has not played yet this step 3 ends their turn."""
    while step(game) == "actions":
        play(game, f"done {game.players[game.current_seat()]}")


def total_money(game):
    return game.s.ledger.total()


def bank_certs(game, company):
    return game.s.certs.held[company][BANK]


def card_total(game):
    return game.s.draw_pile + game.s.discard + sum(game.s.hands)
