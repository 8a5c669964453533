"""The end of the game, first: each player in turn order plays their last influence cards
(DV7); a player without any is skipped."""

from engines.core.decision import Decision, Fixed, Option
from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.steps.results import CardsPlayed


@record
class FinalInfluence(Step):
    index: int = 0

    name = "final_influence"

    def actor(self, game):
        order = game.s.order
        return order[self.index] if self.index < len(order) else None

    def decision(self, game):
        seat = self.actor(game)
        params = {"player": game.players[seat], "cards": game.s.hands[seat]}
        return Decision("prompt.dv.final_influence", params, seat,
                        tuple(game.influence_options(seat)) + (Option("done", {"player": Fixed(seat)}),))

    def refusal(self, game, a, decision):
        return game.influence_refusal(a) if a.kind == "influence" else None

    def on_influence(self, game, a):
        game.play_influence(a.player, a.company, a.move)

    def on_done(self, game, a):
        game.return_cards(a.player)
        self.index += 1

    def advance(self, game):
        order, hands = game.s.order, game.s.hands
        while self.index < len(order) and hands[order[self.index]] == 0:
            self.index += 1
        return CardsPlayed() if self.index >= len(order) else None
