"""Every worked example of the Maxi Bourse International rulebook, with its own figures."""
import pytest

from engines.core.errors import IllegalAction
from engines.maxibourse import payday as P
from engines.maxibourse.box import load_box
from maxibourse_helpers import bank_lots, cash, give, lots, play, seat, set_cash, started, take_all_lots

BOX = load_box()


def test_sony_au_mieux_350_to_400_and_four_payments():
    """1-5 L'achat au mieux: Sophie on BP names SONY at 350 $."""
    g = started(["Sophie", "Thierry", "Didier", "Dominique"])
    play(g, 'set_price SONY 350 "example"', "roll 3 4", "titre BP SONY")
    before = {p: cash(g, p) for p in g.players}
    seen = []
    for line in ("declare Sophie 1", "declare Thierry 1", "declare Didier 2", "declare Dominique 1"):
        play(g, line)
        seen.append(g.price("SONY"))
    assert seen == [360, 370, 390, 400]
    assert g.decision().prompt == "prompt.mb.settle"  # settlement is its own step (MB5)
    play(g, "settle")
    paid = {p: before[p] - cash(g, p) for p in g.players}
    assert paid == {"Sophie": 400_000, "Thierry": 400_000, "Didier": 800_000, "Dominique": 400_000}
    assert bank_lots(g, "SONY") == 5
    # the second speaking round starts with the lander, among those who bought
    d = g.decision()
    assert d.prompt == "prompt.mb.titre" and d.actor == seat(g, "Sophie") and d.params["round"] == 2


def test_fiat_au_cours_then_au_mieux():
    """1-5 examples 1 and 2: Dominique on FIAT at 300 $ buys 2 000 au cours for 600 000 $,
    the price does not move; her next request is au mieux."""
    g = started(["Dominique", "Daniel", "Laurence", "Richard"])
    play(g, 'set_price FIAT 300 "example"', "roll 2 5", "titre FIAT")
    assert g.decision().prompt == "prompt.mb.titre_au_cours"
    before = cash(g, "Dominique")
    play(g, "declare Dominique 2", "settle")
    assert before - cash(g, "Dominique") == 600_000
    assert g.price("FIAT") == 300
    play(g, "declare Daniel 1", "declare Laurence 0", "declare Richard 0")
    assert g.price("FIAT") == 310
    play(g, "settle")
    assert lots(g, "Daniel", "FIAT") == 1
    # round 2: Dominique and Daniel only; Dominique now buys au mieux
    assert g.decision().prompt == "prompt.mb.titre"
    play(g, "declare Dominique 2")
    assert g.price("FIAT") == 330


def test_twa_shortage_400_430_540():
    """1-6 example 1: three ask 1 000 TWA with 2 000 left; 400 -> 430, auction to 540,
    Yves withdraws, Véronique and Sophie pay 540 000 $ each."""
    g = started(["Yves", "Veronique", "Sophie", "Marc"])
    give(g, "Marc", "TWA", 8)
    play(g, 'set_price TWA 400 "example"', "roll 1 2", "titre BP TWA")
    play(g, "declare Yves 1", "declare Veronique 1", "declare Sophie 1", "declare Marc 0")
    assert g.price("TWA") == 430
    assert g.decision().prompt == "prompt.mb.auction"
    while g.decision().params["proposal"] < 540:
        play(g, "raise")
    assert g.price("TWA") == 530
    before = {p: cash(g, p) for p in g.players}
    play(g, "bid Yves 0", "raise", "settle")
    assert g.price("TWA") == 540
    assert {p: before[p] - cash(g, p) for p in g.players} == {"Yves": 0, "Veronique": 540_000, "Sophie": 540_000, "Marc": 0}
    assert bank_lots(g, "TWA") == 0 and lots(g, "Yves", "TWA") == 0


def test_canon_two_bidders_for_the_last_2000():
    """1-6 example 2: 2 000 CANON left, Robert and Joëlle want 2 000 each: the price climbs
    until one gives up; the other takes both lots at that price."""
    g = started(["Robert", "Joelle", "Nina"])
    give(g, "Nina", "CANON", 8)
    play(g, 'set_price CANON 200 "example"', "roll 1 2", "titre BP CANON")
    play(g, "declare Robert 2", "declare Joelle 2", "declare Nina 0")
    assert g.price("CANON") == 240
    play(g, "raise", "raise", "raise")  # 250, 260, 270 accepted by both
    before = cash(g, "Robert")
    play(g, "bid Joelle 0", "raise", "settle")  # Joëlle gives up at 280
    assert g.price("CANON") == 280
    assert lots(g, "Robert", "CANON") == 2 and lots(g, "Joelle", "CANON") == 0
    assert before - cash(g, "Robert") == 560_000


