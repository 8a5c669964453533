"""Every action of Dividends, with its command-language form (see docs/protocol.md).

Chance is recorded, never drawn by the engine: the dice (`dice`), the event tile
(`event`) and the random deal of turn-order tokens when nobody opens (`deal`) carry their
outcome. Left out in a script or on the box, the fields are filled by the device from the
game's seed (`Game.fill_chance`, the deal `AuctionStep.fill_chance`) before the action is applied and recorded.
"""
from typing import Optional

from engines.core.actions import (CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, Company, CountDelta, Marker, Money,
                                  Move, Seat, Seats, SignedDie, Text, Tile, action)
from engines.core.corrections import AdjustCash, SetTurn

MAX_COMPANIES = 5
MAX_PLAYERS = 12
# The numbered fields the list fields `moves` and `players` replaced, read in old journals.
DICE_FIELDS = tuple(f"d{i}" for i in range(1, MAX_COMPANIES + 1))
DEAL_FIELDS = tuple(f"p{i}" for i in range(1, MAX_PLAYERS + 1))


# Step 1: the dice ------------------------------------------------------------
@action("dice", CHANCE, OUTCOME, CONFIRM, old_forms={"moves": DICE_FIELDS}, example="dice +1 -2 +3 -1 +2")
class Dice:
    """Step 1: one die per company in play, in chart order, as steps: `+1`..`+3` on the black
    die (marker at 0-150), `-1`..`-3` on the white die (350-500), either on the grey die
    (200-300); all of them, or none for the device to roll. Journals of before wrote them d1..d5
    (still read)."""
    moves: tuple[SignedDie, ...] = ()


# Step 2: the turn-order auction -------------------------------------------------
@action("bid", example="bid Ana 150")
class Bid:
    """Step 2: PLAYER bids AMOUNT for the token on sale: at least 50, then at least the high bid
    + `bid_step`, on that grid, never above the bidder's cash; the high bidder and the players
    who already won a token cannot bid."""
    player: Seat
    amount: Money


@action("sold", example="sold")
class Sold:
    """Step 2, after a bid: silence, the token goes to the high bidder, who pays the bank and
    stops bidding."""


@action("deal", old_forms={"players": DEAL_FIELDS}, example="deal Cid Ana")
class Deal:
    """Step 2, nobody opens: the remaining tokens, lowest first, go to these players (each still
    bidding, once), 50 $ each (a player under 50 $ first sells their cheapest certificate, and
    with nothing to sell pays what they have); left out, a random order drawn by the device.
    Journals of before wrote them p1..p12 (still read)."""
    players: Seats = ()


# Step 3: players' actions (also the choices of events and of the end) ------------
@action("buy", example="buy Dan DESERT-OIL")
class Buy:
    """Step 3: a certificate bought at the chart price; events Buy In (a choice among the
    cheapest) and Placement Offer (at half price)."""
    player: Seat
    company: Company


@action("sell", CONFIRM, example="sell Ana DESERT-OIL")
class Sell:
    """Step 2, before the auction or before paying a token dealt or left at 50 $: a player with
    less than 50 $ and several equally cheap certificates chooses; step 3: a sale to the bank at
    the chart price; events Force Sell and Technical Correction: a choice among equal
    certificates; the liquidation: the certificate sold this pass."""
    player: Seat
    company: Company


@action("influence", example="influence Ana DESERT-OIL +1")
class Influence:
    """Step 3 (after buying and selling) and the end of the game: an influence card moves the
    company's dividend marker `+1` or `-1`."""
    player: Seat
    company: Company
    move: Move


@action("done", example="done Ana")
class Done:
    """Step 3 and the end of the game: PLAYER's turn is over; unused influence cards go back
    under the draw pile."""
    player: Seat


@action("pass", example="pass Cid")
class Pass:
    """Placement Offer: PLAYER does not buy."""
    player: Seat


# Step 4 and 5 ---------------------------------------------------------------------
@action("payout", OUTCOME, CONFIRM, example="payout")
class Payout:
    """Step 4: dividends to every holder, then influence cards to majority holders; at the end:
    the final dividends. Written `pay` before, still read."""


@action("event", CHANCE, OUTCOME, CONFIRM, example="event BUY-IN")
class DrawEvent:
    """Step 5: the event tile drawn (FORCE-SELL, BUY-IN, PLACEMENT-OFFER, TECHNICAL-CORRECTION);
    left out, drawn by the device."""
    tile: Optional[Tile] = None


# Operator corrections (General ruling) ------------------------------------------------
@action("adjust_certs", CORRECTION, example='adjust_certs Ben CEDARPINES -1 "returned"')
class AdjustCerts:
    """Correction: PLAYER's certificates of COMPANY from (+) or to (-) the chart; the majority
    tile follows (DV3)."""
    player: Seat
    company: Company
    delta: CountDelta
    reason: Text


@action("adjust_cards", CORRECTION, example='adjust_cards Ana +1 "card forgotten"')
class AdjustCards:
    """Correction: influence cards to (+) or from (-) PLAYER's hand; given cards are drawn like
    any card, the discard pile becoming the draw pile when it is empty; cards given back go
    under the draw pile."""
    player: Seat
    delta: CountDelta
    reason: Text


@action("set_marker", CORRECTION, example='set_marker CEDARPINES 250 "misread die"')
class SetMarker:
    """Correction: COMPANY's dividend marker on VALUE, a value of the track."""
    company: Company
    value: Marker
    reason: Text


@action("set_year", CORRECTION, example='set_year 3 "two years played before the box"')
class SetYear:
    """Correction: the year under way, 1 to 5 (DV7: the game ends after the fifth)."""
    year: int
    reason: Text


# Kind names this game used before, each now the kind of its one meaning: `pay` was the
# dividends paid to all here and one player's payment in Maxi Bourse (old journals and
# scripts still read).
ALIASES = {"pay": "payout"}
ACTIONS = ActionSet(
    Dice, Bid, Sold, Deal, Buy, Sell, Influence, Done, Pass, Payout, DrawEvent,
    AdjustCash, AdjustCerts, AdjustCards, SetMarker, SetTurn, SetYear,
    aliases=ALIASES,
)
