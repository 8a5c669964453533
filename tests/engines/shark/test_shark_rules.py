"""Shark's rules with the rulebook's own numbers (rules/shark.fr.txt, rulings SH1-SH11).

Each test quotes the sentence it checks. The map is the shipped template (engines/shark/box/
shark.toml): zone 1 is columns A-D of rows 1-5, zone 2 columns E-H, zone 3 I-L; zones 4-6
below them in rows 6-10.
"""
import random

import pytest

from engines.core.actions import CORRECTION

from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.shark.game import Shark
from shark_helpers import act, give_cash, holdings, new_game, position, transfers

ANA, BEN, CID = 0, 1, 2


def state(game):
    return game.snapshot(), len(game.log)


# ---------------------------------------------------------------------- the start (SH1)
def test_players_start_with_no_money_and_one_share_each():
    """"Au début, les joueurs ne possèdent pas d'argent. [...] il distribuera au hasard, 1
    carte-action de valeur 1 à tous les joueurs"."""
    game = new_game(deal=["RED", "BLUE", "RED"])
    snap = game.snapshot()
    assert [p["cash"] for p in snap["players"]] == [0, 0, 0]
    assert [p["shares"] for p in snap["players"]] == [{"RED": 1}, {"BLUE": 1}, {"RED": 1}]
    assert snap["companies"]["RED"]["stock"] == 38 and snap["companies"]["BLUE"]["stock"] == 39
    assert all(c["value"] == 0 for c in snap["companies"].values())
    assert snap["turn"] == "Ana"


def test_the_device_deals_one_random_share_to_each_player():
    game = Shark({"game": "shark", "players": ["Ana", "Ben"], "seed": 3, "settings": {}})
    deal = game.fill_chance(game.ACTIONS.parse("deal", game.players), random.Random(1))
    assert len(deal.companies) == 2 and set(deal.companies) <= {"RED", "YELLOW", "GREEN", "BLUE"}
    with pytest.raises(IllegalAction, match="one company per player"):
        game.apply(game.ACTIONS.parse("deal RED", game.players))


# ------------------------------------------------------- values and bonus (SH2, SH3)
def test_the_first_building_of_a_colour_takes_it_from_0_to_1_with_a_bonus_of_1000():
    """"Après avoir posé son immeuble, le joueur déplacera le pion [...] du niveau 0 au niveau
    1 [...] Le joueur reçoit donc 1.000 FT (valeur boursière x 1.000) de prime"."""
    game = new_game(deal=["BLUE", "RED", "RED"])
    act(game, "roll 1 RED")
    events = act(game, "place Ana A1")
    assert game.s.values["RED"] == 1
    # the bonus to Ana, then the rise of 1 point: 1 000 per share to each holder
    assert transfers(events) == [(BANK, ANA, 1000, "bonus"), (BANK, BEN, 1000, "rise"), (BANK, CID, 1000, "rise")]


def test_a_second_lone_building_changes_nothing_and_pays_1000():
    """"Si, au cours du jeu, un immeuble isolé de la même couleur est placé sur La
    mappemonde, cela n'a aucune incidence sur l'échelle des valeurs. Le joueur, dans ce
    cas, n'obtiendra pas 1.000 x la valeur du cours en FT mais seulement 1.000 FT"."""
    game = new_game()
    position(game, {"A1": "RED"})
    act(game, "roll 1 RED")
    events = act(game, "place Ana C3")
    assert game.s.values["RED"] == 1
    assert transfers(events) == [(BANK, ANA, 1000, "bonus")]


def test_a_pair_takes_the_value_to_2_and_pays_2000():
    """"Lorsqu'un second immeuble est placé à côté d'un autre [...] Le jeton correspondant
    sera avancé en position 2 [...] Le joueur concerné percevra 2000 FT de prime de succès"."""
    game = new_game(deal=["BLUE", "BLUE", "BLUE"])
    position(game, {"A1": "RED"})
    act(game, "roll 1 RED")
    events = act(game, "place Ana B1")
    assert game.s.values["RED"] == 2
    assert transfers(events) == [(BANK, ANA, 2000, "bonus")]


def test_a_chain_of_3_grown_to_4_takes_3_to_4_and_pays_4000():
    """"Si un joueur rallonge une chaîne de 3 immeubles pour en faire une de 4, le cours [...]
    passera de 3 à 4 [...] Le joueur aura droit à une prime de réussite de 4.000 FT"."""
    game = new_game(deal=["BLUE", "BLUE", "BLUE"])
    position(game, {"A1": "RED", "B1": "RED", "C1": "RED"})
    assert game.s.values["RED"] == 3
    act(game, "roll 1 RED")
    events = act(game, "place Ana D1")
    assert game.s.values["RED"] == 4
    assert transfers(events) == [(BANK, ANA, 4000, "bonus")]


