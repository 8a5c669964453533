"""Dividends (rules/dividends.fr.txt): the game as the registry declares it.

What the box asks before a game is played, declared without importing the engine:
engines/registry.py says why, and how the game's catalogs are registered.
"""
from engines.core.settings import DICE
from engines.dividends.rules import MAX_PLAYERS, MIN_PLAYERS
from engines.registry import GameSpec

SETTINGS = {  # name -> (default, allowed, what it means): engines/core/settings.py
    "dice": DICE,
    # The rulebook raises by 50 $ (DV4); a table may agree on another raise, 1 to 999 $.
    "bid_step": (50, range(1, 1000), "the raise of the turn-order auction, in $ (DV4: bids of 50, 50 + step, ...)"),
    "companies": ("", str, "with 2 or 3 players, the companies in play, e.g. \"CEDARPINES,DESERT-OIL,TRANS-PACIFIC\" "
                           "(DV2); \"\": the first ones of the chart"),
}

GAME = GameSpec("dividends", "engines.dividends.game:Dividends", "firmware.games.dividends:DividendsUI",
                prefix="dv", box="engines.dividends.box", players=(MIN_PLAYERS, MAX_PLAYERS), settings=SETTINGS)
