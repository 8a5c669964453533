"""Shark test helpers: a game at the start of a turn, a position on the map set by hand."""
from engines.core.actions import read_cell
from engines.core.ledger import BANK
from engines.shark import board
from engines.shark.game import Shark
from engines.shark.rules import COMPANIES


def new_game(players=("Ana", "Ben", "Cid"), deal=None, first="Ana", **settings):
    """A game past the deal (everyone RED unless `deal` says) and the first player's choice."""
    game = Shark({"game": "shark", "players": list(players), "seed": 1, "settings": settings})
    if not settings.get("variant1"):
        game.apply(game.ACTIONS.parse("deal " + " ".join(deal or ["RED"] * len(players)), game.players))
    game.apply(game.ACTIONS.parse(f"first {first}", game.players))
    return game


def act(game, line):
    return game.apply(game.ACTIONS.parse(line, game.players))


def position(game, pieces: dict):
    """Put buildings on the map by hand ({"B4": "RED"}), with the counts and values SH2 gives
    them (a test's starting position, not a move of the game)."""
    for text, colour in pieces.items():
        game.s.pieces[read_cell(text)] = colour
    grid = game.grid
    for c in COMPANIES:
        game.s.on_board[c] = grid.count(c)
        game.s.used[c] = max(game.s.used[c], grid.count(c))
        game.s.values[c] = board.value_of(grid, c, game.settings["variant1"])


def holdings(game, seat, **shares):
    """Give `seat` exactly these shares ({"RED": 3}) from the bank's stock."""
    for company, count in shares.items():
        have = game.s.shares.of(company, seat)
        if count > have:
            game.s.shares.move(company, BANK, seat, count - have)
        elif count < have:
            game.s.shares.move(company, seat, BANK, have - count)


def give_cash(game, seat, amount):
    game.s.ledger.transfer(BANK, seat, amount, "test")


def transfers(events, reason=None):
    return [(e.params["src"], e.params["dst"], e.params["amount"], e.params["reason"]) for e in events
            if e.key == "transfer" and (reason is None or e.params["reason"] == reason)]
