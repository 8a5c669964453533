"""The random-play tests draw the same whatever ran before them: the same tests run in two
orders, each in a pytest process of its own (forked: FORKED below), and the games, actions
and refusals they report (tests/props.py, printed at the end of the run) are the same both
ways. A test whose draws depended on a test before it (a cache, a global left set, the
random module's own state) could fail in the suite and pass alone, and never reproduce."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = [
    "tests/firmware/test_e2e_maxibourse.py",                    # whole boxes: more modules imported
    "tests/firmware/test_inputs_fuzz.py::test_console_lines_are_answered_and_a_refusal_changes_nothing",
    "tests/engines/dividends/test_dividends_properties.py::test_random_games_conserve_everything_and_reach_the_end",
]
REPORTED = re.compile(r"^(?P<name>[^:\n]+): (?P<figures>\d+ (?:games|tried), \d+ (?:actions|refused))$", re.M)


# One interpreter imports what every pytest run here imports before it collects (pytest, and
# Hypothesis, which tests/conftest.py imports), then forks one child per order, one after
# the other: each order starts from that same state, as it would in a fresh process of its own.
FORKED = """
import json, os, sys
import pytest, hypothesis
for out, args in json.loads(sys.argv[1]):
    if os.fork() == 0:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        sys.exit(pytest.main(args))
    _, status = os.wait()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{args!r} failed: {open(out).read()[-3000:]}")
"""


def reported(folder, orders, *options) -> list[dict[str, str]]:
    """For each order of tests, {what was played or tried: its figures} as a pytest run of
    those tests, in that order, reports it."""
    env = dict(os.environ, HYPOTHESIS_PROFILE="ci")
    # Without xdist, which runs nothing here: each run starts sooner, both alike.
    unused = ("-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist")
    runs = [(str(folder / f"order-{i}.out"), [*unused, *options, *tests]) for i, tests in enumerate(orders)]
    done = subprocess.run([sys.executable, "-c", FORKED, json.dumps(runs)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return [{m["name"]: m["figures"] for m in REPORTED.finditer((folder / f"order-{i}.out").read_text())}
            for i in range(len(orders))]


def test_the_random_play_tests_draw_the_same_in_either_order(tmp_path):
    forward, backward = reported(tmp_path, [TESTS, TESTS[::-1]])
    assert "console lines" in forward and "dividends" in forward, forward
    assert forward == backward


LEAKY = """
import random

from props import played

LEFT = []          # a global one test leaves set and the other draws from


def test_leaves_a_global_set():
    LEFT.append(1)


def test_draws_from_what_was_left():
    played("leaky", random.Random(len(LEFT)).randint(1, 10**6))
"""


def test_the_comparison_finds_draws_that_depend_on_a_test_before(tmp_path, monkeypatch):
    """Two tests, one drawing from a global the other leaves set, report other figures in the
    other order: the comparison above can fail."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))        # the suite's conftest, loaded by name
    (tmp_path / "test_leaky.py").write_text(LEAKY)
    tests = [f"{tmp_path / 'test_leaky.py'}::{name}" for name in ("test_leaves_a_global_set",
                                                                 "test_draws_from_what_was_left")]
    options = ("--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"), "-p", "conftest")
    forward, backward = reported(tmp_path, [tests, tests[::-1]], *options)
    assert "leaky" in forward and "leaky" in backward
    assert forward != backward
