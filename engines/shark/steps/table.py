"""The bottom of Shark's stack: the deal, the first player, then turns clockwise from him
until the end (SH10), when every share is sold at its value and the game is over.

It never waits itself: each step above it hands it its result, and it puts the next step
on top."""

from engines.core.records import record
from engines.core.steps import Step
from engines.shark.steps.results import Dealt, FirstNamed, GameEnded, TurnOver
from engines.shark.steps.start import FirstStep


@record
class Table(Step):
    name = "table"

    def resume(self, game, result):
        if isinstance(result, Dealt):
            game.push(FirstStep())
        elif isinstance(result, FirstNamed):
            game.emit("sh.first", player=game.players[result.seat])
            game.start_turn(result.seat)
        elif isinstance(result, TurnOver):
            if game.end_reason():
                game.finish_game(game.end_reason())
            else:
                game.start_turn(game.next_seat(result.seat))
        elif isinstance(result, GameEnded):
            game.finish_game(result.reason)
        else:
            raise AssertionError(f"no step follows {result!r}")
        return None