def test_a_chain_of_3_and_a_lone_building_are_worth_3_and_the_lone_made_a_pair_takes_3_to_5():
    """"Lorsque nous avons une chaîne de 3 immeubles rouges et 1 immeuble rouge isolé sur la
    mappemonde, le cours de cette société est placé au niveau 3. Si un joueur transforme
    l'immeuble isolé en une chaîne de 2 immeubles, la valeur de la société grimpe
    immédiatement de 2 points, passant de 3 à 5. Pour ce placement, le joueur reçoit donc
    5.000 FT de prime"."""
    game = new_game(deal=["RED", "BLUE", "BLUE"])
    position(game, {"A1": "RED", "B1": "RED", "C1": "RED", "A4": "RED"})
    assert game.s.values["RED"] == 3
    act(game, "roll 1 RED")
    events = act(game, "place Ana A5")
    assert game.s.values["RED"] == 5
    assert transfers(events) == [(BANK, ANA, 5000, "bonus"), (BANK, ANA, 2000, "rise")]


def test_yellow_5_to_6_removes_a_blue_chain_4_to_2_and_the_falls_follow_the_rises():
    """"Par le placement d'un immeuble jaune, le joueur A a pu rallonger une chaîne de 5
    immeubles et par la même occasion faire disparaître une chaîne de 2 immeubles bleus. [...]
    Le joueur A touche en premier lieu une prime réussite de 6.000 FT. Puis, il reçoit 3.000
    FT pour ses actions jaunes. Le joueur B touche 1.000 FT pour ses actions jaunes. Bien que
    le joueur A possède 2 actions de la société bleue, il ne doit rien [...] Le joueur B par
    contre, devra verser 10.000 FT à la banque"."""
    game = new_game(players=("A", "B"), deal=["YELLOW", "YELLOW"], first="A")
    position(game, {"A1": "YELLOW", "B1": "YELLOW", "C1": "YELLOW", "D1": "YELLOW", "D2": "YELLOW",
                    "B3": "BLUE", "C3": "BLUE", "A5": "BLUE", "B5": "BLUE"})
    holdings(game, 0, YELLOW=3, BLUE=2)
    holdings(game, 1, YELLOW=1, BLUE=5)
    give_cash(game, 1, 10_000)
    assert (game.s.values["YELLOW"], game.s.values["BLUE"]) == (5, 4)
    act(game, "roll 1 YELLOW")
    events = act(game, "place A C2")
    assert (game.s.values["YELLOW"], game.s.values["BLUE"]) == (6, 2)
    assert "B3" not in game.snapshot()["map"]["pieces"] and "C3" not in game.snapshot()["map"]["pieces"]
    assert transfers(events) == [(BANK, 0, 6000, "bonus"), (BANK, 0, 3000, "rise"), (BANK, 1, 1000, "rise"),
                                 (1, BANK, 10_000, "fall")]
    assert game.cash(0) == 9000 and game.cash(1) == 1000
    assert game.s.used["BLUE"] == 4 and game.s.on_board["BLUE"] == 2   # removed buildings stay used (SH7)


def test_the_success_bonus_and_every_payment_are_previewed_before_the_placement():
    game = new_game(players=("A", "B"), deal=["YELLOW", "YELLOW"], first="A")
    position(game, {"A1": "YELLOW", "B1": "YELLOW", "C1": "YELLOW", "D1": "YELLOW", "D2": "YELLOW",
                    "B3": "BLUE", "C3": "BLUE", "A5": "BLUE", "B5": "BLUE"})
    holdings(game, 0, YELLOW=3, BLUE=2)
    holdings(game, 1, YELLOW=1, BLUE=5)
    act(game, "roll 1 YELLOW")
    params = game.decision().interaction.params
    by_cell = {p["cell"]: p for p in params["cells"]}
    assert by_cell["C2"] == {"cell": "C2", "bonus": 6000, "changes": {"YELLOW": [5, 6], "BLUE": [4, 2]}, "removed": 2,
                             "payments": {"A": 3000, "B": 1000 - 10_000}}   # A pays no fall of his own placement
    assert by_cell["A2"]["bonus"] == 6000 and by_cell["D4"]["bonus"] == 1000
    assert "C4" not in by_cell                       # a lone yellow against the blue pair: illegal
    # the cursor starts on the largest bonus, ties by row then column (SH11)
    assert params["start"] == "A2"
    assert params["map"][0] == "YYYY" and params["map"][2] == ".BB." and params["origin"] == "A1"


