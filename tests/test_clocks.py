"""The seat clocks on the simulated box (tests/e2e_box.py: MockFactory pins, a manual
clock): an undo never restarts a clock by itself, list screens never turn Enter into a
bid, and the clocks people see (remaining seconds, pause, buzzer)."""
import pytest

from e2e_box import E2EBox, journal_script

SILENCE = 1.0
DV = {"game": {"dice": "device"}, "timing": {"silence_s": SILENCE}}


@pytest.fixture
def dv(tmp_path):
    """A 4-player Dividends game on the turn-order auction of year 1 (the dice drawn)."""
    box = E2EBox(tmp_path, seats=4, extra=DV)
    box.choose("Dividendes").choose("4 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
    box.press("ok")                                                       # the dice
    assert box.c.stack[0]["t"] == "open_auction" and box.game.log[-1].kind == "dice"
    yield box
    box.close()


def undo_last(box):
    box.long("back")
    assert box.screen.title == "Annuler ?"
    box.press("ok")                                                       # Yes


def test_undoing_the_token_deal_waits_for_ok(dv):
    """Issue 15: "undoing a Dividends token deal re-deals by itself 3 s later, so the
    undo cannot stick"."""
    dv.wait(SILENCE + 0.2)                                                # nobody bids: dealt
    assert dv.game.log[-1].kind == "deal"
    undo_last(dv)
    assert dv.game.log[-1].kind == "dice" and dv.c.stack[0]["t"] == "open_auction"
    dv.wait(10 * SILENCE)                                                 # the clock waits
    assert dv.game.log[-1].kind == "dice"
    assert dv.screen.footer == "OK lancer le chrono"
    dv.press("seat2")                                                     # no bid while it waits
    assert dv.game.log[-1].kind == "dice" and "error" in dv.beeper.calls
    dv.press("ok")                                                        # the operator starts it
    assert dv.game.log[-1].kind == "dice"
    dv.wait(SILENCE + 0.2)
    assert dv.game.log[-1].kind == "deal"


def test_undoing_a_sale_does_not_sell_again(dv):
    dv.press("seat2")
    assert dv.screen.lines == ("50 par Bleu",)
    dv.wait(SILENCE + 0.2)
    assert dv.game.log[-1].kind == "sold"
    undo_last(dv)
    assert dv.game.log[-1].kind == "bid"
    dv.wait(10 * SILENCE)
    assert dv.game.log[-1].kind == "bid" and dv.screen.lines == ("50 par Bleu",)
    dv.press("ok").press("seat3")                                        # running again: a raise
    assert dv.game.log[-1].kind == "bid" and dv.screen.lines == ("100 par Vert",)


def test_undo_back_from_the_history_waits_for_ok(dv):
    dv.press("seat2").press("seat3")
    dv.wait(SILENCE + 0.2)
    assert dv.game.log[-1].kind == "sold"
    n = len(dv.game.log)
    dv.long("ok").choose("Historique")
    dv.press("down").press("down")                                       # the first bid
    dv.press("ok")
    assert dv.screen.title == f"Revenir avant l'action {n - 2} ?"
    dv.press("up").press("ok")                                           # Yes
    assert len(dv.game.log) == n - 3 and dv.game.log[-1].kind == "dice"
    dv.wait(10 * SILENCE)
    assert dv.game.log[-1].kind == "dice"
    dv.press("ok")
    dv.wait(SILENCE + 0.2)
    assert dv.game.log[-1].kind == "deal"


def test_two_enters_on_the_token_screen_bid_nothing(dv):
    """Issue 15: "two Enters on the token screen bid 50 for the first seat"."""
    dv.press("ok")
    assert dv.screen.kind == "menu" and dv.screen.items[dv.screen.selected] == "◄ Retour"
    dv.press("ok")
    assert dv.c.stack[-1]["t"] == "open_auction" and dv.game.log[-1].kind == "dice"
    dv.press("ok").press("down").press("ok")                             # a bid is a choice
    assert dv.game.log[-1].kind == "bid"


SPEAKING = "\n".join([
    "game maxibourse", "format junior", "players Robert Joelle Nina", "seed 1",
    *[f"pick {p} {c}" for p, c in zip(["Robert", "Joelle", "Nina"] * 5, [
        "BARCLAYS", "CHASE", "DEUTSCHE", "BP", "ELF", "ESSO", "LEYLAND", "FIAT", "GM",
        "BSN", "COCA-COLA", "NESTLE", "COLGATE", "LOREAL", "UNILEVER"])],
    "first Robert", "roll 1 2", "titre BP CANON"])


def test_undoing_a_speaking_answer_waits_for_ok(tmp_path):
    journal_script(tmp_path, SPEAKING)
    box = E2EBox(tmp_path)                             # speaking_window_s 2.0
    try:
        assert box.c.stack[0]["t"] == "speak"
        box.press("seat1").wait(1.0)                                     # Robert asks one lot
        assert box.game.log[-1].kind == "declare"
        undo_last(box)
        assert box.game.log[-1].kind == "titre" and box.c.stack[0]["t"] == "speak"
        box.wait(10.0)                                                   # no pass by silence
        assert box.game.log[-1].kind == "titre"
        box.press("ok").wait(2.2)                                        # started: silence passes
        assert box.game.log[-1].kind == "declare" and box.game.log[-1].lots == 0
    finally:
        box.close()