def test_canon_cut_from_2000_to_1000_ends_the_auction():
    g = started(["Robert", "Joelle", "Nina"])
    give(g, "Nina", "CANON", 8)
    play(g, 'set_price CANON 200 "example"', "roll 1 2", "titre BP CANON")
    play(g, "declare Robert 2", "declare Joelle 2", "declare Nina 0", "raise")
    play(g, "bid Joelle 1")  # 3 asked for 2 lots: goes on
    assert g.decision().prompt == "prompt.mb.auction"
    play(g, "raise", "bid Robert 1", "raise", "settle")  # 1 + 1 fits at 270
    assert g.price("CANON") == 270
    assert lots(g, "Robert", "CANON") == 1 and lots(g, "Joelle", "CANON") == 1


def test_fuji_simultaneous_withdrawal_served_by_priority_at_620():
    """1-6 example 3: one FUJI lot left; 400 -> 620, all three withdraw at 630 together;
    the lot goes at 620 to the player nearest the one who rolled."""
    g = started(["Louis", "Marthe", "Paulin", "Frederique"])
    give(g, "Louis", "FUJI", 9)
    play(g, 'set_price FUJI 400 "example"', "roll 1 2", "titre BP FUJI")
    play(g, "declare Louis 0", "declare Marthe 1", "declare Paulin 1", "declare Frederique 1")
    assert g.price("FUJI") == 430
    while g.decision().params["proposal"] < 630:
        play(g, "raise")
    assert g.price("FUJI") == 620
    play(g, "bid Frederique 0", "bid Paulin 0", "bid Marthe 0", "settle")
    assert g.price("FUJI") == 620
    assert lots(g, "Marthe", "FUJI") == 1  # Louis rolled; Marthe sits next to him
    assert lots(g, "Paulin", "FUJI") == lots(g, "Frederique", "FUJI") == 0


def test_moet_vuitton_decline_minus_70():
    """2 example 1: Pascale offers 1 000 MOET-VUITTON; three decline twice; the bank buys."""
    g = started(["Pascale", "Daniel", "Bernard", "Yvonne"])
    give(g, "Pascale", "MOET-VUITTON", 1)
    play(g, 'set_price MOET-VUITTON 300 "example"', "sell Pascale MOET-VUITTON 1")
    play(g, "declare Daniel 0", "declare Bernard 0", "declare Yvonne 0")
    assert g.price("MOET-VUITTON") == 270
    before = cash(g, "Pascale")
    play(g, "declare Daniel 0", "declare Bernard 0", "declare Yvonne 0")
    assert g.price("MOET-VUITTON") == 230  # -30, -30, then the bank -10: -70 in all
    assert cash(g, "Pascale") - before == 230_000
    assert bank_lots(g, "MOET-VUITTON") == 10


def test_peugeot_500_350_200_170_and_510000():
    """2 example 2: Théo offers 3 000 PEUGEOT at 500 $ to five players who decline twice."""
    g = started(["Theo", "Yves", "Didier", "Dominique", "Isabelle", "Daniel"])
    give(g, "Theo", "PEUGEOT", 3)
    play(g, 'set_price PEUGEOT 500 "example"', "sell Theo PEUGEOT 3")
    for p in ("Yves", "Didier", "Dominique", "Isabelle", "Daniel"):
        play(g, f"declare {p} 0")
    assert g.price("PEUGEOT") == 350
    before = cash(g, "Theo")
    for p in ("Yves", "Didier", "Dominique", "Isabelle", "Daniel"):
        play(g, f"declare {p} 0")
    assert g.price("PEUGEOT") == 170
    assert cash(g, "Theo") - before == 510_000
    assert lots(g, "Theo", "PEUGEOT") == 0
    # the sale is over: Théo may sell again or roll
    assert g.decision().prompt == "prompt.mb.turn_start"


