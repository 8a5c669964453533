"""Richesses du Monde (rules/richesses-du-monde.fr.txt, rulings RM1-RM13): the game as the registry declares it.

What the box asks before a game is played, declared without importing the engine:
engines/registry.py says why, and how the game's catalogs are registered.
"""
from engines.core.settings import DICE
from engines.richesses.rules import MAX_PLAYERS, MIN_PLAYERS
from engines.registry import GameSpec

SETTINGS = {  # name -> (default, allowed, what it means): engines/core/settings.py
    "dice": DICE,
    "royalty_edge": ("lower", ("lower", "upper"),
                     "Richesses du Monde (RM6): a share on the edge of two royalty bands is paid the band that "
                     "starts there (lower: 50 % pays the 50-70 band) or the one that ends there (upper)"),
    "world_tour": ("own", ("own", "anyone"),
                   "Richesses du Monde (RM8): whose world tour opens the world choice and auction squares: "
                   "own (the lander's pawn has passed the start arrow) or anyone (any pawn has)"),
    "strict_claims": (False, (False, True),
                      "Richesses du Monde (RM2): off, the box pays every royalty; on, a royalty is paid only "
                      "if its holder claims it at once (\"aussitôt le pion posé\"): his seat button, or the "
                      "operator for him, before 7 seconds pass without a claim"),
}

GAME = GameSpec("richesses", "engines.richesses.game:Richesses", "firmware.games.richesses:RichessesUI",
                prefix="rm", box="engines.richesses.box", players=(MIN_PLAYERS, MAX_PLAYERS), settings=SETTINGS)
