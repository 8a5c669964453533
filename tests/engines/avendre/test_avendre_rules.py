"""A Vendre!: the rulebook's numbers and rulings AV1-AV15, each test quoting the book.

The shipped box file is a template (AV15: the rulebook prints no board): where a test
needs a square it names the template's square and reads the title's PA and R from the
game. Square 1 is a blue shop (title 1), 3 a red establishment (31), 4 yellow, 7 green
then 8 red (32)."""
import pytest

from avendre_helpers import bank, cash, give, kinds, new_game, owner, pawn, place, play, prompt, seat, set_cash, total
from engines.core.errors import IllegalAction
from engines.avendre.rules import BANK_OPENING, LOAN_REPAYMENT, PRIME, START_CASH


def refused(game, line, key):
    before = (game.snapshot(), len(game.log))
    with pytest.raises(IllegalAction) as error:
        play(game, line)
    assert error.value.key == key, str(error.value)
    assert (game.snapshot(), len(game.log)) == before
    return error.value


def next_turns(game, *names):
    """Each named player rolls onto the yellow square 4 (from 0) and takes no card."""
    for name in names:
        place(game, name, 0)
        play(game, "roll 4", f"no_card {name}")


# ------------------------------------------------------------------ the start
def test_everyone_and_the_bank_start_with_5100():
    """"Le directeur de la banque et du jeu remet en commençant à chaque participant et à la
    banque elle-même 5100.—"."""
    game = new_game(first=None)
    assert [game.cash(s) for s in range(3)] == [5100, 5100, 5100] and bank(game) == 5100 == START_CASH
    assert prompt(game) == "prompt.av.first"
    play(game, "first Ben")
    assert prompt(game) == "prompt.av.roll" and game.decision().actor == seat(game, "Ben")


def test_two_to_ten_players():
    """AV6: "Un nombre facultatif de personnes (jusqu'à 10)": the box is the banker, so ten play."""
    new_game(players=[f"P{i}" for i in range(10)], first="P0")
    with pytest.raises(IllegalAction):
        new_game(players=[f"P{i}" for i in range(11)], first="P0")


# ---------------------------------------------------------------- the squares
def test_blue_square_buy_at_pa_then_a_compulsory_card():
    """"doit acheter auprès de la banque le commerce en question pour la somme mentionnée
    (PA) ... ou bien il doit payer à la banque comme impôt la somme également mentionnée (R)";
    "Chaque joueur qui est contraint de poser son pion dans une case bleue a l'obligation de
    réclamer une carte des charges"."""
    game = new_game()
    pa = game.title("1").pa
    play(game, "roll 1")
    assert pawn(game, "Ana") == 1 and prompt(game) == "prompt.av.blue" and kinds(game) == {"buy", "tax"}
    play(game, "buy Ana")
    assert cash(game, "Ana") == 5100 - pa and bank(game) == 5100 + pa and owner(game, 1) == "Ana"
    assert prompt(game) == "prompt.av.card" and "no_card" not in kinds(game) and "card_none" in kinds(game)
    play(game, "card_none Ana")
    assert prompt(game) == "prompt.av.roll" and game.decision().actor == seat(game, "Ben")


def test_blue_square_buy_is_offered_only_with_the_cash():
    """AV9: "buy at PA (offered only with cash >= PA)"."""
    game = new_game()
    set_cash(game, "Ana", game.title("1").pa - 10)
    play(game, "roll 1")
    assert kinds(game) == {"tax"}
    refused(game, "buy Ana", "error.av.buy_cash")


def test_blue_square_tax_r_to_the_bank_which_keeps_the_title():
    """"dans ce dernier cas le banquier garde le titre de propriété"."""
    game = new_game()
    r = game.title("1").r
    play(game, "roll 1", "tax Ana")
    assert cash(game, "Ana") == 5100 - r and bank(game) == 5100 + r and owner(game, 1) is None
    assert prompt(game) == "prompt.av.card"


def test_blue_square_owned_by_another_pays_r_to_him_at_once():
    """"Si le commerce a déjà un propriétaire, c'est à lui que la taxe R doit être payée";
    "lui remettent immédiatement les recettes (R)" (AV9: paid automatically)."""
    game = new_game()
    give(game, "Ben", 1)
    r = game.title("1").r
    play(game, "roll 1")
    assert cash(game, "Ana") == 5100 - r and cash(game, "Ben") == 5100 + r
    assert prompt(game) == "prompt.av.card"


def test_own_square_pays_nothing_but_the_card_is_drawn():
    """AV9: "own blue or red: nothing to pay"; a card always follows on blue and red."""
    game = new_game()
    give(game, "Ana", 1)
    play(game, "roll 1")
    assert cash(game, "Ana") == 5100 and prompt(game) == "prompt.av.card"


