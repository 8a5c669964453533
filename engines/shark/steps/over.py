"""The game is over: every share was sold at its value, the ranking by fortune is final
(SH10); only an undo follows."""

from engines.core.decision import Decision
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step


@record
class Over(Step):
    reason: str = ""
    name = "over"

    def decision(self, game):
        return Decision("prompt.sh.over", {"winners": [game.players[s] for s in game.winners()]}, None, ())

    def refusal(self, game, a, decision):
        return IllegalAction("error.sh.over", kind=a.kind)
