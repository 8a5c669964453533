"""Property tests: random legal Richesses du Monde games of 2 to 6 players, drawn from the
engine's pending decisions alone (tests/core/test_game_contract.py's drawer), rich and
cash-poor: no exception, never stuck, money and titles conserved, no trust ever split
between two holders by a sale, an auction or a bankruptcy, cash never on the public view,
undo equal to replay, refused actions changing nothing; a bankrupt player holds nothing and
is owed nothing, corrections included."""
import os
import random
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.core.actions import CORRECTION
from engines.core.random_play import play_randomly
from engines.core.errors import IllegalAction
from engines.core.i18n import format_amount, text
from engines.richesses.actions import AdjustCash
from engines.richesses.box import DEFAULT_BOX
from engines.richesses.game import Richesses
from game_helpers import replayed_snapshots
from props import played, props
from test_game_contract import Drawer

PROPS = props(10)
NAMES = ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"]


def state_key(game):
    return game.snapshot(), len(game.log)


def no_cash(node):
    """No mapping in `node`, its lists' items and its mappings' values, has a "cash" key."""
    todo = [node]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if "cash" in node:
                return False
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
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
        for seat in s.out:   # a bankrupt player holds nothing and is owed nothing, corrections included (RM11)
            assert not s.deeds.owned_by(seat) and game.cash(seat) == 0 and not s.jokers[seat]
            for step in s.steps:
                assert seat not in (getattr(step, "seller", None), getattr(step, "buyer", None),
                                    getattr(step, "lander", None)), (act, seat, step)
                assert seat not in [line[0] for line in getattr(step, "lines", ())], (act, seat, step)
                assert seat not in [line[0] for line in getattr(step, "owed", ())], (act, seat, step)
                auction = getattr(step, "auction", None)
                assert auction is None or seat not in auction.bidders and auction.high_bidder != seat, \
                    (act, seat, step)
        assert s.joker_stock + sum(s.jokers) == game.box.jokers, "jokers were lost"
        # A trust leaves a player whole, never in parts; a correction records what the table
        # holds (a single title given to the wrong player, moved back), parts included.
        for e in events:
            if e.key == "deed_moved" and e.params["src"] >= 0 and e.params["dst"] != e.params["src"] \
                    and act.kind != "buy" and CORRECTION not in act.flags:
                production = game.box.titles[e.params["deed"]].production
                assert not game.trust(e.params["src"], production), (act, e)
        snap = game.snapshot()
        assert no_cash(game.public(snap)), "cash on the public view"
        assert no_cash(snap["pending"]), "cash in the decision"
        assert game.decision().options or game.over, "stuck"


def no_order_box():
    """The shipped box file without its [[squares]] (RM8), written once per session."""
    path = Path(tempfile.gettempdir()) / f"richesses-noorder-{os.getpid()}.toml"
    if not path.exists():
        path.write_text(DEFAULT_BOX.read_text(encoding="utf-8").partition("[[squares]]")[0], encoding="utf-8")
    return str(path)


def play(seed, players, poor, max_actions=400, *, box=None, on_refused=None, cash=None, **settings):
    header = {"game": "richesses", "players": NAMES[:players], "seed": seed, "settings": settings}
    if box:
        header["box"] = box
    game = Richesses(header)
    rng = random.Random(seed)
    check = Invariants(game)
    drawer = Drawer(rng)
    setup = 2 if game.box.ordered else 1      # (plaques,) first: without the square order the table lays them
    play_randomly(game, drawer, max_actions=setup, state_key=state_key, on_action=check)
    if cash is not None:     # each player's cash set to a figure of its own (the refusal scan)
        for seat in range(players):
            game.apply(AdjustCash(seat, cash(seat) - game.cash(seat), "scan"))
    if poor:   # cash-poor: everyone keeps a few millions, so royalties and doubles ruin players
        for seat in range(players):
            keep = rng.randrange(1, 8) * 1_000_000
            game.apply(AdjustCash(seat, -(game.cash(seat) - keep), "poor"))
    actions = play_randomly(game, drawer, max_actions=max_actions, state_key=state_key, on_action=check,
                            finished=lambda g: g.over, max_refusals=3000, on_refused=on_refused)
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
    replayed = replayed_snapshots(Richesses, game.header, log, range(max(0, len(log) - 4), len(log)))
    for k in range(len(log), max(0, len(log) - 4), -1):
        game.undo()
        assert game.snapshot() == replayed[k - 1]


def test_a_title_given_by_correction_may_leave_the_rest_of_its_trust_behind():
    """Found by calling `play` with its own seed: a `give_title` correction moved one title
    of a trust to another player, which the invariant read as a sale splitting the trust."""
    game, _ = play(2, 4, poor=False)
    assert "give_title" in [a.kind for a in game.log]


def test_cash_poor_games_end_with_one_player_standing():
    ended = 0
    for seed in range(6):
        game, _ = play(seed, 2 + seed % 5, poor=True, max_actions=1500)
        ended += game.over
    assert ended >= 4