def test_red_square_pays_r_to_the_bank_or_to_the_holder_then_a_card():
    """"Celui qui est amené par un coup de dé dans une case rouge doit payer à la banque ou,
    si l'établissement est déjà en d'autres mains, au directeur de cet établissement la somme
    inscrite (R). Il a aussi toujours l'obligation de réclamer une carte des charges"."""
    game = new_game()
    r = game.title("31").r
    play(game, "roll 3")
    assert cash(game, "Ana") == 5100 - r and bank(game) == 5100 + r and prompt(game) == "prompt.av.card"
    play(game, "card_none Ana")
    give(game, "Cid", 31)
    play(game, "roll 3")
    assert cash(game, "Ben") == 5100 - r and cash(game, "Cid") == 5100 + r


def test_green_square_moves_on_and_the_next_square_applies():
    """"Celui qui est amené par un coup de dé dans une case verte avance sans autre formalité
    dans la case suivante" (AV9: that square applies as a landing)."""
    game = new_game()
    place(game, "Ana", 1)
    events = play(game, "roll 6")
    assert pawn(game, "Ana") == 8 and any(e.key == "av.green" for e in events)
    assert cash(game, "Ana") == 5100 - game.title("32").r and prompt(game) == "prompt.av.card"


def test_yellow_square_the_card_is_optional():
    """"Celui qui est amené par un coup de dé dans une case jaune est libre de réclamer une
    carte des charges, ou non"."""
    game = new_game()
    play(game, "roll 4")
    assert prompt(game) == "prompt.av.yellow" and kinds(game) == {"card", "no_card"}
    play(game, "card Ana")
    assert prompt(game) == "prompt.av.card"


# -------------------------------------------------------------------- the cards
def test_card_green_square_pays_the_amount_and_stays():
    """"celui qui est renvoyé par une carte des charges dans une case verte, doit s'y rendre
    avec son pion et payer à la banque le montant indiqué sur la carte"."""
    game = new_game()
    place(game, "Ana", 10)
    play(game, "roll 4", "card Ana", "card_green Ana 7 200")   # 14 is yellow
    assert pawn(game, "Ana") == 7 and cash(game, "Ana") == 4900 and bank(game) == 5300
    assert game.decision().actor == seat(game, "Ben")          # nothing else applies


def test_card_tax_at_a_shop_pays_its_owner_and_the_pawn_stays():
    """"Lorsqu'un joueur est invité par une carte des charges à payer une taxe (R) à une case
    bleue (commerce) son pion reste dans la case occupée jusqu'ici ... ou au propriétaire ou à
    la banque, selon que le commerce a déjà un propriétaire ou non"."""
    game = new_game()
    give(game, "Cid", 2)
    play(game, "roll 4", "card Ana", "card_tax Ana 2 300")
    assert pawn(game, "Ana") == 4 and cash(game, "Ana") == 4800 and cash(game, "Cid") == 5400
    play(game, "roll 4", "card Ben", "card_tax Ben 5 300")
    assert cash(game, "Ben") == 4800 and bank(game) == 5400


def test_card_grant_establishment_free_no_effect_if_already_granted():
    """"Une carte des charges, qui représente un emploi honorifique, donne droit à recevoir
    gratuitement le titre de propriété de l'établissement en question" (AV10: no effect if
    already granted)."""
    game = new_game()
    play(game, "roll 4", "card Ana", "card_grant Ana 31")
    assert owner(game, 31) == "Ana" and cash(game, "Ana") == 5100
    events = play(game, "roll 4", "card Ben", "card_grant Ben 31")
    assert owner(game, 31) == "Ana" and [e.key for e in events][0] == "av.grant_none"


def test_lottery_card_the_bank_pays():
    """"quelques-unes d'entre elles représentent des gains à la loterie et obligent la banque
    de payer au joueur le montant qui y est prévu"."""
    game = new_game()
    play(game, "roll 4", "card Ana", "card_receive Ana 1000")
    assert cash(game, "Ana") == 6100 and bank(game) == 4100


def test_card_move_back_onto_blue_applies_as_a_landing_unless_the_setting_says_no():
    """AV9: "A blue or red square reached by a card move applies as a landing
    (`card_move_lands = true` by default; off, only the card's own effect applies)"."""
    game = new_game()
    place(game, "Ana", 1)
    play(game, "roll 3", "card Ana", "card_back Ana 3")    # 4 -> 1, blue
    assert pawn(game, "Ana") == 1 and prompt(game) == "prompt.av.blue"
    game = new_game(card_move_lands="no")
    place(game, "Ana", 1)
    play(game, "roll 3", "card Ana", "card_back Ana 3")
    assert pawn(game, "Ana") == 1 and game.decision().actor == seat(game, "Ben")