# ------------------------------------------------------- placement legality (SH6, SH7)
def test_a_building_may_touch_another_colour_only_when_its_chain_outnumbers_it():
    """"Un immeuble de couleur différente ne pourra être posé directement à côté d'un autre,
    sauf si les immeubles d'une des deux chaînes couleurs sont en surnombre." A tie is
    illegal, and a lone building counts as a chain of 1 (SH6)."""
    game = new_game()
    position(game, {"A1": "BLUE", "C1": "RED", "C2": "BLUE", "C3": "BLUE"})
    act(game, "roll 1 RED")
    cells = [str(c) for c in game.decision().option("place").fields["cell"].values]
    assert "B1" in cells            # joins C1: a red chain of 2 against the lone blue A1, which it removes
    assert "A2" not in cells        # a lone red touching a lone blue: 1 against 1, a tie
    assert "D1" in cells and "B2" not in cells   # D1 joins C1; B2 alone against C2's blue chain of 2
    before = state(game)
    with pytest.raises(IllegalAction, match="A2: a Red building \\(chain of 1\\) may not touch a Blue chain of 1"):
        act(game, "place Ana A2")
    with pytest.raises(IllegalAction, match="E1 is not a cell of zone 1"):
        act(game, "place Ana E1")
    with pytest.raises(IllegalAction, match="C1 already holds a Red building"):
        act(game, "place Ana C1")
    assert state(game) == before


def test_a_lone_building_of_another_colour_is_removed_by_a_larger_chain():
    """SH6: a lone building counts as a chain of 1, which can be removed; "le retrait d'un
    immeuble isolé ne fait pas baisser le cours de l'action (sauf si c'est le dernier
    immeuble de cette couleur se trouvant sur le plateau de jeu)"."""
    game = new_game(deal=["BLUE", "BLUE", "BLUE"])
    position(game, {"A1": "RED", "B1": "RED", "C2": "BLUE", "A4": "BLUE"})
    act(game, "roll 1 RED")
    act(game, "place Ana C1")
    assert game.s.values["RED"] == 3 and game.s.values["BLUE"] == 1   # a lone blue left keeps it at 1
    assert "C2" not in game.snapshot()["map"]["pieces"]


def test_the_last_building_of_a_colour_removed_takes_it_to_0_and_its_holders_pay():
    """"La valeur d'une société peut retomber à 0 au cours du jeu, uniquement lorsque celle-ci
    ne possède momentanément plus aucun immeuble sur toute la mappemonde." Ben holds 2 blue:
    1 point x 2 shares."""
    game2 = new_game(deal=["RED", "BLUE", "RED"])
    position(game2, {"A1": "RED", "B1": "RED", "D1": "BLUE"})
    holdings(game2, BEN, BLUE=2)
    give_cash(game2, BEN, 5000)
    act(game2, "roll 1 RED")
    events = act(game2, "place Ana C1")
    assert game2.s.values["BLUE"] == 0
    assert transfers(events, "fall") == [(BEN, BANK, 2000, "fall")]


def test_no_legal_cell_skips_the_placement_and_trading_still_follows():
    """"Si le placement d'un immeuble n'est pas possible [...] le joueur doit laisser passer
    son tour. Mais il peut tout de même acheter ou vendre des actions." (SH7: no bonus.)"""
    game = new_game()
    # zone 6 (rows 6-10, columns I-L) full of blue chains of 2 and more: no red cell anywhere
    full = {f"{col}{row}": "BLUE" for col in "IJKL" for row in range(6, 11)}
    position(game, full)
    act(game, "roll 6 RED")
    assert game.snapshot()["phase"] == "after"
    assert game.decision().prompt == "prompt.sh.after" and game.cash(ANA) == 0
    with pytest.raises(IllegalAction, match=r"^Ana: no cell of zone 6 is legal for Red \(SH7\), so no building is placed "
                                            "this turn; the turn goes on with trading; allowed now: "):
        act(game, "place Ana I6")


