"""Typed action fields: each field says what it holds (a player, a company,
lots, money, a price, a die's face, a grid cell...), the text and JSON forms read and write
it by that type, and the box's menus ask by the type, never by the field's name."""
from typing import Optional

import pytest

from engines.core.actions import (ActionSet, Cell, Company, CountDelta, DieFace, Lots, Money, MoneyDelta, Price,
                                  Seat, Target, action)
from engines.core.decision import Choice, IntRange
from engines.core.errors import ProtocolError
from firmware.menus import Ctx, field_question
from firmware.session import Session
from maxibourse_helpers import started

PLAYERS = ["Ana", "Ben"]


@action("swap")
class Swap:
    giver: Seat
    ticker: Company
    count: Lots
    cost: Money
    quote: Price
    at: Optional[Cell] = None


ACTIONS = ActionSet(Swap)


def test_typed_fields_are_read_and_written_by_type_in_text_and_json():
    act = ACTIONS.parse("swap ben sony 2 1_000 250 c4", PLAYERS)
    assert act == Swap(1, "SONY", 2, 1000, 250, Cell((3, 2)))
    assert isinstance(act.ticker, Company) and isinstance(act.count, Lots) and isinstance(act.at, Cell)
    assert ACTIONS.format(act, PLAYERS) == "swap Ben SONY 2 1000 250 C4"
    data = act.to_json()
    assert data == {"kind": "swap", "giver": 1, "ticker": "SONY", "count": 2, "cost": 1000, "quote": 250, "at": "C4"}
    assert ACTIONS.from_json(data) == act


def test_a_bad_cell_or_number_is_refused_naming_the_allowed_form():
    with pytest.raises(ProtocolError, match="column letter A-Z and a row number from 1, like B4"):
        ACTIONS.parse("swap ana sony 2 1000 250 4C", PLAYERS)
    with pytest.raises(ProtocolError, match="column letter"):
        ACTIONS.from_json({"kind": "swap", "giver": 0, "ticker": "X", "count": 1, "cost": 1, "quote": 1, "at": "A0"})
    with pytest.raises(ProtocolError, match="count must be a whole number"):
        ACTIONS.parse("swap ana sony two 1000 250", PLAYERS)


def test_the_games_fields_carry_their_types():
    from engines.dividends.actions import ACTIONS as DV
    from engines.maxibourse.actions import ACTIONS as MB
    types = lambda actions, kind: {n: t for n, t, _ in actions.fields(kind)}
    assert types(MB, "trade") == {"seller": Seat, "buyer": Seat, "company": Company, "lots": Lots, "price": Price}
    assert types(MB, "price")["target"] is Target and types(MB, "pay")["amount"] is Money
    assert types(MB, "adjust_lots")["delta"] is CountDelta and types(MB, "adjust_cash")["delta"] is MoneyDelta
    assert types(MB, "roll")["d1"] == Optional[DieFace]
    assert types(DV, "bid")["amount"] is Money and types(DV, "adjust_cards")["delta"] is CountDelta


def ctx():
    return Ctx(Session(started(["Ana", "Ben", "Cid"])), "en")


def test_menus_ask_by_the_field_type_whatever_the_field_is_called():
    c = ctx()
    # a seat field not called "player": the players by name
    q = field_question(c, "pay", "giver", Choice((0, 2)), {}, {}, Seat)
    assert q.kind == "list" and [label for label, _ in q.items] == ["Ana", "Cid"]
    # a company field not called "company": sector first, then the company (more than 7)
    companies = tuple(c.game.companies)
    q = field_question(c, "sell", "ticker", Choice(companies), {}, {}, Company)
    assert q.kind == "list" and q.key == "#sector:ticker"
    # lots, counted as lots
    q = field_question(c, "sell", "count", IntRange(1, 3), {"player": 0}, {}, Lots)
    assert q.key == "count" and [v for _, v in q.items] == [1, 2, 3]
    # a die's face
    q = field_question(c, "roll", "first_die", IntRange(1, 6), {}, {}, Optional[DieFace])
    assert [v for _, v in q.items] == [1, 2, 3, 4, 5, 6]


def test_a_signed_change_is_asked_in_the_unit_of_its_type():
    c = ctx()
    company = c.game.companies[0]
    count = field_question(c, "adjust_lots", "change", IntRange(-9, 9), {"player": 0, "company": company}, {},
                           CountDelta)
    cash = field_question(c, "adjust_cash", "change", IntRange(-10**7, 10**7, 1), {"player": 0}, {}, MoneyDelta)
    assert count.kind == cash.kind == "amount" and count.skip_zero and cash.skip_zero
    assert count.steps == (1, 10) and count.fmt(2) == "+2"
    assert 100_000 in cash.steps and cash.start == 100_000


