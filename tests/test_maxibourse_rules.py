"""Rulings MB1-MB12 and the further decisions of docs/rules/maxibourse.md."""
import pytest

from engines.core.errors import BoxFileError, IllegalAction
from engines.maxibourse.box import load_box
from engines.maxibourse.game import MaxiBourse, snapshot
from mb_helpers import bank_lots, cash, give, lots, new_game, play, seat, set_cash, started


def test_mb1_market_40_companies_10_sectors_nominal_start_prices():
    g = new_game(["Ana", "Ben"])
    assert len(g.companies) == 40 and len(g.sectors) == 10
    assert all(g.price(c) in (100, 200, 300) for c in g.companies)
    assert all(bank_lots(g, c) == 10 for c in g.companies)
    assert snapshot(g)["box_verified"] is False  # reconstructed nominals are flagged


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
    assert g.decision().prompt == "prompt.square"  # nobody asked: the titre is over


def test_mb3_no_selling_during_a_titre_and_selling_only_before_rolling():
    g = started(["Ana", "Ben"])
    company = next(iter(g.held(0)))
    play(g, "roll 1 2")
    with pytest.raises(IllegalAction, match="sell is not possible now"):
        play(g, f"sell Ana {company} 1")
    play(g, "titre SONY")
    with pytest.raises(IllegalAction, match="sell is not possible now"):
        play(g, f"sell Ana {company} 1")


def test_mb3_titre_ends_when_no_lot_is_left():
    g = started(["Ana", "Ben"])
    give(g, "Ben", "TDK", 7)
    play(g, "roll 1 2", "titre BP TDK", "declare Ana 2", "declare Ben 1", "settle")
    assert bank_lots(g, "TDK") == 0
    assert g.decision().prompt == "prompt.square"


def test_mb4_one_bidder_asking_2_of_1_left_cuts_in_the_auction():
    g = started(["Ana", "Ben"])
    give(g, "Ben", "TDK", 9)
    play(g, 'set_price TDK 100 "x"', "roll 1 2", "titre BP TDK", "declare Ana 2", "declare Ben 0")
    assert g.decision().prompt == "prompt.auction" and g.price("TDK") == 120
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
    for company, n in list(g.held(0).items()):
        play(g, f'adjust_lots Ana {company} -{n} "x"')
    set_cash(g, "Ana", 250_000)
    give(g, "Ana", "TDK", 1)
    play(g, 'set_price TDK 100 "x"', 'set_price SONY 300 "x"', "roll 1 2", "titre SONY", "declare Ana 1", "settle")
    play(g, "sell Ana TDK 1", "declare Ben 0", "declare Ben 0")  # bank buys at 100-10-10-10 = 70
    assert lots(g, "Ana", "SONY") == 1
    assert cash(g, "Ana") == 0  # 320 000 - 300 000 paid, fine takes the 20 000 left
    assert g.s.skip[0] == 1 and not g.s.ruined[0]


def test_mb8_card_debt_without_lots_ruins_and_the_bank_pays_the_creditors():
    g = started(["Ana", "Ben", "Cid"])
    for company, n in list(g.held(0).items()):
        play(g, f'adjust_lots Ana {company} -{n} "x"')
    set_cash(g, "Ana", 50_000)
    ben = cash(g, "Ben")
    play(g, "roll 1 2", "payeach Ana 100000")
    assert g.s.ruined[0] and cash(g, "Ana") == 0
    assert cash(g, "Ben") - ben == 100_000
    assert g.decision().params["player"] == "Ben"  # Ana's turn ended with her ruin


def test_mb8_card_debt_sells_lots_first_without_fine():
    g = started(["Ana", "Ben"])
    set_cash(g, "Ana", 0)
    company = next(iter(g.held(0)))
    play(g, f'set_price {company} 300 "x"', "roll 1 2", "pay Ana 100000")
    assert g.decision().prompt == "prompt.debt"
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
    s = snapshot(g)
    assert s["closed"] == "last_player" and s["ranking"][0]["name"] == "Ben"


def test_mb9_forced_sale_stops_once_the_amount_is_reached():
    g = started(["Ana", "Ben"])
    give(g, "Ana", "SHELL", 4)
    play(g, 'set_price SHELL 300 "x"', "roll 1 2", "forced Ana 500000", "sell Ana SHELL 2", "declare Ben 2", "settle")
    assert g.decision().prompt == "prompt.square"  # 600 000 raised >= 500 000
    assert lots(g, "Ana", "SHELL") == 2


def test_mb10_payday_each_round_and_rounds_limit_closes():
    g = started(["Ana", "Ben"], rounds=2)
    play(g, "roll 1 2", "end", "roll 1 2", "end")
    assert g.decision().prompt == "prompt.payday"
    before = cash(g, "Ana")
    play(g, "payday")
    assert cash(g, "Ana") - before == 5 * 10_000  # five lots of 1 000 shares, 10 $ each
    assert g.s.round == 2
    play(g, "roll 1 2", "end", "roll 1 2", "end", "payday")
    assert snapshot(g)["closed"] == "rounds"


def test_mb10_manual_payday():
    g = started(["Ana", "Ben"], payday="manual")
    play(g, "roll 1 2", "end", "roll 1 2", "end")
    assert g.decision().prompt == "prompt.turn_start" and g.s.round == 2
    play(g, "payday")
    assert g.s.last_payday["Ana"]["total"] == 50_000


def test_mb11_bank_empty_closes_and_ranking_shares_ties():
    g = started(["Ana", "Ben"])
    for c in g.companies:
        left = bank_lots(g, c)
        if left:
            play(g, f'adjust_lots Ana {c} +{left} "x"')
    play(g, "roll 1 2", "end")
    s = snapshot(g)
    assert s["closed"] == "bank_empty"
    g2 = started(["Ana", "Ben"])
    play(g2, "close")
    ranking = snapshot(g2)["ranking"]
    assert [r["rank"] for r in ranking] == ([1, 1] if ranking[0]["wealth"] == ranking[1]["wealth"] else [1, 2])


def test_mb11_wealth_is_cash_plus_lots_at_price():
    g = started(["Ana", "Ben"])
    expected = cash(g, "Ana") + sum(n * 1000 * g.price(c) for c, n in g.held(0).items())
    assert snapshot(g)["players"][0]["wealth"] == expected


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
    before = snapshot(g)
    with pytest.raises(IllegalAction) as error:
        play(g, "declare Ben 3")
    assert snapshot(g) == before
    assert error.value.message("en") == "declare: lots = 3 is not allowed; allowed: 0, 1, 2"
    assert error.value.message("fr") == "declare : lots = 3 refusé ; possible : 0, 1, 2"
    with pytest.raises(IllegalAction) as error:
        play(g, "declare Ana 1")
    assert "player = Ana" in str(error.value) and "allowed: Ben" in str(error.value)
    with pytest.raises(IllegalAction) as error:
        play(g, "end")
    assert "end is not possible now; allowed:" in str(error.value) and "declare" in str(error.value)
    assert snapshot(g) == before


def test_corrections_are_actions_and_undo_is_a_replay():
    g = started(["Ana", "Ben"])
    before = snapshot(g)
    play(g, 'adjust_cash Ana -100000 "cheque"')
    assert cash(g, "Ana") == 4_900_000
    assert g.log[-1].reason == "cheque"
    g.undo()
    assert snapshot(g) == before
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
