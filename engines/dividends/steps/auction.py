"""Step 2: the turn-order tokens are auctioned (DV4).

Before the auction, a player with less than 50 $ sells their cheapest certificates; then
token 1, 2, ... go to open bidding; a token nobody bids on is dealt at random among the
bidders left, and the last bidder alone takes the last token, at 50 $ each (paid after
the same short-of-cash sale)."""
from dataclasses import field

from engines.core.actions import Seat
from engines.core.decision import Choice, Decision, Fixed, IntRange, Items, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.open_auction import AuctionSeries
from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.actions import Deal
from engines.dividends.rules import MAX_BID, MIN_CASH, OPENING_BID
from engines.dividends.steps.results import TurnOrderSet


@record
class AuctionStep(Step):
    short: list                        # seats still to check for the 50 $ minimum, in order
    series: AuctionSeries | None = None
    dues: list = field(default_factory=list)  # [seat, how]: tokens taken at 50 $ (dealt, last), not paid yet

    name = "auction"

    def actor(self, game):
        return self.short[0] if self.short else self.dues[0][0] if self.dues else None

    def selling(self):
        """A short-of-cash sale is asked for (before the auction, or before a token at 50 $)."""
        return bool(self.short or self.dues)

    # ------------------------------------------------------------ decision
    def decision(self, game):
        names = game.players
        if self.selling():
            seat = self.actor(game)
            return Decision("prompt.dv.short_of_cash", {"player": names[seat]}, seat, (
                Option("sell", {"player": Fixed(seat), "company": Choice(tuple(game.cheapest_held(seat)))}),))
        a = self.series.current
        params = {"year": game.s.year, "token": a.item, "high": a.high or 0, "bidder": game.holder_name(a.high_bidder),
                  "minimum": a.minimum}
        opts = []
        if a.may_bid():
            opts.append(Option("bid", {"player": Choice(tuple(a.may_bid())),
                                       "amount": IntRange(a.minimum, max(a.minimum, MAX_BID), a.step)}))
        if a.high is not None:
            opts.append(Option("sold"))
        else:
            bidders = tuple(self.series.bidders)   # each once: a token each, lowest first
            opts.append(Option("deal", {"players": Items((Choice(bidders),) * len(bidders), distinct=True)}))
        prompt = "prompt.dv.auction" if a.high is not None else "prompt.dv.auction_open"
        return Decision(prompt, params, None, tuple(opts))

    def refusal(self, game, a, decision):
        if a.kind == "bid":
            return self.bid_refusal(game, a)
        if a.kind == "deal":
            ready = not self.selling() and self.series and self.series.current and self.series.current.high is None
            return self.deal_refusal(game, a) if ready else None
        if a.kind != "sell" or a.company not in game.companies or not self.selling():
            return None
        return game.trade_refusal(a) or IllegalAction("error.dv.not_cheapest", player=game.players[a.player],
                                                      company=a.company)

    def bid_refusal(self, game, a):
        if self.selling() or self.series is None or self.series.current is None:
            return None  # a short-of-cash sale first: the generic message lists it
        if game.s.tokens[a.player] is not None:  # "prend le jeton ... et ne participe plus à l'enchère"
            return IllegalAction("error.dv.token_taken", player=game.players[a.player], token=game.s.tokens[a.player])
        try:
            self.series.current.check(a.player, a.amount, game.cash(a.player), game.players[a.player])
        except IllegalAction as reason:
            return reason
        return None

    def deal_refusal(self, game, a):
        series = self.series
        dealt = tuple(a.players or ())
        if len(dealt) != len(series.bidders) or set(dealt) != set(series.bidders):
            return IllegalAction("error.dv.deal", players=[game.seat_name(s) for s in dealt],
                                 bidders=[game.players[s] for s in series.bidders])
        return None

    def fill_chance(self, game, act, rng):
        """The random deal of the tokens nobody bid on: a permutation of the bidders, not one
        value per field, so drawn here rather than field by field (Game.fill_chance)."""
        if act.kind == "deal" and self.series and not act.players:
            bidders = list(self.series.bidders)
            return Deal(tuple(Seat(s) for s in rng.sample(bidders, len(bidders))))
        return super().fill_chance(game, act, rng)

    # ------------------------------------------------------------ handlers
    def on_sell(self, game, a):
        game.sell(a.player, a.company, game.sell_price(a.company), "short_of_cash")

    def on_bid(self, game, a):
        current = self.series.current
        current.bid(a.player, a.amount, game.cash(a.player), game.players[a.player])
        game.emit("dv.bid", player=game.players[a.player], amount=a.amount, token=current.item)

    def on_sold(self, game, a):
        seat, amount = self.series.current.hammer()
        self.take_token(game, seat, amount)

    def on_deal(self, game, a):
        series = self.series
        refused = self.deal_refusal(game, a)
        if refused:
            raise refused
        dealt = a.players
        game.emit("dv.tokens_dealt", tokens=list(series.items), players=[game.players[s] for s in dealt])
        for seat in dealt:  # each pays 50 $ once the tokens are out (advance)
            self.award_token(game, seat, OPENING_BID)
            self.dues.append([seat, "deal"])

    # ------------------------------------------------------------ automatic moves
    def advance(self, game):
        while self.short:  # before the auction
            if not self.sell_short(game, self.short[0]):
                return None
            self.short.pop(0)
        n = len(game.players)
        if self.series is None:
            game.s.tokens = [None] * n
            self.series = AuctionSeries(list(range(1, n + 1)), sorted(range(n)), OPENING_BID,
                                        game.settings["bid_step"])
            game.emit("dv.token_on_sale", token=self.series.current.item)
        series = self.series
        if not series.done and len(series.bidders) == 1:
            seat = series.bidders[0]  # the last bidder alone: the last token at the opening price
            self.award_token(game, seat, OPENING_BID)
            self.dues.append([seat, "last"])
        while self.dues:  # tokens dealt or left at 50 $: a player short of cash sells first (DV4)
            if not self.sell_short(game, self.dues[0][0]):
                return None
            seat, how = self.dues.pop(0)
            self.pay_opening_price(game, seat, how)
        if not series.done:
            return None
        return TurnOrderSet(sorted(range(n), key=lambda s: game.s.tokens[s]))

    def sell_short(self, game, seat):
        """DV4 "Si un joueur possède moins de 50 $ en argent liquide, il doit vendre à la
        banque le certificat d'action le moins cher qu'il possède": `seat` sells until it
        has 50 $ or nothing left to sell. False when it must choose among equally cheap
        certificates (the decision asks); True when it is done."""
        while game.cash(seat) < MIN_CASH and game.portfolio(seat):
            cheapest = game.cheapest_held(seat)
            if len(cheapest) > 1:
                return False
            game.sell(seat, cheapest[0], game.sell_price(cheapest[0]), "short_of_cash")
        return True

    def award_token(self, game, seat, amount):
        token, _, _ = self.series.award(seat, amount)
        game.s.tokens[seat] = token
        if not self.series.done:
            game.emit("dv.token_on_sale", token=self.series.current.item)
        return token

    def take_token(self, game, seat, amount):
        """The high bidder takes the token and pays the bid (never above their cash)."""
        token = self.award_token(game, seat, amount)
        game.transfer(seat, BANK, amount, "token")
        game.emit("dv.token_won", player=game.players[seat], token=token, amount=amount, how="auction")

    def pay_opening_price(self, game, seat, how):
        """A token dealt or left to the last bidder costs 50 $ ("Chacun de ces joueurs doit
        payer le montant minimum de 50 $ à la banque"), paid after the short-of-cash sale.
        A player still under 50 $ has nothing left to sell and pays all their cash (D6);
        that amount is hidden cash, so no event carries it (D17)."""
        token = game.s.tokens[seat]
        if game.cash(seat) >= OPENING_BID:
            game.transfer(seat, BANK, OPENING_BID, "token")
            game.emit("dv.token_won", player=game.players[seat], token=token, amount=OPENING_BID, how=how)
        else:
            game.s.ledger.transfer(seat, BANK, game.cash(seat), "token")  # no transfer event: hidden amount
            game.emit("dv.token_won_all_cash", player=game.players[seat], token=token, how=how)

    def high_bid_of(self, seat):
        """The bid `seat` leads with on the token under the hammer, or None."""
        current = self.series.current if self.series else None
        if current is not None and current.high_bidder == seat:
            return current.high
        return None
