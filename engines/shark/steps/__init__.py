"""Shark's steps (engines/core/steps.py): the table at the bottom of the stack putting the
deal, the first player's choice and each turn on top; a turn pushes the debt of a holder
who cannot pay a fall."""
from engines.shark.steps.debt import ShareDebt
from engines.shark.steps.over import Over
from engines.shark.steps.start import DealStep, FirstStep
from engines.shark.steps.table import Table
from engines.shark.steps.turn import Turn

__all__ = ["DealStep", "FirstStep", "Over", "ShareDebt", "Table", "Turn"]
