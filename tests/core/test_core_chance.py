"""engines.core.chance: dice are a decision domain, filled by one core function.

An action flagged CHANCE left empty is filled by `Game.fill_chance` from the domains its
decision declares, in field order, with the rng the caller passes; the values are then
recorded in the action, so a replay never draws. The draws are the ones each game made
with its own dice code before (two `randint(1, 6)` for Maxi Bourse, one face of each
zone's die for Dividends, one tile of the four): the recorded games and the pinned device
dice of the e2e tests depend on it.
"""
import random
from pathlib import Path

import pytest

from engines.core.actions import CHANCE, ActionSet, DieFace, Seat, SignedDie, action
from engines.core.chance import chance_rng, device_roll, draw, fill_chance
from engines.core.decision import Choice, Decision, Die, Fixed, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.game import Game
from engines.dividends.box import DICE
from engines.dividends.rules import TILES
from firmware.script import run_script
from tests.dividends_helpers import finish_turns, new_game, set_marker, to_actions
from test_protocol import started_script

FOUR = ["Jean", "Marie", "Pierre", "Sam"]


def test_a_die_of_six_draws_what_randint_drew():
    for seed in range(200):
        old = random.Random(seed)
        assert draw(IntRange(1, 6), random.Random(seed)) == old.randint(1, 6)
    rng, old = random.Random(3), random.Random(3)
    assert [draw(IntRange(0, 20, 5), rng) for _ in range(50)] == [old.randrange(0, 21, 5) for _ in range(50)]


def test_a_die_with_its_own_faces_rolls_each_printed_face_and_allows_each_value():
    grey = Die.of(DICE["grey"], "grey")
    assert grey.values == (-3, -2, -1, 1, 2, 3) and grey.faces == DICE["grey"]
    assert 2 in grey and -2 in grey and 0 not in grey and True not in grey
    assert grey.to_json() == {"choice": [-3, -2, -1, 1, 2, 3], "faces": [1, -1, 2, -2, 3, -3], "die": "grey"}
    black = Die.of(DICE["black"])    # 1 1 2 2 3 3: each value comes up on two faces of six
    assert [draw(black, random.Random(s)) for s in range(100)] == [random.Random(s).choice(DICE["black"])
                                                                      for s in range(100)]
    assert draw(Fixed(None), random.Random(1)) is None and draw(Fixed(4), random.Random(1)) == 4
    assert draw(Choice(("A", "B")), random.Random(1)) == random.Random(1).choice(("A", "B"))


def test_maxi_bourse_roll_is_filled_in_field_order_as_before():
    game = run_script(started_script(seed=11))
    empty = game.ACTIONS.parse("roll", game.players)
    for i in range(40):
        old = random.Random(i)
        rolled = game.fill_chance(empty, random.Random(i))
        assert (rolled.d1, rolled.d2) == (old.randint(1, 6), old.randint(1, 6))
        assert type(rolled.d1) is DieFace
    rolled = game.fill_chance(empty, chance_rng(11, len(game.log)))
    assert (rolled.d1, rolled.d2) == device_roll(11, len(game.log))


def test_a_roll_half_given_is_not_completed_and_is_refused_naming_the_missing_die():
    """All or nothing: the table rolled (both dice given) or the device rolls (none)."""
    game = run_script(started_script(seed=11))
    half = game.ACTIONS.parse("roll 3", game.players)
    assert game.fill_chance(half, random.Random(1)) is half
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="d2"):
        game.apply(half)
    assert game.snapshot() == before
    given = game.ACTIONS.parse("roll 3 4", game.players)
    assert game.fill_chance(given, random.Random(1)) is given


def test_dividends_dice_and_tile_are_drawn_from_their_domains_as_before():
    g = new_game(FOUR)
    set_marker(g, "CEDARPINES", 100)       # black: up
    set_marker(g, "TRANS-PACIFIC", 450)    # white: down
    empty = g.ACTIONS.parse("dice", g.players)
    for i in range(30):
        old = random.Random(i)
        expected = [old.choice(DICE[g.zone(c)]) for c in g.companies]
        act = g.fill_chance(empty, random.Random(i))
        assert list(act.moves) == expected and all(type(m) is SignedDie for m in act.moves)
    to_actions(g)
    finish_turns(g)
    g.apply(g.ACTIONS.parse("pay", g.players))     # step 4, then the event tile (step 5)
    tile = g.ACTIONS.parse("event", g.players)
    for i in range(30):
        assert g.fill_chance(tile, random.Random(i)).tile == random.Random(i).choice(TILES)


# A tiny game: one chance action with a seat fixed by the decision and two dice.
@action("throw", CHANCE)
class Throw:
    player: Seat | None = None
    d1: DieFace | None = None
    d2: DieFace | None = None


@action("note")
class Note:
    d1: DieFace | None = None


class Dicey(Game):
    name = "dicey"
    ACTIONS = ActionSet(Throw, Note)
    PLAYERS = (2, 2)

    def initial_state(self):
        return []

    def decision(self):
        return Decision("prompt.throw", {}, 1, (Option("throw", {"d2": IntRange(1, 4), "player": Fixed(Seat(1)),
                                                                 "d1": Die.of((5, 5, 6))}),
                                                Option("note", {"d1": IntRange(1, 6)})))

    def on_throw(self, act):
        self.s.append((act.player, act.d1, act.d2))

    def on_note(self, act):
        pass


def test_fill_chance_draws_in_the_action_field_order_and_fixed_fields_draw_nothing():
    game = Dicey({"players": ["A", "B"]})
    rng, old = random.Random(9), random.Random(9)
    thrown = game.fill_chance(Throw(), rng)
    assert thrown == Throw(Seat(1), old.choice((5, 5, 6)), old.randint(1, 4))   # d1 before d2
    assert type(thrown.player) is Seat
    assert game.fill_chance(Throw(player=Seat(1)), random.Random(9)) == thrown  # a Fixed field given is no roll
    note = Note()
    assert game.fill_chance(note, random.Random(9)) is note   # not a chance action: never drawn
    game.apply(thrown)
    assert game.s == [(1, thrown.d1, thrown.d2)]


def test_a_chance_action_not_offered_now_is_left_as_it_is():
    class Quiet(Dicey):
        def decision(self):
            return Decision("prompt.note", {}, None, (Option("note", {"d1": IntRange(1, 6)}),))

    game = Quiet({"players": ["A", "B"]})
    empty = Throw()
    assert fill_chance(game, empty, random.Random(1)) is empty


def test_no_game_package_draws_its_own_dice():
    """One place draws: engines/core/chance.py. A game's package draws itself only for a draw
    that is not one value per field (Dividends' deal of tokens, a permutation) and in its
    random player (tests and benches)."""
    root = Path(__file__).resolve().parents[2] / "engines"
    allowed = {"core/chance.py", "core/random_play.py", "dividends/random_play.py", "dividends/steps/auction.py",
               "avendre/random_play.py"}
    drawing = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        if rel not in allowed and any(f"rng.{f}(" in text for f in ("randint", "choice", "randrange", "sample",
                                                                      "random", "shuffle")):
            drawing.append(rel)
    assert drawing == []
