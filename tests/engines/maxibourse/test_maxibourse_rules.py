"""Rulings MB1-MB12 and the further decisions of docs/rules/maxibourse.md."""
import pytest

from engines.core.errors import BoxFileError, IllegalAction
from engines.maxibourse.box import load_box
from engines.maxibourse.game import MaxiBourse
from maxibourse_helpers import (PICKS_3, bank_lots, cash, give, lots, new_game, play, script, seat, set_cash, started,
                        take_all_lots)


def test_mb1_market_40_companies_10_sectors_nominal_start_prices():
    g = new_game(["Ana", "Ben"])
    assert len(g.companies) == 40 and len(g.sectors) == 10
    assert all(g.price(c) in (100, 200, 300) for c in g.companies)
    assert all(bank_lots(g, c) == 10 for c in g.companies)
    assert g.snapshot()["box_verified"] is False  # reconstructed nominals are flagged


@pytest.mark.parametrize("fmt,money,picks", [("junior", 5_000_000, 5), ("senior", 10_000_000, 7), ("masters", 15_000_000, 10)])
def test_mb2_formats_and_starting_portfolios(fmt, money, picks):
    g = started(["Ana", "Ben", "Cid"], fmt)
    for p in g.players:
        assert cash(g, p) == money
        held = g.held(seat(g, p))
        assert len(held) == picks and set(held.values()) == {1}  # distinct companies, one lot each


def test_mb2_picks_are_drafted_in_seat_order_and_distinct():
    g = new_game(["Ana", "Ben"])
    assert g.decision().actor == 0
    play(g, "pick Ana SONY")
    assert g.decision().actor == 1
    play(g, "pick Ben SONY", "pick Ana IBM")
    with pytest.raises(IllegalAction, match="company = SONY is not allowed"):
        play(g, "pick Ben SONY")


def test_mb3_a_player_who_passes_leaves_the_titre():
    """NESTLE example: Laure passes; the second round asks Isabelle, Daniel and Georges."""
    g = started(["Isabelle", "Daniel", "Georges", "Laure"])
    play(g, "roll 1 2", "titre NESTLE", "declare Isabelle 2", "settle")
    play(g, "declare Daniel 1", "declare Georges 1", "declare Laure 0", "settle")
    assert g.top.round.order == [seat(g, "Isabelle"), seat(g, "Daniel"), seat(g, "Georges")]
    play(g, "declare Isabelle 0", "declare Daniel 0", "declare Georges 0")
    assert g.decision().prompt == "prompt.mb.square"  # nobody asked: the titre is over


def test_mb3_no_selling_during_a_titre_and_selling_only_before_rolling():
    g = started(["Ana", "Ben"])
    company = next(iter(g.held(0)))
    play(g, "roll 1 2")
    with pytest.raises(IllegalAction, match="sell: a sale is offered only before the dice"):
        play(g, f"sell Ana {company} 1")
    play(g, "titre SONY")
    with pytest.raises(IllegalAction, match="sell: a sale is offered only before the dice"):
        play(g, f"sell Ana {company} 1")


def test_mb3_titre_ends_when_no_lot_is_left():
    g = started(["Ana", "Ben"])
    give(g, "Ben", "TDK", 7)
    play(g, "roll 1 2", "titre BP TDK", "declare Ana 2", "declare Ben 1", "settle")
    assert bank_lots(g, "TDK") == 0
    assert g.decision().prompt == "prompt.mb.square"


def test_mb4_one_bidder_asking_2_of_1_left_cuts_in_the_auction():
    g = started(["Ana", "Ben"])
    give(g, "Ben", "TDK", 9)
    play(g, 'set_price TDK 100 "x"', "roll 1 2", "titre BP TDK", "declare Ana 2", "declare Ben 0")
    assert g.decision().prompt == "prompt.mb.auction" and g.price("TDK") == 120
    play(g, "bid Ana 1", "settle")  # the cut makes the request fit at 130
    assert lots(g, "Ana", "TDK") == 1 and g.price("TDK") == 130


def test_mb4_too_few_takers_at_the_new_price_stayers_first_at_the_last_price():
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Cid", "TDK", 8)
    play(g, 'set_price TDK 100 "x"', "roll 1 2", "titre BP TDK",
         "declare Ana 1", "declare Ben 1", "declare Cid 1")  # 3 asked, 2 left, 130
    play(g, "bid Ana 0", "bid Ben 0")  # Cid still in at 140 alone: 1 < 2 lots
    play(g, "raise", "settle")
    assert g.price("TDK") == 130
    assert lots(g, "Cid", "TDK") == 9 and lots(g, "Ana", "TDK") == 1 and lots(g, "Ben", "TDK") == 0


def test_mb4_a_bid_must_cut_the_request():
    g = started(["Ana", "Ben"])
    give(g, "Ben", "TDK", 9)
    play(g, "roll 1 2", "titre BP TDK", "declare Ana 2", "declare Ben 0")
    with pytest.raises(IllegalAction) as error:
        play(g, "bid Ana 2")
    assert "0 to 1" in str(error.value)


