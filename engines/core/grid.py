"""A map of cells holding pieces of colours, and the chains they form (Shark's buildings).

Cells are (row, column) pairs; two cells touch when they share a side (orthogonal
adjacency). A *group* is a set of pieces of one colour connected through touching cells; a
group of one piece is a lone piece. What a group is worth, and which placements a game
allows, are the game's rules: this module only answers where the pieces are and how they
connect, the same way for every game that needs a map.

The state is plain data (a dict of cell -> colour) so that it copies, compares and
serialises like the rest of a game's state.
"""
from __future__ import annotations

import functools
from dataclasses import field

from engines.core.records import record

Cell = tuple[int, int]


@record
class Grid:
    rows: int
    cols: int
    holes: frozenset = frozenset()            # cells of the rectangle that are not on the map
    pieces: dict = field(default_factory=dict)  # cell -> colour

    def on_map(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols and cell not in self.holes

    def free(self, cell: Cell) -> bool:
        return self.on_map(cell) and cell not in self.pieces

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The cells on the map sharing a side with `cell`, in a fixed order."""
        sides = _sides(self.rows, self.cols, self.holes).get(cell)
        if sides is None:           # a cell off the rectangle
            r, c = cell
            return [n for n in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if self.on_map(n)]
        return list(sides)

    def group(self, cell: Cell) -> frozenset:
        """The group of the piece on `cell` (empty for a free cell)."""
        colour = self.pieces.get(cell)
        if colour is None:
            return frozenset()
        seen, todo = {cell}, [cell]
        while todo:
            for n in self.neighbours(todo.pop()):
                if n not in seen and self.pieces.get(n) == colour:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    def groups(self, colour: str) -> list[frozenset]:
        """Every group of `colour`, lone pieces included, largest first then by first cell."""
        out, seen = [], set()
        for cell in sorted(c for c, col in self.pieces.items() if col == colour):
            if cell not in seen:
                found = self.group(cell)
                seen |= found
                out.append(found)
        return sorted(out, key=lambda g: (-len(g), min(g)))

    def touching(self, cell: Cell) -> list[frozenset]:
        """The distinct groups (of any colour) that have a piece next to `cell`."""
        out = []
        for n in self.neighbours(cell):
            if n in self.pieces and not any(n in g for g in out):
                out.append(self.group(n))
        return out

    def would_join(self, cell: Cell, colour: str) -> frozenset:
        """The group a piece of `colour` placed on the free `cell` would be part of."""
        joined = {cell}
        for g in self.touching(cell):
            if self.pieces[next(iter(g))] == colour:
                joined |= g
        return frozenset(joined)

    def place(self, cell: Cell, colour: str) -> None:
        if not self.free(cell):
            raise ValueError(f"cell {cell} is {'taken' if self.on_map(cell) else 'not on the map'}")
        self.pieces[cell] = colour

    def remove(self, cells) -> None:
        for cell in cells:
            del self.pieces[cell]

    def count(self, colour: str) -> int:
        return sum(1 for col in self.pieces.values() if col == colour)


@functools.cache
def _sides(rows: int, cols: int, holes: frozenset) -> dict:
    """Each cell of the rectangle -> the cells on the map sharing a side with it, in
    `neighbours`' order: a map's shape never changes during a game, and every placement
    asks the neighbours of many cells, so they are found once per shape."""
    def on_map(r, c):
        return 0 <= r < rows and 0 <= c < cols and (r, c) not in holes

    return {(r, c): tuple(n for n in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if on_map(*n))
            for r in range(rows) for c in range(cols)}
