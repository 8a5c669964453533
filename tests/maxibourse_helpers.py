"""Helpers for Maxi Bourse tests: a game set up from a few lines of the command language."""
from engines.core.ledger import BANK
from engines.maxibourse.game import MaxiBourse
from game_helpers import cash, play, seat  # noqa: F401 (re-exported for the tests)


def new_game(players, fmt="junior", **settings):
    return MaxiBourse({"game": "maxibourse", "format": fmt, "players": list(players), "settings": settings, "seed": 1})


def started(players, fmt="junior", first=None, portfolios=None, **settings):
    """A game past set-up: starting picks made (from `portfolios` {player: [companies]} or
    the first companies not yet held), `first` player (default: the first seat) to play."""
    game = new_game(players, fmt, **settings)
    portfolios = {p: list(c) for p, c in (portfolios or {}).items()}
    while type(game.top).__name__ == "Picking":
        seat = game.top.order[0]
        wanted = portfolios.get(players[seat])
        if wanted:
            company = wanted.pop(0)
        else:
            options = game.decision().option("pick").fields["company"].values
            company = options[0]
        play(game, f"pick {players[seat]} {company}")
    play(game, f"first {first or players[0]}")
    return game


def lots(game, name, company):
    return game.s.lots.of(company, seat(game, name))


def give(game, name, company, n, reason="test set-up"):
    """Operator correction: hand lots to a player from the bank."""
    play(game, f'adjust_lots {name} {company} +{n} "{reason}"')


def set_cash(game, name, amount):
    delta = amount - cash(game, name)
    if delta:
        play(game, f'adjust_cash {name} {delta:+d} "test set-up"')


def take_all_lots(game, name):
    """Every lot `name` holds back to the bank, by corrections (a player left with cash only)."""
    for company, n in list(game.held(seat(game, name)).items()):
        play(game, f'adjust_lots {name} {company} -{n} "test set-up"')


def total_money(game):
    return game.s.ledger.total()


def bank_lots(game, company):
    return game.s.lots.held[company][BANK]


def script(game, text):
    """Play a script of the command language: one action a line, `#` starts a comment."""
    lines = [line for line in (raw.split("#")[0].strip() for raw in text.splitlines()) if line]
    return play(game, *lines)


# Three players' starting picks (Junior, five lots each), then Sophie starts.
PICKS_3 = """
    pick Sophie UBS
    pick Thierry BP
    pick Didier ESSO
    pick Sophie BARCLAYS
    pick Thierry BARCLAYS
    pick Didier BARCLAYS
    pick Sophie CHASE
    pick Thierry CHASE
    pick Didier CHASE
    pick Sophie DEUTSCHE
    pick Thierry DEUTSCHE
    pick Didier DEUTSCHE
    pick Sophie ELF
    pick Thierry ELF
    pick Didier ELF
    first Sophie
"""


def _shipped_without_board():
    """The shipped box file's text up to its `[board]` table (sectors and companies only)."""
    from engines.maxibourse.box import DEFAULT_BOX

    text = DEFAULT_BOX.read_text(encoding="utf-8")
    head, board = text.split("\n[board]\n")
    return head + "\n", "[board]\n" + board


def board_box(path, squares=None, verified=False):
    """A copy of the shipped box file at `path` with a board: the shipped board (marked
    `verified` or not), or `squares` in its place."""
    from pathlib import Path

    head, board = _shipped_without_board()
    board = board.replace("verified = false", f"verified = {str(verified).lower()}", 1)
    if squares is not None:
        board = f"[board]\nverified = {str(verified).lower()}\nsquares = {list(squares)!r}\n".replace("'", '"')
    Path(path).write_text(head + board, encoding="utf-8")
    return Path(path)


def no_board_box(path):
    """A copy of the shipped box file at `path` without its `[board]` table: the box asks the
    square the pawn lands on (an owner who deletes the table)."""
    from pathlib import Path

    head, _ = _shipped_without_board()
    Path(path).write_text(head, encoding="utf-8")
    return Path(path)


def pin_no_board(monkeypatch, folder):
    """The box's default box file, for one test, is the shipped one without its board: for
    tests of the path where the operator names the square."""
    import engines.maxibourse.box as box_module

    path = no_board_box(folder / "box-without-board.toml")
    monkeypatch.setattr(box_module, "DEFAULT_BOX", path)
    return path
