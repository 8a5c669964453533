"""The game is over: the settlement (AV13) is final; only an undo follows."""

from engines.core.decision import Decision
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step


@record
class Over(Step):
    reason: str = "goal"      # goal, bank_unsold, none_left
    name = "over"

    def decision(self, game):
        return Decision("prompt.av.over", {"winners": ", ".join(game.players[s] for s in game.winners())}, None, ())

    def refusal(self, game, a, decision):
        return IllegalAction("error.av.over", kind=a.kind)