# ------------------------------------------------------------- square 60 (AV4, AV8, AV14)
def test_57_plus_4_stops_at_60_and_waits_there_without_three_titles():
    """"Si le joueur qui, à son premier voyage, arrive par exemple à la case 57 et amène 4
    points ... n'a pas encore 3 commerces ou établissements en sa possession, il avance à la
    case 60 et doit y rester"; "il continue à jeter le dé à son tour et il a droit chaque fois
    à une carte des charges" (AV14: the die moves nothing: no die is asked)."""
    game = new_game()
    place(game, "Ana", 57)
    events = play(game, "roll 4")
    assert pawn(game, "Ana") == 60 and game.s.waiting[0] and cash(game, "Ana") == 5100
    assert [e.key for e in events][-2:] == ["av.waiting", "av.turn"]
    next_turns(game, "Ben", "Cid")
    assert prompt(game) == "prompt.av.card" and game.decision().actor == 0 and "roll" not in kinds(game)
    refused(game, "roll 3", "error.av.waiting")
    play(game, "card_none Ana")
    assert pawn(game, "Ana") == 60 and game.decision().actor == seat(game, "Ben")


def test_first_arrival_with_three_titles_2000_and_a_restart_establishments_count():
    """"il ne lui est permis de recommencer à la case 1 que s'il est propriétaire d'au moins 3
    commerces; les établissements confiés (cases rouges) comptent aussi. Si cette condition
    est remplie, il reçoit pour entreprendre le second voyage un versement de 2000.— de la
    banque. Ses commerces acquis et les établissements qui lui ont été confiés restent sa
    propriété"."""
    for start, square in (("before_1", 0), ("on_1", 1)):
        game = new_game(start=start)
        give(game, "Ana", 1, 31, 32)
        place(game, "Ana", 57)
        play(game, "roll 6")
        assert cash(game, "Ana") == 5100 + PRIME == 7100 and bank(game) == 3100
        assert pawn(game, "Ana") == square and game.s.trips[0] == 2
        assert [owner(game, t) for t in (1, 31, 32)] == ["Ana"] * 3


def test_waiting_ends_the_moment_a_card_brings_the_third_title():
    """AV14: "the restart (+2 000) ... happens the moment the player holds 3 ... titles"."""
    game = new_game()
    give(game, "Ana", 1, 2)
    place(game, "Ana", 57)
    play(game, "roll 4")
    next_turns(game, "Ben", "Cid")
    play(game, "card_grant Ana 31")
    assert pawn(game, "Ana") == 0 and game.s.trips[0] == 2 and cash(game, "Ana") == 7100


def test_a_card_moving_the_waiting_pawn_back_ends_the_wait():
    """"Il se pourra donc qu'il doive reculer"."""
    game = new_game()
    place(game, "Ana", 57)
    play(game, "roll 4")
    next_turns(game, "Ben", "Cid")
    play(game, "card_back Ana 6")   # 54: blue, lands
    assert pawn(game, "Ana") == 54 and not game.s.waiting[0] and prompt(game) == "prompt.av.blue"


def test_second_arrival_needs_six_titles_then_2000_and_the_end():
    """"Celui qui a accompli le second voyage doit posséder, au moment où il atteint ou
    dépasse la case 60, 6 commerces ou établissements, et il reçoit de la banque une nouvelle
    prime de 2000.—. Là-dessus le jeu est terminé"."""
    game = new_game()
    give(game, "Ana", 1, 2, 31)
    place(game, "Ana", 57)
    play(game, "roll 4")                 # first trip: 3 titles, restart
    next_turns(game, "Ben", "Cid")
    place(game, "Ana", 58)
    play(game, "roll 5")                 # second arrival with 3 titles of 6: waits
    assert game.s.waiting[0] and not game.over and cash(game, "Ana") == 7100
    give(game, "Ana", 3, 4, 32)          # the sixth title: the moment it is held
    assert game.over and cash(game, "Ana") == 9100 and bank(game) == 5100 - 2 * PRIME
    assert game.snapshot()["ending"] == "goal"


def test_simple_game_ends_at_60_and_the_largest_fortune_wins():
    """"Aussitôt qu'un joueur y est parvenu, le jeu est terminé, et l'on ne tient ici pas
    compte du nombre de commerces" (AV7: no prime; the winner is the largest fortune)."""
    game = new_game(mode="simple")
    set_cash(game, "Ben", 6000)
    place(game, "Ana", 57)
    play(game, "roll 4")
    assert game.over and cash(game, "Ana") == 5100
    snap = game.snapshot()
    assert snap["winners"] == ["Ben"] and snap["ranking"][0] == {"rank": 1, "name": "Ben", "fortune": 6000}


