"""Maxi Bourse engine benchmark: a long random legal 6-player Masters game, played,
replayed from its action list and from a journal, plus one apply and one undo at its end.

    .venv/bin/python -m bench              # runs this and writes docs/performance.md
    .venv/bin/python -m bench.mb_bench --no-write --actions 500

Timings are wall-clock (time.perf_counter), best of a few runs where a run is cheap; memory
is tracemalloc's peak for one call. Nothing here is asserted: benchmarks inform, tests check.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench.doc import write_section
from bench import journal_bench
from bench.host import filesystem, machine
from bench.randomgame import SEED, long_game
from engines.maxibourse.actions import ACTIONS
from engines.maxibourse.game import MaxiBourse

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
SECTION = "## Maxi Bourse engine"


# ---------------------------------------------------------------- measuring
def timed(fn, repeat=1):
    """(best seconds, result of the last call)."""
    best, result = None, None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def peak_memory(fn):
    """tracemalloc's peak (bytes) during one call of `fn`, and its result."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, result


def play(header, actions, with_decision=False, cls=MaxiBourse):
    """Apply the actions one by one as the box does (each atomic: copy, apply, publish)."""
    game = cls(header)
    for act in actions:
        game.apply(act)
        if with_decision:
            game.decision()
    return game


def journal_replay(header, actions, directory, cls=MaxiBourse):
    """Write the game to a journal (untimed), then time opening it, reading the actions back
    and replaying them. Returns (open+read seconds, replay seconds, write median seconds)."""
    try:
        from firmware.journal import Journal
    except ImportError as error:  # the journal is another engineer's work in progress
        return None, f"firmware.journal not importable ({error})"
    with tempfile.TemporaryDirectory(prefix="mb-bench-", dir=directory) as tmp:
        path = Path(tmp) / "journal.sqlite"
        writes = []
        with Journal(path) as journal:
            game_id = journal.new_game(header)
            for act in actions:
                start = time.perf_counter()
                journal.append(game_id, act.to_json())
                writes.append(time.perf_counter() - start)

        def read_and_replay():
            t0 = time.perf_counter()
            with Journal(path) as journal:
                rows = journal.actions(game_id)
                stored = journal.header(game_id)
            t1 = time.perf_counter()
            game = cls.replay(stored, [cls.ACTIONS.from_json(r) for r in rows])
            return t1 - t0, time.perf_counter() - t1, game

        runs = [read_and_replay() for _ in range(3)]
        read, replay, game = min(runs, key=lambda r: r[0] + r[1])
        return {"total": read + replay, "read": read, "replay": replay, "game": game,
                "write_median": statistics.median(writes),
                "write_p99": sorted(writes)[min(len(writes) - 1, int(len(writes) * 0.99))]}, None


def one_apply(header, actions, repeat=20, cls=MaxiBourse):
    """Time and peak memory of applying the last action to the game of all the others."""
    times = []
    for _ in range(repeat):
        game = cls.replay(header, actions[:-1])
        gc.collect()
        start = time.perf_counter()
        game.apply(actions[-1])
        times.append(time.perf_counter() - start)
    game = cls.replay(header, actions[:-1])
    peak, _ = peak_memory(lambda: game.apply(actions[-1]))
    return statistics.median(times), peak


def one_undo(header, actions, repeat=5, cls=MaxiBourse):
    game = cls.replay(header, actions)
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        game.undo()
        times.append(time.perf_counter() - start)
        game.apply(actions[-1])
    peak, _ = peak_memory(game.undo)
    return statistics.median(times), peak


# -------------------------------------------------------------------- report
def ms(seconds):
    return f"{seconds * 1000:,.1f} ms" if seconds >= 0.001 else f"{seconds * 1e6:,.0f} µs"


