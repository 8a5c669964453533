"""The bench's replay figure, this tree against another, run after run.

    .venv/bin/python -m bench.replay_pair --against OTHER_TREE [--rounds 6]

Each round runs, for each tree in an order that changes every round, one child process
that imports that tree's code and times `press_bench.replay_from_journal` (open, read,
replay unchecked; best of 3) on its own copy of the same 2 000-action journal
(`press_bench.long_journal`, written once by this tree: both schemas are the same), its
box file read from the parsed copy beside it as `corbeille run` reads it, with
the child's CPU time (`time.thread_time`) beside its wall time; then a fresh start of
that tree (`press_bench.start_once`, the real `corbeille run` to its first frame), as the
figure's denominator. Printed: per tree and per round, replay / fresh start, and the
ratio of the two trees' replays round by round. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from bench.press_bench import replay_from_journal
from firmware.journal import Journal
from engines import game_class
from engines.core.files import keep_parsed_in
path = Path(sys.argv[2])
keep_parsed_in(path.parent / "parsed")      # the box file read as corbeille run reads it
best_wall, best_cpu = None, None
for _ in range(3):
    w, c = time.perf_counter(), time.thread_time()
    with Journal(path) as journal:
        game_id = journal.last_game()
        header = journal.header(game_id)
        cls = game_class(header.get("game", "maxibourse"))
        cls.replay(header, [cls.ACTIONS.from_json(a) for a in journal.actions(game_id)], checked=False)
    w, c = time.perf_counter() - w, time.thread_time() - c
    best_wall = w if best_wall is None else min(best_wall, w)
    best_cpu = c if best_cpu is None else min(best_cpu, c)
keep_parsed_in(None)
print(json.dumps({"bench": replay_from_journal(path), "wall": best_wall, "cpu": best_cpu}))
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="another tree (a checkout of main)")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args(argv)
    from bench.press_bench import long_journal, start_once

    trees = {"this": ROOT, "other": Path(args.against).resolve()}
    work = Path(tempfile.mkdtemp(prefix="replay-pair-"))
    source = work / "source"
    source.mkdir()
    long_journal(source)
    results = {name: [] for name in trees}
    for round_ in range(args.rounds):
        order = list(trees) if round_ % 2 == 0 else list(reversed(list(trees)))
        for name in order:
            folder = work / f"{name}-{round_}"
            folder.mkdir()
            shutil.copy(source / "journal.sqlite", folder / "journal.sqlite")
            shutil.copytree(source / "parsed", folder / "parsed")   # the box's parsed box file
            env = dict(os.environ, PYTHONSAFEPATH="1")
            out = subprocess.run([sys.executable, "-c", CHILD, str(trees[name]), str(folder / "journal.sqlite")],
                                 cwd=trees[name], env=env, capture_output=True, text=True, check=True)
            got = json.loads(out.stdout.strip().splitlines()[-1])
            fresh = work / f"{name}-{round_}-fresh"
            fresh.mkdir()
            got["start"] = start_once(fresh, trees[name])[0]
            results[name].append(got)
            print(f"round {round_} {name}: replay {got['bench'] * 1e3:.1f} ms (wall {got['wall'] * 1e3:.1f}, "
                  f"CPU {got['cpu'] * 1e3:.1f}), fresh start {got['start'] * 1e3:.1f} ms, "
                  f"{got['bench'] / got['start']:.3f}x", flush=True)
    for name in trees:
        rows = results[name]
        print(f"{name}: replay median {statistics.median(r['bench'] for r in rows) * 1e3:.1f} ms "
              f"(best {min(r['bench'] for r in rows) * 1e3:.1f}), CPU median "
              f"{statistics.median(r['cpu'] for r in rows) * 1e3:.1f} ms, fresh start median "
              f"{statistics.median(r['start'] for r in rows) * 1e3:.1f} ms, ratio median "
              f"{statistics.median(r['bench'] / r['start'] for r in rows):.3f}x "
              f"(runs {min(r['bench'] / r['start'] for r in rows):.3f}-{max(r['bench'] / r['start'] for r in rows):.3f})")
    pairs = [a["bench"] / b["bench"] for a, b in zip(results["this"], results["other"])]
    cpu = [a["cpu"] / b["cpu"] for a, b in zip(results["this"], results["other"])]
    print(f"this / other, replay round by round: median {statistics.median(pairs):.3f} "
          f"({min(pairs):.3f}-{max(pairs):.3f}); CPU {statistics.median(cpu):.3f}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
