"""Richesses du Monde: the rulebook's own numbers (rules/richesses-du-monde.fr.txt) and
rulings RM1-RM13, each test quoting the sentence it pins."""

import pytest

from engines.core.deeds import STOCK
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.cards import CardCollect, CardPayEach, CardReceive
from engines.richesses.actions import (Accept, AdjustCash, Bid, Buy, BuyJoker, Close, Exchange, First, Lapse, Lots,
                                       Offer, Overbid, Plaques, Roll, SetPawn, Sold, UseJoker)
from engines.richesses.box import load_box
from engines.richesses.game import Richesses
from engines.richesses.rules import start_cash

NAMES = ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"]


def arrange(box, at):
    """Each production twice in the box's order, with `at` ({square: production}) placed."""
    squares = list(box.plaque_squares())
    items = [p for p in box.productions for _ in range(2)]
    fixed = set()
    for square, production in at.items():
        i = squares.index(square)
        j = next(k for k, p in enumerate(items) if p == production and k not in fixed and k != i) \
            if items[i] != production else i
        items[i], items[j] = items[j], items[i]
        fixed.add(i)
    return tuple(items)


def new_game(players=4, at=None, first=0, **settings):
    game = Richesses({"game": "richesses", "players": NAMES[:players], "seed": 1, "settings": settings})
    game.apply(Plaques(arrange(game.box, at or {})))
    game.apply(First(first))
    return game


def give(game, seat, *titles):
    for title in titles:
        game.s.deeds.move(title, STOCK, seat)
    rebase(game)


def rebase(game):
    """A state set up by hand becomes the checkpoint a refused action rolls back to."""
    game._checkpoints = {len(game.log): game.frozen_state()}


def keep_cash(game, seat, amount):
    """`seat` is left with `amount` in cash, the bank taking the rest (money kept whole)."""
    game.s.ledger.balances[BANK] += game.cash(seat) - amount
    game.s.ledger.balances[seat] = amount
    rebase(game)


def total_money(game):
    return game.s.ledger.total()


# ----------------------------------------------------------------- RM1, RM10
@pytest.mark.parametrize("players, cash", [(2, 100_000_000), (3, 66_600_000), (4, 50_000_000), (5, 40_000_000),
                                           (6, 33_300_000)])
def test_200_millions_are_shared_between_the_players(players, cash):
    """"200 millions sont à partager entre les joueurs. Ex : si l'on joue à 4, chaque joueur
    recevra donc 50 millions." RM10: each share rounded down to 100 000."""
    game = new_game(players)
    assert start_cash(players) == cash
    assert [game.cash(s) for s in range(players)] == [cash] * players


@pytest.mark.parametrize("face", range(1, 7))
def test_a_double_costs_its_face_in_millions_and_gives_no_extra_roll(face):
    """"Chaque fois qu'un joueur tire : 1 double as, il paie 1 million à la banque ... 1 double
    six, 6 millions." RM10: no extra roll."""
    game = new_game()
    before = game.cash(0)
    events = game.apply(Roll(face, face))
    assert any(e.key == "rm.double" and e.params["amount"] == face * 1_000_000 for e in events)
    spent = sum(e.params["amount"] for e in events if e.key == "transfer" and e.params["src"] == 0
                and e.params["reason"] == "double")
    assert spent == face * 1_000_000
    assert game.s.track.positions[0] == 2 * face            # the pawn moves by both dice
    decision = game.decision()
    assert decision.prompt != "prompt.rm.roll" or decision.params["player"] == "Ben"   # no second roll


# ----------------------------------------------------------------- royalties
def royalty_lines(events):
    """Each holder paid, a line each (`rm.royalty`), as "Ben 35 % 900000, Cid 50 % 4500000"."""
    return ", ".join(f"{e.params['player']} {e.params['share']} % {e.params['amount']}" for e in events
                     if e.key == "rm.royalty")


def test_royalties_of_the_rulebook_tables_900_000_and_4_500_000():
    """"entre 30 et 50 % : 900 000 / entre 50 et 70 % : 4 500 000" (the ALUMINIUM title).
    RM6: a share on a band's edge is paid the band that starts there."""
    game = new_game(4, at={3: "ALUMINIUM"})      # square 3: Canada
    give(game, 1, "ALUMINIUM-CANADA", "ALUMINIUM-SCANDINAVIE")          # 30 + 5 = 35 %
    give(game, 2, "ALUMINIUM-ETATS-UNIS", "ALUMINIUM-URSS", "ALUMINIUM-AFRIQUE-1")  # 20 + 20 + 10 = 50 %
    cash = [game.cash(s) for s in range(4)]
    events = game.apply(Roll(1, 2))               # to square 3, a country square carrying ALUMINIUM
    royalties = next(e for e in events if e.key == "rm.royalties")
    assert royalty_lines(events) == "Ben 35 % 900000, Cid 50 % 4500000"
    assert royalties.params["total"] == 5_400_000
    assert game.cash(1) == cash[1] + 900_000 and game.cash(2) == cash[2] + 4_500_000
    assert game.cash(0) == cash[0] - 5_400_000
    assert game.cash(3) == cash[3]


