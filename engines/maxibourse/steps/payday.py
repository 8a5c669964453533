"""Payday at the end of a round of turns (IV, MB7: every round in Junior, every two in
Senior, every three in Masters, unless the operator calls it: the "manual" setting)."""

from engines.core.decision import Decision, Option
from engines.core.records import record
from engines.maxibourse.steps.base import Frame


@record
class PaydayStep(Frame):
    def decision(self, game):
        return Decision("prompt.mb.payday", {"round": game.s.round}, None, (Option("payday"),))

    def on_payday(self, game, a):
        game.payday()
        game.s.steps.pop()
        game.after_payday()
