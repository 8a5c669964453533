"""Every action of Maxi Bourse International, with its command-language form.

See docs/protocol.md for the full language with examples.
"""
from typing import Optional

from engines.core.actions import Price as PriceValue  # `Price` here is the card action below

from engines.core.actions import (ANYTIME, CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, Company, CountDelta, DieFace,
                                  Lots, Money, MoneyDelta, PriceDelta, Seat, Target, Text, action)

Companies = tuple[Company, ...]  # companies in order (a deal of starting lots)


# Setting up ---------------------------------------------------------------
@action("pick")
class Pick:
    """A player chooses one lot of their free starting portfolio (MB2)."""
    player: Seat
    company: Company


@action("deal", CHANCE, OUTCOME)
class Deal:
    """The setting `picks = "dealt"`: every starting lot drawn by the device, in the picking
    order (one lot per player in turn); left out, the device draws them and records them."""
    companies: Companies = ()


@action("first")
class First:
    """The player who rolled highest starts."""
    player: Seat


# A turn -------------------------------------------------------------------
@action("sell", CONFIRM)
class Sell:
    """Offer lots of one company (before rolling, or to cover a debt or forced sale)."""
    player: Seat
    company: Company
    lots: Lots


@action("trade", CONFIRM)
class Trade:
    """A sale agreed between two players at a price of their own, at least the current
    price (2/5: a holder asked to sell may name a higher price; 1-7: the lander may offer
    to buy from the holders). The quotation becomes the agreed price."""
    seller: Seat
    buyer: Seat
    company: Company
    lots: Lots
    price: PriceValue


@action("roll", CHANCE)
class Roll:
    """The current player's dice; left out, they are rolled by the device and recorded."""
    d1: Optional[DieFace] = None
    d2: Optional[DieFace] = None


@action("double", CONFIRM)
class Double:
    """After a double, buy 1 or 2 lots of any company au cours (MB7)."""
    player: Seat
    company: Company
    lots: Lots


@action("pass")
class Pass:
    """Decline the purchase a double allows."""
    player: Seat


@action("titre")
class Titre:
    """The lander is on the Titre square SQUARE and names the company traded (MB3)."""
    square: Company
    company: Optional[Company] = None


@action("declare")
class Declare:
    """A speaking-round answer: lots asked (0 = pass)."""
    player: Seat
    lots: Lots


@action("raise")
class Raise:
    """Auction clock: everyone who has not answered accepts the next price."""


@action("keep")
class Keep:
    """Auction answer at the proposed price: keep LOTS of the request, cut from what it was
    (0 = drop out). Written `bid` before (still read: ALIASES)."""
    player: Seat
    lots: Lots


@action("settle")
class Settle:
    """Settlement: buyers pay the price current now (MB5)."""


@action("end")
class End:
    """End of the current player's turn."""


# Cards (entered as generic effects) -----------------------------------------
@action("price")
class Price:
    """Change the price of a company, a sector or ALL companies by a signed amount."""
    target: Target
    delta: PriceDelta


@action("pay", CONFIRM)
class Pay:
    player: Seat
    amount: Money


@action("receive")
class Receive:
    player: Seat
    amount: Money


@action("payeach", CONFIRM)
class PayEach:
    """The player pays AMOUNT to each other player still in the game."""
    player: Seat
    amount: Money


@action("forced", CONFIRM)
class Forced:
    """Strictement personnel: sell lots worth AMOUNT and pay it to the bank (MB9)."""
    player: Seat
    amount: Money


@action("rumour")
class Rumour:
    """The player draws a Rumeurs card and keeps it hidden."""
    player: Seat


@action("reveal", ANYTIME, CONFIRM)
class Reveal:
    """A held rumour is revealed (any time): price change of a company, sector or ALL."""
    player: Seat
    target: Target
    delta: PriceDelta


# The round and the game -----------------------------------------------------
@action("payday")
class Payday:
    """Dividends, jetons de présence and bonuses for everyone (MB10)."""


@action("close", ANYTIME, CONFIRM)
class Close:
    """The agreed time is up: close the session and rank the players (MB11)."""


# Operator corrections ---------------------------------------------------------
@action("adjust_cash", CORRECTION)
class AdjustCash:
    player: Seat
    delta: MoneyDelta
    reason: Text


@action("adjust_lots", CORRECTION)
class AdjustLots:
    player: Seat
    company: Company
    delta: CountDelta
    reason: Text


@action("set_price", CORRECTION)
class SetPrice:
    company: Company
    price: PriceValue
    reason: Text


@action("set_nominal", CORRECTION)
class SetNominal:
    """The box file's nominal price of COMPANY was wrong (found during the game): the
    nominal is NOMINAL now and the price moves by the difference (MB1: the nominal is the
    start price; every change since went on from it). The file itself is corrected on a
    desktop and checked with `corbeille box check`."""
    company: Company
    nominal: PriceValue
    reason: Text


# Kind names this game used before, each now the kind of its one meaning: `bid` was the
# lot auction's answer here and a money bid in Dividends (journals and scripts still read).
ALIASES = {"bid": "keep"}
ACTIONS = ActionSet(
    Pick, Deal, First, Sell, Trade, Roll, Double, Pass, Titre, Declare, Raise, Keep, Settle, End,
    Price, Pay, Receive, PayEach, Forced, Rumour, Reveal, Payday, Close,
    AdjustCash, AdjustLots, SetPrice, SetNominal,
    aliases=ALIASES,
)
