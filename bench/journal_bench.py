"""Journal benchmark: how long an append takes to be durably committed, and how long a
journal of that many actions takes to open (verify every checksum) and read back.

    python bench/journal_bench.py [N] [DIRECTORY]

The temp file goes in DIRECTORY (default: the system temp directory). Commit time is
mostly one fsync, so run it on the filesystem the box keeps its journal on: a tmpfs /tmp
makes fsync free and the numbers meaningless for an SD card.
"""
from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from firmware.journal import Journal


def _action(i: int) -> dict:
    return {"kind": "buy", "player": i % 6, "company": "Société Générale", "lots": 1 + i % 5}


def run(n: int = 2000, directory: str | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="journal-bench-", dir=directory) as tmp:
        path = Path(tmp) / "bench.db"
        times = []
        with Journal(path) as journal:
            game = journal.new_game({"game": "maxibourse", "players": ["A", "B", "C"], "seed": 1})
            for i in range(n):
                start = time.perf_counter()
                journal.append(game, _action(i))
                times.append(time.perf_counter() - start)
        start = time.perf_counter()
        with Journal(path) as journal:
            opened = time.perf_counter()
            assert len(journal.actions(game)) == n
            read = time.perf_counter()
        times.sort()
        return {
            "n": n,
            "directory": str(Path(tmp).parent),
            "append_median_ms": round(statistics.median(times) * 1000, 3),
            "append_p99_ms": round(times[min(n - 1, int(n * 0.99))] * 1000, 3),
            "append_max_ms": round(times[-1] * 1000, 3),
            "open_and_verify_ms": round((opened - start) * 1000, 1),
            "read_all_actions_ms": round((read - opened) * 1000, 1),
        }


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else 2000,
                         sys.argv[2] if len(sys.argv) > 2 else None), indent=2))
