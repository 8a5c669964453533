"""Maxi Bourse from a box file without its nominal prices (RM13's amendment, MB1): each
company's nominal is asked before the deal, read off the quotation table (100, 200 or 300 $),
journaled, undone and replayed like any action; every price starts at it."""
import re

import pytest

from engines.core.errors import IllegalAction
from engines.maxibourse.actions import LearnNominal
from engines.maxibourse.box import DEFAULT_BOX, load_box
from engines.maxibourse.game import MaxiBourse

NAMES = ["Ana", "Ben", "Cid"]


@pytest.fixture
def no_nominals(tmp_path):
    path = tmp_path / "maxi.toml"
    path.write_text(re.sub(r", nominal = \d+", "", DEFAULT_BOX.read_text(encoding="utf-8")), encoding="utf-8")
    return path


def new_game(box):
    return MaxiBourse({"game": "maxibourse", "format": "junior", "players": NAMES, "seed": 1, "box": str(box)})


def test_each_nominal_is_asked_before_the_deal_and_every_price_starts_at_it(no_nominals):
    shipped = load_box()
    game = new_game(no_nominals)
    for company, info in shipped.companies.items():
        decision = game.decision()
        assert decision.prompt == "prompt.mb.learn_nominal" and decision.params["company"] == company
        events = game.apply(LearnNominal(company, info.nominal))
        assert events[0].key == "mb.learned_nominal"
    complete = new_game(DEFAULT_BOX)
    assert game.decision().prompt == complete.decision().prompt
    assert game.s.prices == complete.s.prices and game.nominal("SONY") == shipped.companies["SONY"].nominal
    replayed = MaxiBourse.replay(game.header, game.log)
    assert replayed.snapshot() == game.snapshot()


@pytest.mark.parametrize("act, key", [
    (LearnNominal("BARCLAYS", 400), "error.mb.learn_nominal"),
    (LearnNominal("BARCLAYS", 0), "error.mb.learn_nominal"),
    (LearnNominal("CHASE", 200), "error.field"),   # not the company asked: what is allowed
])
def test_a_wrong_nominal_is_refused_and_changes_nothing(no_nominals, act, key):
    game = new_game(no_nominals)
    before = game.snapshot()
    with pytest.raises(IllegalAction) as refused:
        game.apply(act)
    assert refused.value.key == key
    assert game.snapshot() == before and not game.log


def test_a_nominal_known_is_not_learned_again_and_undo_forgets_one(no_nominals):
    game = new_game(no_nominals)
    before = game.snapshot()
    game.apply(LearnNominal("BARCLAYS", 300))
    with pytest.raises(IllegalAction) as refused:
        game.apply(LearnNominal("BARCLAYS", 200))
    assert refused.value.key == "error.mb.nominal_known"
    game.undo()
    assert game.snapshot() == before and game.decision().params["company"] == "BARCLAYS"


def test_a_complete_file_asks_nothing():
    assert new_game(DEFAULT_BOX).decision().prompt != "prompt.mb.learn_nominal"


def test_on_the_box_each_nominal_is_one_choice_in_dollars(tmp_path, no_nominals):
    from e2e_box import E2EBox, journal_script
    journal_script(tmp_path, f"game maxibourse\nformat junior\nbox {no_nominals}\nplayers Ana Ben Cid\nseed 1\n")
    box = E2EBox(tmp_path, seats=3)
    assert box.screen.title == "Cours nominal ?" and box.screen.lines[-1] == "BARCLAYS : cours nominal ?"
    assert box.items()[:3] == ["100 $", "200 $", "300 $"]
    box.choose("300 $")
    assert box.game.log[-1] == LearnNominal("BARCLAYS", 300) and box.game.price("BARCLAYS") == 300
    assert box.screen.lines == ("BARCLAYS : cours nominal 300 $", "CHASE : cours nominal ?")


def test_box_check_says_which_nominals_the_table_will_give(no_nominals):
    from cli_helpers import call
    done = call("box", "check", no_nominals, "--game", "maxibourse")
    assert done.returncode == 0, done.stderr
    assert "BARCLAYS ?" in done.stdout
    assert "known: 10 sectors, 40 companies, 47 board squares\nlearned at the table: 40 nominal prices\n" in done.stdout


def test_a_nominal_corrected_during_play_counts_as_learned_and_undo_forgets_it():
    """`set_nominal`: the quotation table read again; the box file written back holds it."""
    game = new_game(DEFAULT_BOX)
    company = next(iter(game.box.companies))
    nominal = 100 if game.box.companies[company].nominal != 100 else 200
    assert game.learned_entries() == ()
    game.apply(game.ACTIONS.parse(f'set_nominal {company} {nominal} "misread"', game.players))
    assert game.learned_entries() == (("nominal", company, nominal),)
    assert game.learned_box().companies[company].nominal == nominal and game.box.companies[company].nominal != nominal
    game.undo()
    assert game.learned_entries() == () and game.learned_box() == game.box