def test_mb6_only_rounds_with_no_buyer_count_towards_the_bank():
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Ana", "SHELL", 3)
    play(g, 'set_price SHELL 300 "x"', "sell Ana SHELL 3", "declare Ben 0", "declare Cid 0")
    assert g.price("SHELL") == 240  # -10 x 3 lots x 2 players
    play(g, "declare Ben 1", "declare Cid 0", "settle")  # a buyer: no drop
    assert g.price("SHELL") == 240 and lots(g, "Ben", "SHELL") == 1
    before = cash(g, "Ana")
    play(g, "declare Ben 0", "declare Cid 0")  # second round with no buyer: -10 x 2 x 2 = 200
    assert g.price("SHELL") == 200 - 20  # then the bank buys at -10 x 2
    assert cash(g, "Ana") - before == 180 * 2000


def test_mb8_debt_covered_but_not_the_fine_pays_what_is_left():
    g = started(["Ana", "Ben"])
    take_all_lots(g, "Ana")
    set_cash(g, "Ana", 250_000)
    give(g, "Ana", "TDK", 1)
    play(g, 'set_price TDK 100 "x"', 'set_price SONY 300 "x"', "roll 1 2", "titre SONY", "declare Ana 1", "settle")
    play(g, "sell Ana TDK 1", "declare Ben 0", "declare Ben 0")  # bank buys at 100-10-10-10 = 70
    assert lots(g, "Ana", "SONY") == 1
    assert cash(g, "Ana") == 0  # 320 000 - 300 000 paid, fine takes the 20 000 left
    assert g.s.skip[0] == 1 and not g.s.ruined[0]


def test_mb8_card_debt_without_lots_ruins_and_the_bank_pays_the_creditors():
    g = started(["Ana", "Ben", "Cid"])
    take_all_lots(g, "Ana")
    set_cash(g, "Ana", 50_000)
    ben = cash(g, "Ben")
    play(g, "roll 1 2", "payeach Ana 100000")
    assert g.s.ruined[0] and cash(g, "Ana") == 0
    assert cash(g, "Ben") - ben == 100_000
    assert g.decision().params["player"] == "Ben"  # Ana's turn ended with her ruin


def test_mb8_a_ruined_player_is_offered_no_correction_and_one_aimed_at_him_is_refused():
    """MB8: a ruined player is out; his lots and cash went back to the bank and he is never
    paid again, so cash or lots a correction gave him would stay outside the game. The
    corrections offer the players still in; one aimed at him is refused, says why and who
    may be corrected, in French and English, and changes nothing."""
    g = started(["Ana", "Ben", "Cid"])
    take_all_lots(g, "Ana")
    set_cash(g, "Ana", 50_000)
    play(g, "roll 1 2", "payeach Ana 100000")
    assert g.s.ruined[0]
    for kind in ("adjust_cash", "adjust_lots"):
        assert g.decision().option(kind).fields["player"].values == (1, 2)
    before = g.snapshot(), len(g.log)
    assert g.decision().option("trade").fields["buyer"].values == (1, 2)   # nor is any trade
    for line in ('adjust_cash Ana +100000 "oubli"', 'adjust_lots Ana SONY +1 "oubli"', 'adjust_cash Ana -10 "oubli"',
                 "trade Ben Ana SONY 1 300"):
        with pytest.raises(IllegalAction) as refused:
            play(g, line)
        assert refused.value.key == "error.mb.ruined"
        assert refused.value.message("en").startswith("Ana is ruined and out of the game: nothing is given to or "
                                                      "taken from a player out any more (to correct, undo the ruin); ")
        assert refused.value.message("en").endswith(" allowed: Ben, Cid")
        assert refused.value.message("fr").startswith("Ana a fait faillite et est hors jeu")
        assert "Ben, Cid" in refused.value.message("fr")
        assert (g.snapshot(), len(g.log)) == before
    assert cash(g, "Ana") == 0 and not g.held(0)
    play(g, 'adjust_cash Ben +100000 "oubli"')     # the players still in are corrected as before


def test_mb8_card_debt_sells_lots_first_without_fine():
    g = started(["Ana", "Ben"])
    set_cash(g, "Ana", 0)
    company = next(iter(g.held(0)))
    play(g, f'set_price {company} 300 "x"', "roll 1 2", "pay Ana 100000")
    assert g.decision().prompt == "prompt.mb.debt"
    play(g, f"sell Ana {company} 1", "declare Ben 1", "settle")
    assert cash(g, "Ana") == 200_000 and g.s.skip[0] == 0


def test_mb8_ruined_player_lots_return_to_the_bank_and_last_player_wins():
    g = started(["Ana", "Ben"])
    set_cash(g, "Ana", 0)
    held = dict(g.held(0))
    for company in held:
        play(g, f'set_price {company} 10 "x"')
    play(g, "roll 1 2", "pay Ana 10000000")
    for company, n in held.items():
        play(g, f"sell Ana {company} {n}", "declare Ben 0", "declare Ben 0")
    assert g.s.ruined[0]
    assert all(bank_lots(g, c) + lots(g, "Ben", c) == 10 for c in held)
    s = g.snapshot()
    assert s["closed"] == "last_player" and s["ranking"][0]["name"] == "Ben"


