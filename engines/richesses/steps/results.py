"""What Richesses du Monde's steps hand to the step below them (engines/core/steps.py)."""
from dataclasses import dataclass

from engines.core.steps import Result


@dataclass
class SetupDone(Result):
    first: int               # the seat who starts


@dataclass
class TurnOver(Result):
    seat: int


@dataclass
class AuctionOver(Result):
    seller: int


@dataclass
class SaleOver(Result):
    sold: bool


@dataclass
class ClaimsOver(Result):
    lander: int
