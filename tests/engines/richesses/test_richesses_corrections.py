"""Richesses du Monde's corrections: titles, jokers, plaques and whose turn it is, beside cash
and the pawn; each in the history with its reason, undone like any action, refused with
nothing changed; accepted during an auction (a high bid above its bidder's corrected cash is
withdrawn, the previous bid stands) and a free sale; and a position entered by corrections
equal to the same position played."""
import pytest

from engines.core.deeds import STOCK
from engines.core.errors import IllegalAction
from engines.richesses.actions import Bid, Lots, Offer, Sold
from test_richesses_rules import auction_game, new_game

TITLE = "RIZ-CHINE"


def act(game, line):
    return game.apply(game.ACTIONS.parse(line, game.players))


def state(game):
    return game.snapshot(), len(game.log)


def test_a_title_is_given_moved_and_taken_back_with_no_payment_and_undone():
    game = new_game()
    title = next(iter(game.box.titles))
    money = game.s.ledger.total()
    events = act(game, f'give_title Ben {title} "bought last turn, not entered"')
    assert game.s.deeds.owner(title) == 1
    assert events[-1].text("en").endswith(": bought last turn, not entered")
    act(game, f'give_title Cid {title} "given to the wrong player"')
    assert game.s.deeds.owner(title) == 2
    before = state(game)
    act(game, f'take_title {title} "x"')
    assert game.s.deeds.owner(title) == STOCK and game.s.ledger.total() == money
    game.undo()
    assert state(game) == before
    for line, message in ((f'give_title Cid {title} "x"', f"Cid holds .* already"),
                          ('give_title Cid NOWHERE "x"', "title = NOWHERE is not allowed")):
        with pytest.raises(IllegalAction, match=message):
            act(game, line)
        assert state(game) == before


def test_jokers_and_plaques_are_corrected_within_what_is_there():
    game = new_game()
    stock = game.s.joker_stock
    act(game, 'adjust_jokers Ana +2 "two jokers bought"')
    assert game.s.jokers[0] == 2 and game.s.joker_stock == stock - 2
    before = state(game)
    with pytest.raises(IllegalAction, match="Ana holds 2 jokers, not 3"):
        act(game, 'adjust_jokers Ana -3 "x"')
    with pytest.raises(IllegalAction, match="square 1 twice"):
        act(game, 'swap_plaques 1 1 "x"')
    assert state(game) == before
    one, two = game.s.plaques["1"], game.s.plaques["2"]
    act(game, 'swap_plaques 1 2 "laid the other way"')
    assert (game.s.plaques["1"], game.s.plaques["2"]) == (two, one)
    game.undo()
    assert state(game) == before


def test_whose_turn_and_a_pawn_are_corrected_between_turns_only():
    game = new_game()
    act(game, 'set_turn Cid "Cid plays before Ben"')
    assert game.decision().params["player"] == "Cid"
    act(game, "roll 2 3")
    before = state(game)
    for line, message in (('set_turn Ana "x"', "at the start of a turn only"),
                          ('set_pawn Ana 3 0 "x"', "between turns only")):
        with pytest.raises(IllegalAction, match=message):
            act(game, line)
        assert state(game) == before


def test_a_cash_correction_during_an_auction_withdraws_a_high_bid_its_bidder_can_no_longer_pay():
    game, (four, _, _) = auction_game()
    game.apply(Lots(0, (four,)))
    half = game.trust_price(0, four) // 2
    game.apply(Bid(1, half))
    game.apply(Bid(2, half + 1_000_000))
    money = game.s.ledger.total()
    cid = game.cash(2)
    events = act(game, f'adjust_cash Cid -{cid - half} "a note counted twice"')
    assert any(e.key == "rm.bid_withdrawn" for e in events)
    decision = game.decision()
    assert decision.params["bidder"] == "Ben" and decision.params["high"] == half   # the previous bid stands
    assert decision.interaction.params["silence_s"] == 7
    assert game.s.ledger.total() == money
    game.apply(Sold())
    assert game.trusts(1) == (four,)
    # a correction that leaves the leader his bid changes nothing in the auction
    game2, (four2, _, _) = auction_game()
    game2.apply(Lots(0, (four2,)))
    game2.apply(Bid(1, half))
    events = act(game2, 'adjust_cash Ben -100000 "x"')
    assert not any(e.key == "rm.bid_withdrawn" for e in events) and game2.decision().params["bidder"] == "Ben"


def test_during_an_auction_the_titles_on_sale_are_not_corrected_but_others_are():
    game, (four, five, _) = auction_game()
    game.apply(Lots(0, (four,)))
    on_sale = game.trust(0, four)[0]
    before = state(game)
    with pytest.raises(IllegalAction, match="is on sale; it changes hands by the sale only"):
        act(game, f'take_title {on_sale} "x"')
    assert state(game) == before
    other = game.trust(0, five)[0]
    act(game, f'give_title Ben {other} "x"')           # not on sale: corrected at once
    assert game.s.deeds.owner(other) == 1 and game.decision().prompt.startswith("prompt.rm.auction")


def test_during_a_free_sale_the_best_offer_stays_payable():
    game = new_game()
    title = next(t for t in game.box.titles)
    act(game, f'give_title Ana {title} "x"')
    production = game.box.titles[title].production
    game.apply(Offer(0, production, 1, 1_000_000))
    before = state(game)
    with pytest.raises(IllegalAction, match="Ben holds the high bid"):
        act(game, f'adjust_cash Ben -{game.cash(1) - 500_000} "x"')
    assert state(game) == before
    act(game, 'adjust_cash Cid -100000 "x"')           # another player's cash: corrected at once
    assert game.decision().prompt == "prompt.rm.sale_window"


def test_a_position_entered_by_corrections_is_the_position_reached_by_play():
    played = new_game()
    act(played, "roll 2 3")                   # Ana lands on a country and buys nothing
    act(played, "done Ana")
    entered = new_game()
    for s in range(4):
        delta = played.cash(s) - entered.cash(s)
        if delta:
            act(entered, f'adjust_cash {entered.players[s]} {delta:+d} "under way"')
    pos, laps = played.s.track.positions[0], played.s.track.laps[0]
    act(entered, f'set_pawn Ana {pos} {laps} "under way"')
    for title in played.box.titles:
        owner = played.s.deeds.owner(title)
        if owner != STOCK:
            act(entered, f'give_title {entered.players[owner]} {title} "under way"')
    act(entered, 'set_turn Ben "under way"')
    keep = ("players", "step")
    assert {k: entered.snapshot().get(k) for k in keep} == {k: played.snapshot().get(k) for k in keep}
    assert played.decision().params["player"] == entered.decision().params["player"] == "Ben"
    for game in (played, entered):            # and both play on alike
        act(game, "roll 1 2")
    assert {k: entered.snapshot().get(k) for k in keep} == {k: played.snapshot().get(k) for k in keep}