def test_sale_partial_buyers_and_auction_when_asked_more_than_offered():
    """MB6: buyers may take part of the lots, the rest goes on; asked more than offered:
    the seller auctions up by 10 $."""
    g = started(["Ana", "Ben", "Cid"])
    give(g, "Ana", "SHELL", 3)
    play(g, 'set_price SHELL 300 "example"', "sell Ana SHELL 3", "declare Ben 1", "declare Cid 0", "settle")
    assert lots(g, "Ben", "SHELL") == 1 and g.price("SHELL") == 300
    play(g, "declare Ben 1", "declare Cid 2")  # 3 asked for the 2 left: auction
    assert g.decision().prompt == "prompt.mb.auction"
    play(g, "bid Ben 0", "raise", "settle")  # at 310 only Cid, for 2: fits
    assert lots(g, "Cid", "SHELL") == 2 and g.price("SHELL") == 310
    assert lots(g, "Ana", "SHELL") == 0


def test_coca_cola_rumour_before_settlement_720000():
    """5 Rumeurs: Gilles reveals COCA-COLA +60 just before Christine pays 2 000 at 300."""
    g = started(["Gilles", "Christine"])
    play(g, "roll 1 2", "rumour Gilles", "end")
    play(g, 'set_price COCA-COLA 300 "example"', "roll 2 4", "titre COCA-COLA", "declare Christine 2")
    before = cash(g, "Christine")
    play(g, "reveal Gilles COCA-COLA +60", "settle")
    assert g.price("COCA-COLA") == 360
    assert before - cash(g, "Christine") == 720_000
    assert g.s.rumours[seat(g, "Gilles")] == 0


def test_thierry_strictement_personnel_sells_for_1050000():
    """6 example 1: Thierry must sell 1 050 000 $ of shares and pays it."""
    g = started(["Thierry", "Anne", "Bea"])
    give(g, "Thierry", "PEUGEOT", 3)
    play(g, 'set_price PEUGEOT 350 "example"', "roll 1 2", "forced Thierry 1050000")
    assert g.decision().prompt == "prompt.mb.forced"
    before = cash(g, "Thierry")
    play(g, "sell Thierry PEUGEOT 3", "declare Anne 3", "declare Bea 0", "settle")
    assert cash(g, "Anne") == 5_000_000 - 1_050_000
    assert cash(g, "Thierry") == before  # received 1 050 000, paid 1 050 000
    assert lots(g, "Thierry", "PEUGEOT") == 0
    assert g.decision().prompt == "prompt.mb.square"


def test_sophie_strictement_personnel_too_few_shares_pays_the_rest():
    """6 example 2: Sophie must sell 500 000 $ but holds too few shares: she sells them all
    and completes in cash, receiving only the proceeds of her sales."""
    g = started(["Sophie", "Yves", "Vero"])
    take_all_lots(g, "Sophie")
    give(g, "Sophie", "TDK", 1)
    play(g, 'set_price TDK 200 "example"', "roll 1 2", "forced Sophie 500000", "sell Sophie TDK 1")
    before = cash(g, "Sophie")
    for _ in range(2):
        play(g, "declare Yves 0", "declare Vero 0")
    # 200 -20 -20 -10 = 150: she sells for 150 000 and completes with 350 000 in cash
    assert g.price("TDK") == 150
    assert before - cash(g, "Sophie") == 500_000 - 150_000
    assert lots(g, "Sophie", "TDK") == 0


def test_sophie_ruined_when_she_cannot_complete_in_cash():
    g = started(["Sophie", "Yves", "Vero"])
    take_all_lots(g, "Sophie")
    set_cash(g, "Sophie", 100_000)
    play(g, "roll 1 2", "forced Sophie 500000")
    assert g.s.ruined[0]
    assert g.decision().params["player"] == "Yves"  # her turn ended


def test_messaline_cessation_de_paiement_daniel_paid_in_full():
    """8 Sanction: Daniel sells 4 000 PEUGEOT at 700 $ to Messaline, who cannot pay even
    after selling her shares; the bank seizes the 4 000 PEUGEOT, sells them, pays Daniel
    2 800 000 $ in full and gives Messaline the surplus."""
    g = started(["Daniel", "Messaline", "Jacques"])
    take_all_lots(g, "Messaline")
    give(g, "Messaline", "FIAT", 2)
    give(g, "Daniel", "PEUGEOT", 4)
    set_cash(g, "Messaline", 1_000_000)
    play(g, 'set_price PEUGEOT 700 "example"', 'set_price FIAT 200 "example"')
    daniel = cash(g, "Daniel")
    play(g, "sell Daniel PEUGEOT 4", "declare Messaline 4", "declare Jacques 0", "settle")
    assert g.decision().prompt == "prompt.mb.debt"
    play(g, "sell Messaline FIAT 2")
    for _ in range(2):
        play(g, "declare Jacques 0", "declare Daniel 0")
    # FIAT: 200 -40 -40 -20 = 100, 200 000 raised; still short: cessation de paiement
    assert g.decision().prompt == "prompt.mb.sale" and g.decision().params["seller"] == "BANK"
    play(g, "declare Jacques 4", "declare Daniel 0", "settle")
    assert cash(g, "Daniel") - daniel == 2_800_000
    assert lots(g, "Jacques", "PEUGEOT") == 4 and lots(g, "Daniel", "PEUGEOT") == 0
    # "Le surplus revient à Messaline": 1 200 000 handed over + 2 800 000 - 2 800 000, less
    # the fine: "Mais vous êtes sanctionné et devez passer un nouveau tour"
    assert cash(g, "Messaline") == 1_200_000 - 100_000
    assert g.s.skip[1] == 2 and not g.s.ruined[1]


