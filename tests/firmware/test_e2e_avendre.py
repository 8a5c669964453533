"""End to end: a 3-player A Vendre! double game played on simulated buttons, from the
setup screens to the settlement, through the real loop, controller, engine, journal and
renderers (tests/e2e_box.py): a lottery card that leaves the bank short, the bank
auctioned on the seat buttons (a press raises, the configured silence sells), a card a
player cannot pay (his shop auctioned, then a loan), both trips of the double game, and
the ranking. A power cut in the middle of a shop auction and of a bank auction is
tests/journal/test_avendre_powercut.py (the real process killed)."""
import pytest

from e2e_box import E2EBox
from engines.avendre.game import AVendre
from engines.avendre.steps import BankAuction, ShopAuction
from engines.core.i18n import format_amount
from engines.core.ledger import BANK

SILENCE = 2          # the game's own auction_silence_s (AV11), set short for the tests
EXTRA = {"game": {"dice": "device", "auction_silence_s": SILENCE}, "timing": {"silence_s": 0.5}}


@pytest.fixture
def box(tmp_path):
    b = E2EBox(tmp_path, seats=3, extra=EXTRA)
    yield b
    b.close()


def start(box):
    box.choose("À vendre !").choose("3 joueurs").choose("Couleurs")
    assert box.screen.lines == ("Plateau et titres non vérifiés",)   # its box file: a board and titles
    box.choose("Continuer")
    assert box.screen.lines[0] == "À vendre !, 3 joueurs"
    box.choose("Jouer")
    assert box.screen.title == "Qui commence ?"
    box.press("ok")                              # the device's dice name who starts
    return box.game


