"""What Shark's steps hand to the table (engines/shark/steps/table.py) when they are over."""

from engines.core.records import record
from engines.core.steps import Result


@record
class Dealt(Result):
    """The starting shares are dealt (or, variant 1, none are)."""


@record
class FirstNamed(Result):
    seat: int


@record
class TurnOver(Result):
    """The active player ended his turn; the next player in the game follows."""
    seat: int


@record
class GameEnded(Result):
    """SH10: a value reached 15, a colour's 18th building was used, or one player is left."""
    reason: str