def test_a_share_on_a_bands_edge_is_paid_the_band_that_starts_there_unless_the_table_says_otherwise():
    """RM6: `royalty_edge = "lower"`: 30 % qualifies, 50 % pays the 50-70 band ("entre 50 et
    70 % : 4 500 000"); "upper": 50 % pays the 30-50 band ("entre 30 et 50 % : 900 000")."""
    aluminium = load_box().productions["ALUMINIUM"]
    assert [aluminium.royalty(s) for s in (29, 30, 50, 51)] == [0, 900_000, 4_500_000, 4_500_000]
    assert [aluminium.royalty(s, "upper") for s in (29, 30, 50, 51)] == [0, 900_000, 900_000, 4_500_000]
    game = new_game(4, at={3: "ALUMINIUM"}, royalty_edge="upper")
    give(game, 2, "ALUMINIUM-ETATS-UNIS", "ALUMINIUM-URSS", "ALUMINIUM-AFRIQUE-1")   # 50 %
    events = game.apply(Roll(1, 2))
    assert royalty_lines(events) == "Cid 50 % 900000"


def test_the_continental_example_60_percent_of_silver_pays_3_500_000():
    """"s'il a déjà 5 % d'argent produit par la Yougoslavie, il peut prendre 15 % au Mexique,
    35 % au Canada et 5 % à l'Australie. Il atteint ainsi un total de 60 %, ce qui va lui
    permettre, par la suite, de réclamer 3 500 000 F chaque fois qu'un joueur se posera sur ces
    cases.\""""
    game = new_game(4, at={3: "ARGENT"})
    give(game, 2, "ARGENT-YOUGOSLAVIE", "ARGENT-MEXIQUE", "ARGENT-CANADA", "ARGENT-AUSTRALIE")
    assert game.share(2, "ARGENT") == 60
    before = game.cash(2)
    events = game.apply(Roll(2, 1))               # Ana lands on square 3, whose plaque is ARGENT
    assert royalty_lines(events) == "Cid 60 % 3500000"
    assert game.cash(2) == before + 3_500_000


def test_the_lander_pays_every_other_holder_even_if_he_holds_some_and_is_never_paid():
    """"Le joueur qui pose son pion sur cette case doit donc payer, à ses partenaires, les
    droits correspondant à ces royalties, même s'il possède lui-même un pourcentage de cette
    production.\""""
    game = new_game(3, at={3: "ARGENT"})
    give(game, 0, "ARGENT-CANADA")                                      # the lander: 35 %
    give(game, 1, "ARGENT-ETATS-UNIS", "ARGENT-MEXIQUE")                 # 25 + 15 = 40 %
    before = game.cash(0)
    events = game.apply(Roll(1, 2))
    lines = royalty_lines(events)
    assert lines == "Ben 40 % 1000000"
    assert game.cash(0) == before - 1_000_000


def test_a_holder_below_30_percent_is_paid_nothing():
    """"pour toucher ces royalties, ils doivent posséder un minimum de 30 % de la production\""""
    game = new_game(3, at={3: "ARGENT"})
    give(game, 1, "ARGENT-ETATS-UNIS")                                   # 25 %
    events = game.apply(Roll(1, 2))
    assert not any(e.key == "rm.royalties" for e in events)


# ----------------------------------------------------------------- purchases
def test_a_country_purchase_takes_up_to_6_titles_of_that_country_only():
    """"il choisit ... autant de titres d'exploitation qu'il le désire jusqu'à concurrence de 6.
    Ces titres sont obligatoirement à prendre dans le pays désigné par la case\""""
    game = new_game()
    game.apply(Roll(1, 2))                        # square 3: Canada
    decision = game.decision()
    assert decision.prompt == "prompt.rm.buy" and decision.interaction.kind == "checklist"
    offered = decision.option("buy").fields["titles"].values
    assert offered and all(game.box.titles[t].country == "CANADA" for t in offered)
    with pytest.raises(IllegalAction) as refused:
        game.apply(Buy(0, ("ARGENT-MEXIQUE",)))
    assert refused.value.key == "error.rm.not_country"
    before = game.cash(0)
    events = game.apply(Buy(0, ("ARGENT-CANADA", "ALUMINIUM-CANADA")))
    assert game.cash(0) == before - 3_500_000 - 3_000_000
    assert game.s.deeds.owner("ARGENT-CANADA") == 0 and game.share(0, "ALUMINIUM") == 30
    bought = next(e for e in events if e.key == "rm.bought")
    assert "Argent 35 %" in bought.params["shares"]
    items = {i["id"]: i for i in decision.interaction.params["items"]}
    assert items["ARGENT-CANADA"]["share_after"] == 35 and items["ARGENT-CANADA"]["price"] == 3_500_000


def test_a_purchase_above_cash_is_refused_without_showing_the_cash():
    game = new_game()
    game.apply(Roll(1, 2))
    keep_cash(game, 0, 100_000)
    with pytest.raises(IllegalAction) as refused:
        game.apply(Buy(0, ("ARGENT-CANADA",)))
    assert refused.value.key == "error.rm.cash" and "100000" not in str(refused.value) \
        and "100 000" not in str(refused.value)