def test_cannot_pay_fine_and_skipped_turn():
    """8: short of cash at settlement: sell to cover, pay 100 000 $, skip the next turn."""
    g = started(["Ana", "Ben"])
    set_cash(g, "Ana", 100_000)
    take_all_lots(g, "Ana")
    give(g, "Ana", "SHELL", 2)
    play(g, 'set_price SHELL 300 "example"', 'set_price SONY 300 "example"')
    play(g, "roll 1 2", "titre SONY", "declare Ana 1", "settle")  # 300 000 due, 100 000 held
    assert g.decision().prompt == "prompt.mb.debt"
    play(g, "sell Ana SHELL 2", "declare Ben 2", "settle")  # + 600 000
    assert cash(g, "Ana") == 700_000 - 300_000 - 100_000
    assert lots(g, "Ana", "SONY") == 1 and g.s.skip[0] == 1
    play(g, "declare Ben 0", "end")  # the titre ends; Ana's turn ends
    play(g, "roll 1 2", "end")  # Ben
    play(g, "payday")
    assert g.decision().params["player"] == "Ben"  # Ana skipped her turn
    assert g.s.skip[0] == 0


def test_skipping_player_cannot_buy_or_reveal():
    g = started(["Ana", "Ben", "Cid"])
    play(g, "roll 1 2", "rumour Ana", "end")
    g.s.skip[0] = 1  # as after a sanction
    play(g, "roll 1 2", "titre SONY")
    assert [s for s in g.top.round.order] == [1, 2]
    with pytest.raises(IllegalAction):
        play(g, "reveal Ana SONY +10")


def test_double_buys_au_cours_any_company_then_the_square():
    g = started(["Ana", "Ben"])
    play(g, 'set_price IBM 300 "example"', "roll 4 4")
    assert g.decision().prompt == "prompt.mb.double"
    before = cash(g, "Ana")
    play(g, "double Ana IBM 2", "settle")
    assert before - cash(g, "Ana") == 600_000 and g.price("IBM") == 300
    assert g.decision().prompt == "prompt.mb.square"
    play(g, "titre ELF", "declare Ana 1", "settle")  # the square resolves as usual
    assert lots(g, "Ana", "ELF") == 1


def test_nathalie_110000_dividends():
    b = P.breakdown({"BP": 3, "ELF": 3, "SONY": 3, "IBM": 2}, {c: 100 for c in BOX.companies}, BOX, 1000)  # 11 cards
    assert b.dividends == 110_000 and b.total == 110_000


def test_marine_350000_jetons():
    prices = {c: 100 for c in BOX.companies} | {"PEUGEOT": 350}
    b = P.breakdown({"PEUGEOT": 7}, prices, BOX, 1000)
    assert b.jetons == {"PEUGEOT": 350_000}


def test_pierre_300000_horizontal():
    b = P.breakdown({"PEUGEOT": 6, "TOYOTA": 4, "VW": 3}, {c: 100 for c in BOX.companies}, BOX, 1000)
    assert b.horizontal == ["AUTOMOBILE"]
    assert b.total - b.dividends - sum(b.jetons.values()) == 300_000


YVES = {"BARCLAYS": 6, "CHASE": 4, "DEUTSCHE": 3, "ELF": 7, "MATRA": 2, "BOUYGUES": 6, "THOMSON": 6, "IBM": 2}
YVES_PRICES = {"BARCLAYS": 400, "ELF": 350, "BOUYGUES": 650, "THOMSON": 500}


