"""Random legal Maxi Bourse games for the property tests.

The generator itself lives in bench/randomgame.py, so the benchmarks replay the same kind
of games; this module re-exports it for the tests.

    header, actions, game = random_game(random.Random(7), players=4, fmt="senior",
                                        max_actions=300)
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # bench/ is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.randomgame import (  # noqa: E402
    CORRECTIONS,
    PLAYER_NAMES,
    WEIGHTS,
    Stuck,
    draw_action,
    draw_value,
    header_for,
    is_over,
    random_game,
    state_key,
)

__all__ = ["CORRECTIONS", "PLAYER_NAMES", "WEIGHTS", "Stuck", "draw_action", "draw_value", "header_for",
           "is_over", "random_game", "state_key"]
