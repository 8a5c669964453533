"""The game is over: the ranking by cash is final (DV7); only an undo follows."""

from engines.core.decision import Decision
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step


@record
class Over(Step):
    name = "over"

    def decision(self, game):
        return Decision("prompt.dv.over", {"winners": [game.players[s] for s in game.winners()]}, None, ())

    def refusal(self, game, a, decision):
        return IllegalAction("error.dv.over", kind=a.kind)
