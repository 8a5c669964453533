"""The last player standing has won (RM11); only an undo follows."""

from engines.core.decision import Decision
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step


@record
class Over(Step):
    name = "over"

    def decision(self, game):
        return Decision("prompt.rm.over", {"winner": game.players[game.ranking()[0][1]]}, None, ())

    def refusal(self, game, a, decision):
        return IllegalAction("error.rm.over", kind=a.kind)
