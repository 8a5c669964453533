"""The device's randomness: a deterministic function of the game's seed and a position.

Whatever the device draws is recorded in the action it fills (dice, a tile, a deal), so a
replay never draws again; the same seed and position always draw the same."""
import random

# Draws that are no action's own (the dice for who starts) use positions from here on, far
# from the positions of the actions of a game (the index of the action in the log).
EXTRA_DRAWS = 10_000


def chance_rng(seed, index) -> random.Random:
    """The device's randomness for the action at `index` of a game seeded `seed`."""
    return random.Random(f"{seed}:{index}")


def device_roll(seed, index) -> tuple[int, int]:
    """Two dice rolled by the device for the action at `index`."""
    rng = chance_rng(seed, index)
    return rng.randint(1, 6), rng.randint(1, 6)


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
