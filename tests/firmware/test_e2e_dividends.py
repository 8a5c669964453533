"""End to end: a 4-player Dividends game played on simulated buttons, from the setup
screens through five years to the winner, through the real loop, controller, engine,
journal and renderers (tests/e2e_box.py: MockFactory pins, a manual clock, PNG
displays). The turn-order auctions are played on the seat buttons: a press raises by the
step, the configured silence sells the token.

Reference screens (operator and the 128x64 quotation board) live in
tests/reference/e2e_dividends/ (regenerate with CORBEILLE_UPDATE_REFERENCES=1, then look
at them).
"""
from pathlib import Path

import pytest

import e2e_box
from drivers.display import PngDisplay
from engines.dividends.game import Dividends
from e2e_box import E2EBox, assert_board_pages, assert_matches_reference

SILENCE = 1.0


@pytest.fixture
def box(tmp_path, monkeypatch):
    monkeypatch.setattr(e2e_box, "REFERENCES", "e2e_dividends")
    board = PngDisplay((128, 64), "1", name="board", keep=5)
    b = E2EBox(tmp_path, seats=4, board=board,
               extra={"game": {"dice": "device"}, "timing": {"silence_s": SILENCE}})
    yield b
    b.close()


def play_turn(box, seat, turn_count):
    """A player's turn: buy one certificate they can pay (a different company each time),
    play an influence card every other turn, then end the turn."""
    game, items = box.game, box.items()
    if "Acheter" in items and turn_count % 3 != 2:
        affordable = [c for c in game.companies if game.left(c) and game.buy_price(c) <= game.cash(seat)]
        if affordable:
            box.choose("Acheter")
            box.choose(affordable[turn_count % len(affordable)])
            return "bought"
    if "Carte influence" in box.items() and turn_count % 2:
        box.choose("Carte influence")
        box.choose(box.items()[turn_count % len(box.items())])
        box.choose("+1")
        return "influence"
    box.choose("Fin du tour")
    return "done"


def test_a_dividends_game_from_setup_to_the_winner(box):
    shots = set()

    def shot(name, board=False):
        if name in shots:
            return
        shots.add(name)
        assert_matches_reference(box.frame(), name)
        if board:
            box.app.refresh()
            assert_board_pages(box, name, 2)

    # ---------------------------------------------------------------- setup
    assert box.screen.title == "Nouvelle partie"
    box.choose("Dividends")
    assert box.screen.title == "Dividends"
    assert box.items()[0] == "2 joueurs" and box.items()[-1] == "12 joueurs"
    shot("setup_players")
    box.choose("4 joueurs").choose("Couleurs")
    assert box.screen.lines == ("Valeurs de la boîte non vérifiées",)
    box.choose("Continuer")
    assert box.screen.lines[0] == "Dividends, 4 joueurs"
    shot("setup_summary")
    box.choose("Jouer")
    header = box.app.journal.header(box.app.journal.last_game())
    assert header["game"] == "dividends" and header["players"] == ["Rouge", "Bleu", "Vert", "Jaune"]
    game = box.game
    assert isinstance(game, Dividends)

    turns = [0] * 4
    years_seen, steps = set(), 0
    while not box.c.session.over:
        steps += 1
        assert steps < 2000, box.screen
        screen, frame = box.screen, box.c.stack[-1]
        year = game.s.year
        years_seen.add(year)
        if frame["t"] == "chance" and frame["kind"] == "dice":
            assert screen.kind == "payday" and len(screen.lines) == 5       # one die per company, shown
            shot("dice", board=year == 1)
            box.press("ok")
            assert game.log[-1].kind == "dice"
        elif frame["t"] == "chance" and frame["kind"] == "payout":
            assert len(screen.lines) == 4                                    # each player's dividends
            shot("payment")
            box.press("ok")
            assert game.log[-1].kind == "payout"
        elif frame["t"] == "chance":
            assert screen.lines[0].startswith("Tuile : ")
            shot("event")
            box.press("ok")
            assert game.log[-1].kind == "event"
        elif frame["t"] == "open_auction":
            token = game.s.proc.series.current.item
            bidders = list(game.s.proc.series.bidders)
            if token == 1 and year in (1, 3):
                # A raise war: a press raises by the step; the winner stops bidding.
                a, b = bidders[1] + 1, bidders[2] + 1
                box.press(f"seat{a}")
                shot("auction_open")
                box.press(f"seat{b}").press(f"seat{a}")
                assert game.s.proc.series.current.high == 150
                shot("auction_bid")
                box.wait(SILENCE + 0.2)
                assert game.s.tokens[a - 1] == 1 and a - 1 not in game.s.proc.series.bidders
                box.press(f"seat{a}")                                   # out of this auction: nothing
                assert game.log[-1].kind == "sold"
            elif len(bidders) > 1 and year != 2:
                box.press(f"seat{bidders[-1] + 1}")
                box.wait(SILENCE + 0.2)
            else:
                box.wait(SILENCE + 0.2)                                  # nobody opens: the tokens are dealt
        elif frame["t"] == "root" and screen.title.startswith("À "):
            seat = game.current_seat()
            if year == 2 and seat == game.s.order[0] and turns[seat] < 9:
                shot("turn_menu", board=True)
            if year == 3 and "private_view_midgame" not in shots:
                box.long(f"seat{seat + 1}")                             # the player's own cash, held certificates
                assert box.screen.kind == "private" and box.screen.lines[0].startswith("Argent\t")
                shot("private_view_midgame")
                box.press("back")
                assert box.screen.title.startswith("À ")
            result = play_turn(box, seat, turns[seat])
            if result != "done" and box.screen.kind == "confirm":
                box.press("ok")
            turns[seat] += 1
        elif screen.kind == "confirm":
            if game.log and game.decision().prompt == "prompt.dv.payment":
                shot("payment")
            box.press("ok")
        elif screen.kind == "menu":
            if "Ne pas acheter" in box.items():
                shot("placement")
                box.choose("Ne pas acheter")
            elif "Fin du tour" in box.items():
                box.choose("Fin du tour")
            else:
                box.choose(box.items()[0])                                # a certificate to sell
        elif screen.kind == "message" and frame["t"] == "entry":
            shot("end_of_turn_only")                                      # no card left: OK ends the turn
            box.press("ok")
            assert game.log[-1].kind == "done"
        elif screen.kind == "error":
            pytest.fail(f"the engine refused: {screen.lines}")
        else:
            pytest.fail(f"unexpected screen {screen}")

    assert years_seen == {1, 2, 3, 4, 5}
    assert box.screen.kind == "ranking"
    shot("ranking", board=True)
    snap = box.c.session.snapshot()
    winner = snap["winners"][0]
    assert box.screen.lines[0].startswith(f"1. {winner}")
    assert box.screen.title == "Fin du jeu"
    # The journal holds the whole game: a replay gives the same ranking.
    replay = Dividends.replay(header, list(game.log))
    assert [r[2] for r in replay.ranking()] == [r["fortune"] for r in snap["ranking"]]
    # The report names this game and charts the players' cash over the evening.
    report = Path(box.app.journal.get_meta(f"report.{box.c.session.game_id}"))
    assert {p.name for p in report.iterdir()} == {"fortunes.png", "prices.png", "standings.png", "standings.md"}
    assert (report / "standings.md").read_text().startswith("# Dividends, partie ")


