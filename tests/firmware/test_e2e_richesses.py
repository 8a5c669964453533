"""End to end: Richesses du Monde on simulated buttons, through the real loop, controller,
engine, journal and renderers (tests/e2e_box.py: MockFactory pins, a manual clock that
drives the 7-second silence, PNG displays). Games are set up by a script journaled as if
the box had played it before (the seeds' device dice are the engine's own), then played
on the buttons: a landing in two presses, a checklist purchase, an auction on the seat
buttons with raises and with no bid, a refused press, a joker, a free sale with an
overbid, a bankruptcy to the two-player end, and a power cut in the middle of a lot."""
import pytest

from e2e_box import E2EBox, journal_script
from firmware.script import run_script
from engines.core.deeds import STOCK
from engines.richesses.game import Richesses

HEAD = "game richesses\nplayers Ana Ben Cid\nseed 3\nplaques\nfirst Ana\n"
AUCTION = HEAD + """roll 1 2
buy Ana ARGENT-CANADA ALUMINIUM-CANADA
roll 2 3
done Ben
roll 3 3
set_pawn Ana 4 1 "a world tour"
roll 6 3
lots Ana ARGENT ALUMINIUM
"""


def until_anas_dice(script):
    """`script` with the other players' turns played (the dice 1 and 3, nothing bought)
    until Ana's dice come again."""
    while True:
        decision = run_script(script).decision()
        if decision.prompt == "prompt.rm.roll" and decision.params["player"] == "Ana":
            return script
        if decision.prompt == "prompt.rm.roll":
            script += "roll 1 3\n"
        else:
            script += f"done {decision.params['player']}\n"


def start(tmp_path, script, seats=3, dice="device"):
    journal_script(tmp_path, script)
    return E2EBox(tmp_path, seats=seats, extra={"game": {"dice": dice}})


def test_a_landing_without_purchase_takes_two_presses_and_a_purchase_is_a_checklist(tmp_path):
    """RM2, RM7: the dice confirmed with their outcome (royalties included), then "nothing"
    is where the menu starts; a purchase ticks titles and shows each one's price."""
    box = start(tmp_path, HEAD)
    assert box.screen.title == "Ana : dés"
    box.press("ok")                                     # the device's dice, confirmed
    game = box.game
    square = game.box.square(game.s.track.positions[0])
    assert square.kind == "country", square             # seed 3: Ana lands on a country
    assert box.screen.items[box.screen.selected].startswith("Rien")
    box.choose("Acheter")
    title = game.decision().option("buy").fields["titles"].values[0]
    info = game.box.titles[title]                      # its share of the production after purchase, its price
    name = game.box.productions[info.production].name  # the country's titles by their production's name
    assert box.screen.items[0] == f"[ ] {name} {info.percent}%\t{info.price:,} F".replace(",", " ")
    box.press("ok")                                     # tick the first title
    assert box.screen.items[0].startswith("[x]") and "Valider (1)" in box.items()
    box.choose("Valider")
    assert game.s.deeds.owner(title) == 0
    presses = 0
    assert box.screen.title == "Ben : dés"
    box.press("ok"); presses += 1                       # Ben's dice
    if box.screen.title.startswith("Ben"):
        box.press("ok"); presses += 1                   # "Rien" (or OK on a square with no choice)
    assert presses <= 2 and box.screen.title == "Cid : dés"


