"""The end of the game, last: every certificate is sold back to the chart, one per player
per pass in turn order, the player choosing which (DV7)."""

from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.steps.results import Liquidated


@record
class Liquidation(Step):
    index: int = 0                     # counts on past the end of the order: pass after pass

    name = "liquidation"

    def actor(self, game):
        order = game.s.order
        return order[self.index % len(order)]

    def decision(self, game):
        seat = self.actor(game)
        return Decision("prompt.dv.liquidation", {"player": game.players[seat]}, seat, (
            Option("sell", {"player": Fixed(seat), "company": Choice(tuple(game.portfolio(seat)))}),))

    def refusal(self, game, a, decision):
        if a.kind != "sell" or a.company not in game.companies:
            return None
        return game.trade_refusal(a)

    def on_sell(self, game, a):
        game.sell(a.player, a.company, game.sell_price(a.company), "liquidation")
        self.index += 1

    def advance(self, game):
        while any(game.held(c) for c in game.companies):
            seat = self.actor(game)
            held = list(game.portfolio(seat))
            if len(held) > 1:
                return None  # the player chooses which certificate to sell
            if held:
                game.sell(seat, held[0], game.sell_price(held[0]), "liquidation")
            self.index += 1
        return Liquidated()