def engine_rows(cls, header, actions, journal_dir):
    """The engine figures of one game, the same for every game: play, play with the
    pending decision after each action, replay (from actions, from their JSON forms, from
    a journal), one apply and one undo at the end, the snapshot. Returns (rows, notes,
    raw figures, the played game)."""
    n = len(actions)
    rows, notes, raw = [], [], {"actions": n}
    t_play, game = timed(lambda: play(header, actions, cls=cls), repeat=3)
    final = game.snapshot()
    rows.append(("play: apply each action (atomic, as the box does)", ms(t_play), ms(t_play / n)))
    t_menu, _ = timed(lambda: play(header, actions, with_decision=True, cls=cls), repeat=3)
    rows.append(("play + pending decision after each action (menus)", ms(t_menu), ms(t_menu / n)))
    t_replay, replayed = timed(lambda: cls.replay(header, actions), repeat=3)
    assert replayed.snapshot() == final, "replay differs from play"
    rows.append(("replay from the action list", ms(t_replay), ms(t_replay / n)))
    t_json, _ = timed(lambda: cls.replay(header, [cls.ACTIONS.from_json(a.to_json()) for a in actions]), repeat=3)
    rows.append(("replay from the JSON forms (to_json + from_json + replay)", ms(t_json), ms(t_json / n)))
    raw.update(play=t_play, play_with_decision=t_menu, replay=t_replay, replay_json=t_json)

    fs = filesystem(journal_dir)
    result, problem = journal_replay(header, actions, journal_dir, cls=cls)
    if result is None:
        rows.append(("replay from a journal", "skipped", ""))
        notes.append(f"Replay from a journal skipped: {problem}.")
    else:
        assert result["game"].snapshot() == final
        rows.append(("replay from a journal: open + verify + read", ms(result["read"]), ms(result["read"] / n)))
        rows.append(("replay from a journal: from_json + replay", ms(result["replay"]), ms(result["replay"] / n)))
        rows.append(("replay from a journal: total", ms(result["total"]), ms(result["total"] / n)))
        rows.append((f"journal append of this game's actions ({fs}): median / p99",
                     f"{ms(result['write_median'])} / {ms(result['write_p99'])}", ""))
        raw.update(journal_total=result["total"], journal_write_median=result["write_median"])

    t_apply, m_apply = one_apply(header, actions, cls=cls)
    rows.append((f"one apply at action {n} (median of 20) / tracemalloc peak (separate run)", ms(t_apply),
                 f"{m_apply / 1024:,.0f} KiB"))
    t_undo, m_undo = one_undo(header, actions, cls=cls)
    rows.append((f"one undo at action {n} / tracemalloc peak (separate run)", ms(t_undo), f"{m_undo / 1024:,.0f} KiB"))
    t_snap, _ = timed(lambda: game.snapshot(), repeat=20)
    rows.append(("snapshot (the JSON state) at the end", ms(t_snap), ""))
    raw.update(apply=t_apply, apply_peak=m_apply, undo=t_undo, undo_peak=m_undo, snapshot=t_snap)
    return rows, notes, raw, game


def run(target: int = 2000, seed: int = SEED, journal_dir: Path | None = None) -> tuple[str, dict]:
    journal_dir = Path(journal_dir or ROOT / "bench" / "results")
    journal_dir.mkdir(parents=True, exist_ok=True)
    used_seed, header, actions, _ = long_game(target, seed)
    n = len(actions)
    rows, notes, raw, game = engine_rows(MaxiBourse, header, actions, journal_dir)
    raw.update(seed=used_seed)
    final = game.snapshot()
    fs = filesystem(journal_dir)
    try:
        jb = journal_bench.run(target, str(journal_dir))
    except Exception as error:  # noqa: BLE001 - a benchmark reports, it does not stop
        notes.append(f"bench/journal_bench.py failed: {error!r}.")
    else:
        rows.insert(-3, (f"journal commit per action, bench/journal_bench.py ({jb['n']} appends, {fs}): median / p99",
                         f"{jb['append_median_ms']:.3f} ms / {jb['append_p99_ms']:.3f} ms", ""))
        raw["journal_bench"] = jb

    m = machine()
    kinds = {}
    for act in actions:
        kinds[act.kind] = kinds.get(act.kind, 0) + 1
    mix = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
    lines = [
        SECTION,
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['system']}, {m['python']}; run on {m['date']}.",
        "",
        f"Game: a random legal 6-player Masters game of {n} actions (bench/randomgame.py, seed {used_seed}; "
        f"round {final['round']} reached). Actions: {mix}.",
        "",
        "| measure | time | per action / memory |",
        "|---|---:|---:|",
        *[f"| {a} | {b} | {c} |" for a, b, c in rows],
        "",
        "Notes:",
        "- `apply` copies nothing: most refusals come from the decision's check before anything moves, and an "
        "action refused half-way is taken back by a replay from the last checkpoint (every 100 actions); "
        "`undo` replays from the last checkpoint too.",
        f"- Journal files are written under `{journal_dir.relative_to(ROOT) if journal_dir.is_relative_to(ROOT) else journal_dir}` "
        f"({fs}); commit time is mostly one fsync, so only numbers taken on the box's SD card say what a player waits.",
        *[f"- {note}" for note in notes],
        "",
        "Re-run with `.venv/bin/python -m bench` (`--no-write` to only print).",
        "",
    ]
    return "\n".join(lines), raw


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000, help="length of the game (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=SEED, help="first seed tried (default: %(default)s)")
    parser.add_argument("--journal-dir", type=Path, help="where journal files go (default: bench/results)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave docs/performance.md alone")
    args = parser.parse_args(argv)
    text, _ = run(args.actions, args.seed, args.journal_dir)
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
        print(f"written to {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
