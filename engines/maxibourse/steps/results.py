"""What a finished Maxi Bourse step hands to the step below it."""
from dataclasses import dataclass

from engines.core.steps import Result


@dataclass
class Done(Result):
    """Over, with nothing to report (a titre square, a debt, a forced sale)."""


@dataclass
class AuctionOver(Result):
    price: int               # the price the auction closed at
    allocation: list         # [(seat, lots)] the lots each bidder gets; [] when the offer was withdrawn


@dataclass
class Settled(Result):
    proceeds: int            # what the buyers paid (or owe) the seller
    lots: int                # the lots sold
    au_cours: bool           # an au cours purchase (a titre square's first request, a double)


@dataclass
class Sold(Result):
    proceeds: int            # what the sale brought the seller
