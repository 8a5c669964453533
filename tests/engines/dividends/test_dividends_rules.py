"""Rulings DV1-DV7 and the further decisions of docs/rules/dividends.md."""
import random

import pytest

from engines.core.actions import Seat
from engines.core.errors import BoxFileError, IllegalAction
from engines.core.i18n import catalog
from engines.core.majority import tile_holder
from engines.core.open_auction import AuctionSeries, OpenAuction
from engines.dividends.box import load_box
from engines.dividends.game import Dividends
from engines.core.table import drop_private
from dividends_helpers import (bank_certs, card_total, cards, cash, certs, dice_line, finish_turns, give, new_game, play,
                        seat, set_cash, set_marker, step, tile, to_actions)

FOUR = ["Jean", "Marie", "Pierre", "Sam"]


# DV1: the chart and the dividend track -------------------------------------------------
def test_dv1_chart_prices_buy_at_slot_k_sell_at_slot_k_minus_1():
    g = new_game(FOUR)
    to_actions(g)
    assert g.buy_price("DESERT-OIL") == 1000 and g.sell_price("DESERT-OIL") is None
    before = cash(g, "Jean")
    play(g, "buy Jean DESERT-OIL", "buy Jean DESERT-OIL")
    assert cash(g, "Jean") == before - 1000 - 1200
    assert g.buy_price("DESERT-OIL") == 1400 and g.sell_price("DESERT-OIL") == 1200
    play(g, "sell Jean DESERT-OIL")
    assert cash(g, "Jean") == before - 1000 and bank_certs(g, "DESERT-OIL") == 9


def test_dv1_no_certificate_left_cannot_be_bought():
    g = new_game(FOUR)
    to_actions(g)
    give(g, "Marie", "CEDARPINES", 10)
    assert g.buy_price("CEDARPINES") is None and g.sell_price("CEDARPINES") == 2800
    assert "CEDARPINES" not in g.decision().option("buy").fields["company"].values
    with pytest.raises(IllegalAction, match="^CEDARPINES: no certificate left on the chart; company allowed: GLOBAL-MOBILE,"):
        play(g, "buy Jean CEDARPINES")


def test_dv1_track_zones_start_and_ends():
    g = new_game(FOUR)
    assert all(v == 200 for v in g.s.markers.values())
    assert [g.box.zone_of(v).die for v in (0, 150, 200, 300, 350, 500)] == ["black", "black", "grey", "grey",
                                                                          "white", "white"]
    set_marker(g, "CEDARPINES", 0)
    set_marker(g, "GLOBAL-MOBILE", 500)
    dice = g.decision().option("dice").fields["moves"]
    assert dice.labels == tuple(g.companies) and g.companies[:2] == ["CEDARPINES", "GLOBAL-MOBILE"]
    assert dice.items[0].values == (1, 2, 3) and dice.items[0].faces == (1, 1, 2, 2, 3, 3)  # black: all up
    assert dice.items[1].values == (-3, -2, -1)  # white: all down
    set_marker(g, "DESERT-OIL", 450)
    play(g, dice_line(g, DESERT_OIL=-3))
    assert g.s.markers["DESERT-OIL"] == 300
    roll_g = new_game(FOUR)
    set_marker(roll_g, "CEDARPINES", 100)
    play(roll_g, dice_line(roll_g, CEDARPINES=3))
    assert roll_g.s.markers["CEDARPINES"] == 250


def test_dv1_marker_stops_at_the_ends():
    g = new_game(FOUR)
    to_actions(g)
    set_marker(g, "CEDARPINES", 500)
    set_marker(g, "GLOBAL-MOBILE", 0)
    play(g, "influence Jean CEDARPINES +1", "influence Jean GLOBAL-MOBILE -1")
    assert g.s.markers["CEDARPINES"] == 500 and g.s.markers["GLOBAL-MOBILE"] == 0
    assert g.s.discard == 2  # the cards are played all the same


def test_dv1_box_is_unverified_and_snapshot_says_so():
    box = load_box()
    assert box.verified is False
    assert box.companies["DESERT-OIL"].prices == (1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2600, 2800)
    assert box.track == tuple(range(0, 501, 50)) and box.start == 200
    assert new_game(FOUR).snapshot()["box_verified"] is False


BOX = """
verified = false
prices = [1000, 1200, 1400]
[influence]
per_company = 4
any_company = 4
[track]
values = [0, 50, 100]
start = 50
zones = [{ die = "black", from = 0, to = 0 }, { die = "grey", from = 50, to = 50 }, { die = "white", from = 100, to = 100 }]
""" + "".join(f'[[companies]]\nid = "C{i}"\nname = "Company {i}"\ncolour = "red"\n' for i in range(5))


@pytest.mark.parametrize("change,message", [
    (("start = 50", "start = 75"), "track.start: 75 is not on the track"),
    (('die = "grey"', 'die = "pink"'), r"track.zones\[1\].die: 'pink' is not allowed"),
    (("from = 50, to = 50", "from = 100, to = 100"), "track.zones: track value 50 is in no zone"),
    (("prices = [1000, 1200, 1400]", "prices = [1000, 900, 1400]"), r"prices\[1\]: 900 after 1000"),
    (("per_company = 4", "per_company = -1"), "influence.per_company: -1 is below the minimum 0"),
    (('id = "C3"', 'id = "C1"'), r"companies\[3\].id: 'C1' appears twice"),
    (('id = "C4"', 'id = "c 4"'), r"companies\[4\].id: 'c 4' must be upper case"),
    (("verified = false", "verified = false\ncolour = 3"), "colour: unknown key"),
    (('[[companies]]\nid = "C4"', '[[companies]]\nprices = [1, 2]\nid = "C4"'), r"companies\[4\].prices: 2 slots"),
])
def test_dv1_box_schema_errors_name_the_key(tmp_path, change, message):
    path = tmp_path / "box.toml"
    path.write_text(BOX)
    assert len(load_box(path).companies) == 5
    path.write_text(BOX.replace(*change, 1))
    with pytest.raises(BoxFileError, match=message):
        load_box(path)


