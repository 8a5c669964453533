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
