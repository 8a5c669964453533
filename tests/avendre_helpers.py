"""Helpers for A Vendre! tests: games set up from a few lines of the command language.

Positions the rulebook's examples start from are reached with the operator's corrections
(`set_pawn`, `give_title`, `adjust_cash`), which are ordinary logged actions. The shipped
box file is a template (AV15), so the tests read a title's PA and R from the game rather
than writing the template's invented numbers."""
from engines.avendre.game import AVendre
from engines.core.ledger import BANK
from game_helpers import cash, play, seat  # noqa: F401 (re-exported for the tests)

NAMES = ("Ana", "Ben", "Cid")


def new_game(players=NAMES, seed=1, first="Ana", **settings):
    game = AVendre({"game": "avendre", "players": list(players), "settings": settings, "seed": seed})
    if first:
        play(game, f"first {first}")
    return game


def prompt(game):
    return game.decision().prompt


def kinds(game):
    return {o.kind for o in game.decision().options if not game.ACTIONS.has(o.kind, "anytime")}


def bank(game):
    return game.cash(BANK)


def pawn(game, name):
    return game.s.track.positions[seat(game, name)]


def owner(game, title):
    holder = game.owner(str(title))
    return None if holder < 0 else game.players[holder]


def give(game, name, *titles):
    for title in titles:
        play(game, f'give_title {name} {title} "test set-up"')


def set_cash(game, name, amount):
    delta = amount - cash(game, name)
    if delta:
        play(game, f'adjust_cash {name} {delta:+d} "test set-up"')


def place(game, name, square):
    play(game, f'set_pawn {name} {square} "test set-up"')


def first_square(game, colour, owned=False):
    """The first square of `colour` on the board (its title unowned unless `owned`)."""
    for number, sq in enumerate(game.box.squares, 1):
        if sq.colour == colour:
            return number
    raise AssertionError(colour)


def total(game):
    return game.s.ledger.total()