@props(6)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 6), poor=st.booleans())
def test_random_games_without_the_square_order_keep_the_same_invariants(seed, players, poor):
    """RM8 with no square order in the box file: the operator's landings (any square, any
    plaque), world tours answered, the same invariants as with the board's order."""
    game, actions = play(seed, players, poor, box=no_order_box())
    assert not game.box.ordered and "plaques" not in [a.kind for a in game.log]
    assert game.over or len(actions) == 400
    if game.over:
        assert [seat for _, seat, _ in game.ranking()] == game.in_game() + game.s.out[::-1]


@props(6)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 6), ordered=st.booleans())
def test_random_games_with_strict_claims_keep_the_same_invariants_and_replay(seed, players, ordered):
    """RM2 strict_claims: claims and closes are actions of the log; a replay of the log is
    the same game."""
    game, _ = play(seed, players, poor=True, max_actions=250, box=None if ordered else no_order_box(),
                   strict_claims=True)
    again = Richesses.replay(game.header, list(game.log))
    assert again.snapshot() == game.snapshot()


# ------------------------------------------- no refusal shows a player's cash (RM10)
def cash_figures(game):
    """Each player's cash as any text could write it: digits, French or English grouping."""
    figures = set()
    for seat in range(len(game.players)):
        cash = game.cash(seat)
        if cash:
            figures |= {str(cash), format_amount(cash, "fr"), format_amount(cash, "en")}
    return figures


def shows_cash(message, game):
    digits = re.sub(r"[\s,.\u202f\u00a0]", "", message)
    return [f for f in cash_figures(game) if f in message or re.sub(r"\D", "", f) in digits]


def test_no_refusal_of_richesses_shows_a_players_cash():
    """RM10: "Les surenchérisseurs ont le droit de tenir secret leur avoir liquide". Random
    games in both modes, each player's cash set to a figure of its own (ending in 23 456,
    which no price makes): every refusal, in French and English, is scanned for any
    player's cash at that moment; the refusals about cash (a bid, a purchase, an offer, a
    joker, a correction above it) are among them."""
    from engines.core.i18n import text
    seen, leaks = set(), []

    def scan(game, act, error):
        seen.add(error.key)
        for lang in ("fr", "en"):
            message = text(error.key, lang, **error.params)
            found = shows_cash(message, game)
            if found:
                leaks.append((act, message, found))

    for seed in range(6):
        for box in (None, no_order_box()):
            play(seed, 2 + seed % 5, poor=False, max_actions=150, box=box, on_refused=scan,
                 cash=lambda seat: (seat + 2) * 1_100_000 + 23_456)
    # an auction's bid above the bidder's cash, which random games seldom reach
    from engines.richesses.actions import Bid, Lots
    from test_richesses_rules import auction_game, rebase
    game, (four, _, _) = auction_game()
    game.apply(Lots(0, (four,)))
    game.s.ledger.balances[1] = 1_023_456                # Ben keeps less than the opening
    rebase(game)
    for amount in (game.decision().params["minimum"], 1_023_456 + 100_000):
        try:
            game.apply(Bid(1, amount))
        except IllegalAction as error:
            scan(game, Bid(1, amount), error)
    assert not leaks, leaks[:3]
    assert {"error.rm.cash", "error.auction_cash"} <= seen, sorted(seen)
    # the scanner finds a cash figure where a text prints one (the core ledger's refusal does)
    game = Richesses({"game": "richesses", "players": NAMES[:3], "seed": 1})
    error = IllegalAction("error.insufficient_funds", account="Ana", amount=70_000_000, balance=game.cash(0))
    assert shows_cash(text(error.key, "fr", **error.params), game)


@pytest.mark.parametrize("ordered", [True, False])
def test_texts_name_squares_in_words_never_by_protocol_ids(ordered):
    # Every event of random games and every prompt of their decisions, in both languages:
    # a square a text names is written as the box prints it (a country) or through the
    # catalog (`rm.place.*`: "Enchères", "Choix continental Europe"), never as the word
    # the engine passes ("Ana : auction ne vaut qu'après un tour du monde" before).
    seen = set()
    for seed in range(3):
        game, _ = play(seed, 3, False, 200, box=None if ordered else no_order_box())
        countries = {name for name, _ in game.box.countries.values()}
        for g, act, events in Richesses.unfold(game.header, list(game.log), checked=False):
            decision = g.decision()
            said = [(e.params, "event." + e.key) for e in events] + [(decision.params, decision.prompt)]
            for params, key in said:
                if "square" not in params:
                    continue
                for lang in ("fr", "en"):
                    shown = text(key, lang, **params)
                    square = str(params["square"])
                    assert square in countries or square not in shown, shown
                    seen.add(shown)
    assert any("Enchères" in s for s in seen) and any("Auction" in s for s in seen)
