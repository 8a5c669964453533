"""Ties: equal fortunes share a rank and the next rank skips (1, 1, 3), in every game
(SH10, AV13, DV7 say so; the core's ranking, engines/core/table.py, does it for all)."""
import pytest

from engines import game_class
from test_game_contract import GAMES, header


@pytest.mark.parametrize("name", GAMES)
def test_equal_fortunes_share_a_rank_and_the_next_rank_skips(name):
    game = game_class(name)(header(name, 4, 1))
    game.fortunes = lambda: {0: 500, 1: 900, 2: 900, 3: 100}
    assert [(rank, seat) for rank, seat, _ in game.ranking()] == [(1, 1), (1, 2), (3, 0), (4, 3)]
    assert game.winners() == [1, 2]
