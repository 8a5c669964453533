"""What each Dividends step hands to the year (engines/dividends/steps/year.py) when it is over."""
from dataclasses import dataclass, field

from engines.core.steps import Result


@dataclass
class Rolled(Result):
    """Step 1 is over: each company's die and move ({company: {"die", "move"}})."""
    dice: dict = field(default_factory=dict)


@dataclass
class TurnOrderSet(Result):
    """Step 2 is over: the seats in the order of the tokens they took."""
    order: list = field(default_factory=list)


@dataclass
class TurnsPlayed(Result):
    """Step 3 is over: every player in turn order has ended their turn."""


@dataclass
class Paid(Result):
    """Step 4 (or the final dividends) is over."""
    final: bool = False


@dataclass
class EventOver(Result):
    """Step 5 is over: the tile went back in the box."""
    tile: str = ""


@dataclass
class CardsPlayed(Result):
    """The last influence cards of the game are played."""


@dataclass
class Liquidated(Result):
    """Every certificate is back on the chart: the game is over."""
