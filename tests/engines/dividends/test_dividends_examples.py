"""Every worked example of the Dividends rulebook, with its figures."""
import pytest

from engines.core.errors import IllegalAction
from dividends_helpers import (cards, cash, certs, dice_line, finish_turns, give, new_game, play, seat, set_cash,
                        set_marker, step, tile, to_actions)


def test_four_player_token_set_up():
    """'S'il y a quatre joueurs, prenez les jetons 1, 2, 3 et 4', stacked lowest on top."""
    g = new_game(["Jean", "Marie", "Pierre", "Sam"])
    play(g, dice_line(g))
    series = g.s.proc.series
    assert series.items == [1, 2, 3, 4] and series.current.item == 1
    assert g.decision().prompt == "prompt.dv.auction_open"
    play(g, "bid Marie 50", "bid Jean 100", "sold")
    assert g.s.tokens[seat(g, "Jean")] == 1 and g.s.proc.series.current.item == 2
    assert seat(g, "Jean") not in g.s.proc.series.bidders  # the winner stops bidding


def test_jean_dice_desert_oil_200_to_350_grey_and_trans_pacific_400_to_300_white():
    g = new_game(["Jean", "Marie", "Pierre", "Sam"])
    set_marker(g, "TRANS-PACIFIC", 400)
    dice = g.decision().option("dice").fields["moves"]
    desert, pacific = g.companies.index("DESERT-OIL"), g.companies.index("TRANS-PACIFIC")
    assert g.zone("DESERT-OIL") == "grey" and dice.items[desert].values == (-3, -2, -1, 1, 2, 3)
    assert g.zone("TRANS-PACIFIC") == "white" and dice.items[pacific].values == (-3, -2, -1)
    with pytest.raises(IllegalAction, match=r"^TRANS-PACIFIC is in the white zone: its die cannot show \+2; moves TRANS-PACIFIC allowed: -3, -2, -1$"):
        # "1 dé blanc: 1 ↓, 1 ↓, 2 ↓, 2 ↓, 3 ↓, 3 ↓": the white die only goes down
        play(g, dice_line(g, DESERT_OIL=+3, TRANS_PACIFIC=+2))
    play(g, dice_line(g, DESERT_OIL=+3, TRANS_PACIFIC=-2))
    assert g.s.markers["DESERT-OIL"] == 350 and g.zone("DESERT-OIL") == "white"
    assert g.s.markers["TRANS-PACIFIC"] == 300 and g.zone("TRANS-PACIFIC") == "grey"
    assert g.s.last_dice["DESERT-OIL"] == {"die": "grey", "move": 3}
    assert g.s.last_dice["TRANS-PACIFIC"] == {"die": "white", "move": -2}
    assert step(g) == "auction"


def test_dividends_jean_800_and_marie_600_at_200_per_certificate():
    g = new_game(["Jean", "Marie", "Pierre", "Sam"])
    to_actions(g)
    give(g, "Jean", "CEDARPINES", 4)
    give(g, "Marie", "CEDARPINES", 3)
    assert g.s.markers["CEDARPINES"] == 200
    before = {p: cash(g, p) for p in g.players}
    finish_turns(g)
    assert step(g) == "payment"
    play(g, "pay")
    assert cash(g, "Jean") - before["Jean"] == 800
    assert cash(g, "Marie") - before["Marie"] == 600
    assert cash(g, "Pierre") == before["Pierre"] and cash(g, "Sam") == before["Sam"]
    assert g.s.last_payment["Jean"]["dividends"] == 800


