"""The seat clocks on the simulated box (tests/e2e_box.py: MockFactory pins, a manual
clock): an undo never restarts a clock by itself, list screens never turn Enter into a
bid, and the clocks people see (remaining seconds, pause, buzzer)."""
import pytest

from drivers.display import PngDisplay

from e2e_box import E2EBox, journal_script

SILENCE = 1.0
DV = {"game": {"dice": "device"}, "timing": {"silence_s": SILENCE}}


@pytest.fixture
def dv(tmp_path):
    """A 4-player Dividends game on the turn-order auction of year 1 (the dice drawn)."""
    box = E2EBox(tmp_path, seats=4, extra=DV)
    box.choose("Dividends").choose("4 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
    box.press("ok")                                                       # the dice
    assert box.c.stack[0]["t"] == "open_auction" and box.game.log[-1].kind == "dice"
    yield box
    box.close()


def undo_last(box):
    box.long("back")
    assert box.screen.title == "Annuler ?"
    box.press("ok")                                                       # Yes


def test_undoing_the_token_deal_waits_for_ok(dv):
    """The case: "undoing a Dividends token deal re-deals by itself 3 s later, so the
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
    """The case: "two Enters on the token screen bid 50 for the first seat"."""
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
        box.press("ok")                                                  # resumed: the window waited for OK
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


# ---------------------------------------------------------------- clocks people see
class PaperBoard(PngDisplay):
    """A board that cannot redraw every second (as the e-ink QuotationBoard says)."""
    every_second = False


def dv_box(tmp_path, board=None, silence=5.0):
    box = E2EBox(tmp_path, seats=4, board=board, extra={"game": {"dice": "device"},
                                                          "timing": {"silence_s": silence}})
    box.choose("Dividends").choose("4 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
    box.press("ok")                                                       # the dice
    return box


def test_the_silence_counts_down_on_the_screen_and_the_board_with_the_buzzer_at_the_end(tmp_path):
    board = PngDisplay((256, 64), "1", name="board", keep=50)
    box = dv_box(tmp_path, board)
    try:
        assert box.screen.title == "Jeton 1 à vendre\t5 s"
        assert box.c.seat_clock.board_line(True) == "Jeton 1 à vendre · Ouverture à 50 ?\t5 s"
        box.press("seat2")                                               # a bid: the silence again
        assert box.screen.title == "Jeton 1 à vendre\t5 s"
        before = list(box.beeper.calls)
        box.wait(1.0)
        assert box.screen.title == "Jeton 1 à vendre\t4 s"
        assert box.c.seat_clock.board_line(True) == "Jeton 1 à vendre · 50 par Bleu\t4 s"
        assert box.beeper.calls == before                                # no buzz before the last 3 s
        shown = board.last_frame
        box.wait(1.0)
        assert board.last_frame.tobytes() != shown.tobytes()             # the board redrew the second
        box.wait(2.5)
        assert box.screen.title == "Jeton 1 à vendre\t1 s"
        assert box.beeper.calls[len(before):] == ["tick", "tick", "tick"]    # 3 s, 2 s, 1 s
        box.wait(0.6)
        assert box.game.log[-1].kind == "sold"
    finally:
        box.close()


def test_an_e_ink_board_shows_the_lot_and_the_leader_not_a_countdown(tmp_path):
    board = PaperBoard((256, 64), "1", name="board", keep=50)
    box = dv_box(tmp_path, board)
    try:
        box.press("seat2")
        assert box.c.seat_clock.board_line(board.every_second) == "Jeton 1 à vendre · 50 par Bleu"
        frames = board.frames_sent
        box.wait(2.0)
        assert board.frames_sent == frames                               # nothing to redraw on paper
        box.press("seat3")                                               # a new leader: redrawn
        assert board.frames_sent == frames + 1
        assert box.c.seat_clock.board_line(board.every_second) == "Jeton 1 à vendre · 100 par Vert"
    finally:
        box.close()


def test_back_pauses_a_configured_silence_and_starts_it_from_the_seconds_left(tmp_path):
    box = dv_box(tmp_path)
    try:
        box.wait(2.0)
        assert box.screen.title == "Jeton 1 à vendre\t3 s"
        assert box.screen.footer == "◄ pause  OK saisir"
        box.press("back")
        assert box.screen.title == "Jeton 1 à vendre\tpause" and box.screen.footer == "OK lancer le chrono"
        box.wait(30.0)
        assert box.game.log[-1].kind == "dice"
        box.press("back")                                                # Back starts it again too
        assert box.screen.title == "Jeton 1 à vendre\t3 s"
        box.wait(3.0)
        assert box.game.log[-1].kind == "deal"
    finally:
        box.close()


def test_a_rulebook_silence_comes_from_the_decision_and_is_never_paused(tmp_path, monkeypatch):
    """A silence a rulebook sets (Richesses du Monde RM9: "7 s from the lot's opening and
    from each accepted bid ... nothing else pauses it") is the decision's `silence_s`: the
    configured length does not apply and Back does not pause it."""
    from engines.dividends import interactions

    ruled = interactions.params

    def with_rule(game, decision, kind):
        out = ruled(game, decision, kind)
        return {**out, "silence_s": 7} if "silence_s" in out else out

    monkeypatch.setattr(interactions, "params", with_rule)
    box = dv_box(tmp_path, silence=2.0)
    try:
        if box.c.session.decision().interaction.params.get("silence_s") != 7:
            pytest.fail("the patched params did not reach the decision")
        assert box.screen.title == "Jeton 1 à vendre\t7 s"
        assert box.screen.footer == "Appuyez pour enchérir"              # no pause key
        box.press("back")
        assert "error" in box.beeper.calls and box.screen.title == "Jeton 1 à vendre\t7 s"
        box.wait(6.0)
        assert box.game.log[-1].kind == "dice"
        box.wait(1.0)
        assert box.game.log[-1].kind == "deal"
    finally:
        box.close()


def test_the_speaking_window_counts_down_and_pauses(tmp_path):
    journal_script(tmp_path, SPEAKING)
    box = E2EBox(tmp_path, extra={"timing": {"speaking_window_s": 6.0}})
    try:
        assert box.screen.title.endswith("\tpause")                       # resumed: waits for OK
        box.press("ok")
        assert box.screen.title.endswith("\t6 s") and box.screen.footer == "1× lot  long passe"
        box.wait(2.0).press("back")
        assert box.screen.title.endswith("\tpause")
        box.wait(20.0)
        assert box.game.log[-1].kind == "titre"
        box.press("ok")
        assert box.screen.title.endswith("\t4 s")
        box.wait(4.1)
        assert box.game.log[-1].kind == "declare" and box.game.log[-1].lots == 0
    finally:
        box.close()


def test_the_default_silence_leaves_time_to_react():
    """The case: "the 3 s silence deals tokens before people react"."""
    from firmware.config import config_from_dict
    from firmware.controller import Timing

    assert config_from_dict({}).timing.silence_s == 7.0 == Timing().silence_s


CANON = "\n".join([
    "game maxibourse", "format junior", "players Robert Joelle Nina", "seed 1",
    *[f"pick {p} {c}" for p, c in zip(["Robert", "Joelle", "Nina"] * 5, [
        "BARCLAYS", "CHASE", "DEUTSCHE", "BP", "ELF", "ESSO", "LEYLAND", "FIAT", "GM",
        "BSN", "COCA-COLA", "NESTLE", "COLGATE", "LOREAL", "UNILEVER"])],
    "first Robert", 'adjust_lots Nina CANON +8 "example"', 'set_price CANON 200 "example"',
    "roll 1 2", "titre BP CANON", "declare Robert 2", "declare Joelle 2", "declare Nina 0"])


def test_the_lot_auction_clock_pauses_and_an_undone_step_waits_for_ok(tmp_path):
    journal_script(tmp_path, CANON)
    box = E2EBox(tmp_path)                             # auction_step_s 1.0
    try:
        assert box.c.stack[0]["t"] == "auction"
        box.press("ok")                                                  # resumed: the clock waited for OK
        box.hold(1).hold(2)
        box.wait(1.05)                                                   # the clock: 250
        assert box.game.price("CANON") == 250
        box.press("back")                                                # paused
        assert box.screen.title.endswith("\tpause")
        box.wait(5.0)
        assert box.game.price("CANON") == 250
        box.press("back").wait(1.0)                                      # running again: 260
        assert box.game.price("CANON") == 260
        undo_last(box)
        assert box.game.price("CANON") == 250 and box.screen.footer == "OK lancer le chrono"
        box.wait(5.0)
        assert box.game.price("CANON") == 250                            # the undo sticks
        box.press("ok").wait(1.05)
        assert box.game.price("CANON") == 260
    finally:
        box.close()