def test_white_or_black_lets_the_player_choose_a_colour_with_a_legal_cell():
    """"Si le résultat du dé est blanc ou noir, le joueur pourra choisir la couleur"; SH7: a
    colour that has a legal cell in the zone."""
    game = new_game()
    position(game, {"A1": "BLUE", "B1": "BLUE", "C1": "BLUE", "D1": "BLUE",
                    **{f"{c}{r}": "BLUE" for c in "ABCD" for r in range(2, 6)}})  # zone 1 all blue, bar none
    act(game, "roll 1 WHITE")
    assert game.snapshot()["phase"] == "after"       # no colour has a free cell in zone 1
    with pytest.raises(IllegalAction, match="^Ana's placement was skipped: no cell of zone 1 was legal for any colour"):
        act(game, "place Ana A1")
    game = new_game()
    position(game, {"A1": "BLUE", "B1": "BLUE"})
    act(game, "roll 1 BLACK")
    assert game.decision().option("colour").fields["company"].values == ("RED", "YELLOW", "GREEN", "BLUE")
    act(game, "colour Ana GREEN")
    assert game.decision().prompt == "prompt.sh.place"
    assert "C1" not in [str(c) for c in game.decision().option("place").fields["cell"].values]


def test_variant_2_black_is_a_colour_with_the_fewest_buildings():
    """"Lorsque c'est noir, le joueur devra choisir la couleur qui compte le moins d'immeubles
    sur la mappemonde à ce moment. S'il y a juste équilibre, le joueur peut choisir entre les
    deux.\""""
    game = new_game(variant2=True)
    position(game, {"A1": "RED", "C3": "YELLOW", "E5": "BLUE"})
    act(game, "roll 1 BLACK")
    assert game.decision().option("colour").fields["company"].values == ("GREEN",)
    before = state(game)
    with pytest.raises(IllegalAction, match="black \\(variant 2\\): Red has 1 building on the map"):
        act(game, "colour Ana RED")
    assert state(game) == before
    game = new_game(variant2=True)
    act(game, "roll 1 WHITE")
    assert len(game.decision().option("colour").fields["company"].values) == 4


def test_variant_3_has_no_colour_die():
    """"Cette variante exclut le dé de couleur. [...] La couleur des immeubles est toujours
    laissée au choix des joueurs.\""""
    game = new_game(variant3=True)
    assert game.decision().option("roll").fields["colour"].value is None
    with pytest.raises(IllegalAction):
        act(game, "roll 1 RED")
    act(game, "roll 4")
    assert game.decision().prompt == "prompt.sh.colour"


def test_variant_1_counts_a_chain_as_at_most_7_and_pays_no_bonus_from_8():
    """"Si la chaîne se compose de 8 immeubles ou plus, la valeur de la société stagne à
    7.000 FT. Alors disparaissent aussi toutes les primes de réussite"; "Au départ, les
    joueurs ne reçoivent ni argent, ni actions." (SH10)"""
    game = new_game(variant1=True)
    assert all(not p["shares"] for p in game.snapshot()["players"])
    position(game, {f"{c}1": "RED" for c in "ABCD"} | {"A2": "RED", "A3": "RED", "A4": "RED"})
    assert game.s.values["RED"] == 7
    act(game, "roll 1 RED")
    events = act(game, "place Ana A5")
    assert game.s.values["RED"] == 7 and not transfers(events)


def test_variant_1_a_merge_whose_capped_sum_falls_is_a_fall():
    """"Le développement d'une chaîne peut aussi se révéler négatif pour la valeur [...]
    lorsque 2 ou plusieurs petites chaînes [...] fusionnent avec une grosse chaîne" (SH10)."""
    game = new_game(variant1=True)
    position(game, {f"{c}1": "RED" for c in "ABCD"} | {f"{c}3": "RED" for c in "ABCD"})   # 4 + 4
    holdings(game, BEN, RED=1)
    give_cash(game, BEN, 9000)
    assert game.s.values["RED"] == 8
    act(game, "roll 1 RED")
    events = act(game, "place Ana B2")       # one chain of 9, counted 7: 8 -> 7, and no bonus
    assert game.s.values["RED"] == 7
    assert transfers(events) == [(BEN, BANK, 1000, "fall")]


# ------------------------------------------------------------------ trading (SH1, SH8)
def test_no_share_of_a_company_worth_0_is_bought_or_sold():
    """"Il ne peut en aucun cas acheter ou revendre des actions de sociétés dont la valeur
    boursière est de "0".\""""
    game = new_game()
    give_cash(game, ANA, 10_000)
    before = state(game)
    with pytest.raises(IllegalAction, match="Red is worth 0: its shares can never be bought or sold"):
        act(game, "buy Ana RED 1")
    assert game.decision().option("buy") is None and state(game) == before