def test_an_auction_on_the_seat_buttons_with_the_7_second_clock(tmp_path):
    """RM9: a press bids the lowest amount accepted; 7 s from each accepted bid; "une fois,
    deux fois, trois fois" on the screen with a tick each, then "adjugé"; no bid: the bank
    buys at half price and the titles go back to the stock."""
    box = start(tmp_path, AUCTION)
    assert box.screen.title.startswith("Argent") and box.screen.title.endswith("\t7 s")   # the seconds left
    box.press("seat2")                                  # Ben: 1 750 000, half of 3 500 000
    assert box.screen.lines[0].startswith("1 750 000 par Ben")
    box.wait(2.0)
    assert box.screen.title.endswith("\t5 s")
    box.press("seat3")                                  # Cid raises by 100 000: the clock restarts
    assert box.screen.lines[0] == "1 850 000 par Cid" and box.screen.title.endswith("\t7 s")
    before = len(box.beeper.calls)
    box.wait(4.0)
    assert box.screen.lines[0].endswith("une fois")
    box.wait(1.0)
    assert box.screen.lines[0].endswith("deux fois")
    box.wait(1.0)
    assert box.screen.lines[0].endswith("trois fois")
    box.wait(1.0)
    assert box.beeper.calls[before:] == ["tick", "tick", "tick", "confirm"]
    game = box.game
    assert game.trusts(2) == ("ARGENT",) and game.log[-1].kind == "sold"
    # the second lot: nobody bids, the bank buys at half price; a press during the result of
    # the first lot is no bid
    assert box.screen.title.startswith("Aluminium")
    box.press("seat2")
    assert game.log[-1].kind == "sold"
    cash = game.cash(0)
    box.wait(7.1)
    assert game.cash(0) == cash + 1_500_000 and game.s.deeds.owner("ALUMINIUM-CANADA") == STOCK
    assert box.screen.title == "Ben : dés"


def test_a_press_above_the_bidders_cash_blinks_his_light_without_a_buzz(tmp_path):
    """RM9: "A refused press blinks that seat's light (no buzz, which the whole table would
    hear)"; nothing is applied and the clock runs on."""
    before = run_script(AUCTION.replace("roll 6 3\n", "").replace("lots Ana ARGENT ALUMINIUM\n", ""))
    poor = before.cash(2) - 1_000_000                   # Cid keeps 1 000 000, less than the opening
    box = start(tmp_path, AUCTION.replace("roll 6 3\n", f'adjust_cash Cid -{poor} "poor"\nroll 6 3\n'))
    game = box.game
    assert game.cash(2) < 1_750_000
    log, beeps = len(game.log), len(box.beeper.calls)
    box.wait(1.0)
    box.press("seat3")
    assert len(game.log) == log and box.beeper.calls[beeps:] == []
    assert ("blink", 3) in box.lights.calls
    assert box.screen.title.endswith("\t6 s")


def test_a_power_cut_mid_auction_resumes_the_lot_with_a_fresh_7_seconds(tmp_path):
    """RM9: "after a power cut the lot resumes with a fresh 7 s"."""
    box = start(tmp_path, AUCTION)
    box.press("seat2")
    box.wait(5.0)
    assert box.screen.lines[0].endswith("deux fois")
    box.close()                                        # the power goes
    again = E2EBox(tmp_path, seats=3, extra={"game": {"dice": "device"}})
    assert again.game.log[-1].kind == "bid" and again.game.snapshot()["auction"]["high_bidder"] == "Ben"
    # the box says it resumed, and the rule's clock runs at once, whole (no OK to wait for)
    assert again.screen.lines == (f"Partie reprise : action {len(again.game.log)}, tour d'Ana", "1 750 000 par Ben")
    assert again.screen.title.endswith("\t7 s")
    again.wait(7.1)
    assert again.game.trusts(1) == ("ARGENT",)
    again.close()


def test_a_joker_is_bought_then_played_on_an_auction_square(tmp_path):
    """"Pour 3.000.000 le joueur peut acheter une carte joker. Elle lui permet ... lorsqu'il
    tombe sur une case enchères ... d'être dispensé de mettre ses titres aux enchères.\""""
    script = HEAD + 'roll 1 2\nbuy Ana ARGENT-CANADA\nroll 2 3\ndone Ben\nroll 3 3\nset_pawn Ana 3 0 "joker"\n'
    box = start(tmp_path, script, dice="physical")
    box.choose("1").choose("4")                        # white 1, red 4: square 8, a joker square
    box.press("ok")                                    # the outcome confirmed
    assert box.screen.title == "Ana : joker ?"
    box.choose("Acheter un joker").choose("Oui")
    game = box.game
    assert game.s.jokers[0] == 1
    game_script = until_anas_dice(script + "roll 1 4\nbuy_joker Ana\n") + 'set_pawn Ana 4 1 "a world tour"\nroll 6 3\n'
    box.close()
    tmp = tmp_path / "joker"
    tmp.mkdir()
    box = start(tmp, game_script)
    assert box.screen.title == "Ana : enchères"
    box.choose("Jouer le joker").choose("Oui")
    assert box.game.s.jokers[0] == 0 and box.game.trusts(0) == ("ARGENT",)