def test_dv1_a_box_file_changes_the_chart(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text(BOX)
    g = Dividends({"game": "dividends", "players": FOUR, "box": str(path)})
    assert g.slots == 3 and g.buy_price("C0") == 1000 and g.s.markers["C0"] == 50


# DV2: set-up ----------------------------------------------------------------------------
@pytest.mark.parametrize("players,companies,pile", [(2, 3, 12), (3, 4, 14), (4, 5, 16), (12, 5, 0)])
def test_dv2_companies_cash_and_cards_by_player_count(players, companies, pile):
    g = new_game([f"P{i}" for i in range(players)])
    assert len(g.companies) == companies
    assert g.total_cards == 4 + 4 * companies  # the removed companies take their cards away
    assert all(g.cash(s) == 4000 and g.s.hands[s] == 2 for s in range(players))
    assert g.s.draw_pile == pile and g.s.discard == 0
    assert g.s.ledger.total() == 0  # the bank dealt the starting cash


def test_dv2_default_companies_drop_the_last_of_the_chart_and_the_setting_chooses():
    assert new_game(["A", "B"]).companies == ["CEDARPINES", "GLOBAL-MOBILE", "DESERT-OIL"]
    assert new_game(["A", "B", "C"]).companies == ["CEDARPINES", "GLOBAL-MOBILE", "DESERT-OIL", "TRANS-PACIFIC"]
    g = new_game(["A", "B"], companies="big-boulder,DESERT-OIL,CEDARPINES")
    assert g.companies == ["CEDARPINES", "DESERT-OIL", "BIG-BOULDER"]  # chart order
    with pytest.raises(IllegalAction, match="2 players play with 3 companies"):
        new_game(["A", "B"], companies="CEDARPINES,DESERT-OIL")
    with pytest.raises(IllegalAction, match="known: CEDARPINES"):
        new_game(["A", "B"], companies="CEDARPINES,DESERT-OIL,ACME")


@pytest.mark.parametrize("players", [["Solo"], [f"P{i}" for i in range(13)], ["Ana", "ana"], ["Ana", "B b"]])
def test_dv2_two_to_twelve_players_with_unique_names(players):
    with pytest.raises(IllegalAction):
        new_game(players)


def test_dv2_settings_are_checked():
    with pytest.raises(IllegalAction, match="setting bid_step = 0"):
        new_game(FOUR, bid_step=0)
    with pytest.raises(IllegalAction, match="setting payday"):
        new_game(FOUR, payday="manual")
    with pytest.raises(IllegalAction, match="setting dice"):
        new_game(FOUR, dice="loaded")


def test_dv2_cash_is_private_in_the_snapshot_until_the_end():
    g = new_game(FOUR)
    s = g.snapshot()
    assert s["private"] == ["players.*.cash"]
    shown = drop_private(s)
    assert all("cash" not in p for p in shown["players"]) and shown["players"][0]["name"] == "Jean"
    assert all("cash" in p for p in s["players"])  # the full snapshot keeps it for private views


# DV3: majority tiles ----------------------------------------------------------------------
@pytest.mark.parametrize("current,counts,new", [
    (None, {0: 0, 1: 0}, None),
    (None, {0: 1, 1: 0}, 0),          # strictly the most takes it
    (0, {0: 2, 1: 2}, 0),             # a tie keeps it with the holder
    (None, {0: 2, 1: 2}, None),       # on the chart, a tie leaves it there
    (0, {0: 1, 1: 2, 2: 0}, 1),       # the holder falls behind one player: it moves
    (0, {0: 1, 1: 2, 2: 2}, None),    # the holder falls behind a tie: back to the chart
    (0, {0: 0, 1: 0}, None),          # nobody holds anything
])
def test_dv3_tile_holder(current, counts, new):
    assert tile_holder(current, counts) == new


def majority_position(holder_certs=3, other_certs=(2, 2)):
    """Jean holds the Desert Oil tile with `holder_certs`; Marie and Pierre hold `other_certs`."""
    g = new_game(FOUR)
    to_actions(g)
    give(g, "Jean", "DESERT-OIL", holder_certs)
    give(g, "Marie", "DESERT-OIL", other_certs[0])
    give(g, "Pierre", "DESERT-OIL", other_certs[1])
    assert tile(g, "DESERT-OIL") == "Jean"
    return g


SALE_CASES = [  # (Marie, Pierre) against Jean's 3 before Jean sells one
    ((3, 1), "Marie"),   # another player has more: the tile goes to them
    ((2, 1), "Jean"),    # the seller is tied for the most: the tile stays
    ((3, 3), None),      # the seller behind a tie: the tile goes back to the chart
]


def do_sale(g, how):
    """Jean (first in the turn order) loses one Desert Oil certificate by `how`; returns the
    events of the action."""
    if how == "sale":
        return play(g, "sell Jean DESERT-OIL")
    finish_turns(g)
    play(g, "pay")
    # Force Sell: Desert Oil is Jean's most expensive certificate (his only one);
    # Technical Correction: Desert Oil has the most certificates sold.
    return play(g, "event " + {"force_sell": "FORCE-SELL", "technical_correction": "TECHNICAL-CORRECTION"}[how])


def tile_after_first_sale(events, holder):
    """The tile's holder right after the first sale of the action, before anyone else acts
    (in an event everyone sells in turn; the tile moves at each sale)."""
    sales = 0
    for e in events:
        if e.key == "dv.sold":
            sales += 1
            if sales == 2:
                break
        elif e.key == "dv.majority" and sales == 1:
            holder = e.params["new"]
    return None if holder == "-" else holder


@pytest.mark.parametrize("how", ["sale", "force_sell", "technical_correction"])
@pytest.mark.parametrize("others,new", SALE_CASES)
def test_dv3_three_cases_after_a_sale_a_forced_sale_and_a_technical_correction(how, others, new):
    g = majority_position(3, others)
    events = do_sale(g, how)
    first = next(e for e in events if e.key == "dv.sold")
    assert first.params["player"] == "Jean" and first.params["company"] == "DESERT-OIL"
    assert tile_after_first_sale(events, "Jean") == new
    if how == "sale":
        assert tile(g, "DESERT-OIL") == new


PURCHASE_CASES = [  # (Jean holding the tile, Marie) before Marie buys one
    ((2, 2), "Marie"),   # the buyer becomes the only one with the most: she takes it
    ((3, 2), "Jean"),    # the buyer ties the holder: the tile is not transferred
]


def do_purchase(g, how):
    """Marie gets one more Desert Oil certificate by `how`."""
    if how == "purchase":
        play(g, "done Jean", "buy Marie DESERT-OIL")
        return
    finish_turns(g)
    play(g, "pay")
    if how == "buy_in":  # every other company is more expensive
        play(g, "event BUY-IN")
    elif how == "placement_offer":  # Desert Oil has the most unsold certificates
        play(g, "event PLACEMENT-OFFER", "pass Jean", "buy Marie DESERT-OIL")


@pytest.mark.parametrize("how", ["purchase", "buy_in", "placement_offer"])
@pytest.mark.parametrize("before,new", PURCHASE_CASES)
def test_dv3_cases_after_a_purchase_a_buy_in_and_a_placement_offer(how, before, new):
    g = new_game(FOUR)
    to_actions(g)
    give(g, "Jean", "DESERT-OIL", before[0])
    give(g, "Marie", "DESERT-OIL", before[1])  # a tie leaves the tile with Jean
    assert tile(g, "DESERT-OIL") == "Jean"
    for company in ("CEDARPINES", "GLOBAL-MOBILE", "TRANS-PACIFIC", "BIG-BOULDER"):
        give(g, "Sam", company, 6)  # dearer than Desert Oil, with fewer certificates unsold
    if how == "buy_in":
        set_cash(g, "Jean", 0)  # Jean cannot pay: exempt; Marie buys first
    marie = certs(g, "Marie", "DESERT-OIL")
    do_purchase(g, how)
    assert certs(g, "Marie", "DESERT-OIL") == marie + 1
    assert tile(g, "DESERT-OIL") == new


def test_dv3_a_tile_on_the_chart_stays_there_on_a_tie_and_goes_to_a_strict_leader():
    g = majority_position(3, (3, 3))
    play(g, "sell Jean DESERT-OIL")
    assert tile(g, "DESERT-OIL") is None
    play(g, "done Jean", "done Marie", "buy Pierre DESERT-OIL")
    assert tile(g, "DESERT-OIL") == "Pierre"


def test_dv3_tile_follows_corrections():
    g = majority_position(3, (1, 0))
    play(g, 'adjust_certs Marie DESERT-OIL +3 "late purchase"')
    assert tile(g, "DESERT-OIL") == "Marie"


# DV4: the turn-order auction ---------------------------------------------------------------
def test_dv4_opening_50_raises_by_50_never_above_cash_winner_pays_and_stops():
    g = new_game(FOUR)
    play(g, dice_line(g))
    with pytest.raises(IllegalAction, match=r"^bid \$40: the lowest bid now is \$50, then steps of \$50; amount allowed: 50 to"):
        play(g, "bid Jean 40")
    play(g, "bid Jean 50")
    with pytest.raises(IllegalAction, match="allowed: 100 to 1,000,000 in steps of 50"):
        play(g, "bid Marie 120")
    with pytest.raises(IllegalAction, match=r"^Jean already holds the high bid \(\$50\); player allowed: Marie, Pierre, Sam$"):
        play(g, "bid Jean 100")
    set_cash(g, "Marie", 300)
    with pytest.raises(IllegalAction) as refused:
        play(g, "bid Marie 350")
    assert "more than their cash" in str(refused.value) and "300" not in str(refused.value)  # cash stays hidden
    play(g, "bid Marie 300", "sold")
    assert cash(g, "Marie") == 0 and g.s.tokens[seat(g, "Marie")] == 1
    with pytest.raises(IllegalAction, match="^Marie has taken token 1 and bids no more this year; player allowed: Jean,"):
        play(g, "bid Marie 50")  # the winner stops bidding: "et ne participe plus à l'enchère en cours"


def test_dv4_bid_step_setting():
    g = new_game(FOUR, bid_step=100)
    play(g, dice_line(g), "bid Jean 50")
    with pytest.raises(IllegalAction, match="allowed: 150 to 1,000,000 in steps of 100"):
        play(g, "bid Marie 100")
    play(g, "bid Marie 150")


def test_dv4_tokens_give_the_turn_order_and_the_last_bidder_takes_the_last_token_for_50():
    g = new_game(FOUR)
    play(g, dice_line(g), "bid Sam 200", "sold", "bid Pierre 50", "bid Jean 100", "sold", "bid Pierre 50", "sold")
    assert step(g) == "actions"
    assert [g.players[s] for s in g.s.order] == ["Sam", "Jean", "Pierre", "Marie"]
    assert g.s.tokens == [2, 4, 3, 1]
    assert cash(g, "Marie") == 3950 and cash(g, "Sam") == 3800
    assert g.decision().actor == seat(g, "Sam")


def test_dv4_nobody_opens_remaining_tokens_dealt_at_random_each_pays_50():
    g = new_game(FOUR)
    play(g, dice_line(g), "bid Marie 100", "sold")
    assert g.decision().option("deal") is not None and g.decision().option("sold") is None
    with pytest.raises(IllegalAction, match="each once"):
        play(g, "deal Jean Jean Sam")
    with pytest.raises(IllegalAction, match="^deal Jean, Sam: give each remaining token to one of Jean, Pierre, Sam, each once; players allowed: 3 of Jean, Pierre, Sam, each once$"):
        play(g, "deal Jean Sam")
    with pytest.raises(IllegalAction, match="^deal Marie, Jean, Sam: .*; players 1 allowed: Jean, Pierre, Sam$"):
        play(g, "deal Marie Jean Sam")
    play(g, "deal Sam Jean Pierre")
    assert g.s.tokens == [3, 1, 4, 2]
    assert [cash(g, p) for p in FOUR] == [3950, 3900, 3950, 3950]


def test_dv4_the_device_draws_the_deal_and_records_it():
    g = new_game(FOUR)
    play(g, dice_line(g), "bid Marie 100", "sold")
    act = g.fill_chance(g.ACTIONS.parse("deal", g.players), random.Random(5))
    assert act == g.fill_chance(g.ACTIONS.parse("deal", g.players), random.Random(5))
    assert sorted(act.players) == [0, 2, 3] and all(type(s) is Seat for s in act.players)
    g.apply(act)
    assert step(g) == "actions"
    assert g.ACTIONS.format(g.log[-1], g.players).startswith("deal ")


def test_dv4_under_50_sells_the_cheapest_certificate_before_the_auction():
    g = new_game(FOUR)
    to_actions(g)
    give(g, "Marie", "DESERT-OIL", 3)       # sells at 1 400 (3 held)
    give(g, "Marie", "GLOBAL-MOBILE", 1)    # sells at 1 000: Marie's cheapest
    finish_turns(g)
    play(g, "pay", "event PLACEMENT-OFFER", "pass Jean", "pass Marie", "pass Pierre", "pass Sam")
    set_cash(g, "Marie", 40)
    play(g, dice_line(g))
    assert certs(g, "Marie", "GLOBAL-MOBILE") == 0 and certs(g, "Marie", "DESERT-OIL") == 3
    assert cash(g, "Marie") == 1040
    assert cash(g, "Marie") >= 50 and step(g) == "auction" and g.s.proc.short == []


def test_dv4_under_50_with_equally_cheap_certificates_the_player_chooses():
    g = new_game(FOUR)
    to_actions(g)
    give(g, "Marie", "DESERT-OIL", 1)
    give(g, "Marie", "CEDARPINES", 1)
    finish_turns(g)
    play(g, "pay", "event FORCE-SELL")  # Marie chooses which to sell; the others hold nothing
    play(g, "sell Marie CEDARPINES")
    give(g, "Marie", "CEDARPINES", 1)
    set_cash(g, "Marie", 0)
    play(g, dice_line(g))
    d = g.decision()
    assert d.prompt == "prompt.dv.short_of_cash" and d.actor == seat(g, "Marie")
    assert d.option("sell").fields["company"].values == ("CEDARPINES", "DESERT-OIL")
    with pytest.raises(IllegalAction, match="bid: bids come only at step 2, while a token is on sale"):
        play(g, "bid Jean 50")
    play(g, "sell Marie DESERT-OIL")
    assert cash(g, "Marie") == 1000 and step(g) == "auction"


def test_dv4_adjusting_the_high_bidder_below_the_bid_is_refused():
    g = new_game(FOUR)
    play(g, dice_line(g), "bid Jean 500")
    with pytest.raises(IllegalAction, match="Jean holds the high bid"):
        play(g, 'adjust_cash Jean -3600 "x"')


def test_open_auction_without_grid_takes_any_amount_above_the_minimum():
    a = OpenAuction("title", [0, 1], opening=500_000, step=100_000, on_grid=False)
    a.bid(0, 500_000, cash=10**7)
    with pytest.raises(IllegalAction, match=r"lowest bid now is \$600,000"):
        a.bid(1, 550_000, cash=10**7)
    a.bid(1, 650_000, cash=10**7)
    assert a.hammer() == (1, 650_000)
    series = AuctionSeries([1, 2], [0, 1], 50, 50)
    assert series.hammer() is None
    series.current.bid(1, 50, cash=50)
    assert series.hammer() == (1, 1, 50) and series.bidders == [0] and series.current.item == 2


# DV5: influence cards --------------------------------------------------------------------
def test_dv5_one_card_one_step_then_no_more_buying_or_selling():
    g = new_game(FOUR)
    to_actions(g)
    play(g, "buy Jean DESERT-OIL", "influence Jean DESERT-OIL +1")
    assert g.s.markers["DESERT-OIL"] == 250 and cards(g, "Jean") == 1 and g.s.discard == 1
    kinds = {o.kind for o in g.decision().options}
    assert "buy" not in kinds and "sell" not in kinds and {"influence", "done"} <= kinds
    with pytest.raises(IllegalAction, match="^Jean has played an influence card: buying and selling are over for this "
                                            "turn; allowed now: adjust_cards, .*, done, influence, set_marker, set_turn, set_year$"):
        play(g, "buy Jean DESERT-OIL")
    play(g, "influence Jean CEDARPINES -1")
    assert "influence" not in {o.kind for o in g.decision().options}  # no card left
    play(g, "done Jean")
    assert "buy" in {o.kind for o in g.decision().options}  # Marie's turn starts afresh


def test_dv5_unused_cards_go_back_under_the_draw_pile():
    g = new_game(FOUR)
    to_actions(g)
    pile = g.s.draw_pile
    events = play(g, "done Jean")
    assert cards(g, "Jean") == 0 and g.s.draw_pile == pile + 2
    assert [e.params["cards"] for e in events if e.key == "dv.cards_returned"] == [2]
    assert events[0].text("fr").startswith("Jean remet 2 cartes influence non jouées")


def test_dv5_draw_pile_rebuilt_from_the_discard_pile_and_then_exhausted():
    g = new_game([f"P{i}" for i in range(12)])  # 24 cards, all dealt: the draw pile is empty
    to_actions(g)
    assert g.s.draw_pile == 0
    for _ in range(2):
        play(g, "influence P0 CEDARPINES +1")
    play(g, "done P0")
    for i in range(1, 12):
        play(g, f"influence P{i} DESERT-OIL -1", f"done P{i}")  # one played, one returned
    assert g.s.discard == 13 and g.s.draw_pile == 11
    give(g, "P0", "CEDARPINES", 10)  # P0 leads Cedarpines with 10: wants 10 cards
    give(g, "P1", "DESERT-OIL", 10)
    give(g, "P2", "GLOBAL-MOBILE", 10)
    play(g, "pay")
    assert cards(g, "P0") == 10 and cards(g, "P1") == 10 and cards(g, "P2") == 4
    assert g.s.draw_pile == 0 and g.s.discard == 0 and card_total(g) == 24


# DV6: event tiles --------------------------------------------------------------------------
def test_dv6_the_device_draws_the_tile_uniformly_and_records_it():
    g = new_game(FOUR)
    to_actions(g)
    finish_turns(g)
    play(g, "pay")
    drawn = {g.fill_chance(g.ACTIONS.parse("event", g.players), random.Random(i)).tile for i in range(40)}
    assert drawn == {"FORCE-SELL", "BUY-IN", "PLACEMENT-OFFER", "TECHNICAL-CORRECTION"}
    with pytest.raises(IllegalAction, match="tile = NOTHING is not allowed"):
        play(g, "event NOTHING")


def test_dv6_force_sell_sells_the_most_expensive_and_ties_let_the_player_choose():
    g = new_game(FOUR)
    to_actions(g)
    give(g, "Jean", "DESERT-OIL", 1)
    give(g, "Marie", "DESERT-OIL", 2)     # Desert Oil sells at 1 400
    give(g, "Jean", "CEDARPINES", 1)      # 1 000
    give(g, "Pierre", "GLOBAL-MOBILE", 3)  # 1 400
    give(g, "Pierre", "TRANS-PACIFIC", 3)  # 1 400
    finish_turns(g)
    play(g, "pay")
    before = {p: cash(g, p) for p in g.players}
    play(g, "event FORCE-SELL")
    # Jean: Desert Oil at 1 400; Marie: Desert Oil at 1 200 (2 held now)
    assert cash(g, "Jean") - before["Jean"] == 1400 and certs(g, "Jean", "CEDARPINES") == 1
    assert cash(g, "Marie") - before["Marie"] == 1200
    d = g.decision()
    assert d.actor == seat(g, "Pierre") and d.option("sell").fields["company"].values == ("GLOBAL-MOBILE",
                                                                                         "TRANS-PACIFIC")
    play(g, "sell Pierre TRANS-PACIFIC")
    assert cash(g, "Pierre") - before["Pierre"] == 1400
    assert step(g) == "dice"  # Sam holds nothing: not concerned


def test_dv6_placement_offer_and_correction_with_nothing_to_do():
    g = new_game(FOUR)
    to_actions(g)
    finish_turns(g)
    play(g, "pay", "event TECHNICAL-CORRECTION")  # nothing sold anywhere: nobody concerned
    assert step(g) == "dice"
    s = g.snapshot()
    assert all(c["event_marker"] is None for c in s["companies"].values())


def test_dv6_placement_offer_needs_half_the_price_in_cash():
    g = new_game(FOUR)
    to_actions(g)
    finish_turns(g)
    play(g, "pay")
    set_cash(g, "Jean", 499)
    play(g, "event PLACEMENT-OFFER")  # all five tie with 10 unsold: any company at 500
    assert g.decision().actor == seat(g, "Marie")
    assert len(g.decision().option("buy").fields["company"].values) == 5


# DV7: the end of the game -------------------------------------------------------------------
def play_year(g, order=None):
    to_actions(g, order)
    finish_turns(g)
    play(g, "pay", "event TECHNICAL-CORRECTION")  # nobody holds anything: nothing happens


def test_dv7_five_years_then_final_cards_final_dividends_and_liquidation():
    g = new_game(["Jean", "Marie", "Pierre"])
    for year in range(1, 5):
        assert g.s.year == year
        play_year(g)
    to_actions(g, ["Marie", "Jean", "Pierre"])
    play(g, "buy Marie DESERT-OIL", "buy Marie DESERT-OIL", "buy Marie CEDARPINES", "done Marie")
    play(g, "buy Jean DESERT-OIL", "buy Jean GLOBAL-MOBILE", "done Jean", "done Pierre")
    play(g, "pay")  # Marie leads Desert Oil 2-1 and Cedarpines: 3 cards
    assert cards(g, "Marie") == 3 and cards(g, "Jean") == 1  # Jean leads Global Mobile
    play(g, "event PLACEMENT-OFFER")  # Trans-Pacific has the most unsold (10) with nobody buying
    for p in ("Marie", "Jean", "Pierre"):
        play(g, f"pass {p}")
    assert step(g) == "final_influence" and g.s.year == 5
    assert g.decision().actor == seat(g, "Marie")
    play(g, "influence Marie DESERT-OIL +1", "influence Marie DESERT-OIL +1", "done Marie")
    play(g, "done Jean")  # Pierre has no card: skipped
    assert step(g) == "final_dividends"
    marie = cash(g, "Marie")
    play(g, "pay")
    assert cash(g, "Marie") - marie == 2 * 300 + 200
    assert cards(g, "Marie") == 0 and g.s.draw_pile + g.s.discard == g.total_cards - 0
    # Liquidation: one certificate per player per pass in turn order, the player's choice
    assert step(g) == "liquidation" and g.decision().actor == seat(g, "Marie")
    play(g, "sell Marie CEDARPINES")  # 1 000
    assert g.decision().actor == seat(g, "Jean")
    play(g, "sell Jean DESERT-OIL")  # 1 400 (3 held); Pierre holds nothing: skipped
    # Marie holds only Desert Oil now: sold without a choice (1 200), then Jean's Global Mobile
    assert step(g) == "over"
    s = g.snapshot()
    assert s["private"] == [] and s["winners"] == [s["ranking"][0]["name"]]
    assert all(bank_certs(g, c) == 10 for c in g.companies)


def test_dv7_equal_cash_shares_the_win():
    g = new_game(["Jean", "Marie"])
    for _ in range(5):
        play_year(g)
    assert step(g) == "final_dividends"  # nobody has a card left: no final influence
    set_cash(g, "Jean", 5000)
    set_cash(g, "Marie", 5000)
    play(g, "pay")  # nobody holds anything: nothing to pay or to liquidate
    assert step(g) == "over"
    s = g.snapshot()
    assert s["winners"] == ["Jean", "Marie"] and [r["rank"] for r in s["ranking"]] == [1, 1]
    assert g.decision().prompt == "prompt.dv.over"


# Messages -------------------------------------------------------------------------------------
def test_every_message_key_of_the_engine_is_in_both_catalogs():
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parents[3] / "engines" / "dividends" / "locale"
    en = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    fr = json.loads((folder / "fr.json").read_text(encoding="utf-8"))
    assert set(en) == set(fr)
    source = "\n".join(p.read_text(encoding="utf-8") for p in [folder.parent / "game.py",
                                                               *(folder.parent / "steps").glob("*.py")])
    import re

    used = set(re.findall(r'"((?:error|prompt)\.dv\.[a-z_]+)"', source))
    used |= {"event." + k for k in re.findall(r'emit\("(dv\.[a-z_]+)"', source)}
    assert used <= set(en), used - set(en)
    for key in ("error.auction_cash", "error.auction_amount_grid", "error.auction_already_high"):
        assert key in catalog("fr") and key in catalog("en")


# Chance, purchases, corrections ------------------------------------------------------------
def test_device_dice_use_the_die_of_each_zone_and_are_recorded():
    g = new_game(FOUR)
    set_marker(g, "CEDARPINES", 100)       # black: up
    set_marker(g, "TRANS-PACIFIC", 450)    # white: down
    empty = g.ACTIONS.parse("dice", g.players)
    assert empty.moves == ()
    with pytest.raises(IllegalAction, match="^dice: 0 moves given, 5 companies in play"):
        g.apply(empty)  # the device must fill the dice first
    for i in range(30):
        act = g.fill_chance(empty, random.Random(i))
        assert act.moves[0] in (1, 2, 3) and act.moves[3] in (-1, -2, -3) and act.moves[2] in (-3, -2, -1, 1, 2, 3)
    act = g.fill_chance(empty, random.Random(3))
    assert act == g.fill_chance(empty, random.Random(3))
    g.apply(act)
    assert g.ACTIONS.format(g.log[-1], g.players) == "dice " + " ".join(
        f"{move:+d}" for move in act.moves)
    three = new_game(["A", "B", "C"])
    act = three.fill_chance(three.ACTIONS.parse("dice", three.players), random.Random(1))
    assert len(act.moves) == 4  # four companies with three players


def test_buying_needs_the_cash_and_the_refusal_does_not_show_it():
    g = new_game(FOUR)
    to_actions(g)
    set_cash(g, "Jean", 999)
    with pytest.raises(IllegalAction) as refused:
        play(g, "buy Jean DESERT-OIL")
    assert str(refused.value) == "Jean cannot pay $1,000: not enough cash"
    assert "999" not in refused.value.message("fr") and "999" not in refused.value.message("en")
    with pytest.raises(IllegalAction, match="^it is Jean's turn, not Marie's; player allowed: Jean$"):
        play(g, "buy Marie DESERT-OIL")  # not her turn
    with pytest.raises(IllegalAction, match="^Jean holds no DESERT-OIL certificate; allowed now: .*buy, done"):
        play(g, "sell Jean DESERT-OIL")  # holds nothing: selling is not offered


def test_corrections_cards_markers_and_certificates():
    g = new_game(FOUR)
    to_actions(g)
    pile = g.s.draw_pile
    play(g, 'adjust_cards Marie +3 "card forgotten"')
    assert cards(g, "Marie") == 5 and g.s.draw_pile == pile - 3
    with pytest.raises(IllegalAction, match="Marie has 5 card"):
        play(g, 'adjust_cards Marie -6 "x"')
    with pytest.raises(IllegalAction, match="the draw pile has"):
        play(g, f'adjust_cards Marie +{g.s.draw_pile + 1} "x"')
    play(g, 'set_marker CEDARPINES 450 "misread die"')
    assert g.s.markers["CEDARPINES"] == 450 and g.zone("CEDARPINES") == "white"
    with pytest.raises(IllegalAction, match="value = 425 is not allowed"):
        play(g, 'set_marker CEDARPINES 425 "x"')
    with pytest.raises(IllegalAction, match="^Sam holds 0 DESERT-OIL certificates, cannot give 1 back to the chart$"):
        play(g, 'adjust_certs Sam DESERT-OIL -1 "x"')
    with pytest.raises(IllegalAction, match="cannot pay"):
        play(g, 'adjust_cash Sam -5000 "x"')
    events = play(g, 'adjust_cash Sam +150 "change returned"')
    assert cash(g, "Sam") == 4100 and events[-1].key == "correction"


# Tight play ------------------------------------------------------------------------
SHORT = ("Si un joueur possède moins de 50 $ en argent liquide, il doit vendre à la banque le certificat "
         "d'action le moins cher qu'il possède")
DEALT = "Chacun de ces joueurs doit payer le montant minimum de 50 $ à la banque."


def test_dv4_a_dealt_token_under_50_sells_the_cheapest_certificate_first_then_pays_50():
    """SHORT, then DEALT: a correction during the auction leaves Jean with 30 $; dealt a
    token, he sells his cheapest certificate before paying the full 50 $."""
    g = new_game(FOUR)
    give(g, "Jean", "DESERT-OIL", 2)
    give(g, "Jean", "CEDARPINES", 1)  # cheapest: Cedarpines sells for 1 000, Desert Oil for 1 200
    play(g, dice_line(g), "bid Marie 100", "sold")
    set_cash(g, "Jean", 30)
    events = play(g, "deal Sam Jean Pierre")
    assert certs(g, "Jean", "CEDARPINES") == 0 and certs(g, "Jean", "DESERT-OIL") == 2
    assert cash(g, "Jean") == 30 + 1000 - 50 and g.s.tokens[seat(g, "Jean")] == 3
    assert [cash(g, p) for p in ("Sam", "Pierre")] == [3950, 3950]
    keys = [e.key for e in events]
    assert keys.index("dv.sold") < [i for i, e in enumerate(events)
                                    if e.key == "dv.token_won" and e.params["player"] == "Jean"][0]
    assert step(g) == "actions"


def test_dv4_the_last_bidder_under_50_chooses_among_equally_cheap_certificates_then_pays_50():
    """SHORT ("le certificat d'action le moins cher"), with a tie the player chooses (D7);
    the last token still costs 50 $."""
    g = new_game(["Jean", "Marie"])
    give(g, "Marie", "DESERT-OIL", 1)
    give(g, "Marie", "CEDARPINES", 1)  # both sell for 1 000
    play(g, dice_line(g), "bid Jean 50")
    set_cash(g, "Marie", 20)
    play(g, "sold")  # Jean takes token 1; Marie, alone, takes token 2 and must sell first
    d = g.decision()
    assert step(g) == "auction" and d.prompt == "prompt.dv.short_of_cash" and d.actor == seat(g, "Marie")
    assert d.option("sell").fields["company"].values == ("CEDARPINES", "DESERT-OIL")
    assert g.s.tokens[seat(g, "Marie")] == 2 and cash(g, "Marie") == 20  # not charged yet
    with pytest.raises(IllegalAction, match="^it is Marie's turn, not Jean's"):
        play(g, "sell Jean DESERT-OIL")
    play(g, "sell Marie DESERT-OIL")
    assert cash(g, "Marie") == 20 + 1000 - 50 and certs(g, "Marie", "CEDARPINES") == 1
    assert step(g) == "actions" and [g.players[s] for s in g.s.order] == ["Jean", "Marie"]


def test_dv4_a_player_without_cash_or_certificates_pays_what_they_have_for_a_dealt_token():
    """D6: with nothing left to sell after SHORT, Marie pays her 30 $; the amount is hidden
    cash (D17), so no event carries it."""
    g = new_game(["Jean", "Marie"])
    set_cash(g, "Marie", 30)
    play(g, dice_line(g), "bid Jean 50")
    events = play(g, "sold")
    assert cash(g, "Marie") == 0 and g.s.tokens == [1, 2]
    paid = [e for e in events if e.params.get("player") == "Marie"]
    assert [e.key for e in paid] == ["dv.token_won_all_cash"]
    assert all(30 not in e.params.values() for e in events)
    assert all("30" not in e.text(lang) for e in events for lang in ("fr", "en"))


def test_a_dice_line_with_a_die_missing_is_refused_and_only_dice_alone_is_rolled():
    """"Pour chaque compagnie, ce joueur jette le dé": one move per company, or `dice`
    alone for the device to roll them all; a partial line is a typo, refused like a
    partial `deal`, whatever the `dice` setting."""
    from firmware.script import ScriptError, fill_dice, run_script

    for setting in ("physical", "device"):
        g = new_game(FOUR, dice=setting)
        partial = fill_dice(g, g.ACTIONS.parse("dice +1 -2", g.players))
        assert partial.moves == (1, -2)  # the device does not complete it
        with pytest.raises(IllegalAction) as refused:
            g.apply(partial)
        assert str(refused.value).startswith(
            "dice: 2 moves given, 5 companies in play (CEDARPINES, GLOBAL-MOBILE, DESERT-OIL, TRANS-PACIFIC, "
            "BIG-BOULDER): one move per company, or “dice” alone for the device to roll; moves allowed: CEDARPINES: ")
        assert refused.value.message("fr").startswith("dés : 2 déplacements donnés, 5 compagnies en jeu")
        assert g.log == [] and step(g) == "dice"
        rolled = fill_dice(g, g.ACTIONS.parse("dice", g.players))
        assert len(rolled.moves) == 5
        g.apply(rolled)
        assert step(g) == "auction"
    with pytest.raises(ScriptError, match=r"<s>:3: dice: 4 moves given, 3 companies in play .*; moves allowed: CEDARPINES: .*; GLOBAL-MOBILE: .*; DESERT-OIL: -3, -2, -1, 1, 2, 3\n"):
        run_script("game dividends\nplayers Jean Marie\ndice +1 +2 +1 -1\n", "<s>")
    with pytest.raises(ScriptError, match=r"<s>:3: dice: 2 moves given"):
        run_script("game dividends\nplayers Jean Marie\ndice +1 +2\n", "<s>")


def finished_game():
    g = new_game(["Jean", "Marie"])
    for _ in range(5):
        play_year(g)
    play(g, "pay")
    assert step(g) == "over"
    return g


def test_corrections_are_refused_once_the_game_is_over_undo_the_end_first():
    """"Après que les actions de fin de jeu ont été réalisées, le joueur possédant le plus
    d'argent liquide gagne la partie": the winners are known, a correction would change
    them silently. Undoing the end reopens the corrections."""
    g = finished_game()
    assert g.decision().options == ()
    for line in ('adjust_cash Jean +100 "late"', 'adjust_certs Jean CEDARPINES +1 "late"',
                 'adjust_cards Jean +1 "late"', 'set_marker CEDARPINES 300 "late"', "payout"):
        with pytest.raises(IllegalAction) as refused:
            play(g, line)
        assert str(refused.value) == f"the game is over: undo the end first to change anything ({line.split()[0]})"
        assert refused.value.message("fr").startswith("la partie est finie : annulez d'abord la fin")
    assert g.snapshot() == finished_game().snapshot()
    g.undo()
    assert step(g) == "final_dividends"
    play(g, 'adjust_cash Jean +100 "late"', "pay")
    assert g.snapshot()["winners"] == ["Jean"]


def test_dv5_a_forgotten_card_comes_from_the_discard_pile_when_the_draw_pile_is_empty():
    """"Quand la pioche des cartes influence est épuisée, les cartes influence défaussées
    sont mélangées et forme une nouvelle pioche": a card forgotten at payment is drawn the
    same way when it is added back."""
    g = new_game([f"P{i}" for i in range(12)])  # 24 cards, all dealt: the draw pile is empty
    to_actions(g)
    play(g, "influence P0 CEDARPINES +1")
    assert g.s.draw_pile == 0 and g.s.discard == 1
    events = play(g, 'adjust_cards P5 +1 "card forgotten"')
    assert cards(g, "P5") == 3 and g.s.draw_pile == 0 and g.s.discard == 0 and card_total(g) == 24
    assert "dv.reshuffle" in [e.key for e in events]
    with pytest.raises(IllegalAction, match="^1 card asked, the draw pile has 0 and the discard pile 0$"):
        play(g, 'adjust_cards P5 +1 "x"')


def test_the_event_tile_goes_back_in_the_box_also_after_year_5():
    """"cette tuile événement est mélangée avec les autres tuiles événement et remise dans
    la boîte": no tile is shown once its event is over, after year 5 too."""
    g = new_game(["Jean", "Marie"])
    for year in range(1, 6):
        to_actions(g)
        finish_turns(g)
        play(g, "pay")
        events = play(g, "event TECHNICAL-CORRECTION")  # nobody holds anything: over at once
        assert "dv.event_over" in [e.key for e in events]
        assert g.snapshot()["event"] is None and g.s.tile is None, year
    assert step(g) == "final_dividends"
    play(g, "pay")
    assert step(g) == "over" and g.snapshot()["event"] is None


def test_refusals_say_their_own_reason_first_then_what_is_allowed():
    """Every refused action names the rule that refuses it, then the list of what is
    allowed (for an action not offered now, the rule of when it is)."""
    g = new_game(FOUR)
    to_actions(g)
    give(g, "Jean", "CEDARPINES", 7)
    with pytest.raises(IllegalAction) as refused:
        play(g, 'adjust_certs Marie CEDARPINES +5 "x"')  # 3 left on the chart
    assert str(refused.value) == "Marie cannot receive 5 CEDARPINES certificates: the chart holds 3"
    assert refused.value.message("fr") == "Marie ne peut pas recevoir 5 certificats CEDARPINES : le tableau en a 3"
    with pytest.raises(IllegalAction, match=r"^Marie cannot receive 11 CEDARPINES certificates: the chart holds 3; "
                                            r"delta allowed: -10 to 10"):
        play(g, 'adjust_certs Marie CEDARPINES +11 "x"')
    with pytest.raises(IllegalAction, match=r"^Jean holds 7 CEDARPINES certificates, cannot give 8 back"):
        play(g, 'adjust_certs Jean CEDARPINES -8 "x"')
    play(g, "influence Jean DESERT-OIL +1", "influence Jean DESERT-OIL +1")
    with pytest.raises(IllegalAction) as refused:
        play(g, "influence Jean DESERT-OIL +1")
    assert str(refused.value).startswith("Jean has no influence card in hand; allowed now: ")
    assert refused.value.message("fr").startswith("Jean n'a aucune carte influence en main ; possible maintenant : ")
    with pytest.raises(IllegalAction, match="^Jean has played an influence card: buying and selling are over"):
        play(g, "sell Jean CEDARPINES")
    play(g, "done Jean")
    with pytest.raises(IllegalAction, match="^Marie holds no CEDARPINES certificate; allowed now: .*, buy, done,"):
        play(g, "sell Marie CEDARPINES")  # nothing held: sell is not offered


def test_nobody_is_put_out_a_player_with_nothing_left_plays_on_and_may_be_corrected():
    """Dividends puts nobody out of the game (unlike the four other games): a player never
    owes more than he has (bids and purchases within his cash, Buy In and Placement Offer
    only for those who can pay, a token at 50 $ paid with what is left, D6), and ranks by
    cash at the end. So with nothing left (no cash, no certificate) he still takes his
    token and his turn, every correction still offers him, and what it gives him is his
    to play with (D23)."""
    g = new_game(["Jean", "Marie"])
    set_cash(g, "Marie", 30)
    play(g, dice_line(g), "bid Jean 50", "sold")
    assert cash(g, "Marie") == 0 and not any(certs(g, "Marie", c) for c in g.companies)
    assert g.s.tokens == [1, 2] and step(g) == "actions"
    for kind in ("adjust_cash", "adjust_certs", "adjust_cards"):
        assert g.decision().option(kind).fields["player"].values == (0, 1)
    play(g, "done Jean")
    assert g.decision().actor == 1                       # Marie's turn comes
    play(g, 'adjust_cash Marie +1000 "oubli"', "buy Marie DESERT-OIL")
    assert certs(g, "Marie", "DESERT-OIL") == 1 and cash(g, "Marie") == 0
