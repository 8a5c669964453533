"""Shark's properties on random boards and random legal games.

* chains: the core grid's groups and the SH2 value against a brute-force flood fill of
  their own, on random boards; the SH6 legality against its definition;
* random legal games (2 to 6 players, every setting, players who buy all they can, so
  falls, forced sales and eliminations happen): no exception, never stuck, money and
  shares conserved, the stock never below zero, no two colours ever orthogonally
  adjacent, the values those of the map, undo equal to replay.
"""
import random
import weakref

from hypothesis import example, given
from hypothesis import strategies as st

from engines.core.actions import ANYTIME, CORRECTION, Cell
from engines.core.decision import Choice, Fixed, IntRange
from engines.core.grid import Grid
from engines.core.random_play import play_randomly
from engines.shark import board
from engines.shark.game import Shark
from engines.shark.rules import BUILDINGS, COMPANIES, SHARES, ZONES
from game_helpers import replayed_snapshots
from props import played, props


# ------------------------------------------------------------------ chains, brute force
def flood(pieces, rows, cols):
    """Every chain of every colour by a flood fill written apart from the grid's."""
    label, chains = {}, []
    for start in sorted(pieces):
        if start in label:
            continue
        colour, todo, chain = pieces[start], [start], set()
        while todo:
            r, c = todo.pop()
            if (r, c) in chain:
                continue
            chain.add((r, c))
            label[(r, c)] = len(chains)
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if pieces.get(n) == colour and n not in chain:
                    todo.append(n)
        chains.append((colour, frozenset(chain)))
    return chains


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    return rows, cols, draw(st.dictionaries(cells, st.sampled_from(COMPANIES), max_size=rows * cols))


@props(200)
@given(boards())
@example((1, 2, {(0, 0): "RED", (0, 1): "RED"}))
def test_chains_and_values_agree_with_a_brute_force_flood_fill(spec):
    rows, cols, pieces = spec
    grid = Grid(rows, cols, frozenset(), dict(pieces))
    expected = flood(pieces, rows, cols)
    for colour in COMPANIES:
        mine = sorted(sorted(g) for g in grid.groups(colour))
        theirs = sorted(sorted(chain) for col, chain in expected if col == colour)
        assert mine == theirs
        sizes = [len(chain) for col, chain in expected if col == colour]
        chained = sum(n for n in sizes if n >= 2)
        assert board.value_of(grid, colour) == (min(chained, 15) if chained else (1 if sizes else 0))
        assert board.value_of(grid, colour, capped=True) == (min(sum(min(n, 7) for n in sizes if n >= 2), 15)
                                                             if chained else (1 if sizes else 0))


