"""The two auctions of A Vendre!, both open: anyone raises any time on the seat buttons,
the silence closes (the firmware sends `sold` after the configured silence).

- A debtor's shop (AV11): the other players bid; "Le banquier annonce comme première mise
  la moitié du prix d'achat": the bank opens at half PA, so a player's bid must exceed it
  (half PA + the step, then raises of the step); nobody bids: the bank takes it at half PA
  (the core debt remedy, engines/core/debt.py AuctionDeed).
- The bank itself (AV12): "la banque est mise aux enchères en partant du prix minimum de
  2550.—": every player in the game may bid, 2 550 exactly allowed; the price goes into
  the bank's till, the buyer owns the bank, and the bank pays what it owed. This step is
  pushed by the game on top of whatever was under way and removes itself when it closes,
  so the step below goes on as if the bank had paid at once.
"""

from engines.avendre.rules import MAX_AMOUNT
from engines.core.debt import DeedSold
from engines.core.decision import Choice, Decision, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.open_auction import OpenAuction
from engines.core.records import record
from engines.core.steps import Step


def bid_options(auction: OpenAuction) -> tuple:
    options = []
    if auction.may_bid():
        options.append(Option("bid", {"player": Choice(tuple(auction.may_bid())),
                                      "amount": IntRange(auction.minimum, max(auction.minimum, MAX_AMOUNT), auction.step)}))
    return tuple(options) + (Option("sold"),)


class Auction(Step):
    """What both auctions share: their `auction` (an OpenAuction) refuses a bid in its own
    words, and its leader's bid is what a cash correction leaves him."""

    def refusal(self, game, a, decision):
        if a.kind != "bid" or not 0 <= a.player < len(game.players):
            return None
        try:
            self.auction.check(a.player, a.amount, game.cash(a.player), game.players[a.player])
        except IllegalAction as reason:  # the auction's own words
            return reason
        return None

    def high_bid_of(self, seat):
        return self.auction.lead(seat)


@record
class ShopAuction(Auction):
    seller: int
    title: str
    auction: OpenAuction
    name = "shop_auction"

    def decision(self, game):
        a = self.auction
        params = {"player": game.players[self.seller], "title": game.title_label(self.title),
                  "half": game.half_pa(self.title), "high": a.high or 0,
                  "bidder": "-" if a.high_bidder is None else game.players[a.high_bidder], "minimum": a.minimum}
        prompt = "prompt.av.shop_auction" if a.high is not None else "prompt.av.shop_auction_open"
        return Decision(prompt, params, None, bid_options(a))

    def refusal(self, game, a, decision):
        if a.kind == "bid" and a.player == self.seller:   # "les autres joueurs" bid (AV11)
            return IllegalAction("error.av.seller_bids", player=game.players[a.player],
                                 title=game.title_label(self.title))
        return super().refusal(game, a, decision)


    def on_bid(self, game, a):
        self.auction.bid(a.player, a.amount, game.cash(a.player), game.players[a.player])
        game.emit("av.bid", player=game.players[a.player], amount=a.amount, item=game.title_label(self.title))

    def on_sold(self, game, a):
        won = self.auction.hammer()
        if won is None:
            game.emit("av.no_bid", title=game.title_label(self.title), half=game.half_pa(self.title))
            return DeedSold(self.title, None, 0)
        buyer, price = won
        game.transfer(buyer, self.seller, price, "auction")
        game.move_title(self.title, self.seller, buyer)
        game.emit("av.shop_sold", title=game.title_label(self.title), player=game.players[buyer], amount=price)
        return DeedSold(self.title, buyer, price)


@record
class BankAuction(Auction):
    auction: OpenAuction
    name = "bank_auction"

    def decision(self, game):
        a = self.auction
        params = {"owed": sum(amount for _, amount in game.s.bank_owed), "high": a.high or 0,
                  "bidder": "-" if a.high_bidder is None else game.players[a.high_bidder], "minimum": a.minimum}
        prompt = "prompt.av.bank_auction" if a.high is not None else "prompt.av.bank_auction_open"
        return Decision(prompt, params, None, bid_options(a))


    def on_bid(self, game, a):
        self.auction.bid(a.player, a.amount, game.cash(a.player), game.players[a.player])
        game.emit("av.bid", player=game.players[a.player], amount=a.amount, item=game.bank_label())

    def on_sold(self, game, a):
        assert game.s.steps[-1] is self
        game.s.steps.pop()   # the step below goes on once the bank has paid (or cannot)
        won = self.auction.hammer()
        if won is not None:
            buyer, price = won
            game.transfer(buyer, BANK, price, "bank_auction")
            game.s.bank_owner = buyer
            game.emit("av.bank_sold", player=game.players[buyer], amount=price)
            game.settle_bank()
        else:
            game.bank_unsold()
        return None
