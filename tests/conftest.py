"""Hypothesis profiles: `make test` is derandomised, `make fuzz` explores.

- "ci" (the default): a fixed seed per test (derandomize) and no example database, so
  `make test` and CI draw the same examples on every run and give one verdict.
- "fuzz" (`make fuzz`, HYPOTHESIS_PROFILE=fuzz): fresh random seeds and many more
  examples (tests/props.py scales each test's own count). Every failure it finds is
  pinned as an explicit @example in the test file.
"""
import functools
import json
import os
import random
import sys
import zlib
from pathlib import Path

import pytest

# Hypothesis runs every installed package's "hypothesis" plugin when it is imported: here
# only Trio's (a dependency of Selenium), for Trio's async tests, of which there are none.
# Finding it scans every installed package's metadata and loading it imports Trio, in each
# process that imports Hypothesis (the workers and the pytest runs the tests start alike).
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")
from hypothesis import HealthCheck, settings  # noqa: E402  (after the line above)

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


# The suite's longest tests (`pytest --durations=40`), marked `long` here rather than by a
# decorator: a property test's derandomised seed is drawn from its source, decorators
# included, so a decorator would change what it draws. Each entry is a test function (all
# its parameters); tests/house/test_long_tests.py checks that each names a test.
LONG = (
    "core/test_game_contract.py::test_random_games_drawn_from_the_decisions_alone_keep_the_contract",
    "engines/avendre/test_avendre_properties.py::test_random_games_keep_money_and_titles_and_never_get_stuck",
    "engines/avendre/test_avendre_properties.py::test_the_random_games_reach_the_rules_that_matter",
    "engines/dividends/test_dividends_properties.py::test_tight_random_games_with_corrections_undo_and_redo",
    "engines/maxibourse/test_maxibourse_properties.py::test_random_legal_games_keep_money_lots_prices_and_decisions",
    "engines/maxibourse/test_maxibourse_properties.py::test_tight_games_cash_poor_with_corrections_and_undos",
    "engines/maxibourse/test_maxibourse_properties.py::test_illegal_actions_change_nothing_and_say_why",
    "engines/maxibourse/test_maxibourse_properties.py::test_replay_and_undo_give_the_same_states",
    "engines/richesses/test_richesses_properties.py::test_random_games_without_the_square_order_keep_the_same_invariants",
    "engines/richesses/test_richesses_properties.py::test_random_games_keep_money_titles_and_trusts_and_never_show_cash",
    "engines/richesses/test_richesses_properties.py::test_texts_name_squares_in_words_never_by_protocol_ids",
    "engines/richesses/test_richesses_properties.py::test_no_refusal_of_richesses_shows_a_players_cash",
    "engines/shark/test_shark_properties.py::test_random_legal_games_keep_every_invariant_and_undo_is_replay",
    "firmware/test_box_play.py::test_random_setups_play_through_the_whole_box",
    "firmware/test_box_play.py::test_what_random_play_found_stays_fixed",
    "firmware/test_report_board.py::test_the_800x480_board_shows_the_fortunes_then_the_prices_a_few_sectors_a_page",
    "firmware/test_venue_broker.py::test_a_broker_stopped_while_tables_play_then_back_loses_nothing",
    "firmware/test_venue_broker.py::test_a_publisher_process_killed_mid_publish_leaves_no_gap_and_no_duplicate",
    "firmware/test_venue_broker.py::test_corbeille_publish_and_corbeille_venue_as_processes",
    "firmware/test_web_browser.py::test_the_pages_say_the_box_or_the_web_process_is_gone_and_follow_again_once_back",
    "firmware/test_web_browser.py::test_hidden_cash_never_reaches_the_public_side",
    "house/test_systemd.py::test_plain_debian_takes_the_web_view_from_apt_too",
    "house/test_test_order.py::test_the_random_play_tests_draw_the_same_in_either_order",
    "journal/test_journal.py::test_power_cut_keeps_every_acknowledged_action",
    "journal/test_journal.py::test_power_cut_keeps_every_acknowledged_action_and_its_screen_state_with_it",
    "journal/test_journal_game.py::test_power_cuts_during_a_real_game_replay_to_the_same_state",
    "journal/test_powercut.py::test_killed_mid_game_the_box_comes_back_on_the_same_screen_with_the_same_game",
    "journal/test_storage_faults.py::test_every_fault_during_play_of_each_game_loses_no_acknowledged_action",
)


def long_test(item) -> bool:
    """Whether `item` is one of LONG (any of its parameters)."""
    return f"{_under_tests(str(item.fspath))}::{item.originalname}" in LONG


@functools.cache
def _under_tests(fspath: str) -> str | None:
    """A test file's path from the tests' folder (None outside it): resolved once per file,
    not once per each of its thousands of tests."""
    path = Path(fspath).resolve()
    return path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else None


@pytest.hookimpl(tryfirst=True)        # marked before `-m` selects on the marks
def pytest_collection_modifyitems(items):
    """The tests marked `long` first, in their collected order, then the others in theirs:
    under `make test` pytest-xdist hands out whole modules in the order of their first
    test here (--dist loadscope, Makefile), so its workers start on the modules holding
    the long ones and share out the others after, instead of one worker finishing a long
    test alone at the end. Every worker collects the same list and sorts it the same way."""
    for item in items:
        if long_test(item):
            item.add_marker(pytest.mark.long)
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