def test_at_most_5_shares_bought_per_turn_over_both_windows_and_sales_do_not_restore_it():
    """"Un joueur ne peut acheter que 5 actions au maximum à la fois [...] ceci compte pour les
    deux occasions d'achat [...] Nous avons décidé que le joueur pouvait acheter 5 actions en
    tout." (SH8: sales do not restore it.)"""
    game = new_game()
    position(game, {"A1": "RED", "B1": "RED", "E1": "BLUE"})
    give_cash(game, ANA, 50_000)
    act(game, "buy Ana RED 3")
    act(game, "sell Ana RED 2")
    with pytest.raises(IllegalAction, match="at most 5 shares a turn: 2 left, not 3"):
        act(game, "buy Ana BLUE 3")
    act(game, "buy Ana BLUE 1")
    act(game, "roll 4 GREEN")
    act(game, "place Ana A6")
    assert game.decision().option("buy").fields["shares"].hi == 1
    act(game, "buy Ana RED 1")
    assert game.decision().option("buy") is None


def test_buy_limit_each_window_gives_5_before_and_5_after_the_roll():
    game = new_game(buy_limit="each_window")
    position(game, {"A1": "RED", "B1": "RED"})
    give_cash(game, ANA, 50_000)
    act(game, "buy Ana RED 5")
    act(game, "roll 4 GREEN")
    act(game, "place Ana A6")
    act(game, "buy Ana RED 5")
    assert game.shares("RED", ANA) == 11


def test_purchases_are_limited_by_cash_and_by_the_stock_of_40():
    """"Le crédit n'est pas de mise"; SH1: 40 shares per company."""
    game = new_game(players=("Ana", "Ben"), deal=["BLUE", "BLUE"])
    position(game, {"A1": "RED", "B1": "RED"})
    give_cash(game, ANA, 5000)
    with pytest.raises(IllegalAction, match="Ana has 5,000 FT, cannot pay 6,000 FT: no credit"):
        act(game, "buy Ana RED 3")
    holdings(game, BEN, RED=38)
    with pytest.raises(IllegalAction, match="^Red: the bank has 2 shares left, not 3; shares allowed: 1 to 2 in steps of 1$"):
        act(game, "buy Ana RED 3")


# ------------------------------------------------------------------ forced sale (SH9)
def forced_game(ben_cash, ben_shares):
    """Ben owes a fall of blue: the last blue building is removed (value 2 -> 0)."""
    game = new_game(deal=["RED", "RED", "RED"])
    position(game, {"A1": "RED", "B1": "RED", "D1": "BLUE", "D2": "BLUE", "K9": "GREEN", "L9": "GREEN",
                    "K10": "GREEN", "L10": "GREEN", "I9": "YELLOW", "I10": "YELLOW"})
    holdings(game, BEN, RED=0, **ben_shares)
    give_cash(game, BEN, ben_cash)
    act(game, "roll 1 RED")
    return game


def test_a_holder_short_of_cash_gives_shares_at_half_price_rounded_up_and_keeps_the_excess():
    """"il devra verser cette somme sous forme d'actions. [...] La banque reprend ces actions à
    50%. Si la somme à verser est inférieure à 1.000 FT, elle sera automatiquement arrondie à
    1.000 FT" (SH9: all his cash first, then shares he chooses, half price rounded up to the
    thousand, the excess of the last share returned in cash)."""
    game = forced_game(1000, {"BLUE": 2, "GREEN": 1, "YELLOW": 1})   # owes 2 x 2 000 = 4 000
    act(game, "place Ana C1")          # red chain of 3 removes the blue pair: blue 2 -> 0
    assert game.decision().prompt == "prompt.sh.debt" and game.decision().actor == BEN
    companies = game.decision().option("forced_sale").fields["company"].values
    assert companies == ("YELLOW", "GREEN")          # blue is worth 0 now: not a remedy
    # refused with their rule: a share not held, a company worth 0, anything else than paying
    with pytest.raises(IllegalAction, match=r"^Ben holds no Red share: a share is given up among those held \(SH9\); "
                                            r"company allowed: YELLOW, GREEN$"):
        act(game, "forced_sale Ben RED")
    with pytest.raises(IllegalAction, match=r"^Blue is worth 0: only shares worth more than 0 are given up \(SH9\)"):
        act(game, "forced_sale Ben BLUE")
    with pytest.raises(IllegalAction) as refused:
        act(game, "done Ana")
    assert refused.value.message("en").startswith("Ben owes 4,000 FT and has 1,000 FT: the fall is paid first, ")
    assert refused.value.message("fr").startswith("Ben doit 4 000 FT et a 1 000 FT : la baisse se paie d'abord, ")
    events = act(game, "forced_sale Ben GREEN")      # green 4: half 2 000 -> 2 000
    assert transfers(events) == [(BANK, BEN, 2000, "forced_sale")]
    events = act(game, "forced_sale Ben YELLOW")     # yellow 2: half 1 000 -> 1 000; 4 000 covered
    assert transfers(events) == [(BANK, BEN, 1000, "forced_sale"), (BEN, BANK, 4000, "debt")]
    assert game.cash(BEN) == 0 and game.snapshot()["phase"] == "after"
    with pytest.raises(IllegalAction, match="^Ana has placed the turn's building: one a turn"):
        act(game, "place Ana C2")


