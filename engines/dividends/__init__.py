"""Dividends (rules/dividends.fr.txt)."""
from engines.registry import GameSpec

GAME = GameSpec("dividends", "engines.dividends.game:Dividends", "firmware.games.dividends:DividendsUI",
                prefix="dv", box="engines.dividends.box")
