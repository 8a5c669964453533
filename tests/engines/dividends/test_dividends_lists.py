"""Dividends' dice and deal are list fields: `dice` holds one move
per company in play (`moves`), `deal` the players the tokens go to (`players`), each list
with a domain per item. The forms of before keep reading: the text form is the same words
(`dice +1 -2 +3`, `deal Sam Jean`), and JSON written with the numbered fields d1..d5 and
p1..p12 (journals of earlier firmware) reads as the same action and replays to the same
state."""
import random

import pytest

from engines.core.actions import Seat, SignedDie
from engines.core.decision import Choice, Die, Items
from engines.core.errors import IllegalAction, ProtocolError
from engines.dividends.actions import ACTIONS, Dice, Deal
from engines.dividends.game import Dividends
from firmware.journal import Journal
from firmware.menus import Ctx, resolve
from firmware.script import run_script
from firmware.session import Session
from tests.dividends_helpers import dice_line, new_game, play
from tests.recorded_games import _snapshot, as_now, load

FOUR = ["Jean", "Marie", "Pierre", "Sam"]


def old_json(act) -> dict:
    """The JSON earlier firmware wrote: every numbered field, null past the last."""
    if act.kind == "dice":
        return {"kind": "dice", **{f"d{i}": (act.moves[i - 1] if i <= len(act.moves) else None) for i in range(1, 6)}}
    if act.kind == "deal":
        return {"kind": "deal", **{f"p{i}": (act.players[i - 1] if i <= len(act.players) else None)
                                   for i in range(1, 13)}}
    return act.to_json()


def test_the_text_forms_are_the_same_words_and_json_is_a_list():
    dice = ACTIONS.parse("dice +1 -2 +3", FOUR)
    assert dice == Dice((1, -2, 3)) and all(type(m) is SignedDie for m in dice.moves)
    assert ACTIONS.format(dice, FOUR) == "dice +1 -2 +3" and ACTIONS.usage("dice") == "dice [MOVES...]"
    assert dice.to_json() == {"kind": "dice", "moves": [1, -2, 3]} and ACTIONS.from_json(dice.to_json()) == dice
    deal = ACTIONS.parse("deal sam Jean", FOUR)
    assert deal == Deal((3, 0)) and all(type(s) is Seat for s in deal.players)
    assert ACTIONS.format(deal, FOUR) == "deal Sam Jean" and deal.to_json() == {"kind": "deal", "players": [3, 0]}
    assert ACTIONS.parse("dice", FOUR) == Dice(()) and ACTIONS.parse("deal", FOUR) == Deal(())
    with pytest.raises(ProtocolError, match="dice: moves must be written with its sign"):
        ACTIONS.parse("dice 1", FOUR)


def test_the_numbered_json_of_earlier_journals_reads_as_the_list():
    assert ACTIONS.from_json({"kind": "dice", "d1": 1, "d2": -2, "d3": 3, "d4": None, "d5": None}) == Dice((1, -2, 3))
    assert ACTIONS.from_json({"kind": "deal", "p1": 2, "p2": 0, **{f"p{i}": None for i in range(3, 13)}}) == Deal((2, 0))
    assert ACTIONS.from_json({"kind": "dice", **{f"d{i}": None for i in range(1, 6)}}) == Dice(())
    with pytest.raises(ProtocolError, match="d1, d2, d3, d4, d5 must be filled from the first, without gaps"):
        ACTIONS.from_json({"kind": "dice", "d1": None, "d2": 1})
    with pytest.raises(ProtocolError, match="dice: moves must be a list, got None"):
        ACTIONS.from_json({"kind": "dice", "moves": None})


def test_a_journal_written_with_the_numbered_fields_replays_to_the_recorded_states(tmp_path):
    """Recorded games (tests/recorded) written back in the old JSON, through a journal."""
    rows = [row for row in load("dividends") if "\ndeal" in row["script"]][:3]
    assert rows, "the records hold games with a deal"
    with Journal(tmp_path / "old.sqlite") as journal:
        for row in rows:
            game = run_script(row["script"], f"recorded #{row['index']}")
            gid = journal.new_game(game.header)
            for act in game.log:
                journal.append(gid, old_json(act))
            saved = journal.actions(gid)
            assert any("d1" in a for a in saved) and any("p1" in a for a in saved)
            again = Dividends.replay(game.header, [ACTIONS.from_json(a) for a in saved])
            assert _snapshot(again) == as_now("dividends", row["snapshot"])


def test_the_dice_decision_is_one_die_per_company_and_the_deal_each_bidder_once():
    g = new_game(FOUR)
    dice = g.decision().option("dice").fields["moves"]
    assert isinstance(dice, Items) and dice.labels == tuple(g.companies) and not dice.distinct
    assert all(isinstance(d, Die) and d.name == g.zone(c) for d, c in zip(dice.items, g.companies))
    play(g, dice_line(g), "bid Marie 100", "sold")
    deal = g.decision().option("deal").fields["players"]
    assert deal == Items((Choice((0, 2, 3)),) * 3, distinct=True)
    assert (0, 2, 3) in deal and (3, 0, 2) in deal and (0, 0, 2) not in deal and (0, 2) not in deal
    with pytest.raises(IllegalAction, match="each once; players allowed: 3 of Jean, Pierre, Sam, each once$"):
        play(g, "deal Jean Jean Sam")


def test_a_deal_entered_on_the_box_asks_each_token_and_offers_only_players_not_yet_named():
    g = new_game(FOUR)
    play(g, dice_line(g), "bid Marie 100", "sold")
    ctx = Ctx(Session(g), "en")
    option = g.decision().option("deal")
    values = {}
    asked = []
    while True:
        filled, question = resolve(ctx, "deal", option, values)
        if question is None:
            break
        asked.append([label for label, _ in question.items])
        values[question.key] = question.items[-1][1]       # the last one offered
    assert asked == [["Jean", "Pierre", "Sam"], ["Jean", "Pierre"]]   # the third is the one left
    assert list(values) == ["players#0", "players#1"]
    assert filled == {"players": (3, 2, 0)}
    g.apply(Deal(filled["players"]))
    assert g.s.tokens == [4, 1, 3, 2]


def test_the_device_fills_the_dice_list_and_a_list_given_in_part_stays_refused():
    g = new_game(FOUR)
    rolled = g.fill_chance(Dice(()), random.Random(2))
    assert len(rolled.moves) == 5 and rolled.moves in g.decision().option("dice").fields["moves"]
    part = Dice((1,))
    assert g.fill_chance(part, random.Random(2)) is part
    with pytest.raises(IllegalAction, match="^dice: 1 move given, 5 companies"):
        g.apply(part)
