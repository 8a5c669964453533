"""A kind name means one thing: `bid` was Maxi Bourse's lot-auction answer
(PLAYER LOTS) and Dividends' money bid (PLAYER AMOUNT); `pay` was a Maxi Bourse card's
payment (PLAYER AMOUNT) and Dividends' payout to every holder. Each meaning now has its own
kind (`keep`, `payout`), and each game reads its old name through its alias table, so old
journals, scripts and examples/ still read; the alias is the game's own."""
import pytest

from engines import game_class
from engines.core.actions import ActionSet, Lots, Money, action
from engines.core.errors import ProtocolError
from engines.dividends.actions import ACTIONS as DV
from engines.maxibourse.actions import ACTIONS as MB
from firmware.script import ScriptError, run_script
from tests.recorded_games import load

NAMES = ["Ana", "Ben", "Cid"]


def test_maxi_bourse_reads_bid_as_keep_in_text_and_json_and_writes_keep():
    act = MB.parse("bid Ben 1", NAMES)
    assert act.kind == "keep" and act == MB.parse("keep Ben 1", NAMES) and isinstance(act.lots, Lots)
    assert MB.from_json({"kind": "bid", "player": 1, "lots": 1}) == act
    assert MB.format(act, NAMES) == "keep Ben 1" and act.to_json() == {"kind": "keep", "player": 1, "lots": 1}
    assert MB.parse("pay Ana 5000", NAMES).kind == "pay"      # a card's payment keeps its name


def test_dividends_reads_pay_as_payout_and_keeps_bid_for_money():
    assert DV.parse("pay", NAMES).kind == "payout" == DV.from_json({"kind": "pay"}).kind
    assert DV.format(DV.parse("pay", NAMES), NAMES) == "payout"
    bid = DV.parse("bid Ana 150", NAMES)
    assert bid.kind == "bid" and isinstance(bid.amount, Money)


def test_an_alias_is_the_games_own():
    with pytest.raises(ProtocolError, match="unknown action 'payout'"):
        MB.parse("payout", NAMES)
    with pytest.raises(ProtocolError, match="unknown action 'keep'"):
        DV.parse("keep Ana 1", NAMES)
    with pytest.raises(ScriptError, match="unknown action 'keep'"):
        run_script("game dividends\nplayers Jean Marie\nkeep Jean 1\n")


def test_no_kind_name_means_two_things_across_the_games():
    """A kind two games both have takes the same kind of value in each field they share."""
    games = [game_class(name).ACTIONS for name in ("maxibourse", "dividends")]
    mb, dv = games
    for kind in set(mb.classes) & set(dv.classes):
        mine, theirs = dict((n, t) for n, t, _ in mb.fields(kind)), dict((n, t) for n, t, _ in dv.fields(kind))
        for name in set(mine) & set(theirs):
            assert mine[name] == theirs[name], (kind, name)
    assert "bid" not in mb.classes and "pay" not in dv.classes


def test_an_alias_must_lead_to_a_kind_and_hide_none():
    @action("keep_it")
    class KeepIt:
        lots: Lots

    with pytest.raises(ValueError, match="alias 'bid' -> 'nothing'"):
        ActionSet(KeepIt, aliases={"bid": "nothing"})
    with pytest.raises(ValueError, match="alias 'keep_it' -> 'keep_it'"):
        ActionSet(KeepIt, aliases={"keep_it": "keep_it"})


@pytest.mark.parametrize("name, old, new", [("maxibourse", "\nbid ", "\nkeep "), ("dividends", "\npay\n", "\npayout\n")])
def test_a_recorded_script_with_the_old_names_replays_as_with_the_new_ones(name, old, new):
    script = next(row["script"] for row in load(name) if old in row["script"])
    before, after = run_script(script), run_script(script.replace(old, new))
    assert before.snapshot() == after.snapshot() and before.log == after.log
    assert new.strip() in {a.kind for a in before.log}