# ------------------------------------------------------------- short of cash (AV3, AV11)
def test_short_of_cash_shops_auctioned_from_half_pa_establishments_never():
    """"doit faire vendre aux enchères par le banquier un ou plusieurs de ses commerces. Le
    produit de la vente lui est délivré et il paye ses dettes. Le banquier annonce comme
    première mise la moitié du prix d'achat" (AV11: a player's bid must exceed it)."""
    game = new_game()
    give(game, "Ana", 1, 32)
    set_cash(game, "Ana", 0)
    pa, r = game.title("1").pa, game.title("31").r
    play(game, "roll 3")                 # red 31: R to the bank, no cash
    assert prompt(game) == "prompt.av.debt" and game.decision().option("auction_shop").fields["title"].values == ("1",)
    # each refused with its rule, then what is allowed now
    assert str(refused(game, "auction_shop Ana 32", "error.av.establishment_auction")) == (
        f"{game.title_label('32')} is an establishment: establishments are never auctioned, only shops (AV11); "
        "title allowed: 1")
    for line in ("borrow Ana", "leave Ana"):
        assert str(refused(game, line, "error.av.shops_first")) == (
            "Ana still holds a shop: loans come only once the shops are auctioned, one at a time (AV11); "
            "allowed now: adjust_cash, adjust_loans, auction_shop, clear_bank_owner, give_title, set_bank_owner, "
            "set_pawn, set_trip, set_turn, take_title")
    play(game, "auction_shop Ana 1")
    assert prompt(game) == "prompt.av.shop_auction_open" and game.decision().actor is None
    refused(game, f"bid Ben {pa // 2}", "error.auction_amount_grid")
    assert str(refused(game, f"bid Ana {pa // 2 + 50}", "error.av.seller_bids")) == (
        f"Ana is selling {game.title_label('1')}: only the other players bid for it (AV11); player allowed: Ben, Cid")
    play(game, f"bid Ben {pa // 2 + 50}", f"bid Cid {pa // 2 + 100}", "sold")
    assert owner(game, 1) == "Cid" and cash(game, "Cid") == 5100 - pa // 2 - 100
    assert cash(game, "Ana") == pa // 2 + 100 - r and prompt(game) == "prompt.av.card"


def test_no_bid_the_bank_takes_the_shop_at_half_pa():
    """"si personne ne surenchérit il doit prendre possession lui-même, c'est à dire pour la
    banque, du commerce en question"."""
    game = new_game()
    give(game, "Ana", 1)
    set_cash(game, "Ana", 0)
    pa, r = game.title("1").pa, game.title("31").r
    play(game, "roll 3", "auction_shop Ana 1", "sold")
    assert owner(game, 1) is None and cash(game, "Ana") == pa // 2 - r


def test_loans_of_1000_once_no_shop_is_left_repaid_1100_at_the_end():
    """"Si même après la vente aux enchères de ses commerces un joueur n'a plus d'argent, il
    peut, pour ne pas être obligé de sortir du jeu, contracter un emprunt de 1000.— à la
    banque, remboursable à la fin du jeu avec 10 % d'intérêts. Il va de soi que les dettes de
    ce genre doivent d'abord être déduites avant d'établir le compte définitif des fortunes"."""
    game = new_game(mode="simple")
    give(game, "Ana", 31)
    set_cash(game, "Ana", 0)
    play(game, "roll 4", "card Ana", "card_pay Ana 2500")
    assert prompt(game) == "prompt.av.debt" and kinds(game) == {"borrow", "leave"}
    play(game, "borrow Ana")             # as many as needed: three
    assert cash(game, "Ana") == 500 and len(game.s.loans.of(0)) == 3 and game.s.loans.owed(0) == 3 * LOAN_REPAYMENT
    assert game.fortune(0) == 500 - 3300
    assert total(game) == 4 * 5100


def test_leaving_the_game_cash_to_the_creditor_establishments_to_the_bank_ranked_last():
    """AV11: "the debtor may instead leave the game (cash to the creditor, establishments
    back to the bank, ranked last)"."""
    game = new_game()
    give(game, "Ana", 32)
    give(game, "Cid", 31)
    set_cash(game, "Ana", 10)
    play(game, "roll 3", "leave Ana")
    assert cash(game, "Ana") == 0 and cash(game, "Cid") == 5110 and owner(game, 32) is None
    assert game.s.out == [0] and game.decision().actor == seat(game, "Ben")
    play(game, "roll 4", "no_card Ben", "roll 4", "no_card Cid")
    assert game.decision().actor == seat(game, "Ben")   # Ana's turns are skipped
    assert [x for _, x, _ in game.ranking()][-1] == 0


# ---------------------------------------------------------------- the bank (AV2, AV12)
def drain_bank(game, name="Cid"):
    play(game, f'adjust_cash {name} +{bank(game)} "test set-up"')


