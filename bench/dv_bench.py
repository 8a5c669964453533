"""Dividends engine benchmark, measured like the Maxi Bourse one (bench/mb_bench.py):
random legal games drawn and replayed, then, for the longest, the same table as Maxi
Bourse's: play, play with the pending decision, replay from actions / JSON / a journal,
one apply and one undo at its end, the snapshot.

    .venv/bin/python -m bench.dv_bench [--games 5] [--seed 2026] [--players 12] [--no-write]

A game is drawn by the random legal player (engines/dividends/random_play.py) from the
engine's own decisions, from set-up through five years to the liquidation. "draw" is the
time to draw and apply its actions (refused draws included: the random player offers
purchases and bids the hidden cash cannot pay, as a table would).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from bench.doc import write_section
from bench.host import filesystem, machine
from bench.mb_bench import ROOT, engine_rows, ms
from engines.dividends.game import Dividends
from engines.dividends.random_play import random_game

SECTION = "## Dividends engine"


def draw_games(games: int, seed: int, players: int):
    """The drawn games: [(seconds to draw, header, actions, game)]."""
    out = []
    for i in range(games):
        rng = random.Random(seed + i)
        start = time.perf_counter()
        header, actions, game = random_game(rng, players, verify=False)
        out.append((time.perf_counter() - start, header, actions, game))
        assert game.step_name() == "over", "a drawn game did not reach the liquidation"
    return out


def run(games: int = 5, seed: int = 2026, players: int = 12, journal_dir: Path | None = None):
    journal_dir = Path(journal_dir or ROOT / "bench" / "results")
    journal_dir.mkdir(parents=True, exist_ok=True)
    drawn = draw_games(games, seed, players)
    lengths = [len(d[2]) for d in drawn]
    draws = [d[0] for d in drawn]
    _, header, actions, _ = max(drawn, key=lambda d: len(d[2]))
    rows, notes, raw = engine_rows(Dividends, header, actions, journal_dir)[:3]
    raw.update(games=games, players=players, actions_median=statistics.median(lengths), actions_max=max(lengths),
               draw_median=statistics.median(draws))
    m = machine()
    fs = filesystem(journal_dir)
    lines = [
        SECTION, "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['system']}, {m['python']}; run on {m['date']}.", "",
        f"{games} random legal {players}-player games (engines/dividends/random_play.py, seeds {seed}.."
        f"{seed + games - 1}): {int(statistics.median(lengths))} actions (median, max {max(lengths)}); drawing "
        f"one (refused draws included) takes {ms(statistics.median(draws))} (median). The table is the longest "
        f"game, {len(actions)} actions, measured as the Maxi Bourse one is.", "",
        "| measure | time | per action / memory |", "|---|---:|---:|",
        *[f"| {a} | {b} | {c} |" for a, b, c in rows],
        "",
        f"Journal files are written under `bench/results` ({fs}).",
        *[f"- {note}" for note in notes],
        "",
        "Re-run with `.venv/bin/python -m bench.dv_bench` (`--no-write` to only print).", ""]
    return "\n".join(lines), raw


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dv_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="random games drawn (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the first game (default: %(default)s)")
    parser.add_argument("--players", type=int, default=12, help="players per game (default: %(default)s)")
    parser.add_argument("--journal-dir", type=Path, help="where journal files go (default: bench/results)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave docs/performance.md alone")
    args = parser.parse_args(argv)
    text, _ = run(args.games, args.seed, args.players, args.journal_dir)
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
        print("written to docs/performance.md (## Dividends engine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
