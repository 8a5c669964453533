"""A power cut in the middle of a Richesses du Monde auction lot: the real box process
(`corbeille run`, mock GPIO pins, buttons pressed through its serial console on a pty) is
killed with SIGKILL after a bid and started again on what it left, on a manual clock
(tests/e2e_box.py), so the silence is timed exactly and nothing waits on the real clock.
RM9: "after a power cut the lot resumes with a fresh 7 s": the bid is kept, the lot is not
sold at once, and the game's silence then sells it to the high bidder."""
from e2e_box import E2EBox, journal_script
from engines.richesses.game import Richesses
from firmware.journal.reader import JournalReader
from test_e2e_richesses import AUCTION
from test_powercut import Box

SILENCE = 7      # seconds: RM9's silence that closes a lot


def game_of(state_dir):
    with JournalReader(state_dir / "journal.sqlite") as journal:
        game_id = journal.last_game()
        header = journal.header(game_id)
        actions = [Richesses.ACTIONS.from_json(a) for a in journal.actions(game_id)]
    return Richesses.replay(header, actions)


def test_killed_mid_lot_the_bid_is_kept_and_the_lot_resumes_with_the_games_silence(tmp_path):
    journal_script(tmp_path, AUCTION)
    box = Box(tmp_path, game_config='dice = "device"\n[seats]\ncount = 3\n')
    box.start()
    try:
        assert "Argent" in box.screen()       # the trust by its printed name
        box.key("seat2")                                    # Ben bids 1 750 000
        assert "1 750 000 par Ben" in box.screen()
        box.kill()                                          # the power goes
        assert game_of(box.state).log[-1].kind == "bid"
    finally:
        box.stop()
    again = E2EBox(tmp_path, seats=3, extra={"game": {"dice": "device"}})
    try:
        assert game_of(box.state).log[-1].kind == "bid"     # not sold at the restart
        assert any("1 750 000 par Ben" in line for line in again.screen.lines)
        again.wait(SILENCE - 0.3)
        assert game_of(box.state).log[-1].kind == "bid", "sold before a fresh silence"
        again.wait(0.5)
        game = game_of(box.state)
        assert game.log[-1].kind == "sold" and game.trusts(1) == ("ARGENT",)
    finally:
        again.close()
