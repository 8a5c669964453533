"""Every action of Maxi Bourse International, with its command-language form.

See docs/protocol.md for the full language with examples.
"""
from typing import Optional

from engines.core.actions import Price as PriceValue  # `Price` here is the card action below

from engines.core.actions import (ANYTIME, CHANCE, CONFIRM, CORRECTION, OUTCOME, ActionSet, Company, CountDelta, DieFace,
                                  Lots, Money, PriceDelta, Seat, Target, Text, action)
from engines.core.corrections import AdjustCash, SetTurn

Companies = tuple[Company, ...]  # companies in order (a deal of starting lots)


# Setting up ---------------------------------------------------------------
@action("pick", example="pick Ana SONY")
class Pick:
    """Starting portfolio: the players take one lot at a time in seat order, distinct companies,
    free (MB2)."""
    player: Seat
    company: Company


@action("deal", CHANCE, OUTCOME, example="deal SONY IBM BP")
class Deal:
    """With `picks = dealt`: every starting lot at once, in the picking order (one lot per
    player in turn, each player distinct companies); left out, the device draws them and records
    them."""
    companies: Companies = ()


@action("first", example="first Ben")
class First:
    """After the picks: the player who rolled highest starts."""
    player: Seat


# A turn -------------------------------------------------------------------
@action("sell", CONFIRM, example="sell Ana PEUGEOT 3")
class Sell:
    """Before rolling, by the player whose turn it is: lots of one company offered to the table;
    also to raise cash in a debt or a forced sale."""
    player: Seat
    company: Company
    lots: Lots


@action("trade", CONFIRM, example="trade Ben Ana TWA 2 250")
class Trade:
    """Before rolling or on the square: a sale agreed between the player whose turn it is and
    another, at the current price or more (2/5: a holder asked to sell may name a higher price;
    1-7: the lander may offer to buy from the holders); the quotation becomes the agreed price."""
    seller: Seat
    buyer: Seat
    company: Company
    lots: Lots
    price: PriceValue


@action("roll", CHANCE, example="roll 3 4")
class Roll:
    """Before rolling: the current player's dice; without them the device rolls and the dice are
    recorded (both dice, or none: `roll 3` is refused)."""
    d1: Optional[DieFace] = None
    d2: Optional[DieFace] = None


@action("double", CONFIRM, example="double Ana IBM 2")
class Double:
    """After a double: buy 1 or 2 lots of any company au cours (MB7)."""
    player: Seat
    company: Company
    lots: Lots


@action("pass", example="pass Ana")
class Pass:
    """After a double: no purchase."""
    player: Seat


@action("titre", example="titre BP SONY")
class Titre:
    """On the square: the lander is on the Titre square SQUARE; COMPANY is the company traded
    (default: the square's, bought au cours by the lander first; another one: au mieux, MB3)."""
    square: Company
    company: Optional[Company] = None


@action("declare", example="declare Cid 2")
class Declare:
    """A speaking round asks PLAYER: on a Titre, 0 (pass), 1 or 2 lots; in a sale, 0 up to the
    lots offered."""
    player: Seat
    lots: Lots


@action("raise", example="raise")
class Raise:
    """An auction (requests exceed lots): everyone who has not answered accepts the next price
    (+10 $)."""


@action("keep", example="keep Ben 1")
class Keep:
    """An auction: PLAYER keeps LOTS of the request at the proposed price, cut from what it was
    (0 = withdraws); written `bid` before, still read."""
    player: Seat
    lots: Lots


@action("settle", example="settle")
class Settle:
    """Settlement step: the buyers pay the price current now (a rumour may have changed it,
    MB5)."""


@action("end", example="end")
class End:
    """On the square, when everything is done: the next player's turn."""


# Cards (entered as generic effects) -----------------------------------------
@action("price", example="price AUTOMOBILE -20")
class Price:
    """A Bourse or Politique card: the price of a company, a sector or `ALL` changes by DELTA
    (non-zero multiples of 10 $; a price never goes below 10 $)."""
    target: Target
    delta: PriceDelta


@action("pay", CONFIRM, example="pay Ana 200000")
class Pay:
    """A card: PLAYER pays AMOUNT to the bank (short of cash: must sell, MB8); amounts are
    multiples of 10 000 $, the smallest cheque."""
    player: Seat
    amount: Money


