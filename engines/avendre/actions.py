"""Every action of A Vendre!, with its command-language form (see docs/protocol.md).

Chance is recorded, never drawn by the engine: the die (`roll`) carries its face; left
out in a script or on the box, the device fills it from the game's seed
(`AVendre.fill_chance`). Cards are entered as their effects (AV10): the table reads the
physical card, the operator enters what it does; the money effects are the core's
(engines/core/cards.py), the rest (a title granted, a pawn moved) are this game's.
Titles are named by their number on the card ("Les titres de propriété portent en haut
à droite le numéro du commerce").
"""
from typing import Optional

from engines.core.actions import (CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, CountDelta, DieFace, Money, Name,
                                  Seat, Text, action)
from engines.core.cards import CARD_ACTIONS
from engines.core.corrections import AdjustCash, SetTurn


@action("first", example="first Ana")
class First:
    """The start: who rolls first."""
    player: Seat


@action("roll", CHANCE, OUTCOME, example="roll 4")
class Roll:
    """The turn's player rolls the die (1-6); left out, the device rolls; never while waiting at
    60."""
    die: Optional[DieFace] = None


@action("learn_square", example="learn_square 7")
class LearnSquare:
    """Without a board, a square reached for the first time: the number of the title printed on
    it, `0` for none; the box remembers each square read (box data learned at the table;
    `square` in older journals and scripts, still read)."""
    title: int


@action("learn_colour", example="learn_colour GREEN")
class LearnColour:
    """Without a board, a square without a title read for the first time: `YELLOW` or `GREEN`
    (`colour` in older journals and scripts, still read)."""
    colour: Name


@action("learn_title", example="learn_title BLUE 600 60")
class LearnTitle:
    """Without a board, an unowned title landed on whose values are not all read (offered with
    `buy_at`, `tax`, `income`): the whole card, `BLUE` (a shop, PA above 0) or `RED` (an
    establishment, PA 0), its PA and R as printed (a value read before must be the same); then
    the turn goes on as on a title read before (`buy`, or R paid at once). The form the earlier
    version wrote after `square` (as `amounts`, still read); with `squares each_landing`, also
    where only its R is asked and on one's own title not read yet."""
    colour: Name
    pa: Money
    r: Money


@action("card", example="card Ana")
class Card:
    """A yellow square: PLAYER asks for a card."""
    player: Seat


@action("no_card", example="no_card Ana")
class NoCard:
    """A yellow square: PLAYER asks for no card."""
    player: Seat


@action("buy", CONFIRM, example="buy Ana")
class Buy:
    """An unowned blue square: PLAYER buys the shop at PA (offered with the cash)."""
    player: Seat


@action("buy_at", example="buy_at Ana 550")
class BuyAt:
    """Without a board, a shop whose PA is not read yet: bought at the PA printed (10 up to the
    player's cash, in tens), remembered."""
    player: Seat
    pa: Money


@action("tax", CONFIRM, example="tax Ana 70")
class Tax:
    """An unowned blue square: PLAYER pays R to the bank instead of buying; without a board, `R`
    as printed the first time it is read."""
    player: Seat
    r: Optional[Money] = None


@action("income", example="income 150")
class Income:
    """Without a board, the R printed on the square, the first time it is paid: a red square (an
    unread title paying the bank is an establishment), or a title another player holds."""
    r: Money


# Cards entered as effects (AV10), beside the core's money effects ------------------
@action("card_none", example="card_none Ana")
class CardNone:
    """The card read asks nothing the box tracks."""
    player: Seat


@action("card_grant", CONFIRM, example="card_grant Ana 31")
class CardGrant:
    """An honorary card: the establishment TITLE, free (no effect if granted already)."""
    player: Seat
    title: Name


@action("card_green", CONFIRM, example="card_green Ana 7 200")
class CardGreen:
    """The card sends the pawn to the green square SQUARE; AMOUNT to the bank."""
    player: Seat
    square: int
    amount: Money


@action("card_tax", CONFIRM, example="card_tax Ana 2 300")
class CardTax:
    """The card: pay AMOUNT at the shop TITLE, to its owner or the bank; the pawn stays."""
    player: Seat
    title: Name
    amount: Money


@action("card_back", CONFIRM, example="card_back Ana 3")
class CardBack:
    """The card moves the pawn back SQUARES squares."""
    player: Seat
    squares: int


