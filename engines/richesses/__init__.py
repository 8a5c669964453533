"""Richesses du Monde (rules/richesses-du-monde.fr.txt, rulings RM1-RM13)."""
from engines.registry import GameSpec

GAME = GameSpec("richesses", "engines.richesses.game:Richesses", "", prefix="rm", box="engines.richesses.box")
