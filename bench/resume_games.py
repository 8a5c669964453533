"""Resume of each game against a fresh start, and against another version of the code.

    .venv/bin/python -m bench.resume_games [--rounds 8] [--against OTHER_TREE]

For each registered game, a long random game (Maxi Bourse: bench/randomgame.py's 2 000-action
Masters game; the others: played to their end, or to 2 000 actions, from their pending
decisions) is journaled through a session as the box journals it (rules recorded, a snapshot
every 100 actions), then `corbeille run` is started on it and timed to its first frame
(`press_bench.start_once`: the real command line, mock pins, dummy operator display, the
e-ink board on its stand-in), beside a fresh start, round after round. With `--against`,
the other tree (a checkout of main, its modules compiled) writes its own journals, with its
own rules fingerprint, and its starts alternate with this tree's, start by start, in an order
that changes each round, so that a busy machine weighs on both alike.

Printed per tree: the median wall time and the median CPU time of the child at its first
frame (noted by the child itself, all its threads), each with its ratio to the fresh start
of the same tree (ratio of the medians, and in brackets the median of the round-by-round
ratios). Issue 11's target is a resume within 1.2x a fresh start. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 2000


def write_journals(out: Path) -> dict:
    """A long journal of each registered game in out/<game>/ (an empty out/fresh/ beside),
    written by the code this interpreter imports (run as a script with another tree on its
    path: that tree's code). Returns the actions per game."""
    sys.path.insert(0, str(Path(os.environ.get("PYTHONPATH", str(ROOT)).split(os.pathsep)[-1]) / "tests"))
    from engines import game_class
    from engines.core.random_play import play_randomly
    from engines.registry import names
    from firmware.journal import Journal
    from firmware.session import Session
    from test_game_contract import Drawer, header, state_key   # the games' generic random drawer

    counts = {}
    for name in names():
        if name == "maxibourse":
            from bench.randomgame import long_game

            _, head, actions, _ = long_game(TARGET)
        else:
            head, actions = None, []
            for seed in range(8):        # the longest of a few random games
                game = game_class(name)(header(name, 4, seed))
                played = play_randomly(game, Drawer(random.Random(seed)), max_actions=TARGET, state_key=state_key,
                                       verify=False, finished=lambda g: g.over, max_refusals=3000)
                if len(played) > len(actions):
                    head, actions = game.header, played
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        with Journal(folder / "journal.sqlite") as journal:
            session = Session.new(head, journal)
            for act in actions:
                session.apply(act)
        counts[name] = len(actions)
    (out / "fresh").mkdir(parents=True, exist_ok=True)
    return counts


def journals_of(root: Path, out: Path) -> dict:
    """write_journals run by `root`'s code, in a child of its own."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONSAFEPATH="1")
    done = subprocess.run([sys.executable, str(Path(__file__)), "--write", str(out)], cwd=root, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(trees: dict, games: list, rounds: int) -> dict:
    """{(tree, kind): [(wall, cpu), ...]}, kind being "fresh" or a game; one warm-up round
    first (it also lets each journal's first resume keep its box file parsed)."""
    from bench.press_bench import start_once

    times = {(tree, kind): [] for tree in trees for kind in ["fresh", *games]}
    for n in range(rounds + 1):
        order = list(trees) if n % 2 == 0 else list(trees)[::-1]
        for tree in order:
            root, states = trees[tree]
            for kind in ["fresh", *games]:
                wall, first, _ = start_once(states / kind, root=root)
                if n:
                    times[(tree, kind)].append((wall, first["cpu"]))
        print(f"round {n} of {rounds} done (load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    return times


def report(times: dict, trees: dict, games: list) -> str:
    lines = ["| start | " + " | ".join(f"{tree}: wall, ratio (pairs) | {tree}: CPU, ratio (pairs)" for tree in trees)
             + " |", "|---|" + "---:|" * (2 * len(trees))]
    for kind in ["fresh", *games]:
        cells = []
        for tree in trees:
            for i in (0, 1):
                mine = [t[i] for t in times[(tree, kind)]]
                fresh = [t[i] for t in times[(tree, "fresh")]]
                ratio = statistics.median(mine) / statistics.median(fresh)
                pairs = statistics.median(a / b for a, b in zip(mine, fresh))
                cells.append(f"{statistics.median(mine) * 1000:.1f} ms, {ratio:.2f}x ({pairs:.2f}x)")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.resume_games", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--against", type=Path, help="another tree (a checkout of main) to alternate with")
    parser.add_argument("--write", type=Path, help=argparse.SUPPRESS)   # the child of journals_of
    args = parser.parse_args(argv)
    if args.write:
        print(json.dumps(write_journals(args.write)))
        return 0
    work = Path(tempfile.mkdtemp(prefix="corbeille-resume-"))
    trees = {"this": (ROOT, work / "this")}
    if args.against:
        trees["other"] = (args.against.resolve(), work / "other")
    counts = {}
    for tree, (root, states) in trees.items():
        counts[tree] = journals_of(root, states)
        print(f"{tree} ({root}): actions per game {counts[tree]}", file=sys.stderr, flush=True)
    games = list(counts["this"])
    print(report(measure(trees, games, args.rounds), trees, games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