def test_mb9_forced_sale_stops_once_the_amount_is_reached():
    g = started(["Ana", "Ben"])
    give(g, "Ana", "SHELL", 4)
    play(g, 'set_price SHELL 300 "x"', "roll 1 2", "forced Ana 500000", "sell Ana SHELL 2", "declare Ben 2", "settle")
    assert g.decision().prompt == "prompt.mb.square"  # 600 000 raised >= 500 000
    assert lots(g, "Ana", "SHELL") == 2


def test_mb10_payday_each_round_and_rounds_limit_closes():
    g = started(["Ana", "Ben"], rounds=2)
    play(g, "roll 1 2", "end", "roll 1 2", "end")
    assert g.decision().prompt == "prompt.mb.payday"
    before = cash(g, "Ana")
    play(g, "payday")
    assert cash(g, "Ana") - before == 5 * 10_000  # five lots of 1 000 shares, 10 $ each
    assert g.s.round == 2
    play(g, "roll 1 2", "end", "roll 1 2", "end", "payday")
    assert g.snapshot()["closed"] == "rounds"


def test_mb10_manual_payday():
    g = started(["Ana", "Ben"], payday="manual")
    play(g, "roll 1 2", "end", "roll 1 2", "end")
    assert g.decision().prompt == "prompt.mb.turn_start" and g.s.round == 2
    play(g, "payday")
    assert g.s.last_payday["Ana"]["total"] == 50_000


def test_mb11_bank_empty_closes_and_ranking_shares_ties():
    g = started(["Ana", "Ben"])
    for c in g.companies:
        left = bank_lots(g, c)
        if left:
            play(g, f'adjust_lots Ana {c} +{left} "x"')
    play(g, "roll 1 2", "end")
    s = g.snapshot()
    assert s["closed"] == "bank_empty"
    g2 = started(["Ana", "Ben"])
    play(g2, "close")
    ranking = g2.snapshot()["ranking"]
    assert [r["rank"] for r in ranking] == ([1, 1] if ranking[0]["fortune"] == ranking[1]["fortune"] else [1, 2])


def test_mb11_wealth_is_cash_plus_lots_at_price():
    g = started(["Ana", "Ben"])
    expected = cash(g, "Ana") + sum(n * 1000 * g.price(c) for c, n in g.held(0).items())
    assert g.snapshot()["players"][0]["wealth"] == expected


def test_mb12_bank_pays_without_limit():
    g = started(["Ana", "Ben"])
    play(g, "roll 1 2", "receive Ana 100000000", "receive Ben 100000000")
    assert g.s.ledger.total() == 0  # the bank went below zero; money is conserved


def test_price_floor_10_and_steps_of_10():
    g = started(["Ana", "Ben"])
    play(g, "roll 1 2", "price ALL -1000")
    assert all(g.price(c) == 10 for c in g.companies)
    with pytest.raises(IllegalAction, match="in steps of 10"):
        play(g, "price SONY +15")
    with pytest.raises(IllegalAction, match="target = NOPE is not allowed; allowed: BARCLAYS, .*, BANQUES, .*, ALL"):
        play(g, "price NOPE +10")


def test_sector_price_change_moves_only_that_sector():
    g = started(["Ana", "Ben"])
    before = dict(g.s.prices)
    play(g, "roll 1 2", "price BANQUES +20")
    for c in g.companies:
        assert g.price(c) == before[c] + (20 if c in g.sectors["BANQUES"] else 0)


def test_illegal_action_changes_nothing_and_names_what_is_allowed_in_both_languages():
    g = started(["Ana", "Ben"])
    play(g, "roll 1 2", "titre BP SONY", "declare Ana 1")
    before = g.snapshot()
    with pytest.raises(IllegalAction) as error:
        play(g, "declare Ben 3")
    assert g.snapshot() == before
    assert error.value.message("en") == "declare: lots = 3 is not allowed; allowed: 0, 1, 2"
    assert error.value.message("fr") == "declare : lots = 3 refusé ; possible : 0, 1, 2"
    with pytest.raises(IllegalAction) as error:
        play(g, "declare Ana 1")
    assert str(error.value) == "it is Ben's turn, not Ana's; player allowed: Ben"
    with pytest.raises(IllegalAction) as error:
        play(g, "end")
    assert "end: a turn ends only on the square, once everything there is done; allowed now:" in str(error.value) and "declare" in str(error.value)
    assert g.snapshot() == before


def test_corrections_are_actions_and_undo_is_a_replay():
    g = started(["Ana", "Ben"])
    before = g.snapshot()
    play(g, 'adjust_cash Ana -100000 "cheque"')
    assert cash(g, "Ana") == 4_900_000
    assert g.log[-1].reason == "cheque"
    g.undo()
    assert g.snapshot() == before
    with pytest.raises(IllegalAction, match="cannot pay"):
        play(g, 'adjust_cash Ana -99000000 "x"')


