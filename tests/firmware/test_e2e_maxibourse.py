"""End to end: a 3-player Junior game played on simulated buttons, from the setup screens
to the final ranking, through the real loop, controller, engine, journal and renderers.

Every kind of operator screen is compared with a reviewed reference image in
tests/reference/e2e/ (regenerate with CORBEILLE_UPDATE_REFERENCES=1, then look at them).
"""

import pytest

from drivers.display import PngDisplay
from e2e_box import E2EBox, assert_matches_reference, journal_script
from engines.core.i18n import format_amount
from engines.maxibourse.game import MaxiBourse
from firmware.script import run_script
from maxibourse_helpers import pin_no_board

PICKS = {"Rouge": [("Banques", "BARCLAYS"), ("Énergie", "BP"), ("Automobile", "LEYLAND"),
                   ("Alimentaire", "BSN"), ("Cosmétiques", "COLGATE")],
         "Bleu": [("Banques", "CHASE"), ("Énergie", "ELF"), ("Automobile", "FIAT"),
                  ("Alimentaire", "COCA-COLA"), ("Cosmétiques", "LOREAL")],
         "Vert": [("Banques", "DEUTSCHE"), ("Énergie", "ESSO"), ("Automobile", "GM"),
                  ("Alimentaire", "NESTLE"), ("Cosmétiques", "UNILEVER")]}


@pytest.fixture(autouse=True)
def without_board(monkeypatch, tmp_path):
    """This game is played as a table without a board in its box file: the operator names
    each square (the shipped board, on by default, is played in tests/engines/maxibourse/test_maxibourse_board.py)."""
    pin_no_board(monkeypatch, tmp_path)


@pytest.fixture
def box(tmp_path):
    board = PngDisplay((128, 64), "1", name="board", keep=50)
    b = E2EBox(tmp_path, board=board)
    yield b
    b.close()


def roll(box, d1, d2):
    box.choose("Saisir les dés").choose(str(d1)).choose(str(d2))


