"""Every action of Shark, with its command-language form (see docs/protocol.md).

Chance is recorded, never drawn by the engine: the starting shares (`deal`) and the two
dice (`roll`) carry their outcome. Left out in a script or on the box, they are filled by
the device from the game's seed (`fill_chance`) before the action is applied and recorded.
"""
from typing import Optional

from engines.core.actions import (CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, Cell, Company, CountDelta, DieFace, Lots,
                                  Name, Seat, Text, action)
from engines.core.corrections import AdjustCash, SetTurn


# The start (SH1, SH8) -----------------------------------------------------------------
@action("deal", CHANCE, OUTCOME, CONFIRM, example="deal RED BLUE RED")
class Deal:
    """The start (not with variant 1): each player's starting share, in seat order; left out,
    drawn by the device."""
    companies: tuple[Company, ...] = ()


@action("first", example="first Ana")
class First:
    """The operator names the first player."""
    player: Seat


# A turn (SH8): trade, roll, place, trade ----------------------------------------------
@action("buy", example="buy Ana RED 2")
class Buy:
    """Before and after the roll: N shares at value x 1 000 (at most 5 a turn, no credit, never
    a company worth 0)."""
    player: Seat
    company: Company
    shares: Lots


@action("sell", example="sell Ana RED 1")
class Sell:
    """Before and after the roll: N shares sold to the bank at value x 1 000."""
    player: Seat
    company: Company
    shares: Lots


@action("roll", CHANCE, OUTCOME, CONFIRM, example="roll 3 WHITE")
class Roll:
    """The two dice, the zone and the colour (variant 3: the zone only); left out, rolled by the
    device."""
    zone: Optional[DieFace] = None
    colour: Optional[Name] = None


@action("colour", example="colour Ana GREEN")
class Colour:
    """After white or black (or with variant 3): the building's colour, among those with a legal
    cell in the zone."""
    player: Seat
    company: Company


@action("place", example="place Ana C2")
class Place:
    """With the grid: the building on one of the legal cells of the zone (SH6); the bonus, rises
    and falls follow."""
    player: Seat
    cell: Cell


@action("done", example="done Ana")
class Done:
    """After the roll: the end of PLAYER's turn."""
    player: Seat


# Without the grid (SH11): the operator enters what the table's board shows --------------
@action("lost", CONFIRM, example="lost BLUE 2 2")
class Lost:
    """Without the grid, before `built`: a colour that lost a chain, its new value and the
    buildings removed."""
    company: Company
    value: int
    removed: int


@action("built", CONFIRM, example="built Ana 6")
class Built:
    """Without the grid: the placed colour's new value; the payments follow."""
    player: Seat
    value: int


@action("skip", CONFIRM, example="skip Ana")
class Skip:
    """Without the grid: no cell of the zone is legal, no placement."""
    player: Seat


# The debt (SH9) --------------------------------------------------------------------------
@action("forced_sale", example="forced_sale Ben YELLOW")
class ForcedSale:
    """A holder who cannot pay a fall gives one share (worth more than 0) to the bank at half
    price (SH9)."""
    player: Seat
    company: Company


# Operator corrections (General ruling): the money or the shares as the table counts them ---
@action("adjust_shares", CORRECTION, example='adjust_shares Ben RED -1 "miscounted"')
class AdjustShares:
    """Correction: PLAYER's shares of COMPANY from (+) or to (-) the bank's stock."""
    player: Seat
    company: Company
    delta: CountDelta
    reason: Text


@action("put_building", CORRECTION, example='put_building C2 RED "forgotten three turns ago"')
class PutBuilding:
    """Correction, with the grid: a building of COMPANY on the free CELL, from its supply; the
    values follow the map (SH2), no bonus, no payment."""
    cell: Cell
    company: Company
    reason: Text


@action("remove_building", CORRECTION, example='remove_building C2 "never placed"')
class RemoveBuilding:
    """Correction, with the grid: the building on CELL back to its supply; the values follow the
    map (SH2), no payment."""
    cell: Cell
    reason: Text


@action("move_building", CORRECTION, example='move_building C2 C3 "placed on the wrong cell"')
class MoveBuilding:
    """Correction, with the grid: the building on CELL moved to the free cell TO; the values
    follow the map (SH2), no bonus, no payment."""
    cell: Cell
    to: Cell
    reason: Text


@action("set_value", CORRECTION, example='set_value BLUE 4 "misread"')
class SetValue:
    """Correction, without the grid (SH11): COMPANY's value as the table's board shows it (0 only
    with none of its buildings on the board); no payment."""
    company: Company
    value: int
    reason: Text


@action("set_used", CORRECTION, example='set_used BLUE 9 "three chains removed before the box"')
class SetUsed:
    """Correction: the buildings of COMPANY taken from its supply of 18 (SH7: those on the map and
    those removed for good), at least those on the map; the 18th ends the game (SH10)."""
    company: Company
    used: int
    reason: Text


ACTIONS = ActionSet(Deal, First, Buy, Sell, Roll, Colour, Place, Done, Lost, Built, Skip, ForcedSale,
                    AdjustCash, AdjustShares, SetTurn, PutBuilding, RemoveBuilding, MoveBuilding, SetValue,
                    SetUsed)