# Short of cash (AV11) and the auctions (AV11, AV12) -------------------------------------
@action("auction_shop", CONFIRM, example="auction_shop Ana 1")
class AuctionShop:
    """Short of cash: one of the debtor's shops auctioned (AV11)."""
    player: Seat
    title: Name


@action("borrow", CONFIRM, example="borrow Ana")
class Borrow:
    """Short of cash with no shop left: as many loans of 1 000 (repaid 1 100) as the debt needs."""
    player: Seat


@action("leave", CONFIRM, example="leave Ana")
class Leave:
    """Short of cash, instead of borrowing: out of the game, ranked last (AV11)."""
    player: Seat


@action("bid", example="bid Ben 2550")
class Bid:
    """A shop auction (from half PA + `bid_step`) or the bank's (from 2 550): PLAYER bids
    AMOUNT, on the grid of `bid_step`, never above his cash."""
    player: Seat
    amount: Money


@action("sold", example="sold")
class Sold:
    """The silence: the high bidder takes it; nobody bid: the bank takes the shop at half PA, or
    the bank stays unsold (`bank_unsold`)."""


# Operator corrections (General ruling) ---------------------------------------------------
@action("set_pawn", CORRECTION, example='set_pawn Ana 12 "pawn moved wrongly"')
class SetPawn:
    """Correction: PLAYER's pawn on SQUARE (0-59), nothing applied."""
    player: Seat
    square: int
    reason: Text


@action("give_title", CORRECTION, example='give_title Ben 7 "card forgotten"')
class GiveTitle:
    """Correction: TITLE given to PLAYER, from the bank or another player."""
    player: Seat
    title: Name
    reason: Text


@action("forget_square", CORRECTION, example='forget_square 12 "misread"')
class ForgetSquare:
    """Correction, without a board: the square read wrongly is forgotten, read again at the next
    landing."""
    square: int
    reason: Text


@action("set_title", CORRECTION, example='set_title 7 600 60 "misread"')
class SetTitle:
    """Correction, without a board: a title's PA and R as printed (PA 0 for an establishment),
    in place of what was read; money already paid is corrected with `adjust_cash`."""
    title: Name
    pa: Money
    r: Money
    reason: Text


@action("take_title", CORRECTION, example='take_title 7 "given by mistake"')
class TakeTitle:
    """Correction: TITLE back to the bank."""
    title: Name
    reason: Text


@action("adjust_loans", CORRECTION, example='adjust_loans Cid +1 "a loan nobody recorded"')
class AdjustLoans:
    """Correction: PLAYER's loans (1 000 lent, 1 100 repaid at the end, AV3) recorded (+) or
    cancelled (-); no cash moves (a cash correction settles the 1 000 if it was not given)."""
    player: Seat
    delta: CountDelta
    reason: Text


@action("set_trip", CORRECTION, example='set_trip Ana 2 "restarted from 1, not entered"')
class SetTrip:
    """Correction, double game: the trip PLAYER is on (1 or 2: the titles he needs at 60 follow,
    AV4); the pawn is corrected with `set_pawn`, the prime with `adjust_cash`."""
    player: Seat
    trip: int
    reason: Text


@action("set_bank_owner", CORRECTION, example='set_bank_owner Ben "Ben bought the bank"')
class SetBankOwner:
    """Correction: PLAYER owns the bank (its last buyer, AV12: a quarter of its cash at the
    end); no cash moves."""
    player: Seat
    reason: Text


@action("clear_bank_owner", CORRECTION, example='clear_bank_owner "nobody bought the bank"')
class ClearBankOwner:
    """Correction: nobody owns the bank; no cash moves."""
    reason: Text


# Kind names of the board-less reading, each the kind of box data it learns at the table
# (engines/core/learning.py): journals, scripts and examples with the old names still read.
ALIASES = {"square": "learn_square", "colour": "learn_colour", "amounts": "learn_title"}
ACTIONS = ActionSet(
    First, Roll, LearnSquare, LearnColour, LearnTitle, Card, NoCard, Buy, BuyAt, Tax, Income, CardNone, CardGrant, CardGreen, CardTax, CardBack, *CARD_ACTIONS,
    AuctionShop, Borrow, Leave, Bid, Sold, AdjustCash, SetPawn, GiveTitle, TakeTitle, ForgetSquare, SetTitle,
    SetTurn, AdjustLoans, SetTrip, SetBankOwner, ClearBankOwner,
    aliases=ALIASES,
)
