"""Richesses du Monde's steps (engines/core/steps.py): the table at the bottom of the stack,
the setup, a player's turn and what it pushes (an auction, a free sale, a bankruptcy)."""
from engines.richesses.steps.auction import AuctionStep
from engines.richesses.steps.claims import ClaimStep
from engines.richesses.steps.debt import Bankruptcy
from engines.richesses.steps.over import Over
from engines.richesses.steps.sale import SaleStep
from engines.richesses.steps.setup import Setup, Table
from engines.richesses.steps.turn import Turn

__all__ = ["AuctionStep", "ClaimStep", "Bankruptcy", "Over", "SaleStep", "Setup", "Table", "Turn"]