def test_half_price_is_rounded_up_to_the_thousand_and_the_excess_stays_in_cash():
    """SH9 `forced_rounding = "thousand_up"`: value 1 or 2 gives 1 000, 3 or 4 gives 2 000."""
    game = forced_game(0, {"BLUE": 1, "GREEN": 1})   # owes 2 000; green 4 -> 2 000
    act(game, "place Ana C1")
    for value, price in ((1, 1000), (2, 1000), (3, 2000), (4, 2000), (15, 8000)):
        game.s.values["GREEN"] = value
        assert game.forced_price("GREEN") == price
    game.s.values["GREEN"] = 5                       # 5 000 / 2 = 2 500 -> 3 000, 1 000 over the debt
    act(game, "forced_sale Ben GREEN")
    assert game.cash(BEN) == 1000


def test_a_holder_still_short_with_nothing_left_leaves_the_game_and_is_ranked_last():
    """"Si un joueur se trouve dans l'impossibilité de payer même après avoir vendu toutes
    ses actions, il devra malheureusement arrêter là son rôle de PDG et spéculateur." (SH9:
    the rest written off, turns skipped, ranked after the others.)"""
    game = forced_game(500, {"BLUE": 3, "YELLOW": 1})   # owes 6 000
    act(game, "place Ana C1")
    events = act(game, "forced_sale Ben YELLOW")        # 1 000: 1 500 in hand, nothing left
    assert [e.key for e in events if e.key in ("written_off", "sh.out")] == ["written_off", "sh.out"]
    assert transfers(events)[-1] == (BEN, BANK, 1500, "debt")
    assert game.eliminated(BEN) and game.s.shares.portfolio(BEN) == {}
    act(game, "done Ana")
    assert game.snapshot()["turn"] == "Cid"             # Ben's turns are skipped
    assert [seat for _, seat, _ in game.ranking()][-1] == BEN
    # a player out holds nothing from then on: corrections are for the players still in
    for line in ('adjust_shares Ben BLUE +2 "oubli"', 'adjust_cash Ben +1000 "oubli"'):
        with pytest.raises(IllegalAction) as refused:
            act(game, line)
        assert "Ana" in str(refused.value) and "Cid" in str(refused.value) and "Ben" not in str(refused.value).split("allowed")[-1]
        assert refused.value.key == "error.sh.out" and str(refused.value).startswith("Ben is out of the game: ")
        assert refused.value.message("fr").startswith("Ben est hors jeu : plus rien ne lui est donné ni pris")
    assert game.s.shares.portfolio(BEN) == {} and game.cash(BEN) == 0


def test_the_active_player_pays_no_fall_of_his_own_placement():
    """"Pour toute diminution de valeur boursière d'une société, le joueur qui l'a occasionnée
    n'est pas tenu pour responsable.\""""
    game = forced_game(0, {})
    holdings(game, ANA, BLUE=5)
    events = act(game, "place Ana C1")
    assert not transfers(events, "fall") and game.snapshot()["phase"] == "after"


# ------------------------------------------------------------------- the end (SH10)
def test_the_game_ends_at_value_15_before_the_post_roll_trading_and_every_share_is_sold():
    """"Lorsqu'une société atteint le 15 ème échelon [...] le jeu est terminé. Tous les joueurs
    vendent leurs actions à la banque au cours du jeu. [...] Celui qui détiendra la plus
    grande fortune sera gagnant.\""""
    game = new_game(deal=["RED", "RED", "BLUE"])
    chain = {f"{c}{r}": "RED" for c in "ABCD" for r in (1, 2, 3)} | {"A4": "RED", "B4": "RED"}   # 14
    position(game, chain)
    assert game.s.values["RED"] == 14
    act(game, "roll 1 RED")
    act(game, "place Ana C4")
    assert game.over and game.snapshot()["end"] == "value"
    # Ana: bonus 15 000 + rise 1 000, then her share sold at 15 000; Ben: 1 000 + 15 000
    assert [game.cash(s) for s in (ANA, BEN, CID)] == [31_000, 16_000, 0]
    assert game.snapshot()["winners"] == ["Ana"] and game.s.shares.portfolio(ANA) == {}
    with pytest.raises(IllegalAction, match="the game is over"):
        act(game, "done Ana")