@pytest.mark.parametrize("pierre_big_boulder", [1, 3])  # the example says 1, then 3
def test_cards_sam_draws_3_pierre_4_and_none_for_big_boulder(pierre_big_boulder):
    g = new_game(["Jean", "Marie", "Pierre", "Sam"])
    to_actions(g)
    give(g, "Sam", "TRANS-PACIFIC", 3)
    give(g, "Pierre", "GLOBAL-MOBILE", 4)
    give(g, "Jean", "BIG-BOULDER", 4)
    give(g, "Pierre", "BIG-BOULDER", pierre_big_boulder)
    assert tile(g, "TRANS-PACIFIC") == "Sam" and tile(g, "GLOBAL-MOBILE") == "Pierre"
    assert tile(g, "BIG-BOULDER") == "Jean"
    finish_turns(g)  # everyone's unused cards go back under the draw pile
    assert all(cards(g, p) == 0 for p in g.players)
    play(g, "pay")
    assert cards(g, "Sam") == 3
    assert cards(g, "Pierre") == 4  # none for his Big Boulder certificates
    assert cards(g, "Jean") == 4 and cards(g, "Marie") == 0
    assert g.s.last_payment["Pierre"]["cards"] == 4


def buy_in_game():
    """Desert Oil 1 000, Big Boulder 1 200, Global Mobile 1 400 are the cheapest."""
    g = new_game(["Jean", "Marie", "Pierre"], companies="CEDARPINES,GLOBAL-MOBILE,DESERT-OIL,BIG-BOULDER")
    to_actions(g)
    give(g, "Marie", "BIG-BOULDER", 1)
    give(g, "Pierre", "GLOBAL-MOBILE", 2)
    give(g, "Jean", "CEDARPINES", 3)
    assert [g.buy_price(c) for c in ("DESERT-OIL", "BIG-BOULDER", "GLOBAL-MOBILE", "CEDARPINES")] == [
        1000, 1200, 1400, 1600]
    finish_turns(g)
    play(g, "pay")
    return g


def test_buy_in_jean_1000_then_marie_chooses_big_boulder_and_pierre_must_buy_desert_oil_at_1200():
    g = buy_in_game()
    before = {p: cash(g, p) for p in g.players}
    play(g, "event BUY-IN")
    # Jean, first, had no choice: Desert Oil for 1 000, which is now at 1 200
    assert cash(g, "Jean") == before["Jean"] - 1000 and certs(g, "Jean", "DESERT-OIL") == 1
    assert g.buy_price("DESERT-OIL") == 1200
    d = g.decision()
    assert d.actor == seat(g, "Marie") and d.prompt == "prompt.dv.event_buy"
    assert d.option("buy").fields["company"].values == ("DESERT-OIL", "BIG-BOULDER")
    play(g, "buy Marie BIG-BOULDER")
    assert cash(g, "Marie") == before["Marie"] - 1200
    # Pierre had no choice either: Desert Oil at 1 200
    assert cash(g, "Pierre") == before["Pierre"] - 1200 and certs(g, "Pierre", "DESERT-OIL") == 1
    assert step(g) == "dice" and g.s.year == 2


def test_buy_in_marie_chooses_desert_oil_then_pierre_must_buy_big_boulder():
    g = buy_in_game()
    before = cash(g, "Pierre")
    play(g, "event BUY-IN", "buy Marie DESERT-OIL")
    assert certs(g, "Pierre", "BIG-BOULDER") == 1 and cash(g, "Pierre") == before - 1200


def test_buy_in_player_short_of_cash_is_exempt():
    g = buy_in_game()
    set_cash(g, "Marie", 999)
    play(g, "event BUY-IN")  # Jean 1 000; Marie cannot pay 1 200; Pierre chooses
    assert certs(g, "Marie", "DESERT-OIL") == 0 and cash(g, "Marie") == 999
    assert g.decision().actor == seat(g, "Pierre")


def placement_game(players=("Jean", "Marie", "Pierre", "Sam")):
    """Desert Oil has the most unsold certificates (9) and costs 1 200."""
    g = new_game(list(players))
    to_actions(g)
    give(g, "Sam", "DESERT-OIL", 1)
    for company in ("CEDARPINES", "GLOBAL-MOBILE", "TRANS-PACIFIC", "BIG-BOULDER"):
        give(g, "Sam", company, 2)
    finish_turns(g)
    play(g, "pay")
    return g