def test_a_free_sale_with_an_overbid_on_the_seat_buttons(tmp_path):
    """RM12: the offer, 7 s for overbids of at least 100 000, then the seller accepts."""
    box = start(tmp_path, HEAD + "roll 1 2\nbuy Ana ARGENT-CANADA\n")
    assert box.screen.title == "Ben : dés"
    box.long("ok")                                     # the menu
    box.choose("Vente libre")
    box.choose("Ben")                                  # the buyer (the seller and his one trust: asked no question)
    box.press("ok")                                    # the amount proposed
    box.press("ok")                                    # confirmed
    game = box.game
    assert game.decision().prompt == "prompt.rm.sale_window"
    amount = game.decision().params["amount"]
    box.press("seat3")                                 # Cid overbids by 100 000
    assert game.snapshot()["sale"]["buyer"] == "Cid"
    box.wait(7.1)                                      # the overbids close
    assert game.decision().prompt == "prompt.rm.sale_accept"
    assert box.screen.title.endswith("\t7 s")       # the seller's 7 seconds
    box.wait(1.0)                                      # the window's result shown: presses ignored
    box.press("seat2")                                 # not the seller: his light blinks, nothing happens
    assert ("blink", 2) in box.lights.calls and game.decision().prompt == "prompt.rm.sale_accept"
    box.press("seat1")                                 # Ana accepts on her seat button
    assert game.trusts(2) == ("ARGENT",) and game.snapshot()["sale"] is None
    assert game.decision().prompt == "prompt.rm.roll" and game.log[-1].kind == "accept"
    assert amount + 100_000 == next(e for e in reversed(game.log) if e.kind == "overbid").amount


def test_a_bankruptcy_leaves_two_players_then_the_last_one_standing_wins(tmp_path):
    """RM11: cash only, the bank pays the creditor in full; two players left: auctions and
    jokers are rest squares; the last player standing wins."""
    game = Richesses({"game": "richesses", "players": ["Ana", "Ben", "Cid"], "seed": 3})
    squares = game.box.plaque_squares()
    items = [p for p in game.box.productions for _ in range(2)]
    i, j = squares.index(3), items.index("ARGENT")
    items[i], items[j] = items[j], items[i]                       # Canada carries ARGENT
    script = ("game richesses\nplayers Ana Ben Cid\nseed 3\nplaques " + " ".join(items) + "\nfirst Ana\n"
              "roll 1 2\nbuy Ana ARGENT-CANADA\n"
              'adjust_cash Ben -66000000 "poor"\n'
              'adjust_cash Cid -66000000 "poor"\n')
    box = start(tmp_path, script, dice="physical")
    assert box.screen.title == "Ben : dés"
    box.choose("1").choose("2")           # Ben lands on Canada: owes Ana 1 000 000
    box.press("ok")
    game = box.game
    assert game.s.out == [1] and game.cash(0) > 66_600_000 - 3_500_000 + 999_999
    # two players face to face: the joker square (8) is a rest square ("les cases enchères
    # et joker deviennent alors cases de repos")
    assert box.screen.title == "Cid : dés"
    box.choose("3").choose("5").press("ok")             # Cid: square 8, a joker square
    assert box.screen.title == "Ana : dés" and game.log[-1].kind == "roll"
    assert "case de repos à deux joueurs" in " ".join(box.screen.lines)
    box.choose("1").choose("4").press("ok")             # Ana: 3 + 5 = square 8 too
    assert box.screen.title == "Cid : dés" and game.s.jokers == [0, 0, 0]
    box.choose("1").choose("1")                         # a double 1 costs 1 000 000; Cid has 600 000
    box.press("ok")
    assert game.over and [seat for _, seat, _ in game.ranking()] == [0, 2, 1]
    assert "Ana" in box.screen.title


