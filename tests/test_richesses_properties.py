"""Property tests: random legal Richesses du Monde games of 2 to 6 players, drawn from the
engine's pending decisions alone (tests/test_game_contract.py's drawer), rich and
cash-poor: no exception, never stuck, money and titles conserved, no trust ever split
between two holders by a sale, an auction or a bankruptcy, cash never on the public view,
undo equal to replay, refused actions changing nothing."""
import random

from hypothesis import given
from hypothesis import strategies as st

from engines.core.random_play import play_randomly
from engines.richesses.actions import AdjustCash
from engines.richesses.game import Richesses
from props import played, props
from test_game_contract import Drawer

PROPS = props(10)
NAMES = ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"]


def state_key(game):
    return game.snapshot(), len(game.log)


def no_cash(node):
    if isinstance(node, dict):
        return "cash" not in node and all(no_cash(v) for v in node.values())
    if isinstance(node, list):
        return all(no_cash(v) for v in node)
    return True


class Invariants:
    def __init__(self, game):
        self.total = game.s.ledger.total()
        self.titles = len(game.box.titles)

    def __call__(self, game, act, events):
        s = game.s
        assert s.ledger.total() == self.total, "money was created or destroyed"
        assert all(game.cash(seat) >= 0 for seat in range(len(game.players))), "cash below zero"
        assert len(s.deeds.items) == self.titles
        for seat in s.out:
            assert not s.deeds.owned_by(seat) and game.cash(seat) == 0 and not s.jokers[seat]
        assert s.joker_stock + sum(s.jokers) == game.box.jokers, "jokers were lost"
        for e in events:                       # a trust leaves a player whole, never in parts
            if e.key == "deed_moved" and e.params["src"] >= 0 and e.params["dst"] != e.params["src"] \
                    and not (act.kind == "buy"):
                production = game.box.titles[e.params["deed"]].production
                assert not game.trust(e.params["src"], production), (act, e)
        snap = game.snapshot()
        assert no_cash(game.public(snap)), "cash on the public view"
        assert no_cash(snap["pending"]), "cash in the decision"
        assert game.decision().options or game.over, "stuck"


def play(seed, players, poor, max_actions=400):
    game = Richesses({"game": "richesses", "players": NAMES[:players], "seed": seed})
    rng = random.Random(seed)
    check = Invariants(game)
    drawer = Drawer(rng)
    play_randomly(game, drawer, max_actions=2, state_key=state_key, on_action=check)   # plaques, first
    if poor:   # cash-poor: everyone keeps a few millions, so royalties and doubles ruin players
        for seat in range(players):
            keep = rng.randrange(1, 8) * 1_000_000
            game.apply(AdjustCash(seat, -(game.cash(seat) - keep), "poor"))
    actions = play_randomly(game, drawer, max_actions=max_actions, state_key=state_key, on_action=check,
                            finished=lambda g: g.over, max_refusals=3000)
    played("richesses", len(game.log))
    return game, actions


@PROPS
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 6), poor=st.booleans())
def test_random_games_keep_money_titles_and_trusts_and_never_show_cash(seed, players, poor):
    game, actions = play(seed, players, poor)
    assert game.over or len(actions) == 400
    if game.over:
        assert len(game.in_game()) == 1 and len(game.ranking()) == players
        assert [seat for _, seat, _ in game.ranking()] == game.in_game() + game.s.out[::-1]


@props(4)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 6))
def test_undo_equals_replay(seed, players):
    game, _ = play(seed, players, poor=True, max_actions=120)
    log = list(game.log)
    for k in range(len(log), max(0, len(log) - 4), -1):
        game.undo()
        assert game.snapshot() == Richesses.replay(game.header, log[:k - 1]).snapshot()


def test_cash_poor_games_end_with_one_player_standing():
    ended = 0
    for seed in range(6):
        game, _ = play(seed, 2 + seed % 5, poor=True, max_actions=1500)
        ended += game.over
    assert ended >= 4
