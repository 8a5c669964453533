"""A Vendre! (rules/a-vendre.fr.txt)."""
from engines.registry import GameSpec

GAME = GameSpec("avendre", "engines.avendre.game:AVendre", "firmware.games.avendre:AVendreUI",
                prefix="av", box="engines.avendre.box")