def test_settings_and_players_are_checked():
    with pytest.raises(IllegalAction, match="format = mega"):
        MaxiBourse({"players": ["A", "B"], "format": "mega"})
    with pytest.raises(IllegalAction, match="7 players"):
        MaxiBourse({"players": list("ABCDEFG")})
    with pytest.raises(IllegalAction, match="payday = weekly"):
        MaxiBourse({"players": ["A", "B"], "settings": {"payday": "weekly"}})
    with pytest.raises(IllegalAction, match="unique"):
        MaxiBourse({"players": ["Ana", "ana"]})


def test_box_file_errors_name_the_key_and_what_is_allowed(tmp_path):
    bad = tmp_path / "box.toml"
    bad.write_text('[[sectors]]\nid = "X"\nname = { fr = "x", en = "x" }\n'
                   'companies = [{ id = "ACME", name = "Acme", nominal = 150 }]\n')
    with pytest.raises(BoxFileError) as error:
        load_box(bad)
    assert str(error.value) == f"{bad}: sectors[0].companies[0].nominal: 150 is not allowed; allowed: 100, 200, 300"
    bad.write_text('colour = "red"\n')
    with pytest.raises(BoxFileError, match="colour: unknown key; known keys:"):
        load_box(bad)
    with pytest.raises(BoxFileError, match="not found"):
        load_box(tmp_path / "missing.toml")


# --------------------------------------------- where play gets tight


def test_seller_ruined_while_their_partly_sold_sale_goes_on():
    """"Si le banquier ne vous reverse pas d'argent, vous êtes ruiné et vous devez quitter
    le jeu." Sophie offers 2 UBS; Thierry takes one and cannot pay; Sophie buys the lot he
    sells to cover, cannot pay, and is ruined in the cessation de paiement. Her sale, with
    one lot still offered, goes on for the bank, which now holds the lot, and asks the
    others from her left (it crashed with a TypeError: the sale had no seat to start from).
    Found by the cash-poor random games (tests/engines/maxibourse/test_maxibourse_properties.py)."""
    g = new_game(["Sophie", "Thierry", "Didier"])
    script(g, PICKS_3 + """
        adjust_lots Sophie BARCLAYS -1 set-up     # Sophie: 2 UBS and no cash
        adjust_lots Sophie CHASE -1 set-up
        adjust_lots Sophie DEUTSCHE -1 set-up
        adjust_lots Sophie ELF -1 set-up
        adjust_lots Sophie UBS +1 set-up
        adjust_cash Sophie -5000000 set-up
        adjust_cash Thierry -4900000 set-up       # Thierry: 100 000 $
        sell Sophie UBS 2
        declare Thierry 1                         # 200 000 $ due, 100 000 $ held
        declare Didier 0
        settle
        sell Thierry BP 1                         # to cover; Sophie buys it with no cash
        declare Didier 0
        declare Sophie 1
        settle
        declare Thierry 0                         # nobody buys the seized BP lot
        declare Didier 0
        declare Thierry 0
        declare Didier 0                          # the bank buys it back for less: Sophie is ruined
    """)
    assert g.s.ruined == [True, False, False]
    assert lots(g, "Thierry", "UBS") == 1 and g.s.skip[1] == 1  # he paid the bank and the fine
    d = g.decision()
    assert d.prompt == "prompt.mb.sale" and d.params["seller"] == "BANK" and d.params["lots"] == 1
    assert d.actor == seat(g, "Didier")  # Thierry is sanctioned: not asked
    play(g, "declare Didier 0", "declare Didier 0")  # the bank takes its own lot back
    assert bank_lots(g, "UBS") == 9 and g.decision().prompt == "prompt.mb.turn_start"


def test_au_cours_purchase_of_the_last_lots_ends_the_titre():
    """1-3: "jusqu'à ce qu'il ne reste aucune action disponible". Ana lands on TDK, of which
    the bank has 2 lots left, and buys both au cours: nobody else is asked, the price does
    not move and no auction opens for 0 lots."""
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Ben", "TDK", 8)
    play(g, 'set_price TDK 100 "x"', "roll 1 2", "titre TDK", "declare Ana 2", "settle")
    assert bank_lots(g, "TDK") == 0 and lots(g, "Ana", "TDK") == 2
    assert g.price("TDK") == 100
    assert g.decision().prompt == "prompt.mb.square" and g.decision().actor == seat(g, "Ana")


def test_a_rumour_revealed_during_a_shortage_auction_is_kept():
    """MB5 and the COCA-COLA example: "Le coteur intervient et modifie la cote". A rumour
    revealed while the banker runs a shortage auction (1-6) moves the quotation, and the
    auction goes on from there; its next step no longer writes back its old price."""
    g = started(["Yves", "Veronique", "Sophie", "Marc"])
    give(g, "Marc", "TWA", 8)
    play(g, "roll 1 2", "rumour Yves", "end")
    play(g, 'set_price TWA 400 "x"', "roll 1 2", "titre BP TWA")
    play(g, "declare Veronique 1", "declare Sophie 1", "declare Marc 0", "declare Yves 1")
    assert g.price("TWA") == 430 and g.decision().prompt == "prompt.mb.auction"
    play(g, "reveal Yves TWA +60")
    assert g.price("TWA") == 490 and g.decision().params["proposal"] == 500
    play(g, "raise")
    assert g.price("TWA") == 500
    play(g, 'set_price TWA 600 "card read late"', "bid Yves 0", "raise", "settle")
    assert g.price("TWA") == 610 and cash(g, "Veronique") == 5_000_000 - 610_000


