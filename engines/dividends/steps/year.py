"""The bottom of Dividends' stack: five years of five steps, then the end (DV7).

It never waits itself: each step above it hands it its result, and it puts the next
step on top."""

from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.rules import YEARS
from engines.dividends.steps.actions import ActionsStep
from engines.dividends.steps.auction import AuctionStep
from engines.dividends.steps.dice import DiceStep
from engines.dividends.steps.event import EventStep
from engines.dividends.steps.final_influence import FinalInfluence
from engines.dividends.steps.liquidation import Liquidation
from engines.dividends.steps.over import Over
from engines.dividends.steps.payment import PaymentStep
from engines.dividends.steps.results import (CardsPlayed, EventOver, Liquidated, Paid, Rolled, TurnOrderSet,
                                              TurnsPlayed)


@record
class Years(Step):
    name = "years"

    def resume(self, game, result):
        s = game.s
        if isinstance(result, Rolled):          # 1 -> 2: everyone checked for 50 $, in the last turn order
            game.enter(AuctionStep(short=list(s.order)))
        elif isinstance(result, TurnOrderSet):  # 2 -> 3
            s.order = list(result.order)
            game.emit("dv.turn_order", order=[game.players[x] for x in s.order])
            game.enter(ActionsStep())
        elif isinstance(result, TurnsPlayed):   # 3 -> 4
            game.enter(PaymentStep())
        elif isinstance(result, Paid):          # 4 -> 5, or the final dividends -> liquidation
            game.enter(Liquidation() if result.final else EventStep())
        elif isinstance(result, EventOver):     # 5 -> the next year, or the end of the game
            if s.year < YEARS:
                s.year += 1
                game.emit("dv.year", year=s.year)
                game.enter(DiceStep())
            else:
                game.enter(FinalInfluence())
        elif isinstance(result, CardsPlayed):
            game.enter(PaymentStep(final=True))
        elif isinstance(result, Liquidated):
            game.enter(Over())
            game.emit("dv.game_over", winners=[game.players[x] for x in game.winners()],
                      ranking=[[game.players[x], c] for _, x, c in game.ranking()])
        else:
            raise AssertionError(f"no step follows {result!r}")
        return None
