"""Hypothesis profiles: `make test` is derandomised, `make fuzz` explores.

- "ci" (the default): a fixed seed per test (derandomize) and no example database, so
  `make test` and CI draw the same examples on every run and give one verdict.
- "fuzz" (`make fuzz`, HYPOTHESIS_PROFILE=fuzz): fresh random seeds and many more
  examples (tests/props.py scales each test's own count). Every failure it finds is
  pinned as an explicit @example in the test file.
"""
import os
import sys
from pathlib import Path

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
