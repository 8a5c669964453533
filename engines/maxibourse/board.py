"""The board of the box file, where it has one: the squares in order from "Action !" and
where each pawn stands (the state's `pawns`, an index into the board). Without a board
the operator names every square the dice lead to, and the pawns are not kept."""


def square_of(game, seat):
    """The square the seat's pawn stands on, from the box file's board; None without one."""
    return game.box.board[game.s.pawns[seat]] if game.box.board else None


def move_pawn(game, seat, steps):
    """The dice move the pawn (rule: "La somme des dés lui indique combien de cases il
    doit parcourir"); the board goes round."""
    if game.box.board:
        game.s.pawns[seat] = (game.s.pawns[seat] + steps) % len(game.box.board)


def correct_pawn(game, seat, square):
    """The operator named another square than the board's: the pawn stands on it, at its
    first occurrence ahead of where the box had it (a square not on the board leaves it)."""
    board = game.box.board
    if not board or board[game.s.pawns[seat]] == square or square not in board:
        return
    here = game.s.pawns[seat]
    try:        # the first occurrence from here on, else the first from the start (it goes round)
        game.s.pawns[seat] = board.index(square, here)
    except ValueError:
        game.s.pawns[seat] = board.index(square)
