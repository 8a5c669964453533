"""Richesses du Monde (rules/richesses-du-monde.fr.txt, rulings RM1-RM13)."""
from engines.registry import GameSpec

GAME = GameSpec("richesses", "engines.richesses.game:Richesses", "firmware.games.richesses:RichessesUI",
                prefix="rm", box="engines.richesses.box")
