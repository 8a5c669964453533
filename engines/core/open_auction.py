"""Open ascending auctions: anyone may bid at any moment; silence sells the item.

Two games need this mechanic: the turn-order tokens of Dividends (DV4: opening 50 $,
raises in 50 $ steps, the winner stops bidding) and the auction squares of Richesses du
Monde (RM4: opening at half the price, raises of at least 100 000, sold after 7 seconds).

The clock is not here. An engine is a fold over actions with no time in it: it records
the bids, and an explicit action (`sold`, the hammer) closes the auction. On the box the
firmware sends that action after the configured silence; in a script it is written out.

Both classes are plain data with small methods, so they live in a game's state and are
copied, replayed and undone with it.

- `OpenAuction` sells one item. The first bid is at least `opening`; every later bid is at
  least the high bid + `step`. With `on_grid` bids are `opening + k * step` exactly (the
  Dividends money: 50, 100, 150 ...); without it any whole amount at or above the minimum
  (Richesses du Monde: "at least 100 000"). A bid is never above the bidder's cash; the
  refusal does not show the cash, which some games keep hidden. The high bidder does not
  outbid themselves.
- `AuctionSeries` sells items one after another to the same table; the winner of one
  item leaves the bidders (Dividends: "prend le jeton ... et ne participe plus").
  What happens when nobody opens is each game's rule (Dividends deals the remaining
  tokens at random at the opening price; Richesses du Monde has the bank buy), so the
  series only offers `award`, which the game calls with the outcome it recorded.
"""
from dataclasses import field

from engines.core.errors import IllegalAction
from engines.core.records import record


def auction_params(game, option, silence_s=None, **more) -> dict:
    """What the screens of an open auction show (the decision's interaction params):
    `offers`, what a press of each seat button bids, [[seat, amount]]: the lowest bid
    accepted now (the `amount` domain's lower bound of the bidding `option`) for each bidder
    it allows who holds that much cash (a press another could not pay is refused without a
    word about his cash); `silence_s`, the silence that sells when a rule sets it (None: the
    table's configured one); and what else the game's screens need (`more`)."""
    offers = []
    if option is not None:
        amount = option.fields["amount"].lo
        offers = [[s, amount] for s in option.fields["player"].values if game.cash(s) >= amount]
    return {"offers": offers, "silence_s": silence_s, **more}


@record
class OpenAuction:
    item: object
    bidders: list          # seats allowed to bid, in table order
    opening: int
    step: int
    on_grid: bool = True
    high_bidder: int | None = None
    high: int | None = None
    bids: list = field(default_factory=list)  # [(seat, amount)] in order

    @property
    def minimum(self) -> int:
        """The lowest bid accepted now."""
        return self.opening if self.high is None else self.high + self.step

    def lead(self, seat: int) -> int | None:
        """The bid `seat` leads with, or None when another (or nobody) leads."""
        return self.high if seat == self.high_bidder and self.high is not None else None

    def may_bid(self) -> list:
        """Bidders who may raise now (everyone but the high bidder)."""
        return [s for s in self.bidders if s != self.high_bidder]

    def check(self, seat: int, amount: int, cash: int, name: str | None = None) -> None:
        """Refuse a bid that is not allowed; `name` is how the seat is shown in messages."""
        shown = name if name is not None else seat
        if seat not in self.bidders:
            raise IllegalAction("error.auction_not_bidder", player=shown, item=str(self.item))
        if seat == self.high_bidder:
            raise IllegalAction("error.auction_already_high", player=shown, amount=self.high)
        off_grid = self.on_grid and (amount - self.opening) % self.step != 0
        if amount < self.minimum or off_grid:
            key = "error.auction_amount_grid" if self.on_grid else "error.auction_amount"
            raise IllegalAction(key, amount=amount, minimum=self.minimum, step=self.step)
        if amount > cash:
            raise IllegalAction("error.auction_cash", player=shown, amount=amount)

    def bid(self, seat: int, amount: int, cash: int, name: str | None = None) -> None:
        self.check(seat, amount, cash, name)
        self.high_bidder, self.high = seat, amount
        self.bids.append((seat, amount))

    def withdraw_unpaid(self, seat: int, cash: int) -> int | None:
        """A correction left `seat` less `cash` than the bid he leads with: that bid is
        withdrawn and the one before it stands (none: the auction waits for its opening bid
        again). Returns the bid withdrawn, or None when his lead (or none) stands."""
        if self.lead(seat) is None or self.high <= cash:
            return None
        withdrawn = self.bids.pop()[1]
        self.high_bidder, self.high = self.bids[-1] if self.bids else (None, None)
        return withdrawn

    def hammer(self):
        """Silence: (winner, amount), or None when nobody opened."""
        if self.high is None:
            return None
        return self.high_bidder, self.high


@record
class AuctionSeries:
    items: list            # items still to sell, in order; items[0] is on sale
    bidders: list          # seats still bidding
    opening: int
    step: int
    on_grid: bool = True
    current: OpenAuction | None = None
    sold: list = field(default_factory=list)  # [(item, seat, amount)] in order

    def __post_init__(self):
        self.items, self.bidders = list(self.items), list(self.bidders)
        if self.current is None:
            self._next()

    def _next(self):
        self.current = (OpenAuction(self.items[0], list(self.bidders), self.opening, self.step, self.on_grid)
                        if self.items else None)

    @property
    def done(self) -> bool:
        return not self.items

    def award(self, seat: int, amount: int):
        """The item on sale goes to `seat` for `amount`; the seat stops bidding."""
        if seat not in self.bidders:
            raise IllegalAction("error.auction_not_bidder", player=seat, item=str(self.items[0]))
        item = self.items.pop(0)
        self.bidders.remove(seat)
        self.sold.append((item, seat, amount))
        self._next()
        return item, seat, amount

    def hammer(self):
        """Silence on the item on sale: (item, seat, amount) sold, or None if nobody opened."""
        result = self.current.hammer()
        return None if result is None else self.award(*result)
