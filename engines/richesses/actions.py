"""Every action of Richesses du Monde, with its command-language form (docs/protocol.md).

An Actualité card is entered as its effect, with the core card actions
(engines/core/cards.py: `card_pay`, `card_receive`, `card_pay_each`, `card_collect`).

Chance is recorded, never drawn by the engine: the plaques laid at setup (`plaques`) and
the two dice (`roll`, the white then the red) carry their outcome; left out, the device
draws them from the game's seed (`Richesses.fill_chance`) before the action is applied
and recorded, so a replay never draws again.
"""
from typing import Optional

from engines.core.actions import (ANYTIME, CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, CountDelta, DieFace, Money,
                                  Name, Seat, Text, action)
from engines.core.cards import CARD_ACTIONS
from engines.core.corrections import AdjustCash, SetTurn


@action("plaques", CHANCE, OUTCOME, CONFIRM, example="plaques")
class Plaques:
    """Setup: the production of each of the 48 plaque squares in board order, each production
    exactly twice (RM13); left out, the device draws them."""
    productions: tuple[Name, ...] = ()


@action("first", example="first Ana")
class First:
    """Setup: who starts (the highest roll, free, RM10)."""
    player: Seat


@action("roll", CHANCE, OUTCOME, CONFIRM, example="roll 3 4")
class Roll:
    """A turn's dice, white and red: a double n costs n M; the pawn moves by the total; left
    out, rolled by the device."""
    white: Optional[DieFace] = None
    red: Optional[DieFace] = None


@action("land", example="land Ben CANADA ARGENT")
class Land:
    """Without the square order in the box file (RM8), after the dice: the square the pawn is on
    (a country id, `CONTINENTAL-<continent>`, `BONUS`, `NEWS`, `JOKER`, `AUCTION` or `WORLD`)
    and its plaque's production, left out when there is none or it costs the lander nothing."""
    player: Seat
    square: Name
    plaque: Optional[Name] = None


@action("tour", example="tour Ana")
class Tour:
    """Without the square order, on a world choice or auction square that would do something
    before the box knows of his world tour: his pawn has passed the start arrow (with
    `world_tour anyone`: any pawn has)."""
    player: Seat


@action("no_tour", example="no_tour Ana")
class NoTour:
    """Without the square order: his pawn has not passed the start arrow yet (asked again at
    such a square)."""
    player: Seat


@action("claim", example="claim Ben")
class Claim:
    """With `strict_claims`, right after a landing that owes royalties: the holder claims what
    his share earns (AMOUNT, if written, must be that)."""
    player: Seat
    amount: Optional[Money] = None


@action("close_claims", example="close_claims")
class CloseClaims:
    """With `strict_claims`: the time to claim is over (7 s without a claim on the box); the
    lander pays what was claimed, the rest is lost."""


@action("buy", example="buy Ana ARGENT-CANADA ALUMINIUM-CANADA")
class Buy:
    """On a country, continental or world choice: 1 to 6 titles in stock, of the country, of the
    continent in productions held, or anywhere in productions held; their total never above
    cash."""
    player: Seat
    titles: tuple[Name, ...] = ()


@action("done", example="done Ben")
class Done:
    """Buy nothing on that square, no joker, or a card that moves no money."""
    player: Seat


@action("buy_joker", CONFIRM, example="buy_joker Cid")
class BuyJoker:
    """On a joker square (three players or more): a joker for 3 000 000 (confirmed on the box:
    one OK must not spend it)."""
    player: Seat


@action("use_joker", CONFIRM, example="use_joker Ana")
class UseJoker:
    """On a valid auction square, with a joker: nothing goes up for auction."""
    player: Seat


@action("lots", example="lots Ana ARGENT")
class Lots:
    """On a valid auction square: whole trusts reaching the red die with none to spare (all of
    them with fewer titles), one lot each, in this order (RM9)."""
    player: Seat
    productions: tuple[Name, ...] = ()


@action("bid", example="bid Ben 1850000")
class Bid:
    """A lot on sale: the first bid at half its price or more, then 100 000 or more above the
    high bid, never above cash; the seller does not bid."""
    player: Seat
    amount: Money