def test_a_price_card_during_a_sale_auction_is_kept():
    """2/5: "vous organisez des enchères". A correction of the price while a sale's auction
    runs is where the auction goes on from."""
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Ana", "SHELL", 2)
    play(g, 'set_price SHELL 300 "x"', "sell Ana SHELL 2", "declare Ben 2", "declare Cid 2")
    assert g.decision().prompt == "prompt.mb.auction"
    play(g, 'set_price SHELL 250 "x"', "raise")
    assert g.price("SHELL") == 260
    play(g, "bid Cid 0", "raise", "settle")
    assert g.price("SHELL") == 270 and lots(g, "Ben", "SHELL") == 2


def test_a_player_sanctioned_during_a_titre_is_no_longer_asked():
    """8: "Vous ne pouvez plus participer au jeu, ni acheter, ni vendre". Ana buys SONY au
    cours and cannot pay; Ben buys the SHELL she sells to cover, cannot pay either and is
    fined: back on the Titre, Ben is not asked and cannot buy; Cid is."""
    g = started(["Ana", "Ben", "Cid"])
    for name in ("Ana", "Ben"):
        take_all_lots(g, name)
    give(g, "Ana", "SHELL", 2)
    give(g, "Ben", "GM", 1)
    set_cash(g, "Ana", 100_000)
    set_cash(g, "Ben", 500_000)
    play(g, 'set_price SONY 300 "x"', 'set_price SHELL 300 "x"', 'set_price GM 300 "x"')
    play(g, "roll 1 2", "titre SONY", "declare Ana 1", "settle")  # 300 000 due, 100 000 held
    play(g, "sell Ana SHELL 2", "declare Ben 2", "declare Cid 0", "settle")  # Ben: 600 000 due
    play(g, "sell Ben GM 1", "declare Cid 1", "declare Ana 0", "settle")
    assert g.s.skip == [1, 1, 0]  # both fined
    d = g.decision()
    assert d.prompt == "prompt.mb.titre" and d.actor == seat(g, "Cid")
    assert seat(g, "Ben") not in g.top.round.order
    with pytest.raises(IllegalAction):
        play(g, "declare Ben 1")
    play(g, "declare Cid 1", "settle")
    assert g.decision().actor == seat(g, "Cid") and g.top.round.order == [seat(g, "Cid")]


def test_a_purchase_declared_before_a_sanction_is_withdrawn():
    """8: "ni acheter". Ana and Ben each take one of Cid's 2 SHELL. Ana cannot pay and sells
    her GM; Ben buys it, cannot pay and is fined while covering: when the settlement comes
    back to Ben's SHELL, he is sanctioned and does not buy it; the lot stays on offer (and,
    nobody being left to ask, goes to the bank)."""
    g = started(["Ana", "Ben", "Cid"])
    for name in ("Ana", "Ben"):
        take_all_lots(g, name)
    give(g, "Cid", "SHELL", 2)
    give(g, "Ana", "GM", 1)
    give(g, "Ben", "TDK", 3)
    set_cash(g, "Ana", 100_000)
    set_cash(g, "Ben", 100_000)
    play(g, 'set_price SHELL 300 "x"', 'set_price GM 300 "x"', 'set_price TDK 100 "x"')
    play(g, "roll 1 2", "end", "roll 1 2", "end")  # Cid's turn
    play(g, "sell Cid SHELL 2", "declare Ana 1", "declare Ben 1", "settle")
    play(g, "sell Ana GM 1", "declare Ben 1", "declare Cid 0", "settle")  # Ben cannot pay either
    events = play(g, "sell Ben TDK 3", "declare Cid 3", "declare Ana 0", "settle")
    assert g.s.skip == [1, 1, 0]
    assert ("mb.purchase_withdrawn", "Ben") in [(e.key, e.params.get("player")) for e in events]
    assert lots(g, "Ana", "SHELL") == 1 and lots(g, "Ben", "SHELL") == 0
    assert lots(g, "Cid", "SHELL") == 0 and bank_lots(g, "SHELL") == 9  # the bank took the rest


