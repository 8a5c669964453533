"""`python -m bench` (`make bench`): run every benchmark and record each in its section
of docs/benchmarks.md. Benchmarks run on demand, never as timed tests (DESIGN.md).

`--no-write` prints only. Each benchmark can also run alone:
`python -m bench.mb_bench`, `python -m bench.dv_bench`, `python -m bench.press_bench`.
"""
import sys

from bench import dv_bench, mb_bench, press_bench


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    write = ["--no-write"] if "--no-write" in argv else []
    mb_bench.main(write)
    dv_bench.main(write)
    press_bench.main(write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
