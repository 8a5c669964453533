"""What A Vendre! learns at the table (AV15; engines/core/learning.py): without a board the
operator reads each square the first time a pawn reaches it (`learn_square`, `learn_colour`)
and a title's values when a turn needs them (`learn_title`, `buy_at`, `tax`, `income`); the
state keeps them (`read`: square -> [colour, title]; `entered`: title -> [kind, PA, R]).

Written back (`corbeille box learned`, the state folder's learned file), they are folded into
the box file the game names, or the shipped template: each square read takes what was read
there, swapped with the square of the file that held it (a title is on one square; a colour
read takes the place of the first square of that colour not read), and each title takes the
kind and values read; a titled square's colour follows its title's kind. What was not read
stays the file's."""
import dataclasses

from engines.avendre.box import Square, load_box
from engines.avendre.rules import ESTABLISHMENT, SHOP

COLOUR_OF = {SHOP: "blue", ESTABLISHMENT: "red"}


def with_learned(box, read: dict, entered: dict):
    """`box` with the squares and titles read folded in."""
    titles = dict(box.titles)
    for name, (kind, pa, r) in entered.items():
        old = titles[int(name)]
        kind = kind or old.kind
        pa = 0 if kind == ESTABLISHMENT else pa if pa is not None else old.pa
        titles[int(name)] = dataclasses.replace(old, kind=kind, pa=pa, r=old.r if r is None else r)
    squares = list(box.squares)
    for number, (colour, title) in sorted(read.items()):
        wanted = Square(colour or "", int(title))
        here = number - 1
        there = next((i for i, sq in enumerate(squares) if i + 1 not in read and i != here and _same(sq, wanted)), None)
        if there is not None:
            squares[there] = squares[here]
        squares[here] = wanted
    squares = [Square(COLOUR_OF[titles[sq.title].kind], sq.title) if sq.title else sq for sq in squares]
    return dataclasses.replace(box, titles=titles, squares=tuple(squares))


def _same(square, wanted) -> bool:
    return square.title == wanted.title if wanted.title else not square.title and square.colour == wanted.colour


class Learning:
    """The game's part of the mechanic (mixed into the game class): what was read, as the
    learned entries `corbeille box learned` counts, and the box file they make."""

    def learned_entries(self) -> tuple:
        s = self.s
        return (tuple(("square", sq, *v) for sq, v in sorted(s.read.items()))
                + tuple(("title", name, *v) for name, v in s.entered.items()))

    def learned_box(self):
        box = self.box if self.box is not None else load_box(self.header.get("box"))
        return with_learned(box, self.s.read, self.s.entered)