def test_yves_3160000_in_total():
    prices = {c: 100 for c in BOX.companies} | YVES_PRICES
    b = P.breakdown(YVES, prices, BOX, 1000)
    assert b.dividends == 360_000
    assert sum(b.jetons.values()) == 1_900_000
    assert b.horizontal == ["BANQUES"] and b.vertical == 600_000
    assert b.total == 3_160_000


def test_yves_through_the_payday_step():
    g = started(["Yves", "Ana"])
    take_all_lots(g, "Yves")
    for company, n in YVES.items():
        give(g, "Yves", company, n)
    for company, price in YVES_PRICES.items():
        play(g, f'set_price {company} {price} "example"')
    before = cash(g, "Yves")
    play(g, "roll 1 2", "end", "roll 1 2", "end")
    assert g.decision().prompt == "prompt.mb.payday"
    play(g, "payday")
    assert cash(g, "Yves") - before == 3_160_000
    assert g.s.last_payday["Yves"]["total"] == 3_160_000


def test_vertical_groups_are_disjoint_and_once_setting():
    assert P.vertical_groups({"A": 1, "B": 1, "C": 1}) == 1
    assert P.vertical_groups({"A": 2, "B": 2, "C": 2}) == 2
    assert P.vertical_groups({"A": 4, "B": 1, "C": 1}) == 1
    assert P.vertical_groups({"A": 2, "B": 2, "C": 1, "D": 1}) == 2
    prices = {c: 100 for c in BOX.companies}
    six = {"BP": 6, "FIAT": 6, "SONY": 6, "ELF": 6}
    assert P.breakdown(six | {"NESTLE": 6, "TDK": 6}, prices, BOX, 1000).vertical == 1_200_000
    assert P.breakdown(six | {"NESTLE": 6, "TDK": 6}, prices, BOX, 1000, "once").vertical == 600_000


def test_trade_between_players_at_an_agreed_higher_price():
    """2/5 and 1-7: a holder may sell at a price the buyer accepts, above the quotation."""
    g = started(["Ana", "Ben"])
    give(g, "Ben", "TWA", 10)
    play(g, 'set_price TWA 200 "example"', "roll 1 2")
    with pytest.raises(IllegalAction, match=r"current price \$200"):
        play(g, "trade Ben Ana TWA 2 190")
    before = cash(g, "Ana")
    play(g, "trade Ben Ana TWA 2 250")
    assert before - cash(g, "Ana") == 500_000 and lots(g, "Ana", "TWA") == 2 and g.price("TWA") == 250


def test_nestle_first_and_second_speaking_rounds():
    """1-3: "Isabelle, en déclarant vouloir acheter 2 000 actions NESTLE, déclenche le premier
    tour de parole. Daniel désire en acheter 1 000, Georges également et Laure ne désire pas
    en acquérir. Restent alors seuls concernés Isabelle, Georges et Daniel." On her own
    square Isabelle buys au cours (NESTLE 300 $: 600 000 $); Daniel and Georges au mieux at
    320 $; the second round asks Isabelle, Daniel and Georges "jusqu'à ce qu'il ne reste
    aucune action disponible"."""
    g = started(["Isabelle", "Daniel", "Georges", "Laure"])
    play(g, 'set_price NESTLE 300 "example"', "roll 2 3", "titre NESTLE")
    with pytest.raises(IllegalAction, match="allowed: 0, 1, 2"):  # "1 000 actions minimum et 2 000 actions maximum"
        play(g, "declare Isabelle 3")
    before = {p: cash(g, p) for p in g.players}
    play(g, "declare Isabelle 2", "settle")
    play(g, "declare Daniel 1", "declare Georges 1", "declare Laure 0", "settle")
    paid = {p: before[p] - cash(g, p) for p in g.players}
    assert paid == {"Isabelle": 600_000, "Daniel": 320_000, "Georges": 320_000, "Laure": 0}
    assert bank_lots(g, "NESTLE") == 6
    assert g.top.round.order == [seat(g, p) for p in ("Isabelle", "Daniel", "Georges")]
    play(g, "declare Isabelle 2", "declare Daniel 2", "declare Georges 2", "settle")  # 320 -> 380
    assert g.price("NESTLE") == 380 and bank_lots(g, "NESTLE") == 0
    assert g.decision().prompt == "prompt.mb.square"  # no NESTLE left: the Titre is over


