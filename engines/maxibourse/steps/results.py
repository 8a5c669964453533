"""What a finished Maxi Bourse step hands to the step below it."""

from engines.core.records import record
from engines.core.steps import Result


@record
class Done(Result):
    """Over, with nothing to report (a titre square, a debt, a forced sale)."""


@record
class AuctionOver(Result):
    price: int               # the price the auction closed at
    allocation: list         # [(seat, lots)] the lots each bidder gets; [] when the offer was withdrawn


@record
class Settled(Result):
    proceeds: int            # what the buyers paid (or owe) the seller
    lots: int                # the lots sold
    au_cours: bool           # an au cours purchase (a titre square's first request, a double)


@record
class Sold(Result):
    proceeds: int            # what the sale brought the seller
