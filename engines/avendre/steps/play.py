"""Who starts, then the round of turns: each player in seat order, skipping those out of
the game ("Le sort décide qui jettera le dé le premier, les autres suivent à tour de rôle")."""

from engines.core.decision import Choice, Decision, Option
from engines.core.records import record
from engines.core.steps import Result, Step


@record
class Started(Result):
    seat: int


@record
class TurnOver(Result):
    seat: int


@record
class Start(Step):
    """The table names who rolls first (the device may draw it: FIRST_PLAYER)."""
    name = "start"

    def decision(self, game):
        seats = tuple(range(len(game.players)))
        return Decision("prompt.av.first", {}, None, (Option("first", {"player": Choice(seats)}),))

    def on_first(self, game, a):
        game.emit("av.first", player=game.players[a.player])
        return Started(a.player)


@record
class Play(Step):
    """The bottom of the stack: puts the next player's turn on top."""
    next: int | None = None
    name = "play"

    def decision(self, game):
        raise AssertionError("the round of turns always has a turn or the start on top")

    def resume(self, game, result):
        if isinstance(result, Started):
            self.next = result.seat
        elif isinstance(result, TurnOver):
            self.next = game.next_seat(result.seat)
        return None

    def advance(self, game):
        if self.next is None:
            return None
        seat, self.next = self.next, None
        if game.eliminated(seat):
            self.next = game.next_seat(seat)
            return None
        game.start_turn(seat)
        return None
