"""End to end, Richesses du Monde's two table modes on simulated buttons (tests/e2e_box.py,
a manual clock):

* a box file without the square order (RM8): the operator says where each pawn landed (a
  continent then its country, or a special square), the plaque only when it would cost
  the lander royalties, and once per player whether his pawn has passed the start arrow,
  after which the auction square works;
* `strict_claims` (RM2, "Les droits sont à réclamer aussitôt le pion posé sur la case"):
  a holder's seat press claims his royalties; a claim before 7 seconds of silence is paid,
  one after is not."""
from e2e_box import E2EBox, journal_script
from engines.richesses.box import DEFAULT_BOX
from engines.richesses.game import Richesses
from firmware.menus import describe


def no_order_box(tmp_path):
    """The shipped box file with its [[squares]] left out."""
    path = tmp_path / "noorder.toml"
    path.write_text(DEFAULT_BOX.read_text(encoding="utf-8").partition("[[squares]]")[0], encoding="utf-8")
    return path


def start(tmp_path, script, dice="device"):
    journal_script(tmp_path, script)
    return E2EBox(tmp_path, seats=3, extra={"game": {"dice": dice}})


def test_without_the_square_order_the_operator_says_where_the_pawn_landed(tmp_path):
    """RM8: "else the operator answers": a country landing is the dice, the continent, the
    country (the plaque only when the lander owes royalties on one) and the square's menu;
    the plaque said once is offered first the next time on that square."""
    path = no_order_box(tmp_path)
    box = start(tmp_path, f"game richesses\nbox {path}\nplayers Ana Ben Cid\nseed 3\nfirst Ana\n")
    game = box.game
    assert not game.box.ordered and box.screen.title == "Ana : dés"
    box.press("ok")                                     # the device's dice
    assert box.screen.title == "Ana : case ?" and box.screen.lines[-1] == "Où est le pion ?"
    assert box.items()[:2] == ["Amérique", "États-Unis"] and "Enchères" in box.items()
    box.choose("Amérique").choose("Canada")             # nobody holds 30 % of anything: no plaque asked
    assert box.screen.title == "Ana : Canada" and game.log[-1] == game.ACTIONS.parse("land Ana CANADA", game.players)
    assert describe(box.c.kit.ctx, game.log[-1]) == "Ana sur Canada"   # the history's line: no plaque, no gap
    box.choose("Acheter").press("ok").choose("Valider")  # the first title in stock in Canada
    bought = game.s.deeds.owned_by(0)
    assert len(bought) == 1 and bought[0].endswith("-CANADA")
    production = game.box.titles[bought[0]].production
    assert game.share(0, production) >= 30             # Ana is owed royalties on that plaque now
    # Ben lands on Canada too: the plaque is asked, among the productions that would cost him
    box.press("ok")
    box.choose("Amérique").choose("Canada")
    assert box.screen.lines[-1] == "Plaquette de la case ?"
    assert box.items() == [game.box.productions[production].name, "Une autre (rien à payer)"]
    cash = game.cash(0)
    box.press("ok")
    owed = game.box.productions[production].royalty(game.share(0, production))
    assert game.cash(0) == cash + owed and game.s.plaques == {"CANADA": production}


def test_without_the_square_order_the_world_tour_is_answered_once_per_player(tmp_path):
    """RM8: "the operator answers once per player": asked when the auction square would do
    something for a player the box knows of no tour; after the yes the auction works and
    the question never comes again for him."""
    path = no_order_box(tmp_path)
    script = (f"game richesses\nbox {path}\nplayers Ana Ben Cid\nseed 3\nfirst Ana\n"
              "roll 1 2\nland Ana CANADA\nbuy Ana ARGENT-CANADA ALUMINIUM-CANADA\n"
              "roll 2 3\nland Ben NEWS\ndone Ben\nroll 1 3\nland Cid BONUS\n")
    box = start(tmp_path, script, dice="physical")
    game = box.game
    assert box.screen.title == "Ana : dés"
    box.choose("6").choose("1").press("ok")            # white 6, red 1
    box.choose("Enchères")
    assert box.screen.title == "Ana : tour fait ?" and box.items()[:2] == ["Oui, tour du monde", "Pas encore"]
    box.choose("Oui")
    assert game.s.track.laps[0] == 1 and box.screen.title == "Ana : enchères"
    box.press("ok").choose("Valider")                   # one trust reaches the red 1: the first, ALUMINIUM
    assert game.decision().prompt == "prompt.rm.auction_open"
    box.press("seat2")                                  # Ben bids the opening
    box.wait(7.1)                                       # 7 s of silence sell it
    assert game.trusts(1) == ("ALUMINIUM",)
    # Ben's turn, then Cid's, then Ana lands on an auction square again: no question now
    for player in ("Ben", "Cid"):
        assert box.screen.title == f"{player} : dés"
        box.choose("1").choose("2").press("ok").choose("Actualité").choose("Rien")
    assert box.screen.title == "Ana : dés"
    box.choose("6").choose("1").press("ok")
    box.choose("Enchères")
    assert box.screen.title == "Ana : enchères" and game.decision().prompt == "prompt.rm.lots"
    assert [a.kind for a in game.log].count("tour") == 1


