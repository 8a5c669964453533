"""A power cut in the middle of an A Vendre! auction (issue 12): the real box process
(`corbeille run`, mock GPIO pins, seat buttons pressed through its serial console on a
pty, tests/journal/test_powercut.py's Box) is killed with SIGKILL after two acknowledged bids, left
dead for longer than the silence, and started again. The same auction comes back with
every acknowledged bid and its high bidder, and the box says it resumed; it is not sold at
the restart: the silence (the game's own `auction_silence_s`, AV11: no rule sets it) waits
for the operator's OK, then starts afresh and sells to the high bidder.

Two auctions: a debtor's shop (AV11) and the bank itself (AV12), each reached by a game
recorded in the journal from a script, as if the box had played it before."""
import time

import pytest

from e2e_box import journal_script
from engines.avendre.game import AVendre
from engines.avendre.steps import BankAuction, ShopAuction
from firmware.journal.reader import JournalReader
from test_powercut import Box

SILENCE = 3   # seconds (AV11's auction_silence_s, 2 to 30): short for the test, long enough to see it run

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


def until_sold(box, deadline_s=60):
    """Wait for the journal to record the hammer; returns (the game, seconds waited)."""
    start = time.monotonic()
    while time.monotonic() - start < deadline_s:
        game = game_of(box.state)
        if game.log[-1].kind == "sold":
            return game, time.monotonic() - start
        time.sleep(0.2)
    raise AssertionError(f"the auction was not sold within {deadline_s} s")


def cut_and_resume(box, step_type, bids):
    """Start the clock (the game was recorded before this start: a restart's clock waits
    for OK), press the seat buttons (each acknowledged by the console), kill the box, wait
    longer than the silence, start it again; returns the screen before the cut and after."""
    box.key("ok")
    for seat in bids:
        box.key(f"seat{seat + 1}")
    before = game_of(box.state)
    assert isinstance(before.step, step_type) and [a.kind for a in before.log[-len(bids):]] == ["bid"] * len(bids)
    screen = box.screen()
    box.kill()                                          # the power goes, the bids acknowledged
    time.sleep(SILENCE + 1)                             # dead for longer than the silence
    box.start()
    return before, screen


def resumed_on_the_same_auction(box, screen):
    """The same auction after the restart (the title's clock aside), under the note saying
    the game resumed; nothing sold while its clock waits for OK, which starts it afresh."""
    after, before = box.screen().splitlines(), screen.splitlines()
    assert after[1].startswith("Partie reprise : action ") and after[2:-1] == before[1:-1]
    assert after[0].endswith("pause ==") and after[-1] == "[OK lancer le chrono]"
    time.sleep(SILENCE + 0.5)
    assert game_of(box.state).log[-1].kind == "bid", "sold while the clock waited for OK"
    box.key("ok")


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
    before, screen = cut_and_resume(box, ShopAuction, bids=(1, 2))       # Ben, then Cid a raise more
    assert before.step.auction.high == half + 100 and before.step.auction.high_bidder == 2
    again = game_of(box.state)
    assert again.log == before.log, "a bid lost, or the auction sold at the restart"
    assert isinstance(again.step, ShopAuction) and again.step.title == "1"
    assert again.step.auction.high == half + 100 and again.step.auction.high_bidder == 2
    resumed_on_the_same_auction(box, screen)
    sold, waited = until_sold(box)
    assert waited >= SILENCE - 1, f"sold {waited:.1f} s after the restart: the silence did not start afresh"
    assert sold.owner("1") == 2 and sold.cash(2) == 5100 - half - 100


def test_killed_mid_bank_auction_every_bid_is_kept_and_the_silence_starts_afresh(tmp_path, box):
    journal_script(tmp_path, BANK_AUCTION)
    box.start()
    game = game_of(box.state)
    assert isinstance(game.step, BankAuction) and game.step.auction.minimum == 2550
    owed = list(game.s.bank_owed)
    assert owed == [[0, 900]]                          # the bank paid its 100, owes Ana 900
    before, screen = cut_and_resume(box, BankAuction, bids=(1, 2))       # 2 550 by Ben, 2 600 by Cid
    assert before.step.auction.high == 2600 and before.step.auction.high_bidder == 2
    again = game_of(box.state)
    assert again.log == before.log and again.s.bank_owed == owed
    assert isinstance(again.step, BankAuction) and again.step.auction.high == 2600
    resumed_on_the_same_auction(box, screen)
    sold, waited = until_sold(box)
    assert waited >= SILENCE - 1, f"sold {waited:.1f} s after the restart: the silence did not start afresh"
    assert sold.s.bank_owner == 2 and not sold.s.bank_owed and sold.cash(0) == 6100
