"""The procedures a Maxi Bourse game can be in, as plain data.

The game state holds a stack of these frames; the top one says what the game is waiting
for. A procedure that needs another one (a settlement whose buyer cannot pay needs a
debt, a debt needs sales...) pushes it and resumes when it is done.
"""
from dataclasses import dataclass

from engines.core.rounds import LotAuction, SpeakingRound


@dataclass
class Picking:
    order: list  # seats still to pick one starting lot, in order


@dataclass
class ChooseFirst:
    pass


@dataclass
class Turn:
    seat: int
    phase: str = "start"  # start (may sell) -> double (after a double) -> square
    titre_done: bool = False
    card: bool = False     # a card's effect was entered on the square (no trade then: 1-2, 4)


@dataclass
class TitreSquare:
    company: str
    lander: int
    au_cours: bool           # the lander's first request is au cours (MB3)
    round: SpeakingRound
    round_no: int = 1
    au_cours_lots: int = 0   # lots bought au cours this round (they do not move the price)


@dataclass
class Auction:
    company: str
    seller: int
    auction: LotAuction


@dataclass
class Settlement:
    company: str
    seller: int
    purchases: list          # [(seat, lots)]
    au_cours: bool = False
    price: int | None = None  # fixed when the operator settles
    index: int = 0
    proceeds: int = 0


@dataclass
class Sale:
    seller: int              # a seat, or the bank selling seized lots
    company: str
    lots: int                # lots still offered
    round: SpeakingRound
    declines: int = 0        # rounds in which nobody bought (MB6)
    proceeds: int = 0
    exclude: int | None = None  # a defaulter may not buy back the lots seized from them


@dataclass
class Debt:
    debtor: int
    owed: list               # [(creditor, amount)]
    purchase: tuple | None   # (company, lots, seller) for a purchase that cannot be paid
    fine: int = 0
    stage: str = "cover"     # cover (sell to raise cash) -> cessation (bank sells seized lots)
    paid: int = 0            # cash the defaulter handed over at cessation


@dataclass
class ForcedSale:
    seat: int
    amount: int
    proceeds: int = 0


@dataclass
class PaydayStep:
    pass


@dataclass
class Over:
    reason: str