def test_private_view_shows_cash_only_there(box):
    box.choose("Dividends").choose("4 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
    box.press("ok")                                                       # the dice
    for screen_shown in (box.screen,):
        assert "4 000" not in " ".join(screen_shown.lines + tuple(screen_shown.items))
    box.long("seat3")
    assert box.screen.kind == "private" and box.screen.title == "Vert (privé)"
    assert box.screen.lines == ("Argent\t4 000 $", "Cartes 2")
    assert_matches_reference(box.frame(), "private_view")
    box.wait(2.5)                                                         # the view closes, the silence restarts
    assert box.screen.kind == "auction" and box.game.log[-1].kind == "dice"


def test_a_dividends_game_resumes_on_the_same_screen_and_its_auction_clock_waits_for_ok(tmp_path):
    """After a restart the box says it resumed and the silence (no rule sets it) waits for
    OK: running at once, it would sell the token before the table has seen the auction."""
    extra = {"game": {"dice": "device"}, "timing": {"silence_s": SILENCE}}
    first = E2EBox(tmp_path, seats=4, extra=extra)
    first.choose("Dividends").choose("4 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
    first.press("ok").press("seat2")
    screen, n = first.screen, len(first.game.log)
    assert screen.lines == ("50 par Bleu",)
    first.close()
    again = E2EBox(tmp_path, seats=4, extra=extra)
    try:
        assert len(again.game.log) == n and again.screen.items == screen.items
        assert again.screen.lines == (f"Partie reprise : action {n}", "50 par Bleu")
        assert again.screen.title == screen.title.split("\t")[0] + "\tpause"
        assert again.screen.footer.startswith("OK lancer le chrono")
        again.wait(SILENCE + 0.2)
        assert len(again.game.log) == n                             # nothing sold meanwhile
        again.press("ok")                                           # the operator starts it
        assert again.screen.lines == ("50 par Bleu",)               # the note read
        again.wait(SILENCE + 0.2)                                   # the silence runs: sold
        assert again.game.log[-1].kind == "sold" and again.game.s.tokens[1] == 1
    finally:
        again.close()


def test_a_number_setting_entered_in_the_options_rules_the_game(box):
    """The setup's Options list every declared setting: bid_step (declared 1 to 999) is
    entered with the buttons, and the turn-order auction then raises by it (DV4)."""
    box.choose("Dividends").choose("4 joueurs").choose("Couleurs").choose("Continuer").choose("Régler")
    assert box.items() == ["Dés : boîtier", "Pas d'enchère : 50", "Compagnies : par défaut", "Partie en cours : Non", "Terminé"]
    box.choose("Pas d'enchère")
    assert box.screen.kind == "amount" and box.screen.items == ("50",)
    box.press("up").press("up").press("up").press("up").press("up")       # by 10: 100
    box.press("ok")
    assert box.items()[1] == "Pas d'enchère : 100"
    box.choose("Terminé").choose("Jouer")
    assert box.game.settings["bid_step"] == 100
    box.press("ok")                                                       # the dice
    box.press("seat2")
    assert box.screen.lines == ("50 par Bleu",)
    box.press("seat3")                                                    # a press raises by the step
    assert box.screen.lines == ("150 par Vert",)