def test_a_player_out_is_offered_no_correction_and_one_aimed_at_him_is_refused():
    """AV11: one who left the game gave his cash to the creditor and his titles to the bank,
    had his loans cancelled and is ranked last; cash, a title or a pawn a correction gave
    him would stay outside the game. The corrections offer the players still in; one aimed
    at him is refused, says why and who may be corrected, in French and English, and
    changes nothing."""
    game = new_game()
    set_cash(game, "Ana", 10)
    play(game, "roll 3", "leave Ana")
    assert game.s.out == [0]
    for kind in ("adjust_cash", "set_pawn", "give_title"):
        assert game.decision().option(kind).fields["player"].values == (1, 2)
    for line in ('adjust_cash Ana +1000 "oubli"', 'set_pawn Ana 12 "oubli"', 'give_title Ana 32 "oubli"'):
        error = refused(game, line, "error.av.out")
        assert error.message("en") == ("Ana is out of the game: nothing is given to or taken from a player out any more "
                                       "(to correct, undo the leaving); player allowed: Ben, Cid")
        assert error.message("fr") == ("Ana est hors jeu : plus rien ne lui est donné ni pris "
                                       "(pour corriger, annulez la sortie) ; joueur possible : Ben, Cid")
    assert cash(game, "Ana") == 0 and not game.titles_held(0) and not game.s.loans.of(0)
    play(game, 'adjust_cash Ben +1000 "oubli"')     # the players still in are corrected as before


def test_the_banks_owner_who_leaves_the_game_no_longer_holds_it():
    """Reading (docs/rules/avendre.md): the bank's buyer "prend aussi part à la direction du
    jeu"; once out of the game he holds nothing, the bank included: it has no owner any
    more, its quarter at the end goes to nobody, and a new shortage auctions it among the
    players still in."""
    game = new_game()
    drain_bank(game)
    play(game, "roll 4", "card Ana", "card_receive Ana 1000", "bid Ben 2550", "sold")
    assert game.s.bank_owner == 1
    set_cash(game, "Ben", 0)
    play(game, "roll 4", "card Ben", "card_pay Ben 500")
    events = play(game, "leave Ben")
    assert "av.bank_unowned" in [e.key for e in events]
    assert game.s.bank_owner is None and game.snapshot()["bank"]["owner"] is None
    set_cash(game, "Cid", cash(game, "Cid") + bank(game))          # the bank runs dry again
    play(game, "roll 4", "card Cid", "card_receive Cid 100")
    assert prompt(game) == "prompt.av.bank_auction_open" and game.step.auction.bidders == [0, 2]


def test_the_bank_out_of_money_is_auctioned_from_2550():
    """"Dans ce cas la banque est mise aux enchères en partant du prix minimum de 2550.— (la
    moitié du capital engagé). L'adjudicataire devient alors aussi banquier, naturellement
    avec caisse strictement séparée" (AV12: it pays what it has, 2 550 exactly allowed)."""
    game = new_game()
    drain_bank(game)
    play(game, "roll 4", "card Ana")
    events = play(game, "card_receive Ana 1000")
    assert "bank_short" in [e.key for e in events] and prompt(game) == "prompt.av.bank_auction_open"
    assert game.decision().interaction.kind == "open_auction"
    refused(game, "bid Ben 2500", "error.auction_amount_grid")
    play(game, f"bid Ben {BANK_OPENING}", "sold")
    assert game.s.bank_owner == 1 and cash(game, "Ben") == 5100 - 2550 and cash(game, "Ana") == 6100
    assert bank(game) == 2550 - 1000 and game.decision().actor == seat(game, "Ben")
    assert game.fortune(1) == 2550 + (2550 - 1000) // 4


def test_a_loan_can_run_the_bank_dry_and_is_lent_in_full():
    """AV11: loans are "paid from the bank's cash (a loan can itself run the bank dry: AV12)"."""
    game = new_game()
    set_cash(game, "Ana", 0)
    drain_bank(game)
    play(game, "roll 3", "borrow Ana")
    assert prompt(game) == "prompt.av.bank_auction_open"
    play(game, "bid Cid 2600", "sold")
    assert game.s.loans.owed(0) == 1100 and cash(game, "Ana") == 1000 - game.title("31").r
    assert prompt(game) == "prompt.av.card"


def test_bank_unsold_continue_it_pays_and_shows_a_debt():
    """AV12: "Nobody bids: `bank_unsold = "continue"` (default: the bank pays and shows a debt, no owner)"."""
    game = new_game()
    drain_bank(game)
    play(game, "roll 4", "card Ana", "card_receive Ana 1000", "sold")
    assert cash(game, "Ana") == 6100 and bank(game) == -1000 and game.snapshot()["bank"]["debt"] == 1000
    assert game.s.bank_owner is None and total(game) == 4 * 5100
    play(game, "roll 1", "tax Ben")      # money comes back in
    assert bank(game) == -1000 + game.title("1").r


def test_bank_unsold_end_the_game_ends_now():
    game = new_game(bank_unsold="end")
    drain_bank(game)
    play(game, "roll 4", "card Ana", "card_receive Ana 1000", "sold")
    assert game.over and game.snapshot()["ending"] == "bank_unsold" and bank(game) == 0
    assert game.snapshot()["bank"]["unpaid"] == [["Ana", 1000]]