@pytest.mark.parametrize("name, start, steps", [
    ("maxibourse", 100_000, (10_000, 100_000, 1_000_000, 10_000_000)),   # 5 000 000 $ each (Junior)
    ("dividends", 100, (10, 100, 1_000, 10_000)),                         # 4 000 $ each
    ("avendre", 100, (10, 100, 1_000, 10_000)),                           # 5 100 each
    ("shark", 1_000, (100, 1_000, 10_000, 100_000)),                      # prices of 1 000 FT a point
    ("richesses", 100_000, (10_000, 100_000, 1_000_000, 10_000_000)),    # 66 600 000 F each
])
def test_a_correction_of_cash_starts_and_steps_in_the_games_own_money(name, start, steps):
    """A cash correction starts at the game's `money_step`, with a tenth and ten and a
    hundred times it on a long press: a few notes' error is a few presses in every game."""
    from engines import game_class

    game = game_class(name)({"game": name, "players": ["Ana", "Ben", "Cid"], "seed": 1})
    q = field_question(Ctx(Session(game), "fr"), "adjust_cash", "delta", IntRange(-10**8, 10**8), {"player": 0}, {},
                       MoneyDelta)
    assert (q.start, q.steps, q.steps[q.step]) == (start, steps, start)


# ------------------------------------------------------------------ list fields
from engines.core.actions import Seats  # noqa: E402


@action("hand_out", old_forms={"players": ("p1", "p2", "p3")})
class HandOut:
    """Tokens to these players, in order (a list field replacing the numbered p1..p3)."""
    company: Company
    players: Seats = ()


LISTS = ActionSet(HandOut)
NAMES = ["Ana", "Ben", "Cid"]


def test_a_list_field_takes_the_remaining_words_and_is_a_json_list():
    act = LISTS.parse("hand_out sony cid ana", NAMES)
    assert act == HandOut("SONY", (2, 0)) and LISTS.format(act, NAMES) == "hand_out SONY Cid Ana"
    assert act.to_json() == {"kind": "hand_out", "company": "SONY", "players": [2, 0]}
    assert LISTS.from_json(act.to_json()) == act
    assert LISTS.parse("hand_out sony", NAMES) == HandOut("SONY", ())
    assert LISTS.usage("hand_out") == "hand_out COMPANY [PLAYERS...]"
    with pytest.raises(ProtocolError, match="'zoe' is not a player"):
        LISTS.parse("hand_out sony ana zoe", NAMES)
    with pytest.raises(ProtocolError, match="hand_out takes hand_out COMPANY"):
        LISTS.parse("hand_out", NAMES)


def test_the_old_numbered_json_form_reads_as_the_same_action_and_export_writes_the_list():
    old = {"kind": "hand_out", "company": "SONY", "p1": 2, "p2": 0, "p3": None}
    act = LISTS.from_json(old)
    assert act == LISTS.parse("hand_out SONY Cid Ana", NAMES) == HandOut("SONY", (2, 0))
    assert act.to_json() == {"kind": "hand_out", "company": "SONY", "players": [2, 0]}
    assert LISTS.from_json({"kind": "hand_out", "company": "SONY"}) == HandOut("SONY", ())


def test_an_old_form_with_a_gap_or_mixed_with_the_new_one_is_refused():
    with pytest.raises(ProtocolError, match="p1, p2, p3 must be filled from the first, without gaps"):
        LISTS.from_json({"kind": "hand_out", "company": "SONY", "p1": None, "p2": 0})
    with pytest.raises(ProtocolError, match="players and p1 both given; write players only"):
        LISTS.from_json({"kind": "hand_out", "company": "SONY", "p1": 1, "players": [0]})


def test_a_list_field_must_be_the_last_one():
    with pytest.raises(ValueError, match="a list field must be the last field"):
        @action("bad")
        class Bad:
            players: Seats
            company: Company


# ------------------------------------------- Dividends: every field asked by its type
def dv_ctx(lang="en"):
    from engines.dividends.game import Dividends

    return Ctx(Session(Dividends({"game": "dividends", "players": ["Jean", "Marie", "Pierre"], "seed": 1})), lang)