def test_a_junior_game_from_setup_to_final_ranking(box):
    seen = {}

    def shot(name):
        seen[name] = box.screen.kind
        assert_matches_reference(box.frame(), name)

    # ---------------------------------------------------------------- setup
    assert box.screen.title == "Nouvelle partie"
    shot("setup_game")
    box.choose("Maxi Bourse")
    shot("setup_format")
    box.choose("Junior").choose("3 joueurs").choose("Couleurs")
    assert box.items()[box.screen.selected] == "2 tours"       # the configured rounds
    box.choose("2 tour")
    assert box.screen.lines == ("Cours nominaux non vérifiés",)
    shot("setup_box_unverified")
    box.choose("Continuer")
    shot("setup_summary")
    box.choose("Jouer")
    header = box.app.journal.header(box.app.journal.last_game())
    assert header["players"] == ["Rouge", "Bleu", "Vert"] and header["format"] == "junior"

    # ------------------------------------------------------ starting picks
    shot("pick_sector")
    for i in range(5):
        for player in ("Rouge", "Bleu", "Vert"):
            assert box.screen.title == f"{player} : lot {i + 1}/5"   # the counter: pick 1/5...
            box.pick(*PICKS[player][i])
    assert box.screen.title == "Qui commence ?"
    box.choose("Rouge")
    assert box.screen.title == "À Rouge de jouer"
    shot("turn_start")
    assert box.lights.state[1] == "on"                            # Rouge's seat is lit

    # ------------------------- Rouge: Titre SONY au cours, then au mieux rounds
    roll(box, 3, 4)
    shot("square_menu")
    box.choose("Case Titre").pick("Informatique", "SONY")
    shot("titre_au_cours_or_other")
    box.choose("Au cours")
    assert box.screen.kind == "speaking" and box.screen.highlight == 0
    shot("speaking_au_cours")
    box.press("seat1").wait(0.7)                                   # one press: 1 000 au cours
    assert box.game.log[-1].to_json() == {"kind": "declare", "player": 0, "lots": 1}
    assert box.screen.kind == "confirm" and box.screen.title == "Règlement SONY"
    shot("settle")
    box.press("ok")
    assert box.game.cash(0) == 5_000_000 - 300_000 and box.game.price("SONY") == 300
    box.press("seat2").press("seat2")                              # Bleu: 2 000 au mieux
    assert box.game.price("SONY") == 320
    box.wait(2.1)                                                  # Vert says nothing: pass
    assert box.game.log[-1].to_json() == {"kind": "declare", "player": 2, "lots": 0}
    box.press("ok")                                                # settle Bleu's 2 000
    assert box.game.cash(1) == 5_000_000 - 640_000
    box.wait(2.1).wait(2.1)                                        # round 2: both pass
    assert box.screen.title == "Rouge : case ?"
    assert box.items()[box.screen.selected] == "Fin du tour"
    box.choose("Fin du tour")                                      # no confirmation: undo covers a slip

    # ----------------------------- Bleu: a sale nobody takes, then a price card
    assert box.screen.title == "À Bleu de jouer"
    box.choose("Vendre").choose("CHASE").choose("1 lot")
    shot("confirm_sale")
    box.choose("Oui")
    assert box.screen.kind == "speaking" and box.screen.highlight == 2  # Vert first, then Rouge
    shot("speaking_sale")
    chase = box.game.price("CHASE")
    box.wait(2.1).wait(2.1).wait(2.1).wait(2.1)                    # two rounds of declines
    assert box.game.price("CHASE") == chase - 20 - 20 - 10         # MB6, then the bank buys
    assert box.game.s.lots.bank("CHASE") == 10
    assert box.screen.title == "À Bleu de jouer"
    roll(box, 2, 5)
    box.choose("Carte : cours").choose("Énergie").choose("ELF")
    shot("amount_price_change")
    box.press("up").press("up").press("ok")                        # +30 from a card
    assert box.game.log[-1].to_json() == {"kind": "price", "target": "ELF", "delta": 30}
    assert box.game.price("ELF") == 230
    box.choose("Fin du tour")

    # ------------------------------- Vert: a card, undone and entered again
    roll(box, 1, 2)
    box.choose("Carte : recevoir").press("ok")                     # Vert, whose turn it is
    box.press("up").press("up").press("up").press("up").press("ok")  # 500 000
    assert box.game.cash(2) == 5_000_000 + 500_000
    box.long("back")
    assert box.screen.lines == ("Annuler : Vert reçoit 500 000 $ ?",)
    shot("undo")
    box.press("ok")
    assert box.game.cash(2) == 5_000_000 and box.game.log[-1].kind == "roll"
    box.choose("Carte : recevoir").press("ok").press("up").press("up").press("ok")
    assert box.game.cash(2) == 5_000_000 + 300_000
    box.long("seat1")                                              # Rouge checks her cash
    assert box.screen.kind == "private" and box.screen.title == "Rouge (privé)"
    shot("private_view")
    box.wait(2.1)
    assert box.screen.title == "Vert : case ?"
    box.choose("Fin du tour")

    # ------------------------------------------------------------- payday
    assert box.screen.kind == "payday" and box.screen.title == "Rémunération, tour 1"
    shot("payday")
    before = [box.game.cash(s) for s in range(3)]
    box.press("ok")
    paid = [box.game.cash(s) - before[s] for s in range(3)]
    assert all(p > 0 for p in paid)
    assert box.game.s.last_payday["Rouge"]["total"] == paid[0]

    # ------------------------- round 2, with a refused correction and the history
    assert box.screen.title == "À Rouge de jouer"
    box.long("ok")
    shot("menu")
    box.choose("Corrections").choose("Argent").choose("Rouge")
    box.long("up")
    for _ in range(9):
        box.press("down")
    assert box.screen.items[0].startswith("-")
    box.press("ok").choose("Oui")
    assert box.screen.kind == "error"
    shot("error")
    box.press("ok").press("back").press("back").press("back").press("back")
    assert box.screen.title == "Menu"
    box.choose("Historique")
    shot("history")
    box.press("ok")                                     # OK on an action offers to go back before it
    assert box.screen.title == "Revenir avant l'action 38 ?" and box.screen.items[box.screen.selected] == "Non"
    box.choose("Non").press("back").press("back")
    for player in ("Rouge", "Bleu", "Vert"):
        assert box.screen.title == f"À {player} de jouer"
        roll(box, 1, 2)
        box.choose("Fin du tour")
    box.press("ok")                                                # payday of round 2: the end

    # ------------------------------------------------------------- ranking
    assert box.screen.kind == "ranking" and box.screen.title == "Séance close"
    shot("ranking")
    snap = box.c.session.snapshot()
    assert [r["name"] for r in snap["ranking"]] == [line.split(". ")[1].split("\t")[0]
                                                    for line in box.screen.lines[:3]]
    report = box.app.journal.get_meta(f"report.{box.c.session.game_id}")
    assert report and {p.name for p in __import__("pathlib").Path(report).iterdir()} >= {
        "fortunes.png", "prices.png", "standings.png", "standings.md"}
    md = (__import__("pathlib").Path(report) / "standings.md").read_text()
    assert md.startswith("# Maxi Bourse, partie ")
    for r in snap["ranking"]:                       # the ranking is the engine's, amounts and all, in dollars
        assert f"| {r['rank']} | {r['name']} | {format_amount(r['fortune'])} $ |" in md

    # The journal is the game: replaying it gives the same state.
    journal = box.app.journal
    game_id = journal.last_game()
    replayed = MaxiBourse.replay(journal.header(game_id),
                                 [MaxiBourse.ACTIONS.from_json(a) for a in journal.actions(game_id)])
    assert replayed.snapshot() == snap
    # Every kind of screen was seen (and compared with its reference).
    # (the history is a menu of actions now; tests/firmware/test_render.py draws the message screen)
    assert set(seen.values()) >= {"menu", "amount", "confirm", "speaking", "private", "payday", "error", "ranking"}
    # The quotation board followed the game, paging through the sectors on its 128x64 panel.
    assert box.app.board_pages.pages > 1 and box.board.frames_sent >= 5


