"""Step 4: dividends are paid and majority holders draw influence cards (DV5); at the end
of the game, the final dividends alone (DV7)."""

from engines.core.decision import Decision, Option
from engines.core.ledger import BANK
from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.steps.results import Paid


@record
class PaymentStep(Step):
    final: bool = False                # the end of the game: final dividends only

    @property
    def name(self):
        return "final_dividends" if self.final else "payment"

    def decision(self, game):
        prompt = "prompt.dv.final_dividends" if self.final else "prompt.dv.payment"
        return Decision(prompt, {"year": game.s.year}, None, (Option("payout"),))

    def on_payout(self, game, a):
        s, players = game.s, game.players
        paid = {}
        for seat in s.order:
            amount = sum(s.markers[c] * n for c, n in game.portfolio(seat).items())
            game.transfer(BANK, seat, amount, "final_dividends" if self.final else "dividends")
            paid[players[seat]] = {"dividends": amount, "cards": 0}
            if amount:
                game.emit("dv.dividends", player=players[seat], amount=amount)
        if not self.final:
            for seat in s.order:  # DV5: one card per certificate of each company led
                wanted = sum(game.count(c, seat) for c in game.companies if s.tiles[c] == seat)
                if wanted:
                    got = game.draw_cards(seat, wanted)
                    paid[players[seat]]["cards"] = got
                    game.emit("dv.cards_drawn", player=players[seat], cards=got)
        s.last_payment = paid
        return Paid(final=self.final)
