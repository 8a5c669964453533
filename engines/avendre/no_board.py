"""A Vendre! without a board (AV15): what the operator reads of the squares and titles.

The operator reads each square the first time a pawn reaches it (the title printed on it,
or its colour when it has none), and a title's values when a turn first needs them; the
box remembers what was read (the state's `read` and `entered`) and checks every later
reading against it. These are the game's bookkeeping of it; the questions are the turn's
(steps/reading.py).
"""
from engines.avendre.rules import ESTABLISHMENT, SHOP, TITLES
from engines.core.errors import IllegalAction


def learn(game, name, kind=None, pa=None, r=None):
    """Without a board: what the operator read of a title (its colour as a kind, its PA,
    its R), checked against what was read before and remembered for the rest of the
    game. The deed's price follows the PA: the bank takes a shop at half of it (AV11)."""
    name = str(name)
    entered = game.s.entered.setdefault(name, [None, None, None])
    if kind is not None:
        if entered[0] not in (None, kind):
            raise IllegalAction("error.av.title_kind", title=name,
                                colour="BLUE" if kind == SHOP else "RED")
        entered[0] = kind
        if kind == ESTABLISHMENT:
            entered[1] = 0   # "ne sont pas à vendre": no PA
    if pa is not None:
        entered[1] = pa
        game.s.deeds[name].price = pa
    if r is not None:
        entered[2] = r


def square_of(game, name):
    """Without a board: the square a title was read on, or None."""
    for square, (_, title) in game.s.read.items():
        if str(title) == str(name):
            return square
    return None


def likely_title(game, square) -> int:
    """Without a board: the title number the question starts on for an unread square.
    The box presumes the shops are numbered in the order of their squares, as the
    template's are (the rulebook keeps the titles "rangés en bon ordre"; the real board
    is unverified). Between two shops read, the number is interpolated; after the last
    one (or from square 0 and number 0), it grows by one per unread square times the
    share of the squares read that held a shop (one in two before anything is read).
    The nearest number not read yet, not an establishment and between the two shops is
    proposed, the larger on a tie. Only where the question starts: any number can be
    entered (tests/engines/avendre/test_avendre_rules.py, docs/presses.md for what it saves)."""
    read = game.s.read
    shops = sorted((sq, int(t)) for sq, (_, t) in read.items() if t and game.kind_of(str(t)) == SHOP)
    lower = [(sq, t) for sq, t in shops if sq < square]
    upper = [(sq, t) for sq, t in shops if sq > square]
    q0, t0 = lower[-1] if lower else (0, 0)
    if upper:
        q1, t1 = upper[0]
        estimate = t0 + (t1 - t0) * (square - q0) / (q1 - q0)
    else:
        share = (len(shops) + 1) / (len(read) + 2)
        unread = sum(1 for sq in range(q0 + 1, square) if sq not in read)
        estimate = t0 + 1 + unread * share
    placed = {int(title) for _, title in read.values() if title}
    free = [n for n in range(1, TITLES + 1) if n not in placed and game.kind_of(str(n)) != ESTABLISHMENT]
    between = [n for n in free if n > t0 and (not upper or n < upper[0][1])]
    return min(between or free or [1], key=lambda n: (abs(n - estimate), -n))
