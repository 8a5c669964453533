"""Every action of Shark, with its command-language form (see docs/protocol.md).

Chance is recorded, never drawn by the engine: the starting shares (`deal`) and the two
dice (`roll`) carry their outcome. Left out in a script or on the box, they are filled by
the device from the game's seed (`fill_chance`) before the action is applied and recorded.
"""
from typing import Optional

from engines.core.actions import (CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, Cell, Company, CountDelta, DieFace, Lots,
                                  MoneyDelta, Name, Seat, Text, action)


# The start (SH1, SH8) -----------------------------------------------------------------
@action("deal", CHANCE, OUTCOME, CONFIRM)
class Deal:
    """The starting share of each player, in seat order: one random one-share card each
    (`deal RED BLUE ...`), drawn by the device when left out (`deal`)."""
    companies: tuple[Company, ...] = ()


@action("first")
class First:
    """The operator names the first player ("celui placé à la gauche du banquier")."""
    player: Seat


# A turn (SH8): trade, roll, place, trade ----------------------------------------------
@action("buy")
class Buy:
    """Buy SHARES shares of COMPANY from the bank at value x 1 000 (at most 5 a turn)."""
    player: Seat
    company: Company
    shares: Lots


@action("sell")
class Sell:
    """Sell SHARES shares of COMPANY to the bank at value x 1 000."""
    player: Seat
    company: Company
    shares: Lots


@action("roll", CHANCE, OUTCOME, CONFIRM)
class Roll:
    """The number die (the zone, 1-6) and the colour die (RED, YELLOW, GREEN, BLUE, or
    WHITE or BLACK: the player chooses); variant 3 has no colour die."""
    zone: Optional[DieFace] = None
    colour: Optional[Name] = None


@action("colour")
class Colour:
    """White or black (or variant 3): the colour of the building to place."""
    player: Seat
    company: Company


@action("place")
class Place:
    """Place the building on CELL (`place Ana B4`): one of the legal cells of the zone."""
    player: Seat
    cell: Cell


@action("done")
class Done:
    """End of the player's turn (after the placement and the second trading)."""
    player: Seat


# Without the grid (SH11): the operator enters what the table's board shows --------------
@action("lost", CONFIRM)
class Lost:
    """A colour lost a chain to the placement: its new VALUE and how many buildings were
    removed from the board."""
    company: Company
    value: int
    removed: int


@action("built", CONFIRM)
class Built:
    """The building is placed: the new VALUE of its colour; the payments follow."""
    player: Seat
    value: int


@action("skip", CONFIRM)
class Skip:
    """No cell of the zone is legal: no placement, trading still follows."""
    player: Seat


# The debt (SH9) --------------------------------------------------------------------------
@action("forced_sale")
class ForcedSale:
    """A holder who cannot pay a fall gives one share of COMPANY to the bank at half price."""
    player: Seat
    company: Company


# Operator corrections (General ruling): the money or the shares as the table counts them ---
@action("adjust_cash", CORRECTION)
class AdjustCash:
    player: Seat
    delta: MoneyDelta
    reason: Text


@action("adjust_shares", CORRECTION)
class AdjustShares:
    """Shares to (+) or from (-) the player, from or to the bank's stock."""
    player: Seat
    company: Company
    delta: CountDelta
    reason: Text


ACTIONS = ActionSet(Deal, First, Buy, Sell, Roll, Colour, Place, Done, Lost, Built, Skip, ForcedSale,
                    AdjustCash, AdjustShares)