def test_the_game_ends_at_the_18th_building_of_a_colour_removed_ones_included():
    """"ou si tous les immeubles d'une même couleur ont été utilisés, (c'est à dire qu'ils se
    trouvent tous sur la mappemonde ou éliminés dans la boîte de jeu)" (SH7)."""
    game = new_game()
    position(game, {"A1": "GREEN"})
    game.s.used["GREEN"] = 17
    act(game, "roll 5 GREEN")
    act(game, "place Ana E6")
    assert game.over and game.snapshot()["end"] == "buildings"


def test_equal_fortunes_share_a_rank():
    game = new_game(deal=["BLUE", "BLUE", "BLUE"])
    position(game, {"A1": "GREEN"})
    game.s.used["GREEN"] = 17
    act(game, "roll 5 GREEN")
    act(game, "place Ana E6")
    assert [(rank, seat) for rank, seat, _ in game.ranking()] == [(1, ANA), (2, BEN), (2, CID)]


# ---------------------------------------------------------------- without the grid (SH11)
def test_without_the_grid_the_operator_enters_the_new_values_and_the_box_counts_buildings():
    """SH11: "Without a grid the operator enters the new values of the placed colour and of
    any colour that lost a chain, and how many buildings were removed; the box still counts
    buildings." The yellow example once more, entered by hand."""
    game = new_game(players=("A", "B"), deal=["YELLOW", "YELLOW"], first="A", grid="none")
    game.s.values.update(YELLOW=5, BLUE=4)
    game.s.on_board.update(YELLOW=5, BLUE=4)
    game.s.used.update(YELLOW=5, BLUE=4)
    holdings(game, 0, YELLOW=3, BLUE=2)
    holdings(game, 1, YELLOW=1, BLUE=5)
    give_cash(game, 1, 10_000)
    act(game, "roll 1 YELLOW")
    assert {o.kind for o in game.decision().options if not game.ACTIONS.has(o.kind, CORRECTION)} == {"built", "lost", "skip"}
    act(game, "lost BLUE 2 2")
    events = act(game, "built A 6")
    assert transfers(events) == [(BANK, 0, 6000, "bonus"), (BANK, 0, 3000, "rise"), (BANK, 1, 1000, "rise"),
                                 (1, BANK, 10_000, "fall")]
    assert game.s.on_board == {"RED": 0, "YELLOW": 6, "GREEN": 0, "BLUE": 2}
    assert game.s.used["YELLOW"] == 6 and game.s.used["BLUE"] == 4


def test_without_the_grid_entries_that_contradict_the_counts_are_refused():
    """"La valeur d'une société peut retomber à 0 [...] uniquement lorsque celle-ci ne possède
    momentanément plus aucun immeuble sur toute la mappemonde.\""""
    game = new_game(players=("A", "B"), first="A", grid="none")
    act(game, "roll 1 BLUE")
    act(game, "built A 1")
    act(game, "done A")
    act(game, "roll 2 RED")
    before = state(game)
    with pytest.raises(IllegalAction, match="the value falls to 0 only when no building is left"):
        act(game, "lost BLUE 1 1")
    with pytest.raises(IllegalAction, match="removed = 2 is not allowed"):
        act(game, "lost BLUE 0 2")
    with pytest.raises(IllegalAction, match="value = 0 is not allowed"):
        act(game, "built B 0")
    assert state(game) == before
    act(game, "lost BLUE 0 1")
    act(game, "built B 2")
    assert game.s.values == {"RED": 2, "YELLOW": 0, "GREEN": 0, "BLUE": 0}
    assert game.s.on_board == {"RED": 1, "YELLOW": 0, "GREEN": 0, "BLUE": 0}


def test_a_refused_action_names_the_turn_and_changes_nothing():
    game = new_game()
    before = state(game)
    with pytest.raises(IllegalAction, match="it is Ana's turn, not Ben's"):
        act(game, "done Ben")
    with pytest.raises(IllegalAction):
        act(game, "place Ana A1")
    assert state(game) == before