def test_no_trade_on_a_titre_or_politique_square_after_the_roll():
    """1-2: "Vous ne pouvez pas vendre lorsque l'un d'entre vous s'arrête sur une case
    Titre." 4: "Vous ne pouvez pas effectuer de transactions." After the roll the only
    trade is 1-7: "proposer d'acheter à celui ou ceux qui les détiennent" on a Titre square
    whose lots are all held by players."""
    g = started(["Ana", "Ben"])
    give(g, "Ben", "TWA", 10)
    give(g, "Ben", "SHELL", 2)
    play(g, 'set_price TWA 200 "x"', 'set_price SHELL 200 "x"', "roll 1 2", "titre SONY", "declare Ana 0", "declare Ben 0")
    before = g.snapshot()
    with pytest.raises(IllegalAction) as refused:
        play(g, "trade Ben Ana TWA 1 200")
    assert "1-2" in refused.value.message("en") and "case Titre" in refused.value.message("fr")
    assert g.snapshot() == before
    play(g, "end", "roll 1 2", "price BANQUES +20")  # Ben on a Politique square
    with pytest.raises(IllegalAction) as refused:
        play(g, "trade Ben Ana TWA 1 200")
    assert "Politique" in refused.value.message("en") and "Politique" in refused.value.message("fr")
    play(g, "end", "payday", "roll 1 2")  # Ana on a square: selling is refused, buying SHELL (bank has 8) too
    for line in ("trade Ana Ben SONY 1 300", "trade Ben Ana SHELL 1 200"):
        with pytest.raises(IllegalAction) as refused:
            play(g, line)
        assert "1-7" in refused.value.message("en")
    play(g, "trade Ben Ana TWA 1 220")  # 1-7: every TWA lot is held
    assert lots(g, "Ana", "TWA") == 1 and g.price("TWA") == 220


def test_trade_before_the_roll_is_still_allowed():
    """2/5: "vous pouvez lui proposer un prix supérieur à leur valeur boursière et lui céder
    les actions au dernier cours que cet acquéreur accepte"."""
    g = started(["Ana", "Ben"])
    give(g, "Ana", "SHELL", 2)
    play(g, 'set_price SHELL 200 "x"', "trade Ana Ben SHELL 2 250")
    assert lots(g, "Ben", "SHELL") == 2 and g.price("SHELL") == 250


def test_a_correction_shrinks_an_offer_in_a_pending_settlement():
    """Corrections are the operator's (the rulebook's 2/7 says "Vous ne
    pouvez pas modifier la quotité que vous avez annoncée": only a correction shrinks it).
    Ana offers 2 SHELL and Ben takes both; the operator then notices Ana held only one: the
    settlement shrinks to that one lot and the box says so."""
    g = started(["Ana", "Ben"])
    give(g, "Ana", "SHELL", 2)
    play(g, 'set_price SHELL 300 "x"', "sell Ana SHELL 2", "declare Ben 2")
    assert g.decision().prompt == "prompt.mb.settle"
    events = play(g, 'adjust_lots Ana SHELL -1 "one card too many"')
    shown = [(e.key, e.params) for e in events]
    assert ("mb.offer_reduced", {"player": "Ana", "company": "SHELL", "lots": 1}) in shown
    assert ("mb.purchase_withdrawn", {"player": "Ben", "company": "SHELL", "lots": 1}) in shown
    assert g.decision().params["buyers"] == ["Ben 1"]
    from types import SimpleNamespace
    from firmware.games.maxibourse import MaxiBourseUI
    shown = MaxiBourseUI().news(SimpleNamespace(lang="fr"), g.log[-1], events, lambda ctx, act: "?")
    assert shown == ["Ben : achat de 1 lot SHELL retiré"]  # the line the box shows after the correction
    ana = cash(g, "Ana")
    play(g, "settle")
    assert lots(g, "Ben", "SHELL") == 1 and lots(g, "Ana", "SHELL") == 0 and cash(g, "Ana") - ana == 300_000
    assert g.decision().prompt == "prompt.mb.turn_start"  # nothing left on offer: the sale is over


def test_a_correction_taking_every_lot_on_offer_withdraws_the_sale():
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Ana", "SHELL", 2)
    play(g, "sell Ana SHELL 2", "declare Ben 0")
    events = play(g, 'adjust_lots Ana SHELL -2 "not hers"')
    assert ("mb.offer_reduced", {"player": "Ana", "company": "SHELL", "lots": 0}) in [(e.key, e.params) for e in events]
    assert g.decision().prompt == "prompt.mb.turn_start"
    # in a settlement too: it is withdrawn at once
    give(g, "Ana", "SHELL", 1)
    play(g, "sell Ana SHELL 1", "declare Ben 1", "declare Cid 0")
    play(g, 'adjust_lots Ana SHELL -1 "not hers"')
    assert g.decision().prompt == "prompt.mb.turn_start" and lots(g, "Ben", "SHELL") == 0


def test_a_correction_of_the_banks_lots_shrinks_a_titre_purchase_and_an_auction():
    """The bank's holdings change too when a correction hands a player lots from it: a
    Titre purchase or a shortage auction waiting on those lots shrinks with them."""
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Cid", "TDK", 7)
    play(g, "roll 1 2", "titre BP TDK", "declare Ana 2", "declare Ben 1", "declare Cid 0")
    assert g.decision().prompt == "prompt.mb.settle"  # 3 asked, 3 left
    events = play(g, 'adjust_lots Cid TDK +1 "one card was his"')
    assert ("mb.purchase_withdrawn", {"player": "Ben", "company": "TDK", "lots": 1}) in [(e.key, e.params) for e in events]
    play(g, "settle")
    assert lots(g, "Ana", "TDK") == 2 and lots(g, "Ben", "TDK") == 0 and bank_lots(g, "TDK") == 0
    assert g.decision().prompt == "prompt.mb.square"  # no lot left: the Titre is over
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Cid", "TDK", 8)
    play(g, "roll 1 2", "titre BP TDK", "declare Ana 2", "declare Ben 1", "declare Cid 0")
    assert g.decision().prompt == "prompt.mb.auction"  # 3 asked, 2 left
    play(g, 'adjust_lots Cid TDK +2 "both were his"')
    assert g.decision().prompt == "prompt.mb.square" and bank_lots(g, "TDK") == 0