@props(200)
@given(boards(), st.integers(0, 7), st.integers(0, 7), st.sampled_from(COMPANIES))
def test_a_placement_is_legal_exactly_when_its_chain_outnumbers_every_other_colour_it_touches(spec, r, c, colour):
    rows, cols, pieces = spec
    cell = (r % rows, c % cols)
    grid = Grid(rows, cols, frozenset(), dict(pieces))
    if cell in pieces:
        assert not board.legal(grid, cell, colour)
        return
    with_it = dict(pieces) | {cell: colour}
    chains = flood(with_it, rows, cols)
    mine = next(chain for col, chain in chains if cell in chain)
    near = {(cell[0] + dr, cell[1] + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    touched = [chain for col, chain in flood(pieces, rows, cols) if col != colour and chain & near]
    legal = all(len(mine) > len(chain) for chain in touched)
    assert board.legal(grid, cell, colour) == legal
    if legal:
        result = board.outcome(grid, cell, colour)
        assert result.chain == len(mine)
        assert sorted(x for cells in result.removed.values() for x in cells) == sorted(x for ch in touched for x in ch)


# ------------------------------------------------------------------ random legal games
class Greedy:
    """Actions drawn from the pending decision; purchases of as many shares as allowed
    most of the time, so that holders are exposed to falls (cash-poor games)."""

    def __init__(self, rng):
        self.rng = rng

    def __call__(self, game):
        options = game.decision().options
        if not options:
            return None
        moves = [o for o in options if not game.ACTIONS.has(o.kind, ANYTIME)]
        option = self.rng.choice(moves if moves and self.rng.random() < 0.98 else options)
        cls = game.ACTIONS.classes[option.kind]
        values = {}
        for name, dom in option.fields.items():
            if isinstance(dom, Fixed):
                values[name] = dom.value
            elif isinstance(dom, Choice):
                values[name] = self.rng.choice(dom.values)
            elif isinstance(dom, IntRange):
                greedy = option.kind == "buy" and self.rng.random() < 0.7
                values[name] = dom.hi if greedy else self.rng.randint(dom.lo, dom.hi)
        if game.ACTIONS.has(option.kind, CORRECTION):
            values["reason"] = "property test"
        if option.kind == "lost":   # a value the operator could read: all removed, or some left
            left = game.s.on_board[values["company"]] - values["removed"]
            values["value"] = 0 if left <= 0 else self.rng.randint(1, game.s.values[values["company"]] or 1)
        return game.fill_chance(cls(**values), self.rng)


# The maps each game has reached and had checked (see check_invariants), kept as long as the game.
MAPS_SEEN = weakref.WeakKeyDictionary()


def check_invariants(game):
    """Every invariant after an action. What depends on the map alone (no two colours
    touching, `has_legal_cell` against `legal_cells` in every zone) is checked once per map
    a game reaches: an action other than a placement or a loss leaves the map as it was,
    and the same map gives the same answers."""
    s = game.s
    assert s.ledger.total() == 0                                  # money only moves
    for c in COMPANIES:
        held = sum(s.shares.of(c, seat) for seat in range(len(game.players)))
        assert held + game.stock(c) == SHARES and game.stock(c) >= 0
        assert 0 <= s.values[c] <= 15 and s.on_board[c] <= s.used[c] <= BUILDINGS
    for seat in range(len(game.players)):
        assert game.cash(seat) >= 0
    if game.grid is not None:
        grid = game.grid
        for c in COMPANIES:
            assert s.on_board[c] == grid.count(c)
            assert s.values[c] == board.value_of(grid, c, game.settings["variant1"])
        pieces, seen = frozenset(s.pieces.items()), MAPS_SEEN.setdefault(game, set())
        if pieces in seen:
            return
        seen.add(pieces)
        for cell, colour in s.pieces.items():
            assert all(s.pieces.get(n, colour) == colour for n in grid.neighbours(cell)), cell
        for zone in ZONES:        # what a turn asks after a roll, found at the first legal cell
            assert [game.has_legal_cell(zone, c) for c in COMPANIES] == [bool(game.legal_cells(zone, c))
                                                                          for c in COMPANIES]


settings_st = st.fixed_dictionaries({
    "grid": st.sampled_from(["box", "box", "none"]),
    "buy_limit": st.sampled_from(["turn", "each_window"]),
    "forced_rounding": st.sampled_from(["thousand_up", "exact"]),
    "variant1": st.booleans(), "variant2": st.booleans(), "variant3": st.booleans(),
})


@props(12)
@given(st.integers(2, 6), st.integers(0, 10**6), settings_st)
@example(4, 0, {"grid": "none", "buy_limit": "turn", "forced_rounding": "thousand_up",
                "variant1": False, "variant2": False, "variant3": False})
@example(3, 17715, {"grid": "none", "buy_limit": "turn", "forced_rounding": "exact",     # make fuzz, 2026-11-26:
                    "variant1": True, "variant2": False, "variant3": True})                # shares corrected onto a player out
def test_random_legal_games_keep_every_invariant_and_undo_is_replay(players, seed, settings):
    header = {"game": "shark", "players": [f"P{i}" for i in range(players)], "seed": seed, "settings": settings}
    game = Shark(header)
    rng = random.Random(seed)
    actions = play_randomly(game, Greedy(rng), max_actions=1500, state_key=lambda g: (g.snapshot(), len(g.log)),
                            finished=lambda g: g.over, on_action=lambda g, a, e: check_invariants(g))
    played("shark", len(actions))
    assert game.over, f"not over after {len(actions)} actions"
    assert sum(game.cash(s) for s in range(players)) == -game.s.ledger[-1]
    assert all(not game.s.shares.portfolio(s) for s in range(players))   # everything liquidated
    n = len(game.log)
    replayed = replayed_snapshots(Shark, header, game.log, range(n - min(5, n), n + 1))
    assert replayed[n] == game.snapshot()
    for _ in range(min(5, n)):
        game.undo()
        assert game.snapshot() == replayed[len(game.log)]


def test_cell_choices_are_written_as_in_the_command_language():
    game = Shark({"game": "shark", "players": ["A", "B"], "seed": 1, "settings": {}})
    game.apply(game.ACTIONS.parse("deal RED RED", game.players))
    game.apply(game.ACTIONS.parse("first A", game.players))
    game.apply(game.ACTIONS.parse("roll 1 RED", game.players))
    cells = game.decision().to_json()["options"][0]["fields"]["cell"]["choice"]
    assert cells[:3] == ["A1", "B1", "C1"] and Cell("B1") in game.decision().option("place").fields["cell"]
