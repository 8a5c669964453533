"""Every action of Richesses du Monde, with its command-language form (docs/protocol.md).

An Actualité card is entered as its effect, with the core card actions
(engines/core/cards.py: `card_pay`, `card_receive`, `card_pay_each`, `card_collect`).

Chance is recorded, never drawn by the engine: the plaques laid at setup (`plaques`) and
the two dice (`roll`, the white then the red) carry their outcome; left out, the device
draws them from the game's seed (`Richesses.fill_chance`) before the action is applied
and recorded, so a replay never draws again.
"""
from typing import Optional

from engines.core.actions import (ANYTIME, CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, DieFace, Money,
                                  MoneyDelta, Name, Seat, Text, action)
from engines.core.cards import CARD_ACTIONS


@action("plaques", CHANCE, OUTCOME, CONFIRM)
class Plaques:
    """The production of each plaque, in the order of the plaque squares (48 words, each
    production twice); left out, the device draws them (RM13)."""
    productions: tuple[Name, ...] = ()


@action("first")
class First:
    """Who starts: the highest roll of the dice (RM10: the roll costs nothing)."""
    player: Seat


@action("roll", CHANCE, OUTCOME, CONFIRM)
class Roll:
    """The white die then the red die; the pawn moves by their total."""
    white: Optional[DieFace] = None
    red: Optional[DieFace] = None


@action("land")
class Land:
    """Without the square order in the box file (RM8): PLAYER's pawn is on SQUARE (a
    country, CONTINENTAL-<continent>, BONUS, NEWS, JOKER, AUCTION or WORLD), whose plaque
    is PLAQUE (left out: no plaque, or one that costs him nothing)."""
    player: Seat
    square: Name
    plaque: Optional[Name] = None


@action("tour")
class Tour:
    """Without the square order (RM8): PLAYER's pawn has passed the start arrow; asked once
    per player, when it first matters."""
    player: Seat


@action("no_tour")
class NoTour:
    """Without the square order (RM8): PLAYER's pawn has not passed the start arrow yet."""
    player: Seat


@action("claim")
class Claim:
    """With `strict_claims` (RM2): PLAYER claims his royalties on the plaque just landed on
    (AMOUNT, when given, must be what his share earns)."""
    player: Seat
    amount: Optional[Money] = None


@action("close_claims")
class CloseClaims:
    """With `strict_claims`: the time to claim is over ("Passé ce délai, les joueurs perdent
    le bénéfice de leur pourcentage"); the lander pays what was claimed."""


@action("buy")
class Buy:
    """PLAYER buys these titles (1 to 6, PRODUCTION-COUNTRY) from the stock at their price."""
    player: Seat
    titles: tuple[Name, ...] = ()


@action("done")
class Done:
    """PLAYER buys nothing (or no joker) on this square."""
    player: Seat


@action("buy_joker", CONFIRM)
class BuyJoker:
    """PLAYER buys a joker card for 3 000 000 (confirmed on the box: one OK must not spend it)."""
    player: Seat


@action("use_joker", CONFIRM)
class UseJoker:
    """PLAYER gives back a joker: nothing goes up for auction."""
    player: Seat


@action("lots")
class Lots:
    """PLAYER puts these trusts (productions) up for auction, one lot each, in this order."""
    player: Seat
    productions: tuple[Name, ...] = ()


@action("bid")
class Bid:
    """PLAYER bids AMOUNT for the lot on sale."""
    player: Seat
    amount: Money


@action("sold")
class Sold:
    """Silence: the lot goes to the high bidder, or to the bank at half price when nobody bid."""


@action("offer", ANYTIME, CONFIRM)
class Offer:
    """SELLER offers his whole trust of PRODUCTION to BUYER for AMOUNT (RM12), between turns
    (offered beside the dice, from the menu)."""
    seller: Seat
    production: Name
    buyer: Seat
    amount: Money


@action("exchange", ANYTIME, CONFIRM)
class Exchange:
    """SELLER offers his whole trust of PRODUCTION to BUYER against BUYER's whole trust of
    OTHER and AMOUNT (0 or more) from BUYER (RM12), between turns."""
    seller: Seat
    production: Name
    buyer: Seat
    other: Name
    amount: Money


@action("overbid")
class Overbid:
    """PLAYER offers AMOUNT for the trust on offer (at least 100 000 above the best offer)."""
    player: Seat
    amount: Money


@action("close_offer")
class Close:
    """Silence: no more overbids; the seller has 7 seconds to accept the best offer."""


@action("accept", CONFIRM)
class Accept:
    """The seller sells the trust to the best offer."""


@action("lapse")
class Lapse:
    """The seller did not accept in time: the offer lapses."""


@action("adjust_cash", CORRECTION)
class AdjustCash:
    """Correction: add to (+) or take from (-) a player's cash, with the reason."""
    player: Seat
    delta: MoneyDelta
    reason: Text


@action("set_pawn", CORRECTION)
class SetPawn:
    """Correction: put PLAYER's pawn on SQUARE (0: the start arrow) with TOURS world tours."""
    player: Seat
    square: int
    tours: int
    reason: Text


ACTIONS = ActionSet(*CARD_ACTIONS, Plaques, First, Roll, Land, Tour, NoTour, Claim, CloseClaims, Buy, Done, BuyJoker, UseJoker, Lots, Bid, Sold, Offer, Exchange,
                    Overbid, Close, Accept, Lapse, AdjustCash, SetPawn)
