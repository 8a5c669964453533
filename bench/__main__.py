"""`python -m bench` (`make bench`): run every benchmark and record each in its section
of docs/performance.md. Benchmarks run on demand, never as timed tests (DESIGN.md).

`--no-write` prints only, for every part. Each benchmark can also run alone:
`python -m bench.mb_bench`, `python -m bench.dv_bench`, `python -m bench.press_bench`
(each takes `--no-write` and `--help`).
"""
import sys

from bench import dv_bench, mb_bench, press_bench


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    unknown = [a for a in argv if a != "--no-write"]
    if unknown:
        print(f"python -m bench: unknown argument(s) {' '.join(unknown)}; the only option is --no-write "
              "(run a part alone for its own options)", file=sys.stderr)
        return 2
    write = ["--no-write"] if "--no-write" in argv else []
    for part in (mb_bench, dv_bench, press_bench):
        part.main(list(write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
