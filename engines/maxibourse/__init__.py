"""Maxi Bourse International (rules/maxi-bourse-international.fr.txt)."""
from engines.registry import GameSpec

GAME = GameSpec("maxibourse", "engines.maxibourse.game:MaxiBourse", "firmware.games.maxibourse:MaxiBourseUI", 
                prefix="mb", box="engines.maxibourse.box")