def strict_script():
    """Ana holds 35 % of silver; Canada (square 3) carries the silver plaque; claims are strict."""
    game = Richesses({"game": "richesses", "players": ["Ana", "Ben", "Cid"], "seed": 3})
    squares = game.box.plaque_squares()
    items = [p for p in game.box.productions for _ in range(2)]
    i, j = squares.index(3), items.index("ARGENT")
    items[i], items[j] = items[j], items[i]
    return ("game richesses\nplayers Ana Ben Cid\nseed 3\nset strict_claims true\nplaques " + " ".join(items)
            + "\nfirst Ana\nroll 1 2\nbuy Ana ARGENT-CANADA\n")


def land_ben_on_canada(tmp_path):
    box = start(tmp_path, strict_script(), dice="physical")
    box.choose("1").choose("2").press("ok")             # Ben: 1 and 2, square 3, Canada
    game = box.game
    assert game.decision().prompt == "prompt.rm.claims"
    assert box.screen.title == "Royalties Argent\t7 s" and box.screen.items == ("Ana\t1 000 000 F",)
    return box, game, game.cash(0), game.cash(1)


def test_strict_claims_a_claim_inside_the_7_seconds_is_paid(tmp_path):
    """RM2 strict_claims on, one side of the window: Ana presses after 6.8 s of silence."""
    box, game, ana, ben = land_ben_on_canada(tmp_path)
    box.wait(6.8)
    assert game.decision().prompt == "prompt.rm.claims"
    box.press("seat1")
    assert game.log[-1] == game.ACTIONS.parse("claim Ana 1000000", game.players)
    assert game.cash(0) == ana + 1_000_000 and game.cash(1) == ben - 1_000_000
    assert box.screen.title == "Ben : Canada"


def test_strict_claims_a_claim_after_7_seconds_is_lost(tmp_path):
    """RM2 strict_claims on, the other side: "Passé ce délai, les joueurs perdent le
    bénéfice de leur pourcentage": after 7 s without a claim the time is over, Ana's late
    press claims nothing and Ben pays nothing."""
    box, game, ana, ben = land_ben_on_canada(tmp_path)
    box.wait(7.1)
    assert game.log[-1].kind == "close_claims" and game.decision().prompt == "prompt.rm.buy"
    box.press("seat1")
    assert game.log[-1].kind == "close_claims"
    assert game.cash(0) == ana and game.cash(1) == ben
    assert box.screen.title == "Ben : Canada"


def test_strict_claims_the_operator_claims_for_a_seat_without_a_button(tmp_path):
    """RM2 strict_claims: a seat without a button claims through the operator's list."""
    journal_script(tmp_path, strict_script())
    box = E2EBox(tmp_path, seats=2, extra={"game": {"dice": "physical"}})   # Cid has no button
    box.choose("1").choose("2").press("ok")
    game = box.game
    ana = game.cash(0)
    box.press("ok")                                     # the operator's list
    box.choose("Ana : 1 000 000")
    assert game.log[-1].kind == "claim" and game.cash(0) == ana + 1_000_000


def test_without_the_square_order_the_plaque_said_before_on_that_square_comes_first(tmp_path):
    """RM8: the plaque is asked among the productions the lander would owe royalties on,
    the one said before on the same square first, "another" last."""
    path = no_order_box(tmp_path)
    script = (f"game richesses\nbox {path}\nplayers Ana Ben Cid\nseed 3\nfirst Ana\n"
              "roll 1 2\nland Ana NEWS\ndone Ana\n"
              "roll 1 2\nland Ben CANADA\nbuy Ben ALUMINIUM-CANADA\n"            # Ben: aluminium 30 %
              "roll 1 2\nland Cid CANADA ARGENT\nbuy Cid ARGENT-CANADA\n")       # Cid: silver 35 %
    box = start(tmp_path, script)
    box.press("ok")                                     # Ana's dice
    box.choose("Amérique").choose("Canada")
    assert box.items() == ["Argent", "Aluminium", "Une autre (rien à payer)"]
    cash = box.game.cash(2)
    box.press("ok")                                     # silver, the plaque said there before
    assert box.game.log[-1] == box.game.ACTIONS.parse("land Ana CANADA ARGENT", box.game.players)
    assert describe(box.c.kit.ctx, box.game.log[-1]) == "Ana sur Canada Argent"   # as the box file prints them
    assert box.game.cash(2) == cash + 1_000_000


def test_a_new_game_with_every_default_lays_the_plaques_on_one_confirmation(tmp_path):
    """RM13: the device draws the plaques whatever the dice setting (the players' own dice
    by default): from the setup screen, every default, the placement is one confirmation
    and the game asks who starts."""
    box = E2EBox(tmp_path, seats=3)
    assert box.screen.title == "Nouvelle partie"
    box.choose("Richesses du Monde").choose("3 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
    assert box.screen.title == "Plaquettes"
    box.press("ok")
    assert box.screen.title == "Qui commence ?"
    plaques = box.game.s.plaques
    assert len(plaques) == 48 and all(list(plaques.values()).count(p) == 2 for p in plaques.values())