def test_an_offer_the_seller_does_not_accept_in_7_seconds_lapses(tmp_path):
    """RM12: "the seller has 7 s to accept the best offer on the seat button, else it lapses"."""
    box = start(tmp_path, HEAD + "roll 1 2\nbuy Ana ARGENT-CANADA\noffer Ana ARGENT Ben 1000000\nclose_offer\n")
    game = box.game
    assert game.decision().prompt == "prompt.rm.sale_accept"
    box.wait(7.1)
    assert game.log[-1].kind == "lapse" and game.trusts(0) == ("ARGENT",)
    assert box.screen.title == "Ben : dés"


def test_the_operator_enters_a_larger_raise_and_the_clock_holds_meanwhile(tmp_path):
    """RM9: "while the operator enters a larger raise for a seat the clock holds and restarts
    at 7 s when the raise is entered"."""
    box = start(tmp_path, AUCTION)
    box.press("seat2")                                  # Ben: 1 750 000
    box.press("ok")                                     # the operator's list
    box.choose("Autre montant")                        # Cid, the only one who may raise: asked no question
    assert box.screen.items == ("1 850 000 F",)          # francs, as the rulebook writes them
    box.wait(10.0)                                      # the clock holds while he enters it
    assert box.game.log[-1].kind == "bid"
    for _ in range(4):
        box.press("up")                                 # + 4 x 100 000
    box.press("ok")
    game = box.game
    assert game.log[-1] == game.ACTIONS.parse("bid Cid 2250000", game.players)
    assert box.screen.lines[0] == "2 250 000 par Cid" and box.screen.title.endswith("\t7 s")


def test_the_board_shows_the_lot_the_bid_the_leader_and_the_seconds_left(tmp_path):
    """The case: "the remaining seconds ... on a board that can redraw every second (an e-ink
    board shows the lot, the bid and the leader)"; never any cash."""
    from drivers.display import PngDisplay
    from firmware.games.richesses import render_board
    from firmware.render import clock_strip
    journal_script(tmp_path, AUCTION)
    board = PngDisplay((128, 64), "1", name="board", keep=5)
    box = E2EBox(tmp_path, seats=3, board=board, extra={"game": {"dice": "device"}})
    box.press("seat2")
    box.wait(3.0)
    line = box.app.controller.seat_clock.board_line(True)          # the lot, the leader, the seconds left
    assert line.endswith("\t4 s") and "Ben" in line
    snap = box.game.public(box.game.snapshot())
    assert clock_strip(render_board(snap, box=box.game.box), line).tobytes() == board.last_frame.tobytes()
    assert "\t" not in box.app.controller.seat_clock.board_line(False)   # the e-ink board: no seconds
    assert all("cash" not in p for p in snap["players"])
    box.close()


def test_a_long_seat_press_shows_the_private_view_cash_and_what_each_trust_earns(tmp_path):
    """The case: "the private view (cash, what each title would earn now) on a long seat press"."""
    box = start(tmp_path, HEAD + "roll 1 2\nbuy Ana ARGENT-CANADA ALUMINIUM-CANADA\n")
    box.press("seat1", hold=1.1)
    screen = box.screen
    assert screen.title == "Ana (privé)"
    assert screen.lines[0].endswith("60 100 000 F")    # 66 600 000 - 3 500 000 - 3 000 000
    assert "Aluminium 30%\t900 000 F" in screen.lines and "Argent 35%\t1 000 000 F" in screen.lines


