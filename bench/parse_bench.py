"""Reading the command language: one pass per line (engines.core.actions.split_line)
against shlex, called twice per line; and what a long script costs.

    .venv/bin/python -m bench.parse_bench       # prints; figures are in docs/reliability.md

Nothing here is asserted: benchmarks inform, tests check.
"""
from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from engines.core.actions import MAX_LINE_BYTES, split_line
from engines.core.errors import CorbeilleError
from firmware.script import run_script

ROOT = Path(__file__).resolve().parent.parent


def timed(work, repeat: int = 1) -> float:
    """Best of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv=None) -> int:
    line = "adjust_cash Sophie +10000 '" + "r" * (MAX_LINE_BYTES - 28) + "'"
    print(f"a {len(line.encode())}-byte line: split_line {timed(lambda: split_line(line), 200) * 1e6:.0f} µs, "
          f"shlex.split {timed(lambda: shlex.split(line, comments=True), 20) * 1e6:.0f} µs")
    for n in (10_000, 100_000, 400_000):
        word = "a" * n
        print(f"{n} characters in one word: split_line {timed(lambda: split_line(word), 5) * 1e3:.1f} ms, "
              f"shlex.split {timed(lambda: shlex.split(word, comments=True)) * 1e3:.0f} ms")
    head = (ROOT / "examples" / "sony.txt").read_text(encoding="utf-8")
    long_script = head + (line + "\n") * 2000
    print(f"a script of {len(long_script.encode()) / 1e6:.1f} MB (2 000 lines at the limit): "
          f"run_script {timed(lambda: run_script(long_script)):.2f} s")
    huge = head + "x" * 5_000_000 + "\n"

    def refuse():
        try:
            run_script(huge)
        except CorbeilleError:
            return
        raise AssertionError("a 5 MB line was read")
    print(f"a script with one 5 MB line: refused in {timed(refuse, 3) * 1e3:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
