"""An auction square (RM4, RM9): the seller's trusts go up one lot each, in his order.

Each lot opens at half its total purchase price; every player in the game but the seller
may bid (winners of earlier lots included), the first bid at the opening price or more,
then raises of at least 100 000, never above cash (refused without showing it). The clock
is the box's: 7 seconds of silence (the decision carries it, RM9) and the `sold` action
closes the lot. Nobody bid: the bank pays the seller half price and the titles go back to
the stock, one by one."""
from dataclasses import field

from engines.core.decision import Choice, Decision, IntRange, Option
from engines.core.deeds import STOCK
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.open_auction import OpenAuction
from engines.core.records import record
from engines.core.steps import Step
from engines.richesses.rules import MAX_AMOUNT, RAISE
from engines.richesses.steps.results import AuctionOver


@record
class AuctionStep(Step):
    seller: int
    lots: list                               # productions still to sell, the one on sale first
    auction: OpenAuction | None = None
    results: list = field(default_factory=list)   # [production, buyer or None, price]
    name = "auction"

    def advance(self, game):
        if self.auction is None:
            if not self.lots:
                return AuctionOver(self.seller)
            production = self.lots[0]
            bidders = [s for s in game.in_game() if s != self.seller]
            self.auction = OpenAuction(production, bidders, game.trust_price(self.seller, production) // 2, RAISE,
                                       on_grid=False)
            game.emit("rm.lot", seller=game.players[self.seller], production=game.box.production_name(production),
                      titles=len(game.trust(self.seller, production)), opening=self.auction.opening)
        return None

    def decision(self, game):
        a = self.auction
        params = {"seller": game.players[self.seller], "production": a.item, "minimum": a.minimum,
                  "high": a.high or 0, "bidder": "-" if a.high_bidder is None else game.players[a.high_bidder],
                  "lots_left": len(self.lots)}
        options = []
        if a.may_bid():
            options.append(Option("bid", {"player": Choice(tuple(a.may_bid())),
                                          "amount": IntRange(a.minimum, max(a.minimum, MAX_AMOUNT))}))
        options.append(Option("sold"))
        prompt = "prompt.rm.auction" if a.high is not None else "prompt.rm.auction_open"
        return Decision(prompt, params, None, tuple(options))

    def refusal(self, game, act, decision):
        if act.kind == "bid" and act.player == self.seller:      # the seller does not bid (RM9)
            return IllegalAction("error.rm.seller_bids", player=game.players[act.player],
                                 production=game.box.production_name(self.auction.item))
        if act.kind == "bid" and 0 <= act.player < len(game.players):
            try:
                self.auction.check(act.player, act.amount, game.cash(act.player), game.players[act.player])
            except IllegalAction as error:
                return error
        return None

    def cash_corrected(self, game, seat):
        """A high bid above its bidder's corrected cash is withdrawn; the previous one stands."""
        withdrawn = None if self.auction is None else self.auction.withdraw_unpaid(seat, game.cash(seat))
        if withdrawn is not None:
            a = self.auction
            game.emit("rm.bid_withdrawn", player=game.players[seat], amount=withdrawn,
                      bidder="-" if a.high_bidder is None else game.players[a.high_bidder], high=a.high or 0)

    def on_bid(self, game, act):
        self.auction.bid(act.player, act.amount, game.cash(act.player), game.players[act.player])
        game.emit("rm.bid", player=game.players[act.player], amount=act.amount,
                  production=game.box.production_name(self.auction.item))
        return None

    def on_sold(self, game, act):
        production, seller = self.auction.item, self.seller
        won = self.auction.hammer()
        if won is None:   # "S'il n'y a pas de surenchère du tout, les titres sont acquis par la banque"
            price = self.auction.opening
            game.move_trust(seller, production, STOCK)
            game.transfer(BANK, seller, price, "auction")
            game.emit("rm.bank_bought", seller=game.players[seller],
                      production=game.box.production_name(production), amount=price)
            self.results.append([production, None, price])
        else:
            buyer, price = won
            game.transfer(buyer, seller, price, "auction")
            game.move_trust(seller, production, buyer)
            game.emit("rm.lot_sold", seller=game.players[seller], production=game.box.production_name(production),
                      buyer=game.players[buyer], amount=price)
            self.results.append([production, buyer, price])
        self.lots.pop(0)
        self.auction = None
        return None      # advance opens the next lot, or ends the auction