# ------------------------------------------------------------------ settlement (AV13)
def test_fortune_cash_half_pa_of_shops_establishments_nothing_and_shared_ranks():
    """"La fortune de chaque participant ... se compose du montant total de ses billets de
    banque et de la valeur de ses titres de propriété, ces derniers ne comptant que pour la
    moitié du prix d'achat indiqué. Les établissements confiés ne représentent donc pas de
    valeur"; "le banquier ne peut compter sa fortune en banque que pour 1/4 de sa valeur"."""
    game = new_game(mode="simple")
    give(game, "Ana", 1, 31)
    pa = game.title("1").pa
    assert game.fortune(0) == 5100 + pa // 2
    set_cash(game, "Ben", 5100 + pa // 2)
    place(game, "Ana", 57)
    play(game, "roll 4")
    ranking = game.snapshot()["ranking"]
    assert ranking[0]["rank"] == ranking[1]["rank"] == 1 and {r["name"] for r in ranking[:2]} == {"Ana", "Ben"}
    assert ranking[2] == {"rank": 3, "name": "Cid", "fortune": game.fortune(2)}


# ----------------------------------------------------------------- no board (AV15)
def test_without_a_board_each_square_is_read_once_and_each_value_when_a_turn_needs_it():
    """AV15: "Without a board the operator enters the colour, the title and the amounts at
    each landing": the title on a square the first time it is reached (the box remembers
    the square), the PA with the purchase that pays it, the R the first time it is paid."""
    game = new_game(board="none")
    play(game, "roll 2")
    assert prompt(game) == "prompt.av.square" and game.decision().params["likely"] == 2
    play(game, "square 7")
    assert prompt(game) == "prompt.av.blue_read" and kinds(game) == {"buy_at", "tax", "income", "learn_title"}
    refused(game, "buy_at Ana 5110", "error.av.buy_cash")          # more than her cash
    refused(game, "buy_at Ana 605", "error.field")                 # not in tens
    play(game, "buy_at Ana 600")
    assert owner(game, 7) == "Ana" and cash(game, "Ana") == 4500 and game.fortune(0) == 4800
    assert game.snapshot()["entered"] == {"7": ["shop", 600, None]} and game.snapshot()["read"] == {"2": [None, 7]}
    assert prompt(game) == "prompt.av.card"
    play(game, "card_none Ana", "roll 2")                          # Ben: square 2 is known, its R is not
    assert prompt(game) == "prompt.av.income"
    play(game, "income 60")
    assert cash(game, "Ben") == 5040 and cash(game, "Ana") == 4560 and prompt(game) == "prompt.av.card"
    play(game, "card_none Ben", "roll 2")                          # Cid: nothing left to read
    assert cash(game, "Cid") == 5040 and cash(game, "Ana") == 4620 and prompt(game) == "prompt.av.card"
    play(game, "card_none Cid", "roll 2")                          # Ana, square 4
    assert prompt(game) == "prompt.av.square"
    refused(game, "square 7", "error.av.title_square")             # title 7 is on square 2
    play(game, "square 0")
    assert prompt(game) == "prompt.av.colour" and kinds(game) == {"learn_colour"}
    play(game, "colour YELLOW")
    assert prompt(game) == "prompt.av.yellow"
    play(game, "no_card Ana")
    place(game, "Ben", 0)
    play(game, "roll 4")                                           # square 4 again: yellow, nothing asked
    assert prompt(game) == "prompt.av.yellow"


def test_without_a_board_a_tax_reads_r_and_a_red_square_reads_its_r():
    """AV9 read without a board: the tax pays the R read (the title is a shop, its PA read
    by whoever buys it later); an unread title's R paid to the bank makes it an
    establishment (a red square: "ne sont pas à vendre")."""
    game = new_game(board="none")
    play(game, "roll 1", "square 1", "tax Ana 70")
    assert cash(game, "Ana") == 5030 and bank(game) == 5170 and game.snapshot()["entered"]["1"] == ["shop", None, 70]
    play(game, "card_none Ana", "roll 1")                           # Ben on square 1: the PA is not read yet
    assert prompt(game) == "prompt.av.blue_read" and kinds(game) == {"buy_at", "tax", "learn_title"}
    assert game.decision().option("tax").fields["r"].value is None  # the R is known
    play(game, "buy_at Ben 550", "card_none Ben", "roll 3", "square 31")
    assert kinds(game) == {"buy_at", "tax", "income", "learn_title"}
    play(game, "income 150")
    assert cash(game, "Cid") == 4950 and game.kind_of("31") == "establishment" and owner(game, 31) is None
    refused(game, "card_grant Cid 1", "error.field")               # a shop is no establishment
    play(game, "card_grant Cid 31")
    assert owner(game, 31) == "Cid"


def test_without_a_board_a_title_granted_first_is_read_as_red_at_its_landing():
    game = new_game(board="none")
    play(game, "roll 2", "square 0", "colour YELLOW", "card Ana", "card_grant Ana 31")
    play(game, "roll 2")
    assert prompt(game) == "prompt.av.yellow"                      # square 2 is remembered
    place(game, "Ben", 0)
    play(game, "no_card Ben", "roll 3", "square 31")
    assert prompt(game) == "prompt.av.income"                      # an establishment: only its R is asked
    play(game, "income 150")
    assert cash(game, "Cid") == 4950 and cash(game, "Ana") == 5250
    refused(game, "set_title 31 300 150 \"misread\"", "error.av.set_title_held")


def test_without_a_board_the_title_question_starts_where_the_title_is_most_likely():
    """Where the title question starts (the decision's `likely`), presuming the shops are
    numbered in the order of their squares: from square 0, one more per unread square
    times the share of squares read that held a shop (one in two before any reading);
    between two shops read, interpolated; numbers read elsewhere and establishments
    skipped, the larger on a tie. Any number can still be entered."""
    game = new_game(board="none")
    place(game, "Ana", 5)
    play(game, "roll 1")
    assert game.decision().params["likely"] == 4                    # 1 + 5 x 1/2 = 3.5
    play(game, "square 1", "tax Ana 70", "card_none Ana")           # shop 1 on square 6
    place(game, "Ben", 15)
    play(game, "roll 1", "square 9", "tax Ben 70", "card_none Ben")  # shop 9 on square 16
    play(game, "roll 3")                                            # Cid, square 3
    assert game.decision().params["likely"] == 2                    # no number below shop 1: the nearest free one
    play(game, "square 31", "income 150", "card_none Cid")          # an establishment
    place(game, "Ana", 10)
    play(game, "roll 1")                                            # square 11, between shops 1 (6) and 9 (16)
    assert game.decision().params["likely"] == 5                    # 1 + 8 x 5 / 10 = 5
    play(game, "square 5", "tax Ana 80", "card_none Ana")
    place(game, "Ben", 20)
    play(game, "roll 1")                                            # square 21, after shop 9 on 16: 4 unread
    shops, read = 3, 4                                               # squares 3, 6, 11, 16 read; 3 held shops
    assert game.decision().params["likely"] == round(9 + 1 + 4 * (shops + 1) / (read + 2) + 0.001)


def test_without_a_board_what_was_read_is_corrected():
    """Every value read stays correctable: an undo, or later `forget_square` (the square
    is read again at the next landing) and `set_title` (a title's PA and R as printed)."""
    game = new_game(board="none")
    play(game, "roll 2", "square 7", "buy_at Ana 600", "card_none Ana")
    refused(game, 'forget_square 3 "misread"', "error.field")       # square 3 was never read
    play(game, 'forget_square 2 "it was title 8"')
    assert game.snapshot()["read"] == {} and owner(game, 7) == "Ana"
    play(game, "roll 2")
    assert prompt(game) == "prompt.av.square"
    play(game, "square 8", "tax Ben 90", "card_none Ben")
    play(game, 'set_title 7 650 70 "PA misread"')
    assert game.snapshot()["entered"]["7"] == ["shop", 650, 70] and game.fortune(0) == 4500 + 325
    refused(game, 'set_title 7 0 70 "an establishment?"', "error.av.set_title_held")
    play(game, 'adjust_cash Ana -50 "PA misread"')
    assert cash(game, "Ana") == 4450


def test_a_second_shortage_runs_a_new_auction_where_the_owner_may_bid():
    """AV12: "A second shortage runs a new auction (the owner may bid)"."""
    game = new_game()
    drain_bank(game)
    play(game, "roll 4", "card Ana", "card_receive Ana 1000", "bid Ben 2550", "sold")
    assert game.s.bank_owner == 1 and bank(game) == 1550
    play(game, "roll 4", "card Ben", "card_receive Ben 2000")
    assert prompt(game) == "prompt.av.bank_auction_open" and 1 in game.step.auction.bidders
    play(game, "bid Ana 2550", "bid Ben 2600", "sold")
    assert game.s.bank_owner == 1 and cash(game, "Ben") == 5100 - 2550 + 2000 - 2600
    assert bank(game) == 1550 - 1550 + 2600 - 450 and total(game) == 4 * 5100


def test_a_bank_in_debt_pays_on_then_auctions_again_once_its_debt_is_repaid():
    """Reading (docs/rules/avendre.md): while the bank shows the debt of an unsold auction,
    it pays on (the debt grows); once money coming in has repaid it, its cash is finite
    again and the next shortage runs a new auction."""
    game = new_game()
    drain_bank(game)
    play(game, "roll 4", "card Ana", "card_receive Ana 100", "sold")
    assert bank(game) == -100
    play(game, "roll 4", "card Ben", "card_receive Ben 100")
    assert bank(game) == -200 and game.decision().actor == seat(game, "Cid")
    play(game, "roll 4", "card Cid", "card_pay Cid 300")
    assert bank(game) == 100 and game.snapshot()["bank"]["debt"] == 0
    place(game, "Ana", 0)
    play(game, "roll 4", "card Ana", "card_receive Ana 500")
    assert prompt(game) == "prompt.av.bank_auction_open" and bank(game) == 0


def test_one_player_left_plays_on_to_60():
    """Reading: the rulebook ends the game only at square 60 (or, by setting, an unsold
    bank); a player left alone plays on, and is ranked before those who left."""
    game = new_game(players=("Ana", "Ben"), mode="simple")
    set_cash(game, "Ana", 0)
    play(game, "roll 4", "card Ana", "card_pay Ana 500", "leave Ana")
    assert not game.over and game.decision().actor == 1
    play(game, "roll 4", "no_card Ben")
    assert game.decision().actor == 1                     # Ben again
    place(game, "Ben", 57)
    play(game, "roll 4")
    assert game.over and game.snapshot()["winners"] == ["Ben"]
    assert [r["name"] for r in game.snapshot()["ranking"]] == ["Ben", "Ana"]


def test_a_player_who_left_ranks_after_a_player_in_debt():
    """AV11: leaving is "ranked last", even below a player whose loans exceed what he holds:
    the fortune of one who left counts as nothing, or as the lowest fortune still in."""
    game = new_game(mode="simple")
    set_cash(game, "Ana", 0)
    play(game, "roll 4", "card Ana", "card_pay Ana 500", "leave Ana")
    set_cash(game, "Ben", 0)
    play(game, "roll 4", "card Ben", "card_pay Ben 900", "borrow Ben")
    assert game.fortune(1) == 100 - 1100
    place(game, "Cid", 57)
    play(game, "roll 4")
    ranking = game.snapshot()["ranking"]
    assert [r["name"] for r in ranking] == ["Cid", "Ben", "Ana"] and [r["rank"] for r in ranking] == [1, 2, 3]
    assert ranking[2]["fortune"] == ranking[1]["fortune"] == -1000


def test_the_example_script_57_plus_4():
    """examples/avendre-60.txt: 57 + 4 stops at 60, waits, and the third title restarts."""
    from pathlib import Path
    from engines.core.errors import CorbeilleError
    from engines.core.files import read_text
    from firmware.script import run_script
    path = Path(__file__).resolve().parents[3] / "examples" / "avendre-60.txt"
    game = run_script(read_text(path, "script", CorbeilleError), "avendre-60.txt")
    assert pawn(game, "Ana") == 0 and game.s.trips[0] == 2 and cash(game, "Ana") == 7100 and bank(game) == 3100


def test_players_who_left_rank_last_the_last_to_leave_first():
    """AV11 "ranked last": every player still in ranks before those who left, whatever his
    fortune (a player in debt too); among those who left, the last to leave first. Their
    fortune is nothing, written as the lowest fortune still in when that is below 0, so
    the ranking stays in order of fortune (the game contract's ranking)."""
    game = new_game(players=("Ana", "Ben", "Cid", "Dan"), mode="simple")
    set_cash(game, "Ana", 0)
    play(game, "roll 4", "card Ana", "card_pay Ana 500", "leave Ana")
    set_cash(game, "Ben", 0)
    play(game, "roll 4", "card Ben", "card_pay Ben 500", "leave Ben")
    set_cash(game, "Cid", 0)
    play(game, "roll 4", "card Cid", "card_pay Cid 2900", "borrow Cid")   # 3 loans: 100 - 3 300
    place(game, "Dan", 57)
    play(game, "roll 4")
    ranking = game.snapshot()["ranking"]
    assert [(r["rank"], r["name"]) for r in ranking] == [(1, "Dan"), (2, "Cid"), (3, "Ben"), (4, "Ana")]
    assert [r["fortune"] for r in ranking] == [5100, -3200, -3200, -3200]
    assert game.snapshot()["players"][0]["fortune"] == 0 and game.snapshot()["players"][0]["out"]


def test_card_amounts_are_offered_from_10_to_5000_in_tens():
    """A decision no rule fixes (docs/rules/avendre.md): a card's amount is at most 5 000,
    about a starting cash (the deck's amounts are unverified); more is refused, naming
    what is allowed, and changes nothing."""
    game = new_game()
    play(game, "roll 4", "card Ana")
    error = refused(game, "card_pay Ana 5010", "error.field")
    assert "10 to 5,000 in steps of 10" in str(error)     # grouped as every amount is
    refused(game, "card_receive Ana 5", "error.field")
    play(game, "card_receive Ana 5000")
    assert cash(game, "Ana") == 10100 and bank(game) == 100


def test_card_move_lands_is_written_yes_or_no():
    """AV9's `card_move_lands` is a word, as every setting the configuration and `set`
    lines take: "true" is refused with what is allowed."""
    with pytest.raises(IllegalAction) as error:
        new_game(card_move_lands="true")
    assert "card_move_lands" in str(error.value) and "yes" in str(error.value) and "no" in str(error.value)
    assert new_game(card_move_lands="no").card_move_lands is False
