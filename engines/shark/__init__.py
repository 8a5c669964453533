"""Shark (rules/shark.fr.txt): the game as the registry declares it.

What the box asks before a game is played, declared without importing the engine:
engines/registry.py says why, and how the game's catalogs are registered.
"""
from engines.core.settings import DICE
from engines.shark.rules import MAX_PLAYERS, MIN_PLAYERS
from engines.registry import GameSpec

SETTINGS = {  # name -> (default, allowed, what it means): engines/core/settings.py
    "dice": DICE,
    "grid": ("box", ("box", "none"),
             "box: the box file's map, the box checks each placement and computes the values (SH4); "
             "none: the operator enters the new values after each placement (SH11)"),
    "buy_limit": ("turn", ("turn", "each_window"),
                  "at most 5 shares bought per turn over both trading windows (turn), or in each window (SH8)"),
    "forced_rounding": ("thousand_up", ("thousand_up", "exact"),
                        "a share given for a fall is credited at half price rounded up to the thousand, or exact (SH9)"),
    "variant1": (False, (False, True), "variant 1: chains count at most 7, no bonus from 8, no start share (SH10)"),
    "variant2": (False, (False, True), "variant 2: black means a colour with the fewest buildings (SH10)"),
    "variant3": (False, (False, True), "variant 3: no colour die, the player always chooses (SH10)"),
}

GAME = GameSpec("shark", "engines.shark.game:Shark", "firmware.games.shark:SharkUI", prefix="sh", box="engines.shark.box",
                players=(MIN_PLAYERS, MAX_PLAYERS), settings=SETTINGS)