@action("receive", example="receive Ana 100000")
class Receive:
    """A card: the bank pays AMOUNT to PLAYER."""
    player: Seat
    amount: Money


@action("payeach", CONFIRM, example="payeach Ana 50000")
class PayEach:
    """A card: PLAYER pays AMOUNT to each other player still in the game."""
    player: Seat
    amount: Money


@action("forced", CONFIRM, example="forced Ben 1050000")
class Forced:
    """A Strictement personnel card: PLAYER sells lots worth AMOUNT and pays it to the bank
    (MB9)."""
    player: Seat
    amount: Money


@action("rumour", example="rumour Cid")
class Rumour:
    """PLAYER draws a Rumeurs card and keeps it hidden."""
    player: Seat


@action("reveal", ANYTIME, CONFIRM, example="reveal Cid COCA-COLA +60")
class Reveal:
    """At any moment: PLAYER reveals a held rumour, the price of a company, a sector or `ALL`
    changes by DELTA."""
    player: Seat
    target: Target
    delta: PriceDelta


# The round and the game -----------------------------------------------------
@action("payday", example="payday")
class Payday:
    """The payday step at the end of a round (or, with `set payday manual`, before a roll):
    dividends, jetons de présence and bonuses for everyone (MB10)."""


@action("close", ANYTIME, CONFIRM, example="close")
class Close:
    """At any moment: the agreed time is up; the session closes and the players are ranked
    (MB11)."""


# Operator corrections ---------------------------------------------------------
@action("adjust_lots", CORRECTION, example='adjust_lots Ben SONY -1 "card returned"')
class AdjustLots:
    """Correction: PLAYER's lots of COMPANY from (+) or to (-) the bank; lots on offer shrink to
    what is still held."""
    player: Seat
    company: Company
    delta: CountDelta
    reason: Text


@action("set_pawn", CORRECTION, example='set_pawn Ana 12 "pawn moved wrongly"')
class SetPawn:
    """Correction, with the box file's board: PLAYER's pawn on SQUARE (0 is "Action !"), nothing
    applied."""
    player: Seat
    square: int
    reason: Text


@action("set_skip", CORRECTION, example='set_skip Ben 1 "fined, not entered"')
class SetSkip:
    """Correction: the turns PLAYER still skips (MB8), 0 to 2."""
    player: Seat
    turns: int
    reason: Text


@action("set_round", CORRECTION, example='set_round 3 "two rounds played before the box"')
class SetRound:
    """Correction: the round under way (the paydays of MB10 and the agreed rounds of MB11 count
    from it)."""
    round: int
    reason: Text


@action("set_price", CORRECTION, example='set_price SONY 350 "board misread"')
class SetPrice:
    """Correction: the price of COMPANY."""
    company: Company
    price: PriceValue
    reason: Text


@action("set_nominal", CORRECTION, example='set_nominal SONY 200 "quotation table says 200"')
class SetNominal:
    """Correction: the box file's nominal price of COMPANY was wrong (found during the game):
    the nominal is NOMINAL now and the price moves by the difference (MB1: every change since
    went on from it); until the session is closed. The file itself is corrected on a desktop and
    checked with `corbeille box check`."""
    company: Company
    nominal: PriceValue
    reason: Text


@action("learn_nominal", example="learn_nominal SONY 200")
class LearnNominal:
    """Before the deal, for each company whose nominal the box file leaves out: its nominal
    price as the quotation table prints it (100, 200 or 300 $), where its price starts."""
    company: Company
    nominal: PriceValue


# Kind names this game used before, each now the kind of its one meaning: `bid` was the
# lot auction's answer here and a money bid in Dividends (journals and scripts still read).
ALIASES = {"bid": "keep"}
ACTIONS = ActionSet(
    Pick, Deal, First, Sell, Trade, Roll, Double, Pass, Titre, Declare, Raise, Keep, Settle, End,
    Price, Pay, Receive, PayEach, Forced, Rumour, Reveal, Payday, Close,
    AdjustCash, AdjustLots, SetPrice, SetNominal, SetTurn, SetPawn, SetSkip, SetRound, LearnNominal,
    aliases=ALIASES,
)
