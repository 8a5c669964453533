"""Hypothesis profiles: `make test` is derandomised, `make fuzz` explores.

- "ci" (the default): a fixed seed per test (derandomize) and no example database, so
  `make test` and CI draw the same examples on every run and give one verdict.
- "fuzz" (`make fuzz`, HYPOTHESIS_PROFILE=fuzz): fresh random seeds and many more
  examples (tests/props.py scales each test's own count). Every failure it finds is
  pinned as an explicit @example in the test file.
"""
import json
import os
import random
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The tests sit in folders by area (core, engines/<game>, firmware, journal, drivers, house);
# the helpers they share sit here, and a few tests import another's fixtures by module name.
# Every folder is on the path from the start, so such an import does not depend on which
# test pytest happened to collect first.
TESTS = Path(__file__).resolve().parent
for folder in sorted({path.parent for path in TESTS.rglob("test_*.py")}, reverse=True):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", derandomize=False, database=None, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _no_constants_from_imported_modules():
    """Hypothesis also draws, now and then, literals it finds in the project's modules the
    process has imported so far ("local constants"), so what a test draws would depend on
    which modules the tests before it imported (or which tests were collected), and a
    failure seen in the suite might not come back alone. Under `make test` every test draws
    from its own seed alone; `make fuzz` keeps them (more varied inputs, fresh seeds anyway).
    The hook is Hypothesis's own internal one: tests/house/test_test_order.py fails if it
    stops working."""
    from hypothesis.internal.conjecture import providers

    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        none = providers.Constants()
        providers._get_local_constants = lambda: none


if os.environ.get("HYPOTHESIS_PROFILE", "ci") != "fuzz":
    _no_constants_from_imported_modules()


@pytest.fixture(autouse=True)
def own_random_draws(request):
    """Whatever draws from the random module's own generator draws as if its test ran alone:
    seeded from the test's name under `make test` (fresh under `make fuzz`), so a test's
    draws never depend on which tests ran before it (tests/house/test_test_order.py)."""
    fuzzing = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
    state = random.getstate()
    random.seed(None if fuzzing else zlib.crc32(request.node.name.encode()))
    yield
    random.setstate(state)


def pytest_collection_modifyitems(items):
    """The tests marked `long` first, in their collected order, then the others in theirs:
    pytest-xdist hands out tests in this order, so its workers start on the long ones and
    share out the many short ones after, instead of one worker finishing a long test alone
    at the end. Every worker collects the same list and sorts it the same way."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)     # a stable sort


def pytest_sessionfinish(session):
    """Under `make test`'s workers (pytest-xdist), each worker hands what it played and
    tried to the main process, which prints the sums (`pytest_testnodedown`)."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        from props import COUNTS, TRIED
        output["props"] = json.dumps({"COUNTS": COUNTS, "TRIED": TRIED})


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    from props import COUNTS, TRIED
    done = json.loads(getattr(node, "workeroutput", {}).get("props", "{}"))
    for mine, theirs in ((COUNTS, done.get("COUNTS", {})), (TRIED, done.get("TRIED", {}))):
        for name, (first, second) in theirs.items():
            mine[name][0] += first
            mine[name][1] += second


def pytest_terminal_summary(terminalreporter):
    from props import COUNTS, TRIED
    if TRIED:
        terminalreporter.section("damaged inputs tried")
        for name, (count, refused) in sorted(TRIED.items()):
            terminalreporter.write_line(f"{name}: {count} tried, {refused} refused")
    if COUNTS:
        terminalreporter.section("random games played")
        for name, (games, actions) in sorted(COUNTS.items()):
            terminalreporter.write_line(f"{name}: {games} games, {actions} actions")