def test_continental_choice_buys_titles_of_that_continent_in_productions_already_held():
    """"il choisit autant de titres qu'il le désire, jusqu'à concurrence de 6, dans le
    continent sur lequel s'est posé son pion. Cependant, il ne peut acheter ces titres que s'il
    possède des trusts de mêmes productions." RM7: the rule, not the example (Australia is not
    in America)."""
    game = new_game()
    give(game, 0, "ARGENT-YOUGOSLAVIE")
    game.apply(Roll(2, 4))                        # square 6: continental choice, America
    offered = game.decision().option("buy").fields["titles"].values
    assert set(offered) == {"ARGENT-MEXIQUE", "ARGENT-CANADA"}
    with pytest.raises(IllegalAction) as refused:
        game.apply(Buy(0, ("ARGENT-AUSTRALIE",)))
    assert refused.value.key == "error.rm.not_continent"
    game.apply(Buy(0, ("ARGENT-MEXIQUE", "ARGENT-CANADA")))
    assert game.share(0, "ARGENT") == 55


def test_500_000_times_the_dice():
    """"500.000 (8 cases) Le joueur doit payer les droits réclamés. Ensuite, il reçoit de la
    banque autant de fois 500.000 F qu'il a tiré de points avec les 2 dés.\""""
    game = new_game()
    before = game.cash(0)
    game.apply(Roll(4, 6))                        # square 10: 500 000
    assert game.cash(0) == before + 10 * 500_000


def test_world_choice_and_auctions_wait_for_a_world_tour():
    """"CHOIX MONDIAL ... Cette case n'est valable que lorsqu'un tour du monde a été accompli."
    ENCHÈRES: idem (RM8: the lander's own pawn)."""
    game = new_game()
    give(game, 0, "ARGENT-CANADA")
    game.s.track.positions[0] = 11
    events = game.apply(Roll(1, 5))               # square 17: world choice, no tour yet
    assert any(e.key == "rm.not_yet" for e in events)
    assert game.decision().params["player"] == "Ben"


# ------------------------------------------------------------------ auctions
def auction_game(sizes=(4, 5, 6), red=3, players=4):
    """Ana holds trusts of `sizes` titles and lands on the auction square 13 after a tour."""
    game = new_game(players)
    productions = list(game.box.productions)[4:4 + len(sizes)]
    for production, size in zip(productions, sizes):
        titles = [t.id for t in game.box.titles.values() if t.production == production][:size]
        give(game, 0, *titles)
    game.s.track.positions[0] = 13 - (6 + red)
    game.s.track.laps[0] = 1                            # a world tour done (RM8)
    rebase(game)
    game.apply(Roll(6, red))
    assert game.s.track.positions[0] == 13
    return game, productions


def test_the_auction_example_red_3_and_trusts_of_4_5_and_6():
    """"si le dé rouge marque 3 points et que le joueur ne possède que des trusts de 4, 5 ou 6
    titres, il est obligé de les mettre totalemment aux enchères." RM9: whole trusts reaching
    the red die with none to spare."""
    game, (four, five, six) = auction_game()
    decision = game.decision()
    assert decision.prompt == "prompt.rm.lots" and decision.params["red"] == 3
    with pytest.raises(IllegalAction) as refused:
        game.apply(Lots(0, (four, five)))
    assert refused.value.key == "error.rm.lots_red"
    before = game.snapshot()
    assert game.snapshot() == before
    game.apply(Lots(0, (five,)))                 # one whole trust of 5 titles
    assert game.decision().prompt == "prompt.rm.auction_open"
    assert len(game.trust(0, five)) == 5


def test_a_lot_opens_at_half_its_price_raises_of_100_000_and_silence_sells():
    """"Les titres d'un même trust sont mis ensemble aux enchères à la moitié de leur prix
    total d'achat. Les surenchères sont au minimum de 100.000." "Il ne peut s'écouler plus de
    7 secondes de silence au cours d'une enchère\""""
    game, (four, _, _) = auction_game()
    game.apply(Lots(0, (four,)))
    half = game.trust_price(0, four) // 2
    decision = game.decision()
    assert decision.params["minimum"] == half
    assert decision.interaction.params["silence_s"] == 7
    assert decision.interaction.params["offers"] == [[1, half], [2, half], [3, half]]
    assert decision.interaction.params["refused_press"] == "blink"
    game.apply(Bid(1, half))                      # a first bid at exactly half price
    with pytest.raises(IllegalAction) as refused:
        game.apply(Bid(2, half + 99_999))
    assert refused.value.key == "error.auction_amount"
    with pytest.raises(IllegalAction) as refused:
        game.apply(Bid(2, 60_000_000))            # more than his cash: refused, cash not shown
    assert refused.value.key == "error.auction_cash" and "50000000" not in str(refused.value)
    game.apply(Bid(2, half + 100_000))
    seller, buyer = game.cash(0), game.cash(2)
    game.apply(Sold())
    assert game.cash(0) == seller + half + 100_000 and game.cash(2) == buyer - half - 100_000
    assert game.trusts(2) == (four,) and four not in game.trusts(0)


def test_no_bid_the_bank_buys_at_half_price_and_the_titles_go_back_to_the_stock():
    """"S'il n'y a pas de surenchère du tout, les titres sont acquis par la banque à la moitié
    de leur prix total d'achat et sont remis à leur place dans les sabots-fichiers.\""""
    game, (four, _, _) = auction_game()
    game.apply(Lots(0, (four,)))
    half, titles = game.trust_price(0, four) // 2, game.trust(0, four)
    before = game.cash(0)
    game.apply(Sold())
    assert game.cash(0) == before + half
    assert all(game.s.deeds.owner(t) == STOCK for t in titles)
    assert game.decision().params["player"] == "Ben"


