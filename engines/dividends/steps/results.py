"""What each Dividends step hands to the year (engines/dividends/steps/year.py) when it is over."""
from dataclasses import field

from engines.core.records import record
from engines.core.steps import Result


@record
class Rolled(Result):
    """Step 1 is over: each company's die and move ({company: {"die", "move"}})."""
    dice: dict = field(default_factory=dict)


@record
class TurnOrderSet(Result):
    """Step 2 is over: the seats in the order of the tokens they took."""
    order: list = field(default_factory=list)


@record
class TurnsPlayed(Result):
    """Step 3 is over: every player in turn order has ended their turn."""


@record
class Paid(Result):
    """Step 4 (or the final dividends) is over."""
    final: bool = False


@record
class EventOver(Result):
    """Step 5 is over: the tile went back in the box."""
    tile: str = ""


@record
class CardsPlayed(Result):
    """The last influence cards of the game are played."""


@record
class Liquidated(Result):
    """Every certificate is back on the chart: the game is over."""