@action("sold", example="sold")
class Sold:
    """A lot on sale: the silence sells it to the high bidder, or to the bank at half price
    (titles back to the stock)."""


@action("offer", ANYTIME, CONFIRM, example="offer Ana ARGENT Ben 5000000")
class Offer:
    """Before a turn's dice: a free sale of the seller's whole trust to BUYER for AMOUNT (RM12)."""
    seller: Seat
    production: Name
    buyer: Seat
    amount: Money


@action("exchange", ANYTIME, CONFIRM, example="exchange Ana ARGENT Ben ALUMINIUM 500000")
class Exchange:
    """Before a turn's dice: the seller's whole trust against the buyer's whole trust of OTHER
    and AMOUNT (0 or more) from the buyer (RM12)."""
    seller: Seat
    production: Name
    buyer: Seat
    other: Name
    amount: Money


@action("overbid", example="overbid Cid 5100000")
class Overbid:
    """An offer's window: 100 000 or more above the best offer (an exchange's amount), never
    above cash; an overbid turns an exchange into a sale."""
    player: Seat
    amount: Money


@action("close_offer", example="close_offer")
class Close:
    """The silence closes the overbids; the seller answers."""


@action("accept", CONFIRM, example="accept")
class Accept:
    """The seller sells to the best offer."""


@action("lapse", example="lapse")
class Lapse:
    """The seller lets the best offer lapse."""


@action("set_pawn", CORRECTION, example='set_pawn Ana 13 1 "pawn moved wrongly"')
class SetPawn:
    """Correction: PLAYER's pawn on SQUARE (0 is the start arrow) with TOURS world tours;
    nothing is paid or bought."""
    player: Seat
    square: int
    tours: int
    reason: Text


@action("give_title", CORRECTION, example='give_title Ana RIZ-CHINE "bought last turn, not entered"')
class GiveTitle:
    """Correction: TITLE to PLAYER, from the stock or from the player who holds it; nothing is
    paid (a cash correction settles what was paid)."""
    player: Seat
    title: Name
    reason: Text


@action("take_title", CORRECTION, example='take_title RIZ-CHINE "given by mistake"')
class TakeTitle:
    """Correction: TITLE back to the stock from the player who holds it; nothing is paid."""
    title: Name
    reason: Text


@action("adjust_jokers", CORRECTION, example='adjust_jokers Ben +1 "joker bought, not entered"')
class AdjustJokers:
    """Correction: PLAYER's jokers from (+) or to (-) the stock of jokers; nothing is paid."""
    player: Seat
    delta: CountDelta
    reason: Text


@action("swap_plaques", CORRECTION, example='swap_plaques 3 7 "plaques laid the other way"')
class SwapPlaques:
    """Correction: the plaques of SQUARE and OTHER swapped, as they lie on the table's board."""
    square: int
    other: int
    reason: Text


@action("learn_title", example="learn_title ARGENT CANADA 35 2500000")
class LearnTitle:
    """A title card the box file does not hold, read off the stock on a buying square: its
    production and country (from the lists), its percent and price as printed (RM13 as
    amended); bought with `buy` after."""
    production: Name
    country: Name
    percent: int
    price: Money


@action("learn_royalties", example="learn_royalties ARGENT 30 1000000 50 3500000 70 7000000 90 11000000")
class LearnRoyalties:
    """A trust's royalty table the box file does not hold, read off its plaque the first time
    it earns royalties: each of its four bands as the percent it starts at (the first 30 %)
    and what it pays."""
    production: Name
    table: tuple[int, ...] = ()


@action("learn_jokers", example="learn_jokers 10")
class LearnJokers:
    """The joker cards in the box, counted at the first joker square when the file does not
    say."""
    jokers: int


ACTIONS = ActionSet(*CARD_ACTIONS, Plaques, First, Roll, Land, Tour, NoTour, Claim, CloseClaims, Buy, Done, BuyJoker, UseJoker, Lots, Bid, Sold, Offer, Exchange,
                    Overbid, Close, Accept, Lapse, AdjustCash, SetPawn, SetTurn, GiveTitle, TakeTitle, AdjustJokers,
                    SwapPlaques, LearnTitle, LearnRoyalties, LearnJokers)
