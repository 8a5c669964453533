"""Speaking rounds and ascending auctions over lots: the market mechanics games share.

Both are plain data with small methods, so they live inside a game's state and are
copied, replayed and undone with it.
"""
from bisect import bisect_left
from dataclasses import field

from engines.core.records import record


def clockwise(first: int, seats) -> list[int]:
    """`seats` (any order) rotated so that the order is clockwise starting at `first`.

    `first` itself need not be among `seats`; the order then starts at the next seat
    after it."""
    seats = sorted(seats)
    cut = bisect_left(seats, first)       # the first seat at or after `first`
    return seats[cut:] + seats[:cut]


@record
class SpeakingRound:
    """Each seat in `order` answers once, in order; answers are kept in order."""

    order: list
    answers: list = field(default_factory=list)  # [(seat, value)]

    @property
    def speaker(self):
        return self.order[len(self.answers)] if len(self.answers) < len(self.order) else None

    @property
    def done(self):
        return len(self.answers) == len(self.order)

    def answer(self, seat, value):
        answers, order = self.answers, self.order     # `speaker` read in place: every answer
        assert len(answers) < len(order) and seat == order[len(answers)], (seat, self.speaker)
        answers.append((seat, value))

    def total(self):
        return sum(v for _, v in self.answers)

    def takers(self):
        return [(s, v) for s, v in self.answers if v > 0]


@record
class LotAuction:
    """Bidders want more lots than are offered: the price rises one step at a time.

    `bidders` is [(seat, lots)] in priority order, every one committed at `price`. At
    each step the next price is proposed; a bidder may cut their request or drop out
    (answer 0) with `answer`; `close_step` takes everyone who has not answered as
    accepting the new price with their whole request. The auction ends when a step
    leaves requests that fit the lots:
      - exactly the lots: the remaining bidders are served at the new price;
      - fewer than the lots: the new price found too few takers, so everyone who was
        committed at the previous price is served at that price, those still bidding
        first, then the others in priority order (FUJI example: all three drop at 630
        together; the lot goes at 620 to the first in priority).
    """

    lots: int
    price: int
    step: int
    bidders: list  # [(seat, lots)] committed at `price`
    answers: dict = field(default_factory=dict)  # seat -> lots at `price + step`

    @property
    def proposal(self):
        return self.price + self.step

    def pending(self):
        """Bidders who have not answered the current proposal, in priority order."""
        return [(s, n) for s, n in self.bidders if s not in self.answers]

    def answer(self, seat, lots):
        self.answers[seat] = lots
        return self.close_step() if not self.pending() else None

    def close_step(self):
        """Everyone silent accepts the proposal. Returns (price, [(seat, lots)]) when it ends."""
        wanted = [(s, self.answers.get(s, n)) for s, n in self.bidders]
        requested = sum(n for _, n in wanted)
        self.answers = {}
        if requested > self.lots:
            self.price = self.proposal
            self.bidders = [(s, n) for s, n in wanted if n > 0]
            return None
        if requested == self.lots:
            return self.proposal, [(s, n) for s, n in wanted if n > 0]
        # Too few takers at the new price: serve at the previous price.
        staying = [s for s, n in wanted if n > 0]
        ordered = [(s, n) for s, n in self.bidders if s in staying] + [
            (s, n) for s, n in self.bidders if s not in staying
        ]
        left, allocation = self.lots, []
        for seat, n in ordered:
            take = min(n, left)
            if take:
                allocation.append((seat, take))
                left -= take
        return self.price, allocation
