"""`python -m bench`: run the benchmarks and record them in docs/benchmarks.md.

Benchmarks run on demand, never as timed tests (DESIGN.md). Options are those of
bench/mb_bench.py (`--no-write`, `--actions N`, `--seed S`, `--journal-dir DIR`).
"""
import sys

from bench.mb_bench import main

if __name__ == "__main__":
    sys.exit(main())
