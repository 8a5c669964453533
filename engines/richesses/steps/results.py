"""What Richesses du Monde's steps hand to the step below them (engines/core/steps.py)."""

from engines.core.records import record
from engines.core.steps import Result


@record
class SetupDone(Result):
    first: int               # the seat who starts


@record
class TurnOver(Result):
    seat: int


@record
class AuctionOver(Result):
    seller: int


@record
class SaleOver(Result):
    sold: bool


@record
class ClaimsOver(Result):
    lander: int