# -------------------------------------------------------- examples the rulings set aside
def test_set_aside_the_4_to_7_example_rises_from_5_by_the_sum_of_chains():
    """Set aside by SH2: "Si par exemple une chaîne de 2 immeubles, 1 immeuble isolé et une
    chaîne de 3 immeubles sont reliés [...] le cours de la société augmentera de 3 points [...]
    passant de 4 à 7. [...] Le joueur touchera 7000 FT de prime". By the sum of the chains the
    colour was worth 2 + 3 = 5 before: the rise is 2 points; the bonus is still 7 000."""
    game = new_game(deal=["RED", "BLUE", "BLUE"])
    position(game, {"A1": "RED", "B1": "RED", "D1": "RED", "C2": "RED", "C3": "RED", "C4": "RED"})
    assert game.s.values["RED"] == 5
    act(game, "roll 1 RED")
    events = act(game, "place Ana C1")      # joins A1-B1, the lone D1 and C2-C4
    assert game.s.values["RED"] == 7
    assert transfers(events) == [(BANK, ANA, 7000, "bonus"), (BANK, ANA, 2000, "rise")]


def test_set_aside_the_first_player_example_without_a_bonus():
    """Set aside by SH3: "Il n'obtient pas de prime de succès car il n'a pas formé ou agrandit
    de chaîne [...] Par contre il touche 1 X 1.000 FT de prime pour l'augmentation de l'action
    rouge". The device pays the general rule: 1 000 of bonus, then the 1 000 rise."""
    game = new_game(deal=["RED", "BLUE", "BLUE"])
    act(game, "roll 2 RED")
    events = act(game, "place Ana E1")
    assert transfers(events) == [(BANK, ANA, 1000, "bonus"), (BANK, ANA, 1000, "rise")]
    act(game, "buy Ana RED 1")                     # "Il peut maintenant acheter une action rouge à 1.000 FT"
    assert game.cash(ANA) == 1000


def test_set_aside_the_red_4_to_6_example_pays_the_general_bonus():
    """Set aside by SH3: "La société rouge a augmenté sa valeur de 2 points, passant de 4 à 6
    [...] le joueur A reçoit 2.000 FT de prime de réussite en premier lieu, puis 4.000 FT pour
    ses actions. Le joueur B perçoit 10.000 FT". The device pays 6 000 of bonus (new value x
    1 000); the rises are the book's."""
    game = new_game(players=("A", "B"), deal=["RED", "RED"], first="A")
    position(game, {"A1": "RED", "B1": "RED", "D1": "RED", "D2": "RED", "A3": "RED"})   # 2 + 2, a lone one
    holdings(game, 0, RED=2)
    holdings(game, 1, RED=5)
    assert game.s.values["RED"] == 4
    act(game, "roll 1 RED")
    events = act(game, "place A A4")             # the lone A3 becomes a pair: 4 -> 6
    assert transfers(events) == [(BANK, 0, 6000, "bonus"), (BANK, 0, 4000, "rise"), (BANK, 1, 10_000, "rise")]


# ------------------------------------------------------------------ corrections (General)
def test_the_operator_corrects_cash_and_shares_at_any_time_within_what_is_there():
    game = new_game(deal=["RED", "BLUE", "GREEN"])
    act(game, "adjust_cash Ben +3000 'a note forgotten'")
    act(game, "adjust_shares Ben RED +2 'a card forgotten'")
    assert game.cash(BEN) == 3000 and game.shares("RED", BEN) == 2 and game.stock("RED") == 37
    before = state(game)
    with pytest.raises(IllegalAction, match="Ben cannot pay 4,000 FT: balance 3,000 FT"):
        act(game, "adjust_cash Ben -4000 'too much'")
    with pytest.raises(IllegalAction, match="Ben holds 2 Red shares, not 3"):
        act(game, "adjust_shares Ben RED -3 'too many'")
    assert state(game) == before
    assert game.decision().prompt == "prompt.sh.before"          # the turn is where it was


def test_a_roll_without_its_colour_die_says_which_die_is_missing():
    game = new_game()
    with pytest.raises(IllegalAction) as refused:
        act(game, "roll 3")
    assert refused.value.message("en") == ("roll 3: the colour die is missing; both dice, or none for the box to roll "
                                           "them; colour allowed: RED, YELLOW, GREEN, BLUE, WHITE, BLACK")
    assert "None" not in refused.value.message("fr") and "le dé de couleur" in refused.value.message("fr")
