"""PRODUCT.md's targets, in its own words, beside what `bench.press_bench` measured.

`make bench` rewrites the section below in docs/performance.md. Each row quotes PRODUCT.md
("Targets") word for word (tests/house/test_bench.py checks the quotes against the file, so
a target reworded there shows here), names the figure that stands for it and says whether
it is held. The press figures are the best of `--runs` runs of the press loop (for each
kind of press, the run with the lowest p99: a loaded machine only ever adds time); the
start figures are medians of paired runs, and counts (flushes, bytes, memory) come from one
run, as they do not vary.
"""
from __future__ import annotations

SECTION = "## Targets (PRODUCT.md)"
PI_FACTOR = 10      # a Raspberry Pi Zero 2 W core is about 10x slower than this machine's
MiB = 1024 * 1024

# (PRODUCT.md's words, the figure's key, the most it may be, how the figure is shown)
TARGETS = [
    ("at most 1.5x the time Pillow alone takes to draw that frame (menu move)",
     "menu_ratio", 1.5, "{:.2f}x"),
    ("an applied action (engine, hash-chained append, next screen, one commit) at most 2 ms here at p99",
     "applied_p99_ms", 2.0, "{:.2f} ms"),
    ("under 50 ms to the panel on a Pi Zero 2 W", "pi_panel_ms", 50.0, "~{:.1f} ms"),
    ("Process start to first frame: at most 1.3x the imports alone", "start_ratio", 1.3, "{:.2f}x"),
    ("resuming a 3-hour game at most 1.2x a fresh start", "resume_ratio", 1.2, "{:.2f}x"),
    ("under 1 s on a Pi", "pi_start_s", 1.0, "~{:.2f} s"),
    ("one flush per acknowledged action", "action_syncs", 1.0, "{:.2f}"),
    ("nothing durable for a menu move", "menu_syncs", 0.0, "{:.2f} flushes"),
    ("at most 4 MiB written per hour of play", "hour_mib", 4.0, "{:.1f} MiB"),
    ("Peak memory under 36 MB with a long game and the quotation board", "peak_mib", 36.0, "{:.1f} MiB"),
]
# The figure each key stands for, said once under the table.
FIGURES = {
    "menu_ratio": "menu press -> frame (median) / Pillow alone",
    "applied_p99_ms": "applying press -> frame, p99",
    "pi_panel_ms": f"that p99 x {PI_FACTOR} + its pages on I2C",
    "start_ratio": "start -> first frame / imports alone",
    "resume_ratio": "resume of 2000 actions / fresh start",
    "pi_start_s": f"fresh start x {PI_FACTOR}",
    "action_syncs": "flushes per action (strace)",
    "menu_syncs": "flushes per menu move (strace)",
    "hour_mib": "writes of 600 actions",
    "peak_mib": "VmHWM resuming 2000 actions, board drawn",
}
NOT_HERE = "The web view's and the venue's targets: sections Web view and Venue."


def held(value, most) -> str:
    return "held" if value <= most else "NOT held"


def section(figures: dict, runs: int) -> str:
    """The targets table: a row per target this bench measures, with the figure that stands
    for it (a figure not taken, the flushes without strace, says so)."""
    lines = [SECTION, "",
             f"Presses: the best of {runs} runs (for each kind, the run with the lowest p99); starts: "
             "medians of 11 paired runs; flushes, bytes and memory: one run. The figures are the section "
             f"Box's; x {PI_FACTOR} estimates a Pi Zero 2 W core. Written by `make bench` (bench/targets.py).", "",
             "| target (PRODUCT.md's words) | figure | measured | |", "|---|---|---:|---|"]
    for words, key, most, shown in TARGETS:
        value = figures.get(key)
        if value is None:
            lines.append(f"| {words} | {FIGURES[key]} | not measured (strace missing) | |")
        else:
            lines.append(f"| {words} | {FIGURES[key]} | {shown.format(value)} | {held(value, most)} |")
    return "\n".join(lines + ["", NOT_HERE, ""])
