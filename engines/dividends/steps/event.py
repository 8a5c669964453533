"""Step 5: an event tile is drawn and applied to every player in turn order (DV6)."""

from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.rules import BUY_IN, CORRECTION, FORCE_SELL, PLACEMENT, TILES
from engines.dividends.steps.results import EventOver


@record
class EventStep(Step):
    tile: str | None = None
    affected: tuple = ()               # companies under a Placement Offer / Technical Correction marker
    index: int = 0

    name = "event"

    def actor(self, game):
        order = game.s.order
        return order[self.index] if self.tile and self.index < len(order) else None

    def decision(self, game):
        year = {"year": game.s.year}
        if self.tile is None:
            return Decision("prompt.dv.event", year, None, (Option("event", {"tile": Choice(TILES)}),))
        seat = self.actor(game)
        choices = Choice(tuple(self.choices(game, seat)))
        who = {"player": game.players[seat], "tile": self.tile}
        take = {"player": Fixed(seat), "company": choices}
        if self.tile in (FORCE_SELL, CORRECTION):
            return Decision("prompt.dv.event_sell", who, seat, (Option("sell", take),))
        if self.tile == BUY_IN:
            return Decision("prompt.dv.event_buy", who, seat, (Option("buy", take),))
        return Decision("prompt.dv.placement", who, seat, (Option("buy", take), Option("pass", {"player": Fixed(seat)})))

    def refusal(self, game, a, decision):
        if a.kind not in ("buy", "sell") or a.company not in game.companies:
            return None
        if not self.tile or a.kind != ("sell" if self.tile in (FORCE_SELL, CORRECTION) else "buy"):
            return None  # not this tile's action: the generic message lists what is
        seat = a.player
        refused = game.trade_refusal(a)
        if refused:
            return refused
        if self.tile in (PLACEMENT, CORRECTION) and a.company not in self.affected:
            return IllegalAction("error.dv.not_marked", company=a.company, tile=self.tile)
        if self.tile == FORCE_SELL:
            return IllegalAction("error.dv.not_most_expensive", player=game.players[seat], company=a.company)
        if self.tile == BUY_IN:
            return IllegalAction("error.dv.not_cheapest_buy", player=game.players[seat], company=a.company)
        if self.tile == PLACEMENT:  # marked, a certificate left, but half the price is more than the cash
            return IllegalAction("error.dv.cash", player=game.players[seat], amount=game.buy_price(a.company) // 2)
        return None

    # ------------------------------------------------------------ handlers
    def on_event(self, game, a):
        self.tile = game.s.tile = a.tile
        companies = game.companies
        if a.tile == PLACEMENT:  # most certificates still on the chart; ties: all of them
            top = max(game.left(c) for c in companies)
            self.affected = tuple(c for c in companies if game.left(c) == top) if top else ()
        elif a.tile == CORRECTION:  # most certificates held by players; ties: all of them
            top = max(game.held(c) for c in companies)
            self.affected = tuple(c for c in companies if game.held(c) == top) if top else ()
        game.emit("dv.event", tile=a.tile, affected=list(self.affected) or ["-"])

    def on_buy(self, game, a):
        self.apply(game, a.player, a.company)

    def on_sell(self, game, a):
        self.apply(game, a.player, a.company)

    def on_pass(self, game, a):
        game.emit("dv.offer_declined", player=game.players[a.player])
        self.index += 1

    # ------------------------------------------------------------ the tile's effect
    def choices(self, game, seat):
        """The companies `seat` may (or must) act on under the tile; [] = not concerned."""
        cash = game.cash(seat)
        if self.tile == FORCE_SELL:
            return most_expensive_held(game, seat)
        if self.tile == BUY_IN:
            open_ = [c for c in game.companies if game.left(c)]
            if not open_:
                return []
            low = min(game.buy_price(c) for c in open_)
            return [c for c in open_ if game.buy_price(c) == low] if low <= cash else []
        if self.tile == PLACEMENT:
            return [c for c in self.affected if game.left(c) and game.buy_price(c) // 2 <= cash]
        return [c for c in self.affected if game.count(c, seat)]  # TECHNICAL-CORRECTION

    def apply(self, game, seat, company):
        if self.tile == FORCE_SELL:
            game.sell(seat, company, game.sell_price(company), "force_sell")
        elif self.tile == BUY_IN:
            game.buy(seat, company, game.buy_price(company), "buy_in")
        elif self.tile == PLACEMENT:
            game.buy(seat, company, game.buy_price(company) // 2, "placement_offer")
        else:
            game.sell(seat, company, game.sell_price(company) // 2, "technical_correction")
        self.index += 1

    def advance(self, game):
        if self.tile is None:
            return None
        order = game.s.order
        while self.index < len(order):
            seat = order[self.index]
            choices = self.choices(game, seat)
            if not choices:
                game.emit("dv.not_concerned", player=game.players[seat], tile=self.tile)
                self.index += 1
                continue
            if self.tile == PLACEMENT or len(choices) > 1:
                return None  # an offer to take or leave, or a choice among equal certificates
            self.apply(game, seat, choices[0])
        game.emit("dv.event_over", tile=self.tile)
        game.s.tile = None  # the tile goes back in the box (also after year 5)
        return EventOver(self.tile)


def most_expensive_held(game, seat):
    held = list(game.portfolio(seat))
    if not held:
        return []
    high = max(game.sell_price(c) for c in held)
    return [c for c in held if game.sell_price(c) == high]