def test_placement_offer_600_then_700():
    g = placement_game()
    before = {p: cash(g, p) for p in g.players}
    play(g, "event PLACEMENT-OFFER")
    assert g.s.proc.affected == ("DESERT-OIL",)
    d = g.decision()
    assert d.prompt == "prompt.dv.placement" and d.actor == seat(g, "Jean")
    assert {o.kind for o in d.options} >= {"buy", "pass"}
    play(g, "buy Jean DESERT-OIL")
    assert cash(g, "Jean") == before["Jean"] - 600  # half of 1 200
    play(g, "buy Marie DESERT-OIL")
    assert cash(g, "Marie") == before["Marie"] - 700  # half of 1 400
    play(g, "pass Pierre", "buy Sam DESERT-OIL")
    assert cash(g, "Pierre") == before["Pierre"]
    assert cash(g, "Sam") == before["Sam"] - 800
    assert step(g) == "dice"  # the marker is removed, next year
    assert g.s.tiles["DESERT-OIL"] == seat(g, "Sam")  # 2 against 1 and 1


def test_placement_offer_ties_let_the_player_choose_among_the_companies():
    g = new_game(["Jean", "Marie", "Pierre", "Sam"])
    to_actions(g)
    give(g, "Sam", "CEDARPINES", 2)
    give(g, "Sam", "GLOBAL-MOBILE", 2)
    give(g, "Sam", "TRANS-PACIFIC", 1)
    give(g, "Sam", "DESERT-OIL", 1)
    give(g, "Sam", "BIG-BOULDER", 2)
    finish_turns(g)
    play(g, "pay", "event PLACEMENT-OFFER")
    assert g.s.proc.affected == ("DESERT-OIL", "TRANS-PACIFIC")
    assert g.decision().option("buy").fields["company"].values == ("DESERT-OIL", "TRANS-PACIFIC")
    before = cash(g, "Jean")
    play(g, "buy Jean TRANS-PACIFIC")
    assert cash(g, "Jean") == before - 600


def correction_game():
    """Trans-Pacific and Global Mobile tie for the most certificates sold (3 each)."""
    g = new_game(["P1", "P2", "P3", "P4"])
    to_actions(g)
    give(g, "P1", "TRANS-PACIFIC", 1)
    give(g, "P1", "GLOBAL-MOBILE", 1)
    give(g, "P2", "GLOBAL-MOBILE", 1)
    give(g, "P3", "CEDARPINES", 2)
    give(g, "P4", "TRANS-PACIFIC", 2)
    give(g, "P4", "GLOBAL-MOBILE", 1)
    finish_turns(g)
    play(g, "pay")
    return g


def test_technical_correction_player_1_chooses_player_2_forced_player_3_not_concerned():
    g = correction_game()
    before = {p: cash(g, p) for p in g.players}
    play(g, "event TECHNICAL-CORRECTION")
    assert g.s.proc.affected == ("GLOBAL-MOBILE", "TRANS-PACIFIC")
    d = g.decision()
    assert d.actor == seat(g, "P1") and d.prompt == "prompt.dv.event_sell"
    assert d.option("sell").fields["company"].values == ("GLOBAL-MOBILE", "TRANS-PACIFIC")
    assert g.sell_price("TRANS-PACIFIC") == 1400
    play(g, "sell P1 TRANS-PACIFIC")  # keeps Global Mobile
    assert cash(g, "P1") == before["P1"] + 700 and certs(g, "P1", "GLOBAL-MOBILE") == 1
    # P2 had only Global Mobile: sold at half of 1 400; P3 holds neither: not concerned
    assert cash(g, "P2") == before["P2"] + 700 and certs(g, "P2", "GLOBAL-MOBILE") == 0
    assert cash(g, "P3") == before["P3"] and certs(g, "P3", "CEDARPINES") == 2
    d = g.decision()
    assert d.actor == seat(g, "P4")
    assert d.option("sell").fields["company"].values == ("GLOBAL-MOBILE", "TRANS-PACIFIC")
    play(g, "sell P4 GLOBAL-MOBILE")
    assert cash(g, "P4") == before["P4"] + 600  # half of 1 200 (2 sold now)
    assert step(g) == "dice"
