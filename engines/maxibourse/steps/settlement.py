"""The operator settles a sale (MB3-MB6): each buyer in turn pays the price of the moment
(a rumour revealed before counts, MB5) and takes the lots; a buyer who cannot pay falls
into debt (MB8) and the settlement resumes after it."""

from engines.core.decision import Decision, Option
from engines.core.records import record
from engines.maxibourse.rules import FINE
from engines.maxibourse.steps.base import Frame
from engines.maxibourse.steps.debt import Debt
from engines.maxibourse.steps.results import Settled


@record
class Settlement(Frame):
    company: str
    seller: int
    purchases: list          # [(seat, lots)]
    au_cours: bool = False
    price: int | None = None  # fixed when the operator settles
    index: int = 0
    proceeds: int = 0

    def decision(self, game):
        params = {"company": self.company, "price": game.price(self.company),
                  "buyers": [f"{game.players[s]} {n}" for s, n in self.purchases]}
        return Decision("prompt.mb.settle", params, None, (Option("settle"),))

    def on_settle(self, game, a):
        self.price = game.price(self.company)  # a rumour revealed before now counts (MB5)
        game.emit("mb.settled", company=self.company, price=self.price)
        self.proceed(game)

    def proceed(self, game):
        while self.index < len(self.purchases):
            seat, lots = self.purchases[self.index]
            if not game.can_trade(seat):  # sanctioned or ruined since the declaration: no purchase (MB8)
                del self.purchases[self.index]
                game.emit("mb.purchase_withdrawn", player=game.players[seat], company=self.company, lots=lots)
                continue
            self.index += 1
            amount = self.price * game.shares * lots
            self.proceeds += amount  # the creditor is always paid in full (MB8)
            if game.cash(seat) >= amount:
                game.transfer(seat, self.seller, amount, "purchase")
                game.move_lots(self.company, self.seller, seat, lots)
            else:
                game.emit("mb.cannot_pay", player=game.players[seat], amount=amount, cash=game.cash(seat))
                debt = Debt(seat, [(self.seller, amount)], (self.company, lots, self.seller), FINE)
                game.push(debt)
                return debt.check(game)
        game.pop(Settled(self.proceeds, sum(n for _, n in self.purchases), self.au_cours))

    def resume(self, game, result):
        return self.proceed(game)