def test_fewer_titles_than_the_red_die_all_go():
    game, (two,) = auction_game(sizes=(2,), red=5)
    with pytest.raises(IllegalAction):
        game.apply(Lots(0, ()))
    game.apply(Lots(0, (two,)))
    assert game.decision().prompt == "prompt.rm.auction_open"


def test_a_joker_cancels_one_auction_and_returns_to_the_stock():
    """"JOKER ... Pour 3.000.000 le joueur peut acheter une carte joker. Elle lui permet ...
    lorsqu'il tombe sur une case enchères ... d'être dispensé de mettre ses titres aux
    enchères. Elle ne peut servir qu'une fois et doit être ensuite rendue à la banque.\""""
    game = new_game()
    before, stock = game.cash(0), game.s.joker_stock
    game.apply(Roll(3, 5))                        # square 8: joker
    game.apply(BuyJoker(0))
    assert game.cash(0) == before - 3_000_000 and game.s.jokers[0] == 1 and game.s.joker_stock == stock - 1
    poor = new_game()
    poor.apply(Roll(3, 5))
    poor.s.ledger.balances[BANK] += poor.cash(0) - 2_000_000
    poor.s.ledger.balances[0] = 2_000_000
    rebase(poor)
    with pytest.raises(IllegalAction) as refused:
        poor.apply(BuyJoker(0))
    assert refused.value.key == "error.rm.cash" and "2000000" not in str(refused.value)
    game2, (four, _, _) = auction_game()
    game2.s.jokers[0], game2.s.joker_stock = 1, game2.s.joker_stock - 1
    game2.s.steps[-1].phase = "joker_use"
    rebase(game2)
    game2.apply(UseJoker(0))
    assert game2.s.jokers[0] == 0 and len(game2.trust(0, four)) == 4


def test_with_two_players_left_auction_and_joker_squares_are_rest_squares():
    """"Quand il n'y a plus que deux joueurs face à face, les enchères n'ont plus lieu d'être;
    les cases enchères et joker deviennent alors cases de repos.\""""
    game = new_game(2)
    events = game.apply(Roll(3, 5))               # square 8: joker
    assert any(e.key == "rm.rest" for e in events)
    game = new_game(2)
    give(game, 0, "ARGENT-CANADA")
    game.s.track.positions[0], game.s.track.laps[0] = 6, 1
    events = game.apply(Roll(3, 4))               # square 13: auction, after a tour
    assert any(e.key == "rm.rest" for e in events) and game.trusts(0) == ("ARGENT",)


# ---------------------------------------------------------------- bankruptcy
def test_bankruptcy_the_bank_pays_the_creditor_in_full_titles_back_to_the_stock():
    """"Un joueur est déclaré en faillite lorsqu'il n'a plus assez d'argent liquide pour payer
    une dette ... Sa dette est alors assumée par la banque et les titres qu'il possède encore
    sont remis, à leur place, dans les sabots-fichiers." RM11: cash only."""
    game = new_game(3, at={3: "ALUMINIUM"})
    give(game, 1, "ALUMINIUM-CANADA", "ALUMINIUM-URSS")    # 50 %: 4 500 000
    give(game, 0, "ARGENT-MEXIQUE")
    keep_cash(game, 0, 1_000_000)
    total, ben = total_money(game), game.cash(1)
    events = game.apply(Roll(1, 2))
    assert any(e.key == "rm.bankrupt" for e in events)
    assert game.cash(1) == ben + 4_500_000 and game.cash(0) == 0
    assert game.s.deeds.owner("ARGENT-MEXIQUE") == STOCK
    assert total_money(game) == total
    assert game.decision().params["player"] == "Ben"


def test_a_bankrupt_player_is_offered_nothing_and_a_correction_or_sale_aimed_at_him_is_refused():
    """RM11: a bankrupt player's cash went to the bank and his titles to the stock; cash or
    titles given to him would stay outside the game. Corrections and free sales offer the
    players still in; one aimed at him is refused, says why and who is allowed, in French
    and English, and changes nothing."""
    game = new_game(3, at={3: "ALUMINIUM"})
    give(game, 1, "ALUMINIUM-CANADA", "ALUMINIUM-URSS")
    keep_cash(game, 0, 1_000_000)
    game.apply(Roll(1, 2))
    assert game.s.out == [0] and game.decision().params["player"] == "Ben"
    pending = game.decision()
    for kind, field in (("adjust_cash", "player"), ("set_pawn", "player"), ("offer", "buyer"), ("offer", "seller")):
        assert 0 not in pending.option(kind).fields[field].values
    before = game.snapshot(), len(game.log)
    for act in (AdjustCash(0, 1_000_000, "oubli"), SetPawn(0, 3, 0, "oubli"),
                Offer(1, "ALUMINIUM", 0, 1_000_000)):
        with pytest.raises(IllegalAction) as refused:
            game.apply(act)
        assert refused.value.key == "error.rm.out"
        assert refused.value.message("en").startswith(
            "Ana is bankrupt and out of the game: nothing is given to or taken from a player out any more "
            "(to correct, undo the bankruptcy); ")
        assert refused.value.message("en").endswith("allowed: Ben, Cid")
        assert refused.value.message("fr").startswith(
            "Ana est en faillite et hors jeu : plus rien ne lui est donné ni pris")
        assert (game.snapshot(), len(game.log)) == before
    game.apply(AdjustCash(2, 1_000_000, "oubli"))     # the players still in are corrected as before


