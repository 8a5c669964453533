"""Maxi Bourse International (rules/maxi-bourse-international.fr.txt): the game as the registry declares it.

What the box asks before a game is played, declared without importing the engine:
engines/registry.py says why, and how the game's catalogs are registered.
"""
from engines.core.settings import DICE
from engines.core.limits import MAX_ROUNDS
from engines.maxibourse.rules import FORMATS
from engines.registry import GameSpec

SETTINGS = {  # name -> (default, allowed, what it means): engines/core/settings.py
    "payday": ("each_round", ("each_round", "manual"),
               "each_round: a payday ends each full round of turns (MB10); manual: the operator pays from the menu"),
    "vertical_bonus": ("per_group", ("per_group", "once"),
                       "per_group: 600 000 $ per group of three majorities (MB10); once: 600 000 $ at most, however many groups"),
    "rounds": (0, range(0, MAX_ROUNDS + 1), "the agreed number of rounds, then the session closes (MB11); 0: no limit, "
                       "the table closes it from the menu"),
    "dice": DICE,
    "picks": ("chosen", ("chosen", "dealt"),
              "chosen: each player chooses their starting lots (MB2); dealt: the device deals them, recorded in the log"),
}

GAME = GameSpec("maxibourse", "engines.maxibourse.game:MaxiBourse", "firmware.games.maxibourse:MaxiBourseUI",
                prefix="mb", box="engines.maxibourse.box", players=(2, 6), formats=tuple(FORMATS), settings=SETTINGS)
