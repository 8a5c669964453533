"""Dividends' steps (engines/core/steps.py): one module per step of the year and of the
end, the year at the bottom of the stack putting each next step on top."""
from engines.dividends.steps.actions import ActionsStep
from engines.dividends.steps.auction import AuctionStep
from engines.dividends.steps.dice import DiceStep
from engines.dividends.steps.event import EventStep
from engines.dividends.steps.final_influence import FinalInfluence
from engines.dividends.steps.liquidation import Liquidation
from engines.dividends.steps.over import Over
from engines.dividends.steps.payment import PaymentStep
from engines.dividends.steps.year import Years

__all__ = ["ActionsStep", "AuctionStep", "DiceStep", "EventStep", "FinalInfluence", "Liquidation", "Over",
           "PaymentStep", "Years"]
