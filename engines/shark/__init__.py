"""Shark (rules/shark.fr.txt)."""
from engines.registry import GameSpec

GAME = GameSpec("shark", "engines.shark.game:Shark", "firmware.games.shark:SharkUI", prefix="sh", box="engines.shark.box")