def test_basf_nobody_may_sell():
    """1-2: "Sophie pose son pion sur la case BASF. Aucun des joueurs ne possède la faculté
    de vendre des actions dans ce tour de jeu.\""""
    g = started(["Yves", "Veronique", "Sophie"], first="Sophie")
    play(g, "roll 3 4", "titre BASF")
    for name in ("Yves", "Veronique", "Sophie"):
        company = next(iter(g.held(seat(g, name))))
        for line in (f"sell {name} {company} 1", f"trade {name} Sophie {company} 1 300"):
            with pytest.raises(IllegalAction):
                play(g, line)
    play(g, "declare Sophie 0", "declare Yves 0", "declare Veronique 0")
    for name in ("Yves", "Veronique"):  # still on Sophie's Titre square: no sale either
        company = next(iter(g.held(seat(g, name))))
        with pytest.raises(IllegalAction, match="1-2"):
            play(g, f"trade {name} Sophie {company} 1 300")


def test_pierre_on_elf_chooses_thomson():
    """1-4: "Pierre pose son pion sur la case ELF ... S'il décide d'acquérir des actions
    THOMSON, ses concurrents ne peuvent acquérir que THOMSON." Another company than the
    square's is bought au mieux (1-5)."""
    g = started(["Pierre", "Anne", "Luc"])
    play(g, 'set_price THOMSON 200 "example"', 'set_price ELF 200 "example"', "roll 2 2", "pass Pierre")
    play(g, "titre ELF THOMSON")
    d = g.decision()
    assert d.prompt == "prompt.mb.titre" and d.params["company"] == "THOMSON"  # au mieux, not au cours
    play(g, "declare Pierre 1", "declare Anne 2", "declare Luc 0", "settle")
    assert g.price("THOMSON") == 230 and g.price("ELF") == 200
    assert lots(g, "Anne", "THOMSON") == 2 and lots(g, "Anne", "ELF") == 0


def test_alain_768_matra_and_christine_1379_aeg():
    """1-1: "Alain veut acheter 768 actions MATRA. Il ne le peut pas et doit en acheter au
    minimum 1 000. Christine veut acheter 1379 actions A.E.G. Elle ne le peut pas et doit
    choisir entre un achat de 1 000 titres et un achat de 2 000 actions A.E.G." Requests
    are in lots of 1 000 shares: 0, 1 or 2."""
    g = started(["Alain", "Christine"])
    play(g, "roll 1 2", "titre MATRA")
    for shares in (768, 1379):
        with pytest.raises(IllegalAction, match="allowed: 0, 1, 2"):
            play(g, f"declare Alain {shares}")
    play(g, "declare Alain 1", "settle", "declare Christine 0")
    assert lots(g, "Alain", "MATRA") == 1
    play(g, "declare Alain 0", "end", "roll 1 2", "titre AEG")
    assert g.decision().option("declare").fields["lots"].values == (0, 1, 2)
    with pytest.raises(IllegalAction, match="allowed: 0, 1, 2"):
        play(g, "declare Christine 1379")
    play(g, "declare Christine 2", "settle")
    assert lots(g, "Christine", "AEG") == 2


def test_strategie_du_cumul_4520000():
    """IV-5: "Il possède 4 000 CHASE MANHATTAN BANK. En achetant 2 000 titres
    supplémentaires, il va non seulement devenir majoritaire et toucher un jeton de présence
    supplémentaire ... Il ne lui manquerait plus que 4000 actions MATRA ou 4000 titres IBM
    pour empocher à nouveau..., mais calculez vous-même !" Yves's portfolio (3 160 000 $)
    with 2 000 CHASE and 4 000 MATRA more: 42 cards, six majorities, so two disjoint
    vertical groups. The book gives no price for CHASE or MATRA: at 300 $ and 400 $,
    420 000 + 2 600 000 + 300 000 + 1 200 000 = 4 520 000 $."""
    prices = {c: 100 for c in BOX.companies} | YVES_PRICES | {"CHASE": 300, "MATRA": 400}
    b = P.breakdown(YVES | {"CHASE": 6, "MATRA": 6}, prices, BOX, 1000)
    assert b.dividends == 420_000
    assert sum(b.jetons.values()) == 1_900_000 + 300_000 + 400_000
    assert b.horizontal == ["BANQUES"] and b.vertical_groups == 2 and b.vertical == 1_200_000
    assert b.total == 4_520_000
    # with IBM instead of MATRA (IBM at 400 $), the same sum: the sixth majority is in a fifth sector
    prices = {c: 100 for c in BOX.companies} | YVES_PRICES | {"CHASE": 300, "IBM": 400}
    assert P.breakdown(YVES | {"CHASE": 6, "IBM": 6}, prices, BOX, 1000).total == 4_520_000
