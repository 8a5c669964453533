"""Power cuts with a real game: a writer journaling a random legal Maxi Bourse game is
killed at random points; after each reopening, every committed action is there, nothing
else (journal_writer checks that), and every game in the journal replays to the same
state as the original game's own prefix."""
import json
import random

from bench.randomgame import random_game
from engines.maxibourse.game import MaxiBourse
from game_helpers import replayed_snapshots
from journal_writer import kill_and_reopen


def test_power_cuts_during_a_real_game_replay_to_the_same_state(tmp_path):
    header, actions, _ = random_game(random.Random(2026), players=4, fmt="junior", max_actions=150)
    # the original game after each number of actions, from one replay that passes them all
    after = replayed_snapshots(MaxiBourse, header, actions, range(len(actions) + 1))
    prefixes = {}  # number of actions found in the journal -> snapshot of the original game after them
    # what the journal stores (header and rows, as text) -> the snapshot it replays to: a game
    # the kills left untouched is found again round after round, and replays the same
    replayed = {}

    def replays_to_the_prefix(journal):
        for game_id, stored_header in journal.games():
            stored = journal.actions(game_id)
            n = len(stored)
            if n not in prefixes:
                prefixes[n] = after[n]
            key = json.dumps([stored_header, stored], sort_keys=True)
            if key not in replayed:
                game = MaxiBourse.replay(stored_header, [MaxiBourse.ACTIONS.from_json(a) for a in stored])
                replayed[key] = game.snapshot()
            assert replayed[key] == prefixes[n], f"game {game_id} ({n} actions)"

    stats = kill_and_reopen(tmp_path, lambda: [a.to_json() for a in actions], random.Random(11),
                            rounds=120, header=header, check=replays_to_the_prefix)
    assert sum(committed for _, committed in stats) > 0
    assert len(prefixes) > 20  # the kills landed at many different points of the game
