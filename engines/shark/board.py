"""The map's rules: what a colour is worth (SH2), where a building may go (SH6) and what a
placement does (the chains it removes, the values after it), on the core grid
(engines/core/grid.py), which only knows where the pieces are and how they connect.

A placement's outcome is computed here once, on a copy of the pieces, for the engine
(which applies it), for the decision's preview of every legal cell, and for the tests.
"""
from __future__ import annotations


from engines.core.grid import Grid
from engines.core.records import record
from engines.shark.rules import COMPANIES, MAX_VALUE, VARIANT1_CHAIN


def value_of(grid: Grid, colour: str, capped: bool = False) -> int:
    """SH2: the total of the colour's chains (two or more touching buildings); buildings
    but no chain: 1; none: 0; at most 15. `capped` (variant 1, SH10): a chain counts at
    most 7."""
    chains = [len(g) for g in grid.groups(colour) if len(g) >= 2]
    if capped:
        chains = [min(n, VARIANT1_CHAIN) for n in chains]
    total = sum(chains)
    if total == 0:
        return 1 if grid.count(colour) else 0
    return min(total, MAX_VALUE)


@record(frozen=True)
class Outcome:
    """What placing a building of `colour` on `cell` does (SH6)."""
    cell: tuple
    colour: str
    chain: int          # the size of the chain the new building is part of
    removed: dict       # colour -> the cells of its touched chains removed, compulsorily
    values: dict        # colour -> its value after the placement and the removals


def blocker(grid: Grid, cell, colour: str) -> frozenset | None:
    """SH6: a chain of another colour touching the free `cell` that is as large as the chain
    the new building would form (a tie is illegal; a lone building counts as a chain of 1),
    or None."""
    touching = grid.touching(cell)
    # the chain it would form (grid.would_join's size), from the same touching groups, found
    # once: they are distinct and `cell` is free, so their sizes add up
    colours = [grid.pieces[next(iter(group))] for group in touching]
    joined = 1 + sum(len(group) for group, c in zip(touching, colours) if c == colour)
    for group, c in zip(touching, colours):
        if c != colour and len(group) >= joined:
            return group
    return None


def legal(grid: Grid, cell, colour: str) -> bool:
    return grid.free(cell) and blocker(grid, cell, colour) is None


def outcome(grid: Grid, cell, colour: str, capped: bool = False, values: dict | None = None) -> Outcome:
    """The placement of a legal `cell`, computed on a copy: every touched chain of another
    colour is removed, then each colour's value recomputed by SH2 (a lone building left
    keeps its colour at 1). `values`: the values before, when known; only the colours the
    placement touches are then recomputed (the preview computes an outcome per legal cell)."""
    trial = Grid(grid.rows, grid.cols, grid.holes, dict(grid.pieces))
    touched = [g for g in trial.touching(cell) if trial.pieces[next(iter(g))] != colour]
    trial.place(cell, colour)
    removed: dict = {}
    for group in touched:
        removed.setdefault(trial.pieces[next(iter(group))], []).extend(sorted(group))
        trial.remove(group)
    changed = {colour, *removed}
    values = {c: value_of(trial, c, capped) if values is None or c in changed else values[c] for c in COMPANIES}
    return Outcome(cell, colour, len(trial.group(cell)), {c: tuple(cells) for c, cells in removed.items()}, values)
