"""Maxi Bourse's steps (engines/core/steps.py), one module each: the set-up, the turn at
the bottom of the stack, and what a turn pushes (a titre square, a sale, an auction, a
settlement, a debt, a forced sale) with the typed results they hand back."""
from engines.maxibourse.steps.auction import Auction
from engines.maxibourse.steps.debt import Debt, ForcedSale
from engines.maxibourse.steps.over import Over
from engines.maxibourse.steps.payday import PaydayStep
from engines.maxibourse.steps.results import AuctionOver, Done, Settled, Sold
from engines.maxibourse.steps.sale import Sale
from engines.maxibourse.steps.settlement import Settlement
from engines.maxibourse.steps.setup import ChooseFirst, Picking
from engines.maxibourse.steps.titre import TitreSquare
from engines.maxibourse.steps.turn import Turn

__all__ = ["Auction", "AuctionOver", "ChooseFirst", "Debt", "Done", "ForcedSale", "Over", "PaydayStep", "Picking",
           "Sale", "Settled", "Settlement", "Sold", "TitreSquare", "Turn"]
