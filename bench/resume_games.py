"""Resume of each game against a fresh start, and against another version of the code.

    .venv/bin/python -m bench.resume_games [--rounds 12] [--against OTHER_TREE] [--instructions]

For each registered game, a long random game (Maxi Bourse: bench/randomgame.py's 2 000-action
Masters game; the others: played to their end, or to 2 000 actions, from their pending
decisions) is journaled through a session as the box journals it (rules recorded, a snapshot
every 100 actions, the box file parsed into the state folder's parsed/ when the game is
created, as `corbeille run` does), then `corbeille run` is started on it and timed to its
first frame (`press_bench.start_once`: the real command line, mock pins, dummy operator
display, the e-ink board on its stand-in).

How it is measured, and why (docs/performance.md): the machine is
shared, and a start's time moves by +-15 % from one run to the next, more than what a resume
adds. So each resume is paired with a fresh start run just before it (the same moment, the
same load), the games' order changes every round, and with `--against` the two trees
alternate start by start, their order flipped every round; one warm-up round first (page
cache), not counted. Printed per tree and game: the median wall time and the median CPU time
of the child at its first frame (noted by the child itself, all its threads: less moved by
the load than the wall time), each with its ratio to the fresh starts: ratio of the medians,
then the median of the paired ratios with their quartiles (the spread). `--instructions`
adds, for one start of each kind under valgrind (cachegrind, PYTHONHASHSEED=0), the
instructions executed from spawn to the first frame: a count the load does not move, run to
run within 0.01 %. PRODUCT.md's target is a resume within 1.2x a fresh start. Nothing is asserted.
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

    from engines.core.files import keep_parsed_in

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
        # as `corbeille run` creates a game: its box file parsed once into the state folder,
        # so the first resume finds it there as on the box (without it, the first resume
        # would parse the box file, which a box never does)
        keep_parsed_in(folder / "parsed")
        with Journal(folder / "journal.sqlite") as journal:
            session = Session.new(head, journal)
            for act in actions:
                session.apply(act)
        counts[name] = len(actions)
    keep_parsed_in(None)
    (out / "fresh").mkdir(parents=True, exist_ok=True)
    return counts


def journals_of(root: Path, out: Path) -> dict:
    """write_journals run by `root`'s code, in a child of its own."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONSAFEPATH="1")
    done = subprocess.run([sys.executable, str(Path(__file__)), "--write", str(out)], cwd=root, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(trees: dict, games: list, rounds: int) -> dict:
    """{(tree, game): [(wall, cpu, fresh wall, fresh cpu), ...]}: each resume with the fresh
    start run just before it. One warm-up round first, not counted. The games' order turns
    every round and the trees' order flips, so that no start always follows the same one."""
    from bench.press_bench import start_once

    times = {(tree, game): [] for tree in trees for game in games}
    for n in range(rounds + 1):
        order = list(trees) if n % 2 == 0 else list(trees)[::-1]
        turned = games[n % len(games):] + games[:n % len(games)]
        for game in turned:
            for tree in order:
                root, states = trees[tree]
                fresh_wall, fresh, _ = start_once(states / "fresh", root=root)
                wall, first, _ = start_once(states / game, root=root)
                if n:
                    times[(tree, game)].append((wall, first["cpu"], fresh_wall, fresh["cpu"]))
        print(f"round {n} of {rounds} done (load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    return times


def instructions(root: Path, state_dir: Path) -> int | None:
    """Instructions `corbeille run` executes from spawn to its first frame (valgrind's
    cachegrind, without cache simulation: a count the machine's load does not change), or
    None without valgrind."""
    import re
    import shutil

    from bench.press_bench import STANDIN

    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    config = state_dir / "corbeille.toml"
    config.write_text(f'[state]\ndir = "{state_dir}"\n[operator]\ntype = "dummy"\n[board]\ntype = "eink"\n')
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONSAFEPATH="1", PYTHONHASHSEED="0",
               PYTHONPATH=f"{STANDIN}{os.pathsep}{root}")
    env.pop("NOTIFY_SOCKET", None)
    done = subprocess.run([valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           sys.executable, str(ROOT / "bench" / "start_child.py"), "--exit-at-first-frame",
                           str(state_dir / "child.json"), "--config", str(config), "run"],
                          cwd=root, env=env, capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if found else None


def _spread(values) -> str:
    if len(values) < 2:                     # one round: no quartiles
        return f"{statistics.median(values):.2f}x"
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{q2:.2f}x ({q1:.2f}-{q3:.2f})"


def report(times: dict, trees: dict, games: list, counts: dict | None = None) -> str:
    lines = ["| start | " + " | ".join(f"{tree}: wall, ratio of medians, paired (quartiles) "
                                        f"| {tree}: CPU, ratio of medians, paired (quartiles)" for tree in trees)
             + " |", "|---|" + "---:|" * (2 * len(trees))]
    fresh_cells = []
    for tree in trees:
        every = [t for game in games for t in times[(tree, game)]]
        for i in (2, 3):
            fresh_cells.append(f"{statistics.median(t[i] for t in every) * 1000:.1f} ms ({len(every)} runs)")
    lines.append("| fresh | " + " | ".join(fresh_cells) + " |")
    for game in games:
        cells = []
        for tree in trees:
            runs = times[(tree, game)]
            for i in (0, 1):
                mine, fresh = [t[i] for t in runs], [t[i + 2] for t in runs]
                ratio = statistics.median(mine) / statistics.median(fresh)
                cells.append(f"{statistics.median(mine) * 1000:.1f} ms, {ratio:.2f}x, "
                             f"{_spread([a / b for a, b in zip(mine, fresh)])}")
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    if counts:
        lines += ["", "| instructions to the first frame | " + " | ".join(trees) + " |",
                  "|---|" + "---:|" * len(trees)]
        for kind in ["fresh", *games]:
            cells = []
            for tree in trees:
                n, fresh = counts[(tree, kind)], counts[(tree, "fresh")]
                cells.append("no valgrind" if n is None or fresh is None else
                             f"{n / 1e6:.1f} M" + ("" if kind == "fresh" else f", {n / fresh:.3f}x"))
            lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.resume_games", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions of one start of each kind (valgrind)")
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
    times = measure(trees, games, args.rounds)
    instr = None
    if args.instructions:
        instr = {(tree, kind): instructions(root, states / kind)
                 for tree, (root, states) in trees.items() for kind in ["fresh", *games]}
    print(report(times, trees, games, instr))
    return 0


if __name__ == "__main__":
    sys.exit(main())