@pytest.mark.parametrize("size", [(128, 64), (296, 128), (800, 480)])
def test_the_plaques_to_lay_are_listed_on_the_public_board_page_by_page(size):
    """RM13: the device's placement is "listed on the public board for the table to place
    them": every plaque on one page or another, whatever the board's size."""
    from firmware.games.richesses import RichessesUI, plaque_rows
    game = run_script("game richesses\nplayers Ana Ben Cid\nseed 3\nplaques\n")
    plaques = game.public(game.snapshot())["plaques"]
    pages = RichessesUI().board_pages(game.box, size)
    name = game.box.production_name
    shown = [row for page in range(pages) for row in plaque_rows(plaques, size, page, name)]
    laid = [f"{sq} {name(p)[:6]}" for sq, p in plaques.items()]   # each square, its production's name cut to fit
    assert " ".join(shown).split() == " ".join(laid).split() and len(laid) == 48


def test_the_landing_screen_shows_the_dice_and_what_the_500_000_square_credits(tmp_path):
    """"il reçoit de la banque autant de fois 500.000 F qu'il a tiré de points": the dice
    and the 5 500 000 of an 11 are on the screen before OK."""
    box = start(tmp_path, HEAD + 'set_pawn Ana 8 0 "joker square"\n', dice="physical")
    box.choose("5").choose("6")                              # white 5, red 6: square 19
    assert box.game.box.square(19).kind == "bonus"
    assert box.screen.lines[:3] == ("Ana : dé blanc 5, dé rouge 6 (11)", "Ana arrive sur la case 19 : « 500 000 »",
                                    "Ana reçoit 5 500 000 F : 500 000 F × 11")
    cash = box.game.cash(0)
    box.press("ok")
    assert box.game.cash(0) == cash + 5_500_000


def test_a_lapsed_free_sale_and_a_correction_keep_the_dice_the_box_showed(tmp_path):
    """The box's dice are on the screen before OK: a free sale from the menu that lapses, or
    a correction, before the table confirms them leaves them as shown (rolled again, the
    pawn would land somewhere else than the table saw)."""
    box = start(tmp_path, HEAD + "roll 1 2\nbuy Ana ARGENT-CANADA\n")
    assert box.screen.title == "Ben : dés"
    resumed, *shown = box.screen.lines                      # the journal's game taken up: said once
    shown = tuple(shown)
    assert resumed.startswith("Partie reprise") and shown[0].startswith("Ben : dé blanc ")   # the dice, where they lead
    box.long("ok").choose("Vente libre").choose("Ben")
    box.press("ok").press("ok")                             # the amount proposed, confirmed
    box.wait(7.1).wait(7.1)                                 # no overbid, and Ana does not accept
    game = box.game
    assert game.log[-1].kind == "lapse" and box.screen.title == "Ben : dés"
    assert box.screen.lines == shown
    box.long("ok").choose("Corrections").choose("Corriger l'argent").choose("Cid")
    box.press("ok").choose("Oui")                           # +100 000 for Cid
    assert game.log[-1].kind == "adjust_cash" and box.screen.lines == shown
    box.press("ok")
    roll = game.log[-1]
    assert roll.kind == "roll" and shown[0].startswith(f"Ben : dé blanc {roll.white}, dé rouge {roll.red} ")


def test_a_joker_is_bought_only_on_purpose(tmp_path):
    """3 000 000 is not spent by one OK: the joker's menu starts on "Rien", and buying one
    asks for a confirmation."""
    script = HEAD + 'roll 1 2\nbuy Ana ARGENT-CANADA\nroll 2 3\ndone Ben\nroll 3 3\nset_pawn Ana 3 0 "joker"\n'
    box = start(tmp_path, script, dice="physical")
    box.choose("1").choose("4").press("ok")              # square 8, a joker square
    assert box.screen.title == "Ana : joker ?" and box.items()[box.screen.selected] == "Rien"
    box.choose("Acheter un joker")
    game = box.game
    assert game.s.jokers[0] == 0 and box.screen.kind == "confirm"
    assert box.screen.lines == ("Ana achète un joker (3 000 000 F)",)
    box.choose("Oui")
    assert game.s.jokers[0] == 1 and game.log[-1].kind == "buy_joker"