def amount(box, value):
    """Enter a money amount: steps of 100 from 100, a long press for steps of 1 000."""
    box.long("up")                               # steps of 1 000
    thousands, rest = divmod(value, 1000)
    for _ in range(thousands):
        box.press("up")
    box.long("down")                             # back to steps of 100
    box.press("down")                            # 100 less (the start was 100)
    for _ in range(rest // 100 + 1):
        box.press("up")
    box.press("ok")


def card(box, game, label):
    box.choose(label)


def test_a_double_game_from_setup_to_the_settlement(box):
    game = start(box)
    assert isinstance(game, AVendre) and game.double
    seen, steps = set(), 0
    lottery_done = debt_done = False
    while not box.c.session.over:
        steps += 1
        assert steps < 3000, box.screen
        screen, frame, decision = box.screen, box.c.stack[-1], game.decision()
        prompt = decision.prompt
        seen.add(prompt)
        seat = decision.actor
        if screen.kind == "error":
            pytest.fail(f"the engine refused: {screen.lines}")
        if screen.kind == "confirm":                             # a single choice, confirmed
            box.press("ok")
        elif frame["t"] == "chance":                             # the device's die, shown: OK
            assert screen.lines[0].startswith("Dé : ") and not game.s.waiting[seat]   # AV14: no die at 60
            box.press("ok")
            assert game.log[-1].kind == "roll"
        elif frame["t"] == "open_auction" and isinstance(game.step, BankAuction):
            # The bank's till cannot pay: it is auctioned from 2 550 on the seat buttons.
            assert game.step.auction.minimum == 2550
            bidders = [s for s in range(3) if game.cash(s) >= 2600]
            box.press(f"seat{bidders[0] + 1}")
            assert game.step.auction.high == 2550
            if len(bidders) > 1:
                box.press(f"seat{bidders[1] + 1}")
                assert game.step.auction.high == 2600
            buyer, price = game.step.auction.high_bidder, game.step.auction.high
            box.wait(SILENCE + 0.2)
            assert game.s.bank_owner == buyer and game.log[-1].kind == "sold"
            seen.add(("bank_sold", price))
        elif frame["t"] == "open_auction":
            assert isinstance(game.step, ShopAuction)
            half = game.half_pa(game.step.title)
            title = game.step.title
            bidders = [s for s in game.step.auction.bidders if game.cash(s) >= half + 50]
            if bidders:
                box.press(f"seat{bidders[0] + 1}")              # the first bid exceeds half PA
                assert game.step.auction.high == half + 50
            box.wait(SILENCE + 0.2)
            assert game.owner(title) == (bidders[0] if bidders else BANK)   # nobody: the bank takes it
            seen.add("shop_sold" if bidders else "shop_to_bank")
        elif prompt == "prompt.av.blue":
            box.choose("Acheter" if "Acheter" in box.items() else "Payer R")
            assert box.screen.kind == "confirm"
            box.press("ok")
        elif prompt == "prompt.av.yellow":
            box.choose("Prendre une carte" if steps % 3 == 0 else "Pas de carte")
        elif prompt == "prompt.av.card":
            if game.s.waiting[seat]:
                seen.add("waited")                               # AV14: a card each turn, no die
            titles = len(game.titles_held(seat))
            free = [t for t in game.titles_of_kind("establishment") if game.owner(t) < 0]
            if not lottery_done and len(game.log) > 6:
                card(box, game, "Carte : loterie")
                amount(box, 5000)                              # the bank is left with little
                lottery_done = True
            elif lottery_done and not debt_done and game.titles_held(seat):
                shops = sum(game.title(t).pa for t in game.titles_held(seat))
                card(box, game, "Carte : payer")
                amount(box, (game.cash(seat) + shops + 1500) // 100 * 100)   # more than all he has
                debt_done = True
            elif debt_done and not game.s.bank_owner and game.s.ledger.can_pay(BANK, 1):
                card(box, game, "Carte : loterie")
                amount(box, game.cash(BANK) // 100 * 100 + 500)  # more than the bank holds
            elif game.s.waiting[seat] and free or (titles < 2 and free and steps % 4 == 0):
                card(box, game, "Carte : établissement")
                box.choose(game.title_label(free[0])[:20])
                box.press("ok")
            else:
                card(box, game, "Carte sans effet")
        elif prompt == "prompt.av.debt":
            if decision.option("auction_shop"):               # the only remedy: which shop
                assert " doit " in box.screen.title
                box.press("ok")                                # the first
                box.press("ok")                                # confirmed
            else:
                assert box.items()[:2] == ["Emprunter 1 000", "Sortir du jeu"]   # one screen
                box.choose("Emprunter 1 000")
                box.press("ok")
                seen.add("loan")
        else:
            pytest.fail(f"unexpected screen {screen} ({prompt})")

    assert {"prompt.av.bank_auction_open", "prompt.av.shop_auction_open", "loan", "waited"} <= seen, seen
    assert any(isinstance(x, tuple) and x[0] == "bank_sold" for x in seen)
    assert game.s.loans.owed(0) + game.s.loans.owed(1) + game.s.loans.owed(2) >= 1100
    assert 3 in game.s.trips, "a second trip completed"
    assert box.screen.kind == "ranking" and box.screen.title == "Fin du jeu"
    snap = box.c.session.snapshot()
    assert box.screen.lines[0].startswith(f"1. {snap['ranking'][0]['name']}")
    replay = AVendre.replay(game.header, list(game.log))
    assert [r[2] for r in replay.ranking()] == [r["fortune"] for r in snap["ranking"]]


def to_a_card_with_a_shop(box, game):
    """Play turns (buying every shop offered, no other card) until the player whose card it
    is holds a shop; returns his seat."""
    for _ in range(200):
        decision = game.decision()
        if box.screen.kind == "confirm":
            box.press("ok")
        elif box.c.stack[-1]["t"] == "chance":
            box.press("ok")
        elif decision.prompt == "prompt.av.blue":
            box.choose("Acheter" if "Acheter" in box.items() else "Payer R")
            box.press("ok")
        elif decision.prompt == "prompt.av.yellow":
            box.choose("Pas de carte")
        elif decision.prompt == "prompt.av.card":
            if game.titles_held(decision.actor):
                return decision.actor
            box.choose("Carte sans effet")
        else:
            pytest.fail(f"unexpected screen {box.screen}")
    pytest.fail("no shop bought in 200 steps")


def test_the_auction_closes_after_the_games_own_silence_not_the_box_wide_one(tmp_path):
    """AV11: "The auction closes after `auction_silence_s` (default 5 s) without a raise":
    the game's setting, not the box-wide timing.silence_s (0.5 s here); a window no rule
    fixes, so Back pauses it."""
    box = E2EBox(tmp_path, seats=3, extra=EXTRA)
    try:
        game = start(box)
        assert game.settings["auction_silence_s"] == SILENCE and AVendre.SETTINGS["auction_silence_s"][0] == 5
        seat = to_a_card_with_a_shop(box, game)
        shops = sum(game.title(t).pa for t in game.titles_held(seat))
        box.choose("Carte : payer")
        amount(box, (game.cash(seat) + shops) // 100 * 100 + 100)
        while not isinstance(game.step, ShopAuction):
            box.press("ok")
        bidder = next(s for s in game.step.auction.bidders)
        box.press(f"seat{bidder + 1}")
        box.wait(1.0)                                     # past the box-wide 0.5 s: still open
        assert isinstance(game.step, ShopAuction) and box.screen.title.endswith("\t1 s")
        box.press("back").wait(SILENCE + 0.5)             # paused: nothing sells
        assert isinstance(game.step, ShopAuction)
        box.press("back").wait(1.2)                       # resumed with its second left: sold
        assert game.log[-1].kind == "sold"
    finally:
        box.close()


def drawn_text(monkeypatch, draw):
    """The strings `draw()` writes on a canvas (firmware/render.py), in order."""
    from firmware.render import Canvas
    written, text = [], Canvas.text

    def spy(self, x, y, value, *args, **kwargs):
        written.append(value)
        return text(self, x, y, value, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", spy)
    image = draw()
    monkeypatch.undo()
    assert image.getbbox()
    return written


def test_the_board_draws_pawns_trips_titles_cash_loans_the_bank_owners_and_the_auction(monkeypatch):
    """The case: "The public board shows positions, trips and title counts (x/3, x/6),
    owners, loans, cash, the bank's cash and owner, and any auction under way", drawn from
    the public snapshot only (firmware/games/avendre.py)."""
    from avendre_helpers import bank, give, new_game, place, play, set_cash
    game = new_game()
    give(game, "Ana", 1, 31, 32)
    place(game, "Ana", 57)
    play(game, "roll 4")                                   # Ana: 3 titles at 60, +2 000, second trip (x/6)
    set_cash(game, "Ben", 0)
    play(game, "roll 4", "card Ben", "card_pay Ben 500", "borrow Ben")       # Ben: a loan
    play(game, f'adjust_cash Cid +{bank(game) - 500} "set-up"', "roll 4", "card Cid", "card_receive Cid 1000")
    assert page_of(monkeypatch, game)[0] == "Enchère banque : -"                # the bank, short, on sale
    play(game, "bid Cid 2550")
    assert page_of(monkeypatch, game)[0] == "Enchère banque : 2 550 Cid"
    assert page_of(monkeypatch, game, size=(128, 64))[0] == "banque : 2 550 Cid"     # 21 characters: the bid whole
    play(game, "sold")                                     # bought by Cid
    rows = page_of(monkeypatch, game)
    assert rows[0] == f"Banque {format_amount(game.cash(BANK), 'fr')} (Cid)" and game.s.bank_owner == 2
    assert rows[1:] == ["", "7100", "3/6", "0", "Ana",     # cells right to left (loans, cash, titles, square), the name
                        "E1", "500", "0/3", "4", "Ben",
                        "", str(game.cash(2)), "0/3", "4", "Cid"]
    assert page_of(monkeypatch, game, 1)[1:] == ["Ana 1 31 32", "Ben -", "Cid -"]   # the owners' page
    play(game, "roll 4", "no_card Ana")
    set_cash(game, "Ben", 0)
    give(game, "Ben", 5)
    play(game, "roll 4", "auction_shop Ben 5")             # square 8, red: R he cannot pay
    assert page_of(monkeypatch, game)[0] == f"Enchère {game.title_label('5')} : -"
    minimum = game.step.auction.minimum
    play(game, f"bid Cid {minimum}")
    bid = f"{format_amount(minimum, 'fr')} Cid"
    assert page_of(monkeypatch, game)[0] == f"Enchère {game.title_label('5')} : {bid}"
    # a 128x64 board (21 characters) keeps the bid whole: the title's number stands for it
    narrow = page_of(monkeypatch, game, size=(128, 64))[0]
    assert narrow in (f"Enchère 5 : {bid}", f"5 : {bid}") and len(narrow) <= 21


def page_of(monkeypatch, game, page=0, size=(256, 64)):
    """What a quotation board (by default the smallest wide one, 256x64, an SSD1322) draws
    of `game`'s public snapshot on `page`."""
    from engines.core.table import drop_private
    from firmware.games.avendre import render_board
    snap = drop_private(game.snapshot())
    return drawn_text(monkeypatch, lambda: render_board(snap, size, "L", "fr", page))


def test_the_private_view_shows_own_titles_at_half_pa_loans_and_the_fortune_so_far():
    """The case: "the private view shows own titles with half PA and the fortune so far"."""
    from avendre_helpers import give, new_game, play, set_cash
    from firmware.games.avendre import AVendreUI
    game = new_game()
    give(game, "Ben", 1, 31)
    set_cash(game, "Ana", 0)
    play(game, "roll 4", "card Ana", "card_pay Ana 500", "borrow Ana")

    class Session:
        def snapshot(self):
            return game.snapshot()

    name, lines = AVendreUI().private_lines(Session(), 1, "fr")
    half = game.half_pa("1")
    # every amount in the game's money, each title by its whole name (the screen cuts what is too long)
    assert name == "Ben" and lines == ["Argent\t5 100.—", f"{game.title_label('1')}\t{format_amount(half, 'fr')}.—",
                                       f"{game.title_label('31')}\t0.—",
                                       f"Fortune\t{format_amount(5100 + half, 'fr')}.—"]
    name, lines = AVendreUI().private_lines(Session(), 0, "fr")
    assert lines == ["Argent\t500.—", "1 emprunt\t-1 100.—", f"Fortune\t{format_amount(500 - 1100, 'fr')}.—"]


def test_without_a_board_a_first_meeting_is_read_in_nine_presses():
    """The common turn without a board in at most 10 operator presses. Ana's die
    (6, the device's) reaches square 6, read for the first time: the title question starts
    on the likeliest number (4: one shop in two on the five squares before), the PA is asked
    with the purchase by banknotes from 800 (no confirmation: the amount entered is it),
    the R is not asked at all (nobody pays it yet). Square 6 is then remembered."""
    from test_controller import box_for
    game = AVendre({"game": "avendre", "players": ["Ana", "Ben", "Cid"], "seed": 1,
                    "settings": {"dice": "device", "board": "none"}})
    game.apply(game.ACTIONS.parse("first Ana", game.players))
    b = box_for(game)
    b.key("ok")                                          # the die, shown
    assert game.s.track.positions[0] == 6 and b.screen.kind == "amount" and b.screen.items == ("4",)
    b.key("ok")                                          # title 4, as printed on the square
    assert b.items()[:3] == ["Acheter", "Payer R", "Case rouge : payer R"]
    b.key("ok")                                          # Acheter: its PA, read on the square
    assert b.screen.items == ("800.—",) and "500" in b.screen.lines[-1]
    b.keys("down", "long_down", "long_down", "down")     # 300, notes of 100, of 50: 250
    assert b.screen.items == ("250.—",)
    b.key("ok")                                          # bought: no confirmation
    assert game.owner("4") == 0 and game.cash(0) == 5100 - 250 and game.snapshot()["entered"]["4"] == ["shop", 250, None]
    b.choose("Carte sans effet")
    assert game.log[-1].kind == "card_none" and game.decision().actor == 1
    assert len(game.log) == 5 and b.t == pytest.approx(0.05 * 9)   # 9 presses: die, 4, Acheter, 4 on the PA, OK, card
    assert game.snapshot()["read"] == {"6": [None, 4]}


FOUR_AT_A_SHOP_AUCTION = """game avendre
players Ana Ben Cid Dan
seed 1
set dice device
set auction_silence_s 3
first Ana
give_title Ana 1 "set-up"
adjust_cash Ana -5100 "set-up"
roll 3
auction_shop Ana 1
"""


def test_the_operator_bids_for_a_seat_beyond_the_wired_buttons_and_the_buzzer_sells(tmp_path):
    """AV15: "Seat buttons serve at most as many seats as are wired; the operator answers
    for the others": four players, three buttons. Ben bids on his button; OK opens the
    bidders' list, where Dan (no button) bids the next amount; the silence counts down on
    the screen and the buzzer sounds the hammer (AV11)."""
    from e2e_box import journal_script
    journal_script(tmp_path, FOUR_AT_A_SHOP_AUCTION)
    box = E2EBox(tmp_path, seats=3)
    try:
        game = box.game
        half = game.half_pa("1")
        assert box.screen.kind == "auction" and box.screen.title.endswith("\tpause")   # resumed: waits for OK
        box.press("ok")
        assert box.screen.title.endswith("\t3 s")
        box.press("seat2")                                  # Ben, on his button: half PA + 50
        assert game.log[-1] == game.ACTIONS.parse(f"bid Ben {half + 50}", game.players)
        box.press("ok")                                     # the operator's list of bidders
        assert [i for i in box.items() if ":" in i] == [f"Cid : {half + 100}", f"Dan : {half + 100}"]
        box.choose("Dan")
        assert game.log[-1] == game.ACTIONS.parse(f"bid Dan {half + 100}", game.players)
        assert box.screen.kind == "auction" and box.screen.lines == (f"{half + 100} par Dan",)
        beeps = len(box.beeper.calls)
        box.wait(1.5)
        assert box.screen.title.endswith("\t2 s") and box.beeper.calls[beeps:] == []
        box.wait(1.7)                                       # the silence: sold, with the buzzer
        assert game.log[-1].kind == "sold" and game.owner("1") == 3 and "confirm" in box.beeper.calls[beeps:]
    finally:
        box.close()


def test_with_a_board_the_common_turn_takes_four_presses():
    """The case: "a common turn (device die, blue square, buy, card with no effect, end of
    turn) in at most 4 operator presses with a board": the die shown (OK), Acheter (the
    first entry), its confirmation, the card with no effect (the first entry); the turn
    then passes by itself."""
    from test_controller import box_for
    game = AVendre({"game": "avendre", "players": ["Ana", "Ben", "Cid"], "seed": 1, "settings": {"dice": "device"}})
    game.apply(game.ACTIONS.parse("first Ana", game.players))
    b = box_for(game)
    b.key("ok")                                          # the die: 6, square 6, a blue shop
    assert game.decision().prompt == "prompt.av.blue" and b.items()[0] == "Acheter"
    b.key("ok").key("ok")                                # Acheter, confirmed
    assert game.owner(str(game.box.square(6).title)) == 0 and b.items()[0] == "Carte sans effet"
    b.key("ok")
    assert game.log[-1].kind == "card_none" and game.decision().actor == 1 and b.t == pytest.approx(0.05 * 4)


def test_the_setup_options_set_the_games_settings_and_a_game_without_a_board_is_read_on_the_box(box):
    """The game's settings in the setup flow (Options list every declared one);
    `board = "none"` chosen there, the squares are then read on the box (AV15): the title
    question, Acheter with the PA, and a square read before is never asked again."""
    box.choose("À vendre !").choose("3 joueurs").choose("Couleurs").choose("Continuer").choose("Régler")
    assert box.items() == ["Dés : boîtier", "Pas d'enchère : 50", "Jeu : double", "Départ : avant la case 1",
                           "Carte qui déplace : la case s'applique", "Banque invendue : dette, on continue",
                           "Plateau : fichier de la boîte", f"Silence (s) : {SILENCE}",
                           "Cases lues : une fois, retenues", "Partie en cours : Non", "Terminé"]
    box.choose("Jeu").choose("Plateau")
    assert "Jeu : simple" in box.items() and "Plateau : saisi à chaque case" in box.items()
    box.choose("Terminé").choose("Jouer")
    game = box.game
    assert game.box is None and not game.double and game.settings["board"] == "none"
    box.press("ok")                                      # who starts: the device's dice
    seat = game.decision().actor
    box.press("ok")                                      # the die
    square = game.s.track.positions[seat]
    assert game.decision().prompt == "prompt.av.square" and box.screen.kind == "amount"
    assert box.screen.items == (str(game.decision().params["likely"]),)
    box.press("ok")                                      # the title the question starts on
    assert box.items()[0] == "Acheter"
    box.press("ok").press("ok")                          # Acheter at 800, the PA the question starts on
    title = game.s.read[square][1]
    assert game.owner(str(title)) == seat and game.cash(seat) == 5100 - 800
    box.choose("Carte sans effet")
    other = game.decision().actor                        # the next player's die brings him to the same square
    from engines.avendre.actions import Roll
    from engines.core.chance import chance_rng
    die = lambda: game.fill_chance(Roll(), chance_rng(game.seed, len(game.log) + 1)).die   # after a correction
    while square - die() < 0:
        box.c.apply(game.ACTIONS.parse(f'set_pawn {game.players[other]} 0 "test"', game.players))
    box.c.apply(game.ACTIONS.parse(f'set_pawn {game.players[other]} {square - die()} "test"', game.players))
    box.press("ok")                                      # the device's die
    assert game.s.track.positions[other] == square
    assert game.decision().prompt == "prompt.av.income" and box.screen.kind == "amount"   # only its R, once
    assert box.screen.items == ("100.—",)
    box.press("down").press("down").press("down").press("ok")                             # 70, paid to the owner
    assert game.cash(seat) == 5100 - 800 + 70 and game.cash(other) == 5100 - 70


def test_correcting_cash_steps_by_the_games_own_money(box):
    """Each player holds 5 100: "Corriger l'argent" starts at +100.— by steps of 100.— (10.—
    and 1 000.— on a long press), so a 200.— error is one press from the start."""
    game = start(box)
    box.long("ok").choose("Corrections").choose("Corriger l'argent").choose("Bleu")
    assert box.screen.items == ("+100.—",) and box.screen.lines[1] == "pas 100 (▲▼/OK longs)"
    box.press("up")
    assert box.screen.items == ("+200.—",)
    box.press("ok").choose("Oui")
    assert game.cash(1) == 5_100 + 200
