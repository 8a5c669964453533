"""Every action of Dividends, with its command-language form (see docs/protocol.md).

Chance is recorded, never drawn by the engine: the dice (`dice`), the event tile
(`event`) and the random deal of turn-order tokens when nobody opens (`deal`) carry their
outcome. Left out in a script or on the box, the fields are filled by the device from the
game's seed (`Game.fill_chance`, the deal `AuctionStep.fill_chance`) before the action is applied and recorded.
"""
from typing import Optional

from engines.core.actions import (CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, Company, CountDelta, Money, MoneyDelta,
                                  Name, Seat, Seats, Signed, SignedDie, Text, action)

MAX_COMPANIES = 5
MAX_PLAYERS = 12
# The numbered fields the list fields `moves` and `players` replaced, read in old journals.
DICE_FIELDS = tuple(f"d{i}" for i in range(1, MAX_COMPANIES + 1))
DEAL_FIELDS = tuple(f"p{i}" for i in range(1, MAX_PLAYERS + 1))


# Step 1: the dice ------------------------------------------------------------
@action("dice", CHANCE, OUTCOME, CONFIRM, old_forms={"moves": DICE_FIELDS})
class Dice:
    """One die per company in play, in chart order: steps up (+) or down (-), e.g. +3 -2.
    The die is the one of the zone the company's marker is in (black up, white down, grey
    either way). Journals of before wrote them d1..d5 (still read)."""
    moves: tuple[SignedDie, ...] = ()


# Step 2: the turn-order auction -------------------------------------------------
@action("bid")
class Bid:
    """PLAYER bids AMOUNT for the token on sale (at least 50, then raises by the step)."""
    player: Seat
    amount: Money


@action("sold")
class Sold:
    """Silence: the token goes to the high bidder, who pays the bank and stops bidding."""


@action("deal", old_forms={"players": DEAL_FIELDS})
class Deal:
    """Nobody opened: the remaining tokens, lowest first, are dealt to these players
    (a random order drawn by the device, or by hand); each pays 50 $. Journals of before
    wrote them p1..p12 (still read)."""
    players: Seats = ()


# Step 3: players' actions (also the choices of events and of the end) ------------
@action("buy")
class Buy:
    """Buy one certificate at the chart price (or as the event tile says)."""
    player: Seat
    company: Company


@action("sell", CONFIRM)
class Sell:
    """Sell one certificate to the bank at the chart price (or as the event tile says)."""
    player: Seat
    company: Company


@action("influence")
class Influence:
    """Play an influence card: the company's dividend marker moves one step (+1 or -1)."""
    player: Seat
    company: Company
    move: Signed


@action("done")
class Done:
    """End of PLAYER's turn: unused influence cards go back under the draw pile."""
    player: Seat


@action("pass")
class Pass:
    """Placement Offer: PLAYER does not buy."""
    player: Seat


# Step 4 and 5 ---------------------------------------------------------------------
@action("pay", OUTCOME, CONFIRM)
class Pay:
    """Payment: dividends to every holder, then influence cards to majority holders
    (at the end of the game: the final dividends)."""


@action("event", CHANCE, OUTCOME, CONFIRM)
class DrawEvent:
    """The event tile drawn: FORCE-SELL, BUY-IN, PLACEMENT-OFFER, TECHNICAL-CORRECTION."""
    tile: Optional[Name] = None


# Operator corrections (General ruling) ------------------------------------------------
@action("adjust_cash", CORRECTION)
class AdjustCash:
    player: Seat
    delta: MoneyDelta
    reason: Text


@action("adjust_certs", CORRECTION)
class AdjustCerts:
    """Certificates to (+) or from (-) the chart."""
    player: Seat
    company: Company
    delta: CountDelta
    reason: Text


@action("adjust_cards", CORRECTION)
class AdjustCards:
    """Influence cards to (+) or from (-) the player's hand, from or to the draw pile."""
    player: Seat
    delta: CountDelta
    reason: Text


@action("set_marker", CORRECTION)
class SetMarker:
    company: Company
    value: int
    reason: Text


ACTIONS = ActionSet(
    Dice, Bid, Sold, Deal, Buy, Sell, Influence, Done, Pass, Pay, DrawEvent,
    AdjustCash, AdjustCerts, AdjustCards, SetMarker,
)
