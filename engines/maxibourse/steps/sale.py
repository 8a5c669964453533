"""Lots offered to the table (MB6): the others answer in a speaking round from the
seller's left; nobody buying lowers the price, and after two such rounds the bank buys."""

from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.ledger import BANK
from engines.core.records import record
from engines.core.rounds import LotAuction, SpeakingRound
from engines.maxibourse.rules import PRICE_STEP
from engines.maxibourse.steps.auction import Auction
from engines.maxibourse.steps.base import Frame
from engines.maxibourse.steps.results import AuctionOver, Sold
from engines.maxibourse.steps.settlement import Settlement


@record
class Sale(Frame):
    seller: int              # a seat, or the bank selling seized lots
    company: str
    lots: int                # lots still offered
    round: SpeakingRound
    declines: int = 0        # rounds in which nobody bought (MB6)
    proceeds: int = 0
    exclude: int | None = None  # a defaulter may not buy back the lots seized from them

    def actor(self, game):
        return self.round.speaker

    def decision(self, game):
        seat = self.round.speaker
        params = {"player": game.players[seat], "seller": game.holder_name(self.seller), "company": self.company,
                  "price": game.price(self.company), "lots": self.lots}
        return Decision("prompt.mb.sale", params, seat,
                        (Option("declare", {"player": Fixed(seat), "lots": Choice(tuple(range(self.lots + 1)))}),))

    def on_declare(self, game, a):
        self.round.answer(a.player, a.lots)
        if self.round.done:
            self.end_round(game)

    def end_round(self, game):
        takers = self.round.takers()
        requested = sum(n for _, n in takers)
        if requested == 0:
            # MB6: -10 $ per lot offered and per player declining; two such rounds, then the bank
            game.set_price(self.company, game.price(self.company) - PRICE_STEP * self.lots * len(self.round.order),
                           "decline")
            self.declines += 1
            if self.declines >= 2:
                return self.bank_buys(game)
            return self.new_round(game)
        if requested <= self.lots:
            return game.push(Settlement(self.company, self.seller, takers))
        game.push(Auction(self.company, self.seller,
                          LotAuction(self.lots, game.price(self.company), PRICE_STEP, takers)))

    def new_round(self, game):
        anchor = self.exclude if self.seller == BANK else self.seller
        self.round = SpeakingRound(game.buyers_after(anchor, self.exclude))
        if self.round.done:
            self.end_round(game)

    def bank_buys(self, game):
        game.set_price(self.company, game.price(self.company) - PRICE_STEP * self.lots, "bank_buys")
        amount = game.price(self.company) * game.shares * self.lots
        if self.seller != BANK:
            game.transfer(BANK, self.seller, amount, "sale")
        game.move_lots(self.company, self.seller, BANK, self.lots)
        game.emit("mb.bank_bought", company=self.company, lots=self.lots, price=game.price(self.company), amount=amount)
        self.proceeds += amount
        game.pop(Sold(self.proceeds))

    def resume(self, game, result):
        if isinstance(result, AuctionOver):
            if self.lots == 0:  # withdrawn by a correction during the auction
                return game.pop(Sold(self.proceeds))
            return game.push(Settlement(self.company, self.seller, result.allocation))
        self.proceeds += result.proceeds  # Settled
        self.lots -= result.lots
        if self.lots == 0:
            return game.pop(Sold(self.proceeds))
        return self.new_round(game)