def test_the_last_player_standing_wins():
    """"Le gagnant est celui qui a éliminé tous ses adversaires. Selon leur nombre, les autres
    joueurs se placeront second, troisième, etc...\""""
    game = new_game(2, at={3: "ALUMINIUM"})
    give(game, 1, "ALUMINIUM-CANADA", "ALUMINIUM-URSS")
    keep_cash(game, 0, 100_000)
    game.apply(Roll(1, 2))
    assert game.over and [seat for _, seat, _ in game.ranking()] == [1, 0]
    assert [r["name"] for r in game.snapshot()["ranking"]] == ["Ben", "Ana"]


# ----------------------------------------------------------------- free sale
def test_a_free_sale_with_an_overbid_then_the_seller_accepts():
    """"Tout joueur est libre de vendre à qui il le désire. Cependant, même en cours de
    transaction libre, les surenchères sont autorisées. Le vendeur a alors 7 secondes pour
    décider s'il vend ou pas le titre ou le trust en cause.\""""
    game = new_game()
    give(game, 0, "ARGENT-CANADA", "ARGENT-MEXIQUE")
    game.apply(Offer(0, "ARGENT", 1, 5_000_000))
    decision = game.decision()
    assert decision.interaction.kind == "offer_window" and decision.interaction.params["silence_s"] == 7
    with pytest.raises(IllegalAction):
        game.apply(Overbid(2, 5_050_000))        # less than 100 000 more
    game.apply(Overbid(2, 5_100_000))
    game.apply(Close())
    assert game.decision().prompt == "prompt.rm.sale_accept" and game.decision().actor == 0
    seller, buyer = game.cash(0), game.cash(2)
    game.apply(Accept())
    assert game.trusts(2) == ("ARGENT",) and game.share(2, "ARGENT") == 50
    assert game.cash(0) == seller + 5_100_000 and game.cash(2) == buyer - 5_100_000
    assert game.decision().prompt == "prompt.rm.roll" and game.decision().params["player"] == "Ana"


def test_an_offer_not_accepted_lapses():
    game = new_game()
    give(game, 0, "ARGENT-CANADA")
    game.apply(Offer(0, "ARGENT", 1, 1_000_000))
    game.apply(Close())
    game.apply(Lapse())
    assert game.trusts(0) == ("ARGENT",)


def test_a_trust_is_never_split():
    """"En aucun cas un trust ne peut être dépareillé ; ceci est valable pour toutes les
    transactions : achats, ventes, enchères, échanges, etc...\""""
    game = new_game()
    give(game, 0, "ARGENT-CANADA", "ARGENT-MEXIQUE", "ARGENT-URSS")
    game.apply(Offer(0, "ARGENT", 1, 1_000_000))
    game.apply(Close())
    game.apply(Accept())
    assert game.trust(1, "ARGENT") == ["ARGENT-MEXIQUE", "ARGENT-CANADA", "ARGENT-URSS"] and not game.trust(0, "ARGENT")


# ------------------------------------------------------------------- plaques
def test_plaques_entered_by_hand_are_checked_each_production_exactly_twice():
    """"48 petites plaquettes rectangulaires Royalties, soit 2 par production." RM13."""
    game = Richesses({"game": "richesses", "players": NAMES[:3], "seed": 1})
    items = list(arrange(game.box, {}))
    items[0] = items[2]                           # ALUMINIUM once, ARGENT three times
    with pytest.raises(IllegalAction) as refused:
        game.apply(Plaques(tuple(items)))
    assert refused.value.key == "error.rm.plaques" and not game.log
    with pytest.raises(IllegalAction):
        game.apply(Plaques(tuple(items[:47])))
    game.apply(Plaques(arrange(game.box, {})))
    assert game.snapshot()["plaques"]["1"] == "ALUMINIUM"


def test_plaques_drawn_by_the_device_are_recorded_and_a_replay_never_draws_again():
    import random
    game = Richesses({"game": "richesses", "players": NAMES[:3], "seed": 7})
    act = game.fill_chance(Plaques(), random.Random(3))
    assert len(act.productions) == 48
    game.apply(act)
    replayed = Richesses.replay(game.header, game.log)
    assert replayed.s.plaques == game.s.plaques
    assert game.ACTIONS.parse(game.ACTIONS.format(act, game.players), game.players) == act


def test_cash_is_never_on_the_public_view():
    """RM10: "Cash is hidden; titles, shares, jokers and plaques are public.\""""
    game = new_game()
    public = game.public(game.snapshot())
    assert all("cash" not in p for p in public["players"])
    assert public["plaques"] and "trusts" in public["players"][0]


