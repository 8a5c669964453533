"""The device's randomness: a deterministic function of the game's seed and a position.

Whatever the device draws is recorded in the action it fills (dice, a tile, a deal), so a
replay never draws again; the same seed and position always draw the same.

Dice are a decision domain like any other: an action flagged CHANCE declares in its
decision the domain of each field the device may draw (`IntRange(1, 6)` for a plain die,
`Die` for a die with its own faces, `Choice` for a tile, `Items` of those for a list
field: Dividends' dice, one per company; `Arrangement` for items laid in a random order:
Richesses du Monde's plaques), and `fill_chance` draws each one, in field
order (a list's items in their order), through `draw`: one function for every uniform
draw of the device."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from engines.core.actions import CHANCE, field_type, list_item
from engines.core.decision import Arrangement, Choice, Die, Fixed, IntRange, Items

if TYPE_CHECKING:
    import random

# Draws that are no action's own (the dice for who starts) use positions from here on, far
# from the positions of the actions of a game (the index of the action in the log).
EXTRA_DRAWS = 10_000
SIX = IntRange(1, 6)   # a plain six-sided die


def chance_rng(seed, index) -> random.Random:
    """The device's randomness for the action at `index` of a game seeded `seed`."""
    import random   # imported by the first draw: a resume's first frame draws nothing

    return random.Random(f"{seed}:{index}")


def draw(domain, rng: random.Random):
    """One value of `domain`, each equally likely (each face of a `Die`, repeats counted).
    `Fixed` draws nothing: its one value."""
    if isinstance(domain, Fixed):
        return domain.value
    if isinstance(domain, Items):
        if domain.distinct:   # a permutation is no item-by-item draw: the game draws it (a deal)
            raise TypeError(f"the device draws no list of distinct values item by item: {domain!r}")
        return tuple(draw(item, rng) for item in domain.items)
    if isinstance(domain, Arrangement):     # an order of given items: a shuffle (plaques laid at random)
        items = list(domain.items)
        rng.shuffle(items)
        return tuple(items)
    if isinstance(domain, Die):
        return rng.choice(domain.faces)
    if isinstance(domain, Choice):
        return rng.choice(domain.values)
    if isinstance(domain, IntRange):
        return rng.randrange(domain.lo, domain.hi + 1, domain.step)  # randint(lo, hi) when step is 1
    raise TypeError(f"the device cannot draw from {domain!r}")


def _empty(value) -> bool:
    return value is None or value == ()   # a list field left empty: `dice` alone


def fill_chance(game, act, rng: random.Random):
    """`act` with every field the device may draw filled from `rng`, in field order, from the
    domain the pending decision declares for it; `act` itself when it is no chance action,
    is not offered now, or already says what was rolled.

    All or nothing: the device draws only when every drawn field (each field whose domain
    is not `Fixed`) is left empty. A line giving some and leaving others is a typo that
    `Game.check` refuses, naming the field (never half the table's roll, half the device's)."""
    if CHANCE not in act.flags:
        return act
    names = [f.name for f in dataclasses.fields(act)]
    if not any(_empty(getattr(act, name)) for name in names):
        return act                                   # cheap: most lines give every field
    option = game.decision().option(act.kind)
    if option is None:
        return act
    domains = option.fields
    if any(not _empty(getattr(act, n)) for n, d in domains.items() if not isinstance(d, Fixed)):
        return act
    values = {}
    for name in names:
        if name in domains and _empty(getattr(act, name)):
            value = draw(domains[name], rng)
            typ = field_type(type(act), name)
            item = list_item(typ)
            if item is not None:
                value = tuple(item(v) for v in value)
            elif value is not None:
                value = typ(value)
            values[name] = value
    return dataclasses.replace(act, **values)


def device_roll(seed, index) -> tuple[int, int]:
    """Two dice rolled by the device for the action at `index`."""
    rng = chance_rng(seed, index)
    return draw(SIX, rng), draw(SIX, rng)


def roll_for_first(seed, seats) -> tuple[dict, int]:
    """Who starts, by the device's dice: everyone in `seats` rolls two dice, the highest
    total starts, ties roll again among themselves. ({seat: last total}, the seat)."""
    seats, rolls, index = list(seats), {}, EXTRA_DRAWS
    while True:
        for seat in seats:
            d1, d2 = device_roll(seed, index)
            index += 1
            rolls[seat] = d1 + d2
        best = max(rolls[s] for s in seats)
        top = [s for s in seats if rolls[s] == best]
        if len(top) == 1:
            return rolls, top[0]
        seats = top
