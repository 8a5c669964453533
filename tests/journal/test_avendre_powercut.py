"""A power cut in the middle of an A Vendre! auction: the real box process (`corbeille run`,
mock GPIO pins, seat buttons pressed through its serial console on a pty,
tests/journal/test_powercut.py's Box) is killed with SIGKILL after two acknowledged bids,
and the box is started again on what it left, on a manual clock (tests/e2e_box.py: the real
loop, controller and journal in this process), so that the silence is timed exactly and
nothing waits on the real clock. The same auction comes back with every acknowledged bid
and its high bidder, and the box says it resumed; it is not sold at the restart, however
long the box was off: the silence (the game's own `auction_silence_s`, AV11: no rule sets
it) waits for the operator's OK, then starts afresh and sells to the high bidder.

Two auctions: a debtor's shop (AV11) and the bank itself (AV12), each reached by a game
recorded in the journal from a script, as if the box had played it before."""
from pathlib import Path

import pytest

from e2e_box import E2EBox, journal_script
from engines.avendre.game import AVendre
from engines.avendre.steps import BankAuction, ShopAuction
from firmware.journal.reader import JournalReader
from firmware.textscreen import screen_text
from test_powercut import Box

SILENCE = 3   # seconds (AV11's auction_silence_s, 2 to 30)

HEAD = f"""game avendre
players Ana Ben Cid
seed 1
set dice device
set auction_silence_s {SILENCE}
first Ana
"""

# Ana holds shop 1 and nothing else; square 3 (red) asks an R she cannot pay: she has shop 1
# auctioned, from half its PA (AV11).
SHOP_AUCTION = HEAD + """give_title Ana 1 "set-up"
adjust_cash Ana -5100 "set-up"
roll 3
auction_shop Ana 1
"""

# The bank is left with 100; a lottery card of 1 000 leaves it short: it is auctioned from
# 2 550 (AV12).
BANK_AUCTION = HEAD + """adjust_cash Cid +5000 "set-up"
roll 4
card Ana
card_receive Ana 1000
"""


def game_of(state_dir):
    with JournalReader(state_dir / "journal.sqlite") as journal:
        game_id = journal.last_game()
        header = journal.header(game_id)
        actions = [AVendre.ACTIONS.from_json(a) for a in journal.actions(game_id)]
    return AVendre.replay(header, actions)


def recorded(box):
    """The game as the journal of a box started again (tests/e2e_box.py) holds it."""
    return game_of(Path(box.app.journal.path).parent)


def cut_and_resume(box, tmp_path, step_type, bids):
    """Start the clock (the game was recorded before this start: a restart's clock waits
    for OK), press the seat buttons (each acknowledged by the console), kill the box and
    start it again on a manual clock; returns (the game before the cut, the screen before
    the cut, the box started again)."""
    box.key("ok")
    for seat in bids:
        box.key(f"seat{seat + 1}")
    before = game_of(box.state)
    assert isinstance(before.step, step_type) and [a.kind for a in before.log[-len(bids):]] == ["bid"] * len(bids)
    screen = box.screen()
    box.kill()                                          # the power goes, the bids acknowledged
    return before, screen, E2EBox(tmp_path, seats=3)


def resumed_on_the_same_auction(again, screen):
    """The same auction after the restart (the title's clock aside), under the note saying
    the game resumed; nothing sold while its clock waits for OK, which starts it afresh:
    sold once a whole silence has passed after it, not before. Returns the game sold."""
    after, before = screen_text(again.screen), screen.splitlines()
    assert after[1].startswith("Partie reprise : action ") and after[2:-1] == before[1:-1]
    assert after[0].endswith("pause ==") and after[-1] == "[OK lancer le chrono]"
    again.wait(SILENCE * 3)
    assert recorded(again).log[-1].kind == "bid", "sold while the clock waited for OK"
    again.press("ok")
    again.wait(SILENCE - 0.3)
    assert recorded(again).log[-1].kind == "bid", "sold before a whole silence after OK"
    again.wait(0.5)
    sold = recorded(again)
    assert sold.log[-1].kind == "sold", "not sold a silence after OK"
    return sold


@pytest.fixture
def box(tmp_path):
    b = Box(tmp_path, game_config='[seats]\ncount = 3\n')
    yield b
    b.stop()


def test_killed_mid_shop_auction_every_bid_is_kept_and_the_silence_starts_afresh(tmp_path, box):
    journal_script(tmp_path, SHOP_AUCTION)
    box.start()
    game = game_of(box.state)
    half = game.half_pa("1")
    assert isinstance(game.step, ShopAuction) and game.step.auction.minimum == half + 50
    before, screen, box_again = cut_and_resume(box, tmp_path, ShopAuction, bids=(1, 2))  # Ben, then Cid more
    try:
        assert before.step.auction.high == half + 100 and before.step.auction.high_bidder == 2
        again = recorded(box_again)
        assert again.log == before.log, "a bid lost, or the auction sold at the restart"
        assert isinstance(again.step, ShopAuction) and again.step.title == "1"
        assert again.step.auction.high == half + 100 and again.step.auction.high_bidder == 2
        sold = resumed_on_the_same_auction(box_again, screen)
        assert sold.owner("1") == 2 and sold.cash(2) == 5100 - half - 100
    finally:
        box_again.close()


def test_killed_mid_bank_auction_every_bid_is_kept_and_the_silence_starts_afresh(tmp_path, box):
    journal_script(tmp_path, BANK_AUCTION)
    box.start()
    game = game_of(box.state)
    assert isinstance(game.step, BankAuction) and game.step.auction.minimum == 2550
    owed = list(game.s.bank_owed)
    assert owed == [[0, 900]]                          # the bank paid its 100, owes Ana 900
    before, screen, box_again = cut_and_resume(box, tmp_path, BankAuction, bids=(1, 2))  # 2 550 Ben, 2 600 Cid
    try:
        assert before.step.auction.high == 2600 and before.step.auction.high_bidder == 2
        again = recorded(box_again)
        assert again.log == before.log and again.s.bank_owed == owed
        assert isinstance(again.step, BankAuction) and again.step.auction.high == 2600
        sold = resumed_on_the_same_auction(box_again, screen)
        assert sold.s.bank_owner == 2 and not sold.s.bank_owed and sold.cash(0) == 6100
    finally:
        box_again.close()
