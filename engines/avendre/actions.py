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

from engines.core.actions import (CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, DieFace, Money, MoneyDelta, Name,
                                  Seat, Text, action)
from engines.core.cards import CARD_ACTIONS


@action("first")
class First:
    """PLAYER rolls first ("Le sort décide qui jettera le dé le premier")."""
    player: Seat


@action("roll", CHANCE, OUTCOME)
class Roll:
    """The player whose turn it is rolls the die (1-6); left out, the device rolls."""
    die: Optional[DieFace] = None


@action("square")
class Square:
    """Without a board (AV15), a square reached for the first time: the number of the title
    printed on it, 0 when it has none (a yellow or green square). The box remembers each
    square read; what the title costs is read when the turn needs it (`buy_at`, `tax`,
    `income`)."""
    title: int


@action("colour")
class Colour:
    """Without a board, a square without a title read for the first time: YELLOW or GREEN."""
    colour: Name


@action("amounts")
class Amounts:
    """Without a board, a title landed on whose values are not all read: the whole title
    card at once, its square's colour (BLUE, a shop; RED, an establishment), its PA (0 for
    an establishment) and its R, remembered for the rest of the game. The form the version
    before `buy_at`, `tax R` and `income` wrote (its journals replay), and an operator's
    choice who reads the card whole."""
    colour: Name
    pa: Money
    r: Money


@action("card")
class Card:
    """Yellow square: PLAYER asks for a card ("libre de réclamer une carte des charges")."""
    player: Seat


@action("no_card")
class NoCard:
    """Yellow square: PLAYER does not ask for a card."""
    player: Seat


@action("buy", CONFIRM)
class Buy:
    """Blue square: PLAYER buys the shop at its PA."""
    player: Seat


@action("buy_at")
class BuyAt:
    """Without a board, a shop whose PA the box has not read yet: PLAYER buys it at the PA
    printed on the square (remembered for the rest of the game). The PA entered is the
    confirmation: no further question (an undo takes it back)."""
    player: Seat
    pa: Money


@action("tax", CONFIRM)
class Tax:
    """Blue square: PLAYER does not buy and pays R to the bank as a tax; without a board,
    the R printed on the square the first time it is read (left out once known)."""
    player: Seat
    r: Optional[Money] = None


@action("income")
class Income:
    """Without a board, the R printed on the square, read the first time it is paid: a red
    square (an establishment: R to the bank or its holder), or a title another player holds.
    As with `buy_at`, the amount entered is the confirmation."""
    r: Money


# Cards entered as effects (AV10), beside the core's money effects ------------------
@action("card_none")
class CardNone:
    """The card read out asks nothing the box keeps track of."""
    player: Seat


@action("card_grant", CONFIRM)
class CardGrant:
    """An honorary card: PLAYER receives the establishment TITLE free (no effect if it is
    already granted)."""
    player: Seat
    title: Name


@action("card_green", CONFIRM)
class CardGreen:
    """The card sends PLAYER to the green square SQUARE, where he pays AMOUNT to the bank."""
    player: Seat
    square: int
    amount: Money


@action("card_tax", CONFIRM)
class CardTax:
    """The card makes PLAYER pay AMOUNT at shop TITLE: to its owner, or to the bank; the pawn
    stays where it is."""
    player: Seat
    title: Name
    amount: Money


@action("card_back", CONFIRM)
class CardBack:
    """The card moves PLAYER's pawn SQUARES squares back."""
    player: Seat
    squares: int


# Short of cash (AV11) and the auctions (AV11, AV12) -------------------------------------
@action("auction_shop", CONFIRM)
class AuctionShop:
    """PLAYER, short of cash, has the shop TITLE auctioned."""
    player: Seat
    title: Name


@action("borrow", CONFIRM)
class Borrow:
    """PLAYER, with no shop left, borrows 1 000 from the bank, to repay 1 100 at the end."""
    player: Seat


@action("leave", CONFIRM)
class Leave:
    """PLAYER, short of cash, leaves the game rather than borrow."""
    player: Seat


@action("bid")
class Bid:
    """PLAYER bids AMOUNT for what is auctioned (a shop, or the bank)."""
    player: Seat
    amount: Money


@action("sold")
class Sold:
    """Silence: the auction closes (to the high bidder, or nobody bid)."""


# Operator corrections (General ruling) ---------------------------------------------------
@action("adjust_cash", CORRECTION)
class AdjustCash:
    """PLAYER's cash from (+) or to (-) the bank's till."""
    player: Seat
    delta: MoneyDelta
    reason: Text


@action("set_pawn", CORRECTION)
class SetPawn:
    """PLAYER's pawn put on SQUARE (0: off the board), nothing applied."""
    player: Seat
    square: int
    reason: Text


@action("give_title", CORRECTION)
class GiveTitle:
    """The title TITLE to PLAYER, free (from the bank or from another player)."""
    player: Seat
    title: Name
    reason: Text


@action("forget_square", CORRECTION)
class ForgetSquare:
    """Without a board: what was read on SQUARE is forgotten; it is read again at the next
    landing (a title misread)."""
    square: int
    reason: Text


@action("set_title", CORRECTION)
class SetTitle:
    """Without a board: the title TITLE's PA and R as printed (PA 0: an establishment), in
    place of what was read; money already paid is corrected with adjust_cash."""
    title: Name
    pa: Money
    r: Money
    reason: Text


@action("take_title", CORRECTION)
class TakeTitle:
    """The title TITLE back to the bank, for nothing."""
    title: Name
    reason: Text


ACTIONS = ActionSet(
    First, Roll, Square, Colour, Amounts, Card, NoCard, Buy, BuyAt, Tax, Income, CardNone, CardGrant, CardGreen, CardTax, CardBack, *CARD_ACTIONS,
    AuctionShop, Borrow, Leave, Bid, Sold, AdjustCash, SetPawn, GiveTitle, TakeTitle, ForgetSquare, SetTitle,
)