def test_an_exchange_of_whole_trusts_with_a_balance():
    """"Tout joueur est libre de vendre à qui il le désire ... ceci est valable pour toutes les
    transactions : achats, ventes, enchères, échanges" (RM12): the seller's whole trust
    against the buyer's whole trust and an amount the buyer adds."""
    game = new_game()
    give(game, 0, "ARGENT-CANADA", "ARGENT-MEXIQUE")
    give(game, 1, "ALUMINIUM-CANADA")
    with pytest.raises(IllegalAction) as refused:
        game.apply(Exchange(0, "ARGENT", 1, "PLOMB", 0))
    assert refused.value.key == "error.rm.no_trust"
    seller, buyer = game.cash(0), game.cash(1)
    game.apply(Exchange(0, "ARGENT", 1, "ALUMINIUM", 500_000))
    assert game.decision().prompt == "prompt.rm.exchange_window"
    game.apply(Close())
    game.apply(Accept())
    assert game.trusts(0) == ("ALUMINIUM",) and game.trusts(1) == ("ARGENT",) and game.share(1, "ARGENT") == 50
    assert game.cash(0) == seller + 500_000 and game.cash(1) == buyer - 500_000


def test_an_overbid_in_cash_turns_an_exchange_into_a_sale():
    """"même en cours de transaction libre, les surenchères sont autorisées\""""
    game = new_game()
    give(game, 0, "ARGENT-CANADA")
    give(game, 1, "ALUMINIUM-CANADA")
    game.apply(Exchange(0, "ARGENT", 1, "ALUMINIUM", 0))
    game.apply(Overbid(2, 100_000))
    game.apply(Close())
    assert game.decision().prompt == "prompt.rm.sale_accept"
    game.apply(Accept())
    assert game.trusts(2) == ("ARGENT",) and game.trusts(1) == ("ALUMINIUM",)


# ------------------------------------------------------------------ Actualité
def news_game(players=3):
    game = new_game(players)
    game.apply(Roll(1, 3))                        # square 4: Actualité
    assert game.decision().prompt == "prompt.rm.news"
    return game


def test_an_actualite_card_is_entered_as_its_effect():
    """"ACTUALITÉ (6 cases) Le joueur prend la carte qui se trouve sur le dessus du paquet. Il
    lit ce qu'il y a d'écrit en rouge et, selon le cas, donne ou reçoit la somme indiquée.\""""
    game = news_game()
    before = [game.cash(s) for s in range(3)]
    game.apply(CardReceive(0, 2_000_000))
    assert game.cash(0) == before[0] + 2_000_000
    game = news_game()
    game.apply(CardPayEach(0, 1_000_000))
    assert [game.cash(s) for s in range(3)] == [before[0] - 2_000_000, before[1] + 1_000_000, before[2] + 1_000_000]
    game = news_game()
    game.apply(CardCollect(0, 500_000))
    assert [game.cash(s) for s in range(3)] == [before[0] + 1_000_000, before[1] - 500_000, before[2] - 500_000]
    assert game.decision().params["player"] == "Ben"


def test_a_card_a_player_cannot_pay_bankrupts_him_and_the_bank_pays_in_full():
    """RM11: "the bank pays every creditor in full" whatever the debt: a card's too."""
    game = news_game()
    game.s.ledger.balances[BANK] += game.cash(1) - 100_000
    game.s.ledger.balances[1] = 100_000
    rebase(game)
    before = game.cash(0)
    game.apply(CardCollect(0, 500_000))
    assert game.s.out == [1] and game.cash(0) == before + 1_000_000


# ----------------------------------------------- without the square order (RM8)
def no_order_game(players=3, **settings):
    from engines.richesses.box import DEFAULT_BOX
    import tempfile
    from pathlib import Path
    path = Path(tempfile.mkdtemp()) / "noorder.toml"
    path.write_text(DEFAULT_BOX.read_text(encoding="utf-8").partition("[[squares]]")[0], encoding="utf-8")
    game = Richesses({"game": "richesses", "players": NAMES[:players], "seed": 1, "box": str(path),
                      "settings": settings})
    assert game.decision().prompt == "prompt.rm.first"     # the table lays the plaques itself: no draw
    game.apply(First(0))
    return game


def test_without_the_square_order_the_operator_says_the_square_and_its_plaque():
    """RM8: "else the operator answers": after the dice the pawn does not move on the box;
    the operator names the square, and its plaque when one would cost the lander royalties
    (the rulebook's 900 000 of ALUMINIUM at 35 %)."""
    game = no_order_game()
    give(game, 1, "ALUMINIUM-CANADA", "ALUMINIUM-SCANDINAVIE")          # Ben: 30 + 5 = 35 %
    game.apply(Roll(1, 2))
    decision = game.decision()
    assert decision.prompt == "prompt.rm.land" and decision.params["owed"] == ["ALUMINIUM"]
    assert game.s.track.positions == [0, 0, 0]
    before = [game.cash(s) for s in range(3)]
    events = game.apply(game.ACTIONS.parse("land Ana MEXIQUE ALUMINIUM", game.players))
    assert royalty_lines(events) == "Ben 35 % 900000"
    assert game.cash(0) == before[0] - 900_000 and game.cash(1) == before[1] + 900_000
    assert game.decision().prompt == "prompt.rm.buy" and game.s.plaques == {"MEXIQUE": "ALUMINIUM"}
    assert all(t.endswith("-MEXIQUE") for t in game.decision().option("buy").fields["titles"].values)