def test_dividends_has_no_question_of_its_own_and_its_fields_are_asked_by_type():
    """A marker's value, an influence card's move, the event tile: the question and its
    line come from the field's type (`Marker`, `Move`, `Tile`), whatever the field is called."""
    from engines.core.actions import Marker, Move, Tile
    from engines.dividends.actions import ACTIONS as DV
    from firmware.games import adapter

    assert not hasattr(adapter("dividends"), "field_question")
    assert [DV.classes[k]._types[f] for k, f in (("set_marker", "value"), ("influence", "move"))] == [Marker, Move]
    assert DV.classes["event"]._types["tile"] == Optional[Tile]
    c = dv_ctx()
    q = field_question(c, "set_marker", "level", Choice((150, 200, 250)), {"company": "CEDARPINES"}, {}, Marker)
    assert q.lines == ("CEDARPINES's dividend?",) and q.items == (("150", 150), ("200", 200), ("250", 250))
    q = field_question(c, "influence", "shift", Choice((-1, 1)), {"company": "DESERT-OIL"}, {}, Move)
    assert q.lines == ("DESERT-OIL: up or down?",) and q.items == (("-1", -1), ("+1", 1))
    q = field_question(c, "event", "drawn", Choice(("BUY-IN", "FORCE-SELL")), {}, {}, Optional[Tile])
    assert q.lines == ("Which tile?",) and [v for _, v in q.items] == ["BUY-IN", "FORCE-SELL"]
    fr = dv_ctx("fr")
    q = field_question(fr, "influence", "move", Choice((-1, 1)), {"company": "DESERT-OIL"}, {}, Move)
    assert q.lines == ("DESERT-OIL : vers le haut ou le bas ?",)


def test_a_die_per_company_entered_by_hand_names_the_company_and_its_die():
    from engines.core.actions import SignedDie
    from engines.core.decision import Die

    c = dv_ctx()
    q = field_question(c, "dice", "moves#0", Die.of((1, -1, 2, -2, 3, -3), "grey"), {"#item": "CEDARPINES"}, {},
                       SignedDie)
    assert q.key == "moves#0" and q.title == "CEDARPINES's die" and q.lines == ("CEDARPINES: grey die",)
    assert [label for label, _ in q.items] == ["-3", "-2", "-1", "+1", "+2", "+3"]


def test_an_action_is_a_frozen_dataclass_of_its_fields():
    """Action's own methods (written once, not generated per class) behave as a frozen
    dataclass's: positional or keyword fields and defaults, equal and hashed on the fields
    within one class, its repr, no field set or deleted, and dataclasses' own functions."""
    import copy
    import dataclasses
    import pickle

    @action("other")
    class Other:
        giver: Seat
        ticker: Company
        count: Lots
        cost: Money
        quote: Price
        at: Optional[Cell] = None

    swap = Swap(Seat(0), Company("SONY"), count=Lots(2), cost=Money(5), quote=Price(10))
    assert swap.at is None and swap == Swap(giver=0, ticker="SONY", count=2, cost=5, quote=10, at=None)
    assert hash(swap) == hash(Swap(0, "SONY", 2, 5, 10)) and len({swap, Swap(0, "SONY", 2, 5, 10)}) == 1
    assert swap != Other(0, "SONY", 2, 5, 10) and swap != Swap(0, "SONY", 3, 5, 10)
    assert repr(swap) == "Swap(giver=0, ticker='SONY', count=2, cost=5, quote=10, at=None)"
    for wrong, message in (((0, "SONY", 2, 5), "missing 1 required positional argument: 'quote'"),
                           ((0, "SONY", 2, 5, 10, None, 1), "takes from 6 to 7 positional arguments but 8"),):
        with pytest.raises(TypeError, match=message):
            Swap(*wrong)
    with pytest.raises(TypeError, match="unexpected keyword argument 'price'"):
        Swap(0, "SONY", 2, 5, price=10)
    with pytest.raises(TypeError, match="multiple values for argument 'giver'"):
        Swap(0, "SONY", 2, 5, 10, giver=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        swap.count = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        del swap.count
    assert [f.name for f in dataclasses.fields(swap)] == ["giver", "ticker", "count", "cost", "quote", "at"]
    assert dataclasses.replace(swap, count=3) == Swap(0, "SONY", 3, 5, 10)
    assert dataclasses.asdict(swap)["ticker"] == "SONY"
    assert pickle.loads(pickle.dumps(swap)) == swap == copy.deepcopy(swap)
    with pytest.raises(ValueError, match="a field's default must be a value"):
        @action("listed")
        class Listed:
            items: tuple = dataclasses.field(default_factory=tuple)