def test_a_correction_cannot_take_lots_a_buyer_is_paying_for():
    """Lots sold to a buyer now raising the cash (8: "vous devez vendre des titres pour
    régler ... l'adversaire") are sold: the correction is refused with its reason."""
    g = started(["Ana", "Ben"])
    give(g, "Ana", "SHELL", 2)
    set_cash(g, "Ben", 100_000)
    play(g, 'set_price SHELL 300 "x"', "sell Ana SHELL 2", "declare Ben 2", "settle")
    assert g.decision().prompt == "prompt.mb.debt"
    before = g.snapshot()
    with pytest.raises(IllegalAction) as refused:
        play(g, 'adjust_lots Ana SHELL -1 "x"')
    assert "Ben" in refused.value.message("en") and g.snapshot() == before


# ------------------------------------------- readings of the rulebook
@pytest.mark.parametrize("fmt,every", [("junior", 1), ("senior", 2), ("masters", 3)])
def test_payday_every_tour_complet_of_the_format(fmt, every):
    """IV: "A la fin de chaque tour complet de jeu, 1 tour pour MAXI BOURSE International
    "Junior", 2 tours pour le jeu "Senior" et 3 tours pour le "Masters", les actions que
    vous détenez vous rapportent". Payday comes after 1, 2 or 3 rounds of turns."""
    g = started(["Ana", "Ben"], fmt)
    paydays = []
    for _ in range(6):
        play(g, "roll 1 2", "end", "roll 1 2", "end")
        if g.decision().prompt == "prompt.mb.payday":
            paydays.append(g.s.round)
            play(g, "payday")
    assert paydays == [r for r in range(1, 7) if r % every == 0]


def test_a_refusal_in_a_sale_drops_10_per_lot_offered():
    """2/5: "vous diminuez votre cours de 10 $ en 10 $ par joueur auquel vous êtes confronté
    et par quotité de 1 000 actions" (Théo: "10 $ x 3 = 30 $ ... PEUGEOT perd 150 $" for
    five players). A round where nobody buys drops 10 $ x lots still offered x players
    asked; lots already bought in an earlier round no longer count."""
    g = started(["Ana", "Ben", "Cid", "Dan"])
    give(g, "Ana", "SHELL", 3)
    play(g, 'set_price SHELL 400 "x"', "sell Ana SHELL 3", "declare Ben 0", "declare Cid 0", "declare Dan 0")
    assert g.price("SHELL") == 400 - 10 * 3 * 3
    play(g, "declare Ben 1", "declare Cid 0", "declare Dan 0", "settle")
    play(g, "declare Ben 0", "declare Cid 0", "declare Dan 0")  # 2 lots still offered, 3 players
    assert g.price("SHELL") == 310 - 10 * 2 * 3 - 10 * 2  # then the bank buys at -10 $ a lot


def test_thierry_offers_his_forced_sale_to_the_players_first():
    """III-6: "Thierry choisit les actions qu'il désire vendre et doit vous les proposer.
    Si vous ne vous en portez pas acquéreur, il peut les vendre au service Titres." A forced
    sale goes through the sale procedure: the others are asked at the quotation first; a
    private trade at a price of his own is no way to raise the sum."""
    g = started(["Thierry", "Anne", "Bea"])
    give(g, "Thierry", "PEUGEOT", 3)
    play(g, 'set_price PEUGEOT 350 "x"', "roll 1 2", "forced Thierry 1050000")
    assert [o.kind for o in g.decision().options if o.kind in ("sell", "trade")] == ["sell"]
    with pytest.raises(IllegalAction):
        play(g, "trade Thierry Anne PEUGEOT 3 350")
    play(g, "sell Thierry PEUGEOT 3")
    d = g.decision()
    assert d.prompt == "prompt.mb.sale" and d.actor == seat(g, "Anne") and d.params["price"] == 350
    play(g, "declare Anne 0", "declare Bea 0", "declare Anne 0", "declare Bea 0")  # "au service Titres"
    assert bank_lots(g, "PEUGEOT") == 10 and g.price("PEUGEOT") == 350 - 60 - 60 - 30