def test_without_the_square_order_a_bad_landing_is_refused_and_changes_nothing():
    game = no_order_game()
    game.apply(Roll(1, 2))
    before = game.snapshot()
    for line, key in (("land Ana WORLD ARGENT", "error.rm.no_plaque"), ("land Ana ATLANTIDE", None),
                      ("land Ana CONTINENTAL-OCEANIE", None)):
        with pytest.raises(Exception) as refused:
            game.apply(game.ACTIONS.parse(line, game.players))
        if key:
            assert refused.value.key == key
        assert game.snapshot() == before
    game.apply(game.ACTIONS.parse("land Ana CONTINENTAL-EUROPE", game.players))
    assert game.decision().prompt in ("prompt.rm.roll", "prompt.rm.buy")


def test_without_the_square_order_the_world_tour_is_answered_once_per_player():
    """RM8: "the operator answers once per player": on an auction square that would sell
    something, the box asks whether his pawn has passed the start arrow; "not yet" makes it
    a rest square and the question comes again; after "yes" the square works and the
    question never comes again for him."""
    game = no_order_game(4)
    give(game, 0, "ARGENT-CANADA")
    game.apply(Roll(6, 1))
    game.apply(game.ACTIONS.parse("land Ana AUCTION", game.players))
    assert game.decision().prompt == "prompt.rm.tour"
    events = game.apply(game.ACTIONS.parse("no_tour Ana", game.players))
    assert any(e.key == "rm.not_yet" for e in events) and game.decision().params["player"] == "Ben"
    for name in ("Ben", "Cid", "Dan"):                    # nobody else holds anything: no question
        game.apply(Roll(1, 2))
        game.apply(game.ACTIONS.parse(f"land {name} AUCTION", game.players))
    game.apply(Roll(6, 1))
    game.apply(game.ACTIONS.parse("land Ana AUCTION", game.players))
    game.apply(game.ACTIONS.parse("tour Ana", game.players))
    assert game.s.track.laps[0] == 1 and game.decision().prompt == "prompt.rm.lots"
    game.apply(Lots(0, ("ARGENT",)))
    game.apply(Sold())                                    # no bid: the bank buys at half price
    give(game, 0, "ARGENT-CANADA")
    for name in ("Ben", "Cid", "Dan"):
        game.apply(Roll(1, 2))
        game.apply(game.ACTIONS.parse(f"land {name} NEWS", game.players))
        game.apply(game.ACTIONS.parse(f"done {name}", game.players))
    game.apply(Roll(6, 1))
    game.apply(game.ACTIONS.parse("land Ana AUCTION", game.players))
    assert game.decision().prompt == "prompt.rm.lots"       # asked once: not again
    assert [a.kind for a in game.log].count("tour") == 1


def test_without_the_square_order_world_tour_anyone_asks_about_any_pawn():
    """RM8 `world_tour = "anyone"`: one yes opens the squares for everyone."""
    game = no_order_game(3, world_tour="anyone")
    give(game, 0, "ARGENT-CANADA")
    give(game, 1, "ALUMINIUM-CANADA")
    game.apply(Roll(6, 1))
    game.apply(game.ACTIONS.parse("land Ana WORLD", game.players))
    assert game.decision().prompt == "prompt.rm.tour_anyone"
    game.apply(game.ACTIONS.parse("tour Ana", game.players))
    assert game.decision().prompt == "prompt.rm.buy"
    game.apply(game.ACTIONS.parse("done Ana", game.players))
    game.apply(Roll(6, 1))
    game.apply(game.ACTIONS.parse("land Ben WORLD", game.players))
    assert game.decision().prompt == "prompt.rm.buy"        # Ana's tour opened it for Ben


# ------------------------------------------------------- strict_claims (RM2)
def claims_game(**settings):
    game = new_game(4, at={3: "ALUMINIUM"}, strict_claims=True, **settings)
    give(game, 1, "ALUMINIUM-CANADA", "ALUMINIUM-SCANDINAVIE")          # Ben 35 %: 900 000
    give(game, 2, "ALUMINIUM-ETATS-UNIS", "ALUMINIUM-URSS", "ALUMINIUM-AFRIQUE-1")  # Cid 50 %: 4 500 000
    return game


def test_strict_claims_only_the_claimed_royalties_are_paid():
    """"ATTENTION. Les droits sont à réclamer aussitôt le pion posé sur la case. Passé ce
    délai, les joueurs perdent le bénéfice de leur pourcentage." With strict_claims, landing
    opens the time to claim; Ben claims (900 000), Cid does not; the close pays Ben only."""
    from engines.richesses.actions import Claim, CloseClaims
    game = claims_game()
    cash = [game.cash(s) for s in range(4)]
    events = game.apply(Roll(1, 2))
    assert not any(e.key == "rm.royalties" for e in events)
    decision = game.decision()
    assert decision.prompt == "prompt.rm.claims" and decision.interaction.params["offers"] == [[1, 900_000],
                                                                                            [2, 4_500_000]]
    assert decision.interaction.params["silence_s"] == 7
    game.apply(Claim(1, 900_000))
    events = game.apply(CloseClaims())
    assert royalty_lines(events) == "Ben 35 % 900000"
    assert next(e for e in events if e.key == "rm.claim_lost").params["player"] == "Cid"
    assert [game.cash(s) - cash[s] for s in range(4)] == [-900_000, 900_000, 0, 0]
    assert game.decision().prompt == "prompt.rm.buy"
    assert [a.kind for a in game.log[-3:]] == ["roll", "claim", "close_claims"]   # in the log: a replay pays
    # the same (properties::test_random_games_with_strict_claims_keep_the_same_invariants_and_replay)