def test_a_free_sale_offers_only_the_trusts_the_seller_holds(tmp_path):
    """RM12: "the seller's whole trust": once the seller is chosen, the list holds his
    productions only (not those every seller holds)."""
    ben = run_script(HEAD + "roll 1 2\nbuy Ana ARGENT-CANADA ALUMINIUM-CANADA\nroll 2 3\n")
    title = ben.decision().option("buy").fields["titles"].values[0]
    box = start(tmp_path, HEAD + f"roll 1 2\nbuy Ana ARGENT-CANADA ALUMINIUM-CANADA\nroll 2 3\nbuy Ben {title}\n")
    game = box.game
    assert game.trusts(0) == ("ALUMINIUM", "ARGENT") and len(game.trusts(1)) == 1
    box.long("ok").choose("Vente libre").choose("Ben")     # Ben sells
    assert box.items() == [game.box.production_name(game.trusts(1)[0])]
    box.press("back").choose("Ana")
    assert box.items() == ["Aluminium", "Argent"]
    box.press("back").press("back").press("back")           # out of the sale
    box.long("ok").choose("Échange").choose("Ana").choose("Argent").choose("Ben")
    assert box.screen.lines == ("Trust de Ben en échange ?",)
    assert box.items() == [game.box.production_name(game.trusts(1)[0])]


def test_correcting_a_pawn_asks_its_square_by_name_then_its_world_tours(tmp_path):
    """"Corriger un pion": the square by ones and tens from where the pawn is, each number
    with its square's name, then the world tours; no money field, no raw key."""
    box = start(tmp_path, HEAD)
    box.long("ok").choose("Corrections").choose("Corriger un pion").choose("Ben")
    screen = box.screen
    assert screen.title == "Corriger un pion" and screen.lines[0] == "Case du pion de Ben ?"
    assert screen.items == ("0 : flèche « départ »",)
    box.long("up").press("up")                              # steps of ten: 10
    assert box.screen.items == ("10 : « 500 000 »",)
    box.long("down")
    for _ in range(9):
        box.press("up")
    assert box.screen.items == ("19 : « 500 000 »",)
    box.press("ok")
    assert box.screen.lines[0] == "Tours du monde de Ben ?" and box.screen.items == ("0",)
    box.press("up").press("ok")
    texts = " ".join(box.screen.lines)
    assert "ui." not in texts and box.screen.kind == "confirm"
    box.choose("Oui")
    game = box.game
    assert game.s.track.positions[1] == 19 and game.s.track.laps[1] == 1


def test_a_cash_correction_during_an_auction_withdraws_a_bid_and_leaves_the_7_second_clock_running(tmp_path):
    """RM9, "nothing pauses it": a correction during an auction is not a bid. The menu opened
    for it does not hold the clock, a bid its bidder can no longer pay is withdrawn (the
    previous bid stands) and the seconds run on from where they were."""
    box = start(tmp_path, AUCTION)
    box.press("seat2")                                  # Ben: 1 750 000
    box.press("seat3")                                  # Cid: 1 850 000
    box.wait(1.0)
    box.long("ok")                                      # the menu: the clock runs on
    assert box.screen.title == "Menu"
    box.wait(1.0)
    box.press("back")
    left = box.screen.title.split("\t")[1]
    assert left in ("4 s", "5 s")                       # 7 s less the second, the menu and the long press
    game = box.game
    reply = box.c.console(f'adjust_cash Cid -{game.cash(2) - 1_800_000} "a note counted twice"')
    assert "error" not in reply.lower(), reply
    assert game.log[-1].kind == "adjust_cash"
    assert box.screen.lines[0].startswith("1 750 000 par Ben") and box.screen.title.endswith("\t" + left)
    box.wait(int(left[0]) + 0.2)
    assert game.log[-1].kind == "sold" and game.trusts(1) == ("ARGENT",)
