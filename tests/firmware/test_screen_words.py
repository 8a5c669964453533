"""What the box showed in raw keys, protocol words, English or bare numbers on French
screens, each case said in words now (the whole box under random play, tests/firmware/test_box_play.py,
checks every frame; these pin the cases found by a person at the table):

* A Vendre!: a confirmation's money lines ("Bleu -> bank 900"), the lists asking a number
  of squares or a square ("squares", "square"), a title in the history as a bare number
  ("met 3 aux enchères", "reçoit 32");
* Richesses du Monde: the free sale's list titled by its field ("production"), the trusts
  by their ids;
* Shark: the companies RED, GREEN... beside players named Rouge, Vert; a placement in the
  history as "place en 5, 4" where the screen said "E6";
* Maxi Bourse: "Rouge demande 0 lot" where a player passes.
"""
import pytest

from avendre_helpers import give, new_game as av_game, play
from maxibourse_helpers import started
from engines.core.errors import IllegalAction
from engines.core.i18n import money
from firmware.controller import Controller
from firmware.menus import chance_lines, describe, resolve
from firmware.script import run_script
from firmware.session import Session


def controller(game, lang="fr"):
    c = Controller(None, lang=lang, seat_buttons=range(len(game.players)))
    c.attach(Session(game))
    return c


def question(c, kind, **values):
    """The first question of an entry of `kind` with `values` answered."""
    option = c.session.decision().option(kind)
    return resolve(c.kit.ctx, kind, option, values)[1]


def test_a_vendre_says_who_pays_whom_in_words_and_in_its_money():
    game = av_game()
    play(game, "roll 2")                                 # Ana on square 2: a blue shop
    c = controller(game)
    buy = game.ACTIONS.parse("buy Ana", game.players)
    lines = chance_lines(c.kit.ctx, buy)
    pa = game.title(game.box.square(2).title).pa
    assert lines[1] == f"Ana → Banque\t{money(pa, 'fr', 'av')}" and "bank" not in " ".join(lines)


def test_a_vendre_asks_a_number_of_squares_and_a_square_in_words():
    game = av_game()
    play(game, "roll 4", "card Ana")                     # a yellow square: the card's effect is entered
    c = controller(game)
    assert question(c, "card_back").lines == ("De combien de cases ?",)        # not "squares"
    assert question(c, "card_green").lines == ("Quelle case ?",)               # not "square"


def test_a_vendre_names_titles_in_the_history_never_as_bare_numbers():
    game = av_game()
    give(game, "Ana", 3)
    c = controller(game)
    name = game.title_label("3")
    auction = game.ACTIONS.parse("auction_shop Ana 3", game.players)
    grant = game.ACTIONS.parse("card_grant Ana 32", game.players)
    assert describe(c.kit.ctx, auction) == f"Ana met {name} aux enchères"
    assert describe(c.kit.ctx, grant) == f"Ana reçoit {game.title_label('32')}"
    board = av_game(board="none")
    assert describe(controller(board).kit.ctx, auction) == "Ana met titre 3 aux enchères"


def test_shark_names_its_companies_by_colour_and_a_placement_by_its_cell():
    game = run_script("game shark\nplayers J1 J2 J3\nseed 1\ndeal RED GREEN BLUE\nfirst J1\n")
    c = controller(game)
    assert describe(c.kit.ctx, game.ACTIONS.parse("buy J1 RED 2", game.players)) == "J1 achète 2 actions Rouge"
    assert describe(c.kit.ctx, game.ACTIONS.parse("place J1 E6", game.players)) == "J1 place en E6"   # not "5, 4"
    colours = question(c, "roll", zone=3).items
    assert [label for label, _ in colours][:4] == ["rouge", "jaune", "vert", "bleu"]      # the die's faces
    deal = describe(c.kit.ctx, game.log[0])
    assert deal == "Actions de départ : Rouge, Vert, Bleu" and "RED" not in deal


def test_richesses_offers_a_trust_by_its_name_under_a_question():
    game = run_script("game richesses\nplayers Ana Ben Cid\nseed 3\nplaques\nfirst Ana\nroll 1 2\n"
                      "buy Ana ARGENT-CANADA ALUMINIUM-CANADA\n")
    asked = question(controller(game), "offer", seller=0)
    assert asked.lines == ("Quel trust ?",) and [label for label, _ in asked.items] == ["Aluminium", "Argent"]


def test_maxi_bourse_says_a_pass_as_a_pass():
    game = started(["Ana", "Ben"])
    play(game, "roll 1 2", "titre BP TDK", "declare Ana 2")
    events = game.apply(game.ACTIONS.parse("declare Ben 0", game.players))       # au mieux: Ben passes
    said = [e.text("fr") for e in events]
    assert "Ben passe" in said and not any("demande 0" in line for line in said)


def test_a_refusal_writes_its_amounts_alike_in_its_own_language():
    """"One line mixes 2,650,000 and 2700000": the refused value and the range allowed come
    through the one formatter, in the language the refusal is read in."""
    game = av_game()
    with pytest.raises(IllegalAction) as refused:
        game.apply(game.ACTIONS.parse('adjust_cash Ana +2650000 "miscount"', game.players))
    assert "2,650,000 is not allowed; allowed: -1,000,000 to 1,000,000" in str(refused.value)
    said = refused.value.message("fr")
    assert "2 650 000 refusé" in said and "par pas de" in said and "steps" not in said


def test_the_boxs_own_reason_of_a_correction_reads_in_the_language_now():
    """A correction entered in English records "correction on the box" as its reason; the
    history read in French says "correction au boîtier" (what make fuzz found, PINNED)."""
    game = run_script('game shark\nplayers J1 J2\nseed 1\nadjust_cash J1 +1000 "correction on the box"\n'
                      'adjust_cash J2 +1000 "miscount"\n')
    c = controller(game)
    assert describe(c.kit.ctx, game.log[-2]) == "J1 : argent +1 000 FT (correction au boîtier)"
    assert describe(c.kit.ctx, game.log[-1]) == "J2 : argent +1 000 FT (miscount)"     # one typed by someone: as typed


def test_a_refusal_on_screen_follows_a_language_switch_made_over_it():
    """A refusal said in English, the menu opened over it and French chosen: the refusal then
    reads in French (what make fuzz found, PINNED), as every other text of the screen."""
    game = av_game()
    c = controller(game, "en")
    assert not c.apply(game.ACTIONS.parse('adjust_cash Ana +2650000 "miscount"', game.players))
    assert c.screen().lines[0].startswith("adjust_cash: delta = 2,650,000 is not allowed")
    c.set_lang("fr")
    assert c.screen().lines[0].startswith("adjust_cash : variation = 2 650 000 refusé")
