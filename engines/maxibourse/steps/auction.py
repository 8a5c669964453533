"""More lots asked than offered (MB4): the price rises step by step and the bidders cut
their requests until they fit."""

from engines.core.decision import Choice, Decision, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.rounds import LotAuction
from engines.maxibourse.steps.base import Frame
from engines.maxibourse.steps.results import AuctionOver


@record
class Auction(Frame):
    company: str
    seller: int
    auction: LotAuction

    def decision(self, game):
        a = self.auction
        pending = a.pending()
        params = {"company": self.company, "price": a.price, "proposal": a.proposal, "lots": a.lots,
                  "bidders": [game.players[s] for s, _ in a.bidders]}
        return Decision("prompt.mb.auction", params, None, (
            Option("raise"),
            Option("keep", {"player": Choice(tuple(s for s, _ in pending)),
                           "lots": IntRange(0, max(n for _, n in pending) - 1)})))

    def on_raise(self, game, a):
        self.after_answer(game, self.auction.close_step())

    def on_keep(self, game, a):
        current = dict(self.auction.bidders)[a.player]
        if a.lots >= current:
            raise IllegalAction("error.mb.bid", player=game.players[a.player], lots=a.lots, current=current)
        game.emit("mb.bid", player=game.players[a.player], lots=a.lots, price=self.auction.proposal)
        self.after_answer(game, self.auction.answer(a.player, a.lots))

    def after_answer(self, game, result):
        if result is None:
            if not self.auction.answers:  # a step closed with requests still too high
                game.set_price(self.company, self.auction.price, "auction")
            return
        price, allocation = result
        game.set_price(self.company, price, "auction")
        game.pop(AuctionOver(price, allocation))