def test_strict_claims_nobody_claims_in_time_nothing_is_paid():
    from engines.richesses.actions import CloseClaims
    game = claims_game()
    cash = [game.cash(s) for s in range(4)]
    game.apply(Roll(1, 2))
    game.apply(CloseClaims())
    assert [game.cash(s) for s in range(4)] == cash
    with pytest.raises(IllegalAction):                     # the time is over: a claim is refused
        game.apply(game.ACTIONS.parse("claim Ben", game.players))


def test_strict_claims_every_holder_claimed_closes_at_once_and_bad_claims_are_refused():
    from engines.richesses.actions import Claim
    game = claims_game()
    game.apply(Roll(1, 2))
    before = game.snapshot()
    for act, key in ((Claim(3), "error.rm.not_owed"), (Claim(0), "error.rm.not_owed"),
                     (Claim(1, 4_500_000), "error.rm.claim_amount")):
        with pytest.raises(IllegalAction) as refused:
            game.apply(act)
        assert refused.value.key == key and game.snapshot() == before
    # one money format throughout, and a value left out said as such (no Python word)
    assert refused.value.message("en") == "Ben claims 4,500,000 F; the share held earns 900,000 F"
    assert refused.value.message("fr") == "Ben réclame 4 500 000 F ; sa part lui donne droit à 900 000 F"
    with pytest.raises(IllegalAction) as refused:
        game.apply(Claim(1, 2_650_000))
    assert refused.value.message("en").startswith("Ben claims 2,650,000 F; the share held earns 900,000 F; "
                                                  "amount allowed: ")
    assert refused.value.message("en").endswith(", left out") and "000000" not in refused.value.message("en")
    game.apply(Claim(2))
    with pytest.raises(IllegalAction) as refused:
        game.apply(Claim(2))
    assert refused.value.key == "error.rm.claimed"
    cash = game.cash(0)
    game.apply(Claim(1))
    assert game.cash(0) == cash - 5_400_000 and game.decision().prompt == "prompt.rm.buy"


def test_strict_claims_off_pays_by_itself_as_before():
    """RM2 default: "Royalties are paid automatically (strict_claims off)"."""
    game = new_game(4, at={3: "ALUMINIUM"})
    assert game.settings["strict_claims"] is False
    give(game, 1, "ALUMINIUM-CANADA", "ALUMINIUM-SCANDINAVIE")
    events = game.apply(Roll(1, 2))
    assert any(e.key == "rm.royalties" for e in events) and game.decision().prompt != "prompt.rm.claims"


def test_strict_claims_a_lander_who_cannot_pay_what_was_claimed_is_bankrupt():
    """RM11 with strict claims: the claimed royalties are a debt like any other."""
    from engines.richesses.actions import AdjustCash, Claim, CloseClaims
    game = claims_game()
    game.apply(AdjustCash(0, -(game.cash(0) - 1_000_000), "poor"))
    game.apply(Roll(1, 2))
    game.apply(Claim(2))
    cid = game.cash(2)
    game.apply(CloseClaims())
    assert game.s.out == [0] and game.cash(2) == cid + 4_500_000       # the bank pays in full


# ------------------------------------------------------------ refusals with their rule
def refusal(game, line):
    before = (game.snapshot(), len(game.log))
    with pytest.raises(IllegalAction) as error:
        game.apply(game.ACTIONS.parse(line, game.players))
    assert (game.snapshot(), len(game.log)) == before
    return error.value


def test_a_joker_bought_after_a_rest_square_says_when_jokers_are_bought():
    """The turn went on to Bob: not "it is Bob's turn", but when a joker is bought."""
    game = new_game(2)
    game.apply(Roll(3, 5))                        # square 8: joker, a rest square with two players
    error = refusal(game, "buy_joker Ana")
    assert error.key == "error.rm.when.buy_joker"
    assert str(error).startswith("buy_joker: a joker is bought only on a joker square, with three players or more; "
                                 "allowed now: ")
    assert error.message("fr").startswith("buy_joker : un joker s'achète seulement sur une case joker, "
                                          "à trois joueurs ou plus ; possible maintenant : ")


def test_the_seller_bidding_on_their_own_lot_is_told_the_seller_does_not_bid():
    game, (four, _, _) = auction_game(red=4)
    game.apply(Lots(0, (four,)))
    error = refusal(game, f"bid Ana {game.decision().params['minimum']}")
    assert error.key == "error.rm.seller_bids"
    name = game.box.production_name(four)
    assert str(error) == f"Ana is selling the {name} lot: the seller does not bid on their own lot (RM9); " \
                         "player allowed: Ben, Cid, Dan"
    assert error.message("fr").startswith(f"Ana vend le lot {name} : le vendeur n'enchérit pas sur son propre lot")


def test_a_purchase_during_the_world_tour_question_says_when_titles_are_bought():
    game = no_order_game(4)
    give(game, 0, "ARGENT-CANADA")
    game.apply(Roll(6, 1))
    game.apply(game.ACTIONS.parse("land Ana AUCTION", game.players))
    assert game.decision().prompt == "prompt.rm.tour"
    error = refusal(game, "buy Ana ARGENT-CANADA")
    assert error.key == "error.rm.when.buy" and "allowed now: " in str(error) and "no_tour" in str(error)