def test_cessation_de_paiement_fine_comes_out_of_the_difference_or_ruins():
    """8: "Il vous verse la différence si le produit de cette vente vous laisse des
    liquidités. Mais vous êtes sanctionné et devez passer un nouveau tour. Si le banquier
    ne vous reverse pas d'argent, vous êtes ruiné". The sanction is the 100 000 $ fine:
    a difference of 50 000 $ does not cover it, so nothing comes back and Ben is ruined."""
    g = started(["Ana", "Ben", "Cid"])
    take_all_lots(g, "Ben")
    give(g, "Ana", "SHELL", 1)
    set_cash(g, "Ben", 100_000)
    play(g, 'set_price SHELL 300 "x"', "sell Ana SHELL 1", "declare Ben 1", "declare Cid 0", "settle")
    # Ben owes 300 000 and has nothing to sell: he hands over 100 000, the bank sells SHELL
    play(g, "declare Cid 0", "declare Ana 0", "declare Cid 0", "declare Ana 0")
    # nobody buys: the bank takes it back at 300 - 20 - 20 - 10 = 250: 100 000 + 250 000 - 300 000
    assert g.s.ruined[1] and cash(g, "Ben") == 0
    assert cash(g, "Ana") == 5_000_000 + 300_000  # Ana is paid in full


def test_horizontal_bonus_per_disjoint_group_of_three_companies():
    """IV-3: "Vous détenez des actions de 3 entreprises appartenant à un même secteur
    d'activité : le banquier vous verse une attribution forfaitaire de 300 000 $ ... il vous
    faut être majoritaire dans une entreprise au moins, et détenir 3 000 titres au moins
    dans les deux autres entreprises." The bonus is for three companies: AUTOMOBILE (six
    companies) can hold two disjoint groups, each with its own majority; five companies of
    3 000 shares or more around one majority are still one group."""
    from engines.maxibourse import payday as P
    from engines.maxibourse.box import load_box
    box = load_box()
    prices = {c: 100 for c in box.companies}
    two = {"PEUGEOT": 6, "TOYOTA": 3, "VW": 3, "FIAT": 6, "GM": 3, "LEYLAND": 3}
    assert P.breakdown(two, prices, box, 1000).horizontal == ["AUTOMOBILE", "AUTOMOBILE"]
    one = {"PEUGEOT": 6, "TOYOTA": 3, "VW": 3, "FIAT": 3, "GM": 3, "LEYLAND": 3}
    assert P.breakdown(one, prices, box, 1000).horizontal == ["AUTOMOBILE"]
    b = P.breakdown(two, prices, box, 1000)
    assert b.total == b.dividends + sum(b.jetons.values()) + 600_000


def test_a_correction_during_a_half_delivered_settlement_keeps_what_was_sold():
    """Found by the cash-poor random games: Ana sells 3 of her 4 SHELL, Ben's lot is
    delivered, Cid's 2 are seized in his cessation de paiement; a correction then takes
    Ana's fourth lot, which was never on offer: her sale, all sold, is not cut (it was cut
    below what it had sold and the bank's buy-back paid a negative amount)."""
    g = started(["Ana", "Ben", "Cid"])
    take_all_lots(g, "Cid")
    give(g, "Ana", "SHELL", 4)
    set_cash(g, "Cid", 100_000)
    play(g, 'set_price SHELL 300 "x"', "sell Ana SHELL 3", "declare Ben 1", "declare Cid 2", "settle")
    assert g.decision().params["seller"] == "BANK"  # Cid's cessation: the bank sells the 2 seized lots
    events = play(g, 'adjust_lots Ana SHELL -1 "x"')
    assert not [e for e in events if e.key in ("mb.offer_reduced", "mb.purchase_withdrawn")]
    play(g, "declare Ana 0", "declare Ben 0", "declare Ana 0", "declare Ben 0")
    assert g.s.ruined[2] and cash(g, "Ana") == 5_000_000 + 300_000 + 600_000
    assert g.decision().prompt == "prompt.mb.turn_start" and g.decision().actor == seat(g, "Ana")


# ------------------------------------------- refusals say their own reason
def test_refusals_say_their_own_reason_first_then_what_is_allowed():
    from pathlib import Path

    from firmware.script import run_script

    root = Path(__file__).resolve().parents[3]
    game = run_script((root / "examples" / "sony.txt").read_text(encoding="utf-8").split("set_price SONY 350")[0])
    before = game.snapshot()

    def refused(line):
        with pytest.raises(IllegalAction) as error:
            game.apply(game.ACTIONS.parse(line, game.players))
        assert game.snapshot() == before
        return error.value.message("en"), error.value.message("fr")

    assert refused("sell Sophie SONY 1") == (
        "Sophie holds no SONY lot to sell; company allowed: BARCLAYS, ELF, FIAT, NESTLE, TWA",
        "Sophie n'a aucun lot SONY à vendre ; société possible : BARCLAYS, ELF, FIAT, NESTLE, TWA")
    assert refused("sell Thierry BARCLAYS 1")[0] == "it is Sophie's turn, not Thierry's; player allowed: Sophie"
    assert refused("end")[0].startswith("Sophie rolls the dice first; the turn ends after the square; allowed now: ")
    # a value out of the rulebook's range keeps the generic message: it names the range (MB3)
    game.apply(game.ACTIONS.parse("roll 3 4", game.players))
    game.apply(game.ACTIONS.parse("titre BP SONY", game.players))
    before = game.snapshot()
    assert refused("declare Thierry 1")[0] == "it is Sophie's turn, not Thierry's; player allowed: Sophie"
    assert refused("declare Sophie 5")[0] == "declare: lots = 5 is not allowed; allowed: 0, 1, 2"
