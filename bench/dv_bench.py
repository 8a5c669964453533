"""Dividends benchmark: a random 12-player game, its play time and its replay time.

    python -m bench.dv_bench [GAMES] [SEED]

A game is drawn by the random legal player (engines/dividends/random_play.py) from the
engine's own decisions, from set-up through five years to the liquidation. "play" is the
time to draw and apply its actions (refused draws included: the random player offers
purchases and bids the hidden cash cannot pay, as a table would); "replay" is the time to
rebuild the game from its action list, which is what the box does on resume and on undo.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time

from bench.doc import write_section
from engines.dividends.game import Dividends, snapshot
from engines.dividends.random_play import random_game


def run(games: int = 5, seed: int = 2026, players: int = 12) -> dict:
    plays, replays, lengths = [], [], []
    for i in range(games):
        rng = random.Random(seed + i)
        start = time.perf_counter()
        header, actions, game = random_game(rng, players, verify=False)
        plays.append(time.perf_counter() - start)
        start = time.perf_counter()
        again = Dividends.replay(header, actions)
        replays.append(time.perf_counter() - start)
        assert snapshot(again) == snapshot(game), "replay differs from play"
        assert again.step_name() == "over"
        lengths.append(len(actions))
    per_action = [r / n for r, n in zip(replays, lengths)]
    return {
        "game": "dividends",
        "players": players,
        "games": games,
        "actions_median": int(statistics.median(lengths)),
        "actions_max": max(lengths),
        "play_median_ms": round(statistics.median(plays) * 1000, 1),
        "play_max_ms": round(max(plays) * 1000, 1),
        "replay_median_ms": round(statistics.median(replays) * 1000, 1),
        "replay_max_ms": round(max(replays) * 1000, 1),
        "replay_per_action_us": round(statistics.median(per_action) * 1e6, 1),
    }


SECTION = "## Dividends engine"


def section(result: dict) -> str:
    import platform

    return "\n".join([
        SECTION, "",
        f"Machine: {platform.processor() or platform.machine()}, CPython {platform.python_version()}.",
        f"{result['games']} random legal {result['players']}-player games (engines/dividends/random_play.py), "
        f"{result['actions_median']} actions (median, max {result['actions_max']}).", "",
        "| measure | median | max |", "|---|---:|---:|",
        f"| play (draw and apply, refused draws included) | {result['play_median_ms']} ms | {result['play_max_ms']} ms |",
        f"| replay from the action list | {result['replay_median_ms']} ms | {result['replay_max_ms']} ms |",
        f"| replay per action | {result['replay_per_action_us']} µs | |", "",
        "Re-run with `.venv/bin/python -m bench.dv_bench`.", ""])


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    result = run(int(argv[0]) if argv else 5, int(argv[1]) if len(argv) > 1 else 2026)
    print(json.dumps(result, indent=2))
    if "--no-write" not in argv:
        write_section(SECTION, section(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