def test_board_reference_after_a_price_change(tmp_path):
    board = PngDisplay((256, 64), "L", name="board", keep=5)
    script = "game maxibourse\nformat junior\nplayers Ana Ben Cid\nseed 3\nset rounds 2\n" + "\n".join(
        f"pick {p} {c}" for p, c in zip(["Ana", "Ben", "Cid"] * 5, [
            "BARCLAYS", "CHASE", "DEUTSCHE", "BP", "ELF", "ESSO", "LEYLAND", "FIAT", "GM",
            "BSN", "COCA-COLA", "NESTLE", "COLGATE", "LOREAL", "UNILEVER"])) + "\nfirst Ana\nroll 1 2\nprice BANQUES +40\n"
    journal_script(tmp_path, script)
    box = E2EBox(tmp_path, board=board)
    try:
        assert box.screen.title == "Ana : case ?"                  # resumed from the journal
        assert_matches_reference(box.frame(), "resumed_square_menu")
        assert_matches_reference(board.last_frame, "board_256x64_page1")
    finally:
        box.close()


def test_auction_on_the_seat_buttons(tmp_path):
    """The CANON shortage (rulebook 1-6 example 2), bid by holding seat buttons."""
    script = "\n".join([
        "game maxibourse", "format junior", "players Robert Joelle Nina", "seed 1",
        *[f"pick {p} {c}" for p, c in zip(["Robert", "Joelle", "Nina"] * 5, [
            "BARCLAYS", "CHASE", "DEUTSCHE", "BP", "ELF", "ESSO", "LEYLAND", "FIAT", "GM",
            "BSN", "COCA-COLA", "NESTLE", "COLGATE", "LOREAL", "UNILEVER"])],
        "first Robert", 'adjust_lots Nina CANON +8 "example"', 'set_price CANON 200 "example"',
        "roll 1 2", "titre BP CANON", "declare Robert 2", "declare Joelle 2", "declare Nina 0"])
    journal_script(tmp_path, script)
    box = E2EBox(tmp_path)
    try:
        assert box.screen.kind == "auction" and box.screen.title.endswith("\tpause")   # resumed: waits for OK
        box.press("ok")
        box.hold(1).hold(2)
        assert_matches_reference(box.frame(), "auction")
        box.wait(1.05)                                             # the clock: 250
        box.wait(1.0)                                              # 260
        assert box.game.price("CANON") == 260 and "tick" in box.beeper.calls
        box.release(2).wait(0.7)                                   # Joelle lets go
        box.wait(0.5)
        assert box.game.decision().prompt == "prompt.mb.settle" and box.game.price("CANON") == 270
        box.release(1).press("ok")
        assert box.game.s.lots.of("CANON", 0) == 2
    finally:
        box.close()


def test_a_damaged_journal_tail_is_reported_once(tmp_path):
    from firmware.journal import Journal
    state = tmp_path / "state"
    state.mkdir()
    path = state / "journal.sqlite"
    with Journal(path) as journal:
        game = run_script("game maxibourse\nplayers Ana Ben\nseed 1\npick Ana SONY\npick Ben SONY\n")
        game_id = journal.new_game(game.header)
        for act in game.log:
            journal.append(game_id, act.to_json())
    import sqlite3
    with sqlite3.connect(path) as db:                              # a bit flipped in the last row
        db.execute("UPDATE actions SET body = replace(body, 'SONY', 'SONI') WHERE seq = 1")
    box = E2EBox(tmp_path, seats=0)
    try:
        assert box.screen.kind == "message" and box.screen.title == "Journal réparé"
        assert_matches_reference(box.frame(), "journal_repaired")
        box.press("ok")
        assert box.screen.title == "Ben : lot 1/5" and len(box.game.log) == 1
    finally:
        box.close()
    box = E2EBox(tmp_path, seats=0)
    try:
        assert box.screen.title == "Ben : lot 1/5"                  # shown once only
    finally:
        box.close()
