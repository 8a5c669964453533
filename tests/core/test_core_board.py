"""engines.core.grid and engines.core.track: the map and the track the next games share."""
import copy

from hypothesis import given
from hypothesis import strategies as st

from engines.core.grid import Grid
from engines.core.track import Track
from props import props


# --------------------------------------------------------------------- grid
def grid_of(*rows, holes=()):
    """A grid drawn as text: one letter per piece, '.' for a free cell."""
    g = Grid(len(rows), len(rows[0]), frozenset(holes))
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch != ".":
                g.place((r, c), ch)
    return g


def test_groups_are_pieces_of_one_colour_sharing_sides_and_diagonals_do_not_join():
    g = grid_of("RR.B",
                ".R.B",
                "R..R")
    assert g.groups("R") == [frozenset({(0, 0), (0, 1), (1, 1)}), frozenset({(2, 0)}), frozenset({(2, 3)})]
    assert g.groups("B") == [frozenset({(0, 3), (1, 3)})]
    assert g.group((1, 2)) == frozenset()
    assert g.count("R") == 5


def test_a_placement_joins_the_groups_of_its_colour_it_touches_and_names_the_others():
    g = grid_of("R.R",
                "...",
                ".B.")
    assert g.would_join((0, 1), "R") == frozenset({(0, 0), (0, 1), (0, 2)})
    assert sorted(map(sorted, g.touching((1, 1)))) == [[(2, 1)]]
    g.place((0, 1), "R")
    assert g.groups("R") == [frozenset({(0, 0), (0, 1), (0, 2)})]


def test_holes_and_edges_are_not_on_the_map():
    g = grid_of("R.", "..", holes=[(1, 1)])
    assert g.neighbours((0, 1)) == [(0, 0)]
    assert not g.free((1, 1)) and not g.free((2, 0)) and g.free((1, 0))


CELLS = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5), st.sampled_from("RGBY")), max_size=30)


@props(100)
@given(cells=CELLS)
def test_the_groups_of_every_colour_partition_its_pieces_into_connected_sets(cells):
    g = Grid(5, 6)
    for r, c, colour in cells:
        if g.free((r, c)):
            g.place((r, c), colour)
    before = copy.deepcopy(g)
    for colour in "RGBY":
        groups = g.groups(colour)
        assert sum(len(x) for x in groups) == g.count(colour)
        assert set().union(*groups) == {cell for cell, col in g.pieces.items() if col == colour}
        for group in groups:
            for cell in group:
                assert g.group(cell) == group          # connected, and nothing outside joins it
    assert g == before                                 # reading never moves a piece


# -------------------------------------------------------------------- track
def test_a_linear_track_stops_on_its_last_square_and_loses_the_surplus():
    t = Track.new(60, players=2, circular=False)
    assert t.move(0, 4).passed == (1, 2, 3, 4)        # off the board, a 4 lands on square 4 (AV8)
    t.jump(0, 57)
    move = t.move(0, 4)                                # "57 + 4 stops at 60"
    assert (move.end, move.passed, move.laps) == (60, (58, 59, 60), 0) and t.at_end(0)
    assert t.move(0, 3).passed == () and t.positions == [60, 0]


def test_a_circular_track_counts_a_lap_each_time_a_pawn_crosses_the_start():
    t = Track.new(24, players=3, circular=True, start=1)
    move = t.move(2, 23 + 2)                           # from 1 round to 2: one lap
    assert (move.end, move.laps, move.passed[-3:]) == (2, 1, (24, 1, 2)) and t.laps == [0, 0, 1]
    assert t.jump(2, 10, crossing_start=True).laps == 1 and t.laps[2] == 2
    assert t.jump(1, 5).laps == 0


@props(100)
@given(length=st.integers(2, 80), circular=st.booleans(), rolls=st.lists(st.integers(0, 12), max_size=40))
def test_a_pawn_moves_one_square_per_point_until_a_linear_end(length, circular, rolls):
    t = Track.new(length, players=1, circular=circular)
    travelled = 0
    for roll in rolls:
        move = t.move(0, roll)
        assert len(move.passed) <= roll and move.end == (move.passed[-1] if move.passed else move.start)
        assert 0 <= move.end <= length
        travelled += len(move.passed)
    assert t.positions[0] == (travelled if not circular else (travelled - 1) % length + 1 if travelled else 0)
    assert t.laps[0] == (max(0, travelled - 1) // length if circular else 0)
