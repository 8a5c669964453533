"""Card effects entered by the operator (engines/core/cards.py)."""
import pytest

from engines.core.actions import ActionSet
from engines.core.cards import CARD_ACTIONS, CARD_KINDS, CardCollect, CardPay, CardPayEach, CardReceive, card_options, card_transfers
from engines.core.ledger import BANK, Ledger

ACTIONS = ActionSet(*CARD_ACTIONS)
PLAYERS = ["Ana", "Bob", "Cy"]


def test_each_effect_is_its_payments_in_order():
    assert card_transfers(CardPay(1, 300), [2, 0]) == [(1, BANK, 300)]
    assert card_transfers(CardReceive(1, 300), [2, 0]) == [(BANK, 1, 300)]
    assert card_transfers(CardPayEach(1, 300), [2, 0]) == [(1, 2, 300), (1, 0, 300)]
    assert card_transfers(CardCollect(1, 300), [2, 0]) == [(2, 1, 300), (0, 1, 300)]


def test_pay_each_and_collect_conserve_money_on_a_ledger():
    ledger = Ledger({0: 1000, 1: 1000, 2: 1000, BANK: 5000}, unlimited=())
    total = ledger.total()
    for act in (CardPayEach(0, 200), CardCollect(2, 100), CardPay(1, 50), CardReceive(1, 400)):
        for src, dst, amount in card_transfers(act, [s for s in (1, 2, 0) if s != act.player]):
            ledger.transfer(src, dst, amount, "card")
    assert ledger.total() == total
    assert [ledger[s] for s in (0, 1, 2)] == [1000 - 400 + 0 - 100, 1000 + 200 - 100 - 50 + 400, 1000 + 200 + 200]


def test_text_and_json_forms_round_trip():
    for line in ("card_pay Bob 300", "card_receive Ana 1000", "card_pay_each Cy 50", "card_collect Ana 200"):
        act = ACTIONS.parse(line, PLAYERS)
        assert ACTIONS.format(act, PLAYERS) == line
        assert ACTIONS.from_json(act.to_json()) == act


def test_options_offer_the_four_effects_for_the_player_in_steps():
    options = card_options(2, 100, 10_000)
    assert [o.kind for o in options] == list(CARD_KINDS)
    for option in options:
        assert 2 in option.fields["player"] and 1 not in option.fields["player"]
        assert 100 in option.fields["amount"] and 10_000 in option.fields["amount"]
        assert 150 not in option.fields["amount"] and 0 not in option.fields["amount"]


def test_an_action_that_is_no_card_effect_is_refused_by_name():
    class Other:
        kind, player, amount = "buy", 0, 10
    with pytest.raises(ValueError, match="buy is not a card effect; card effects: card_pay, card_receive"):
        card_transfers(Other(), [1])
