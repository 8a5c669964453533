"""The procedures a Maxi Bourse game can be in: steps (engines/core/steps.py), plain data.

The game state holds a stack of these (`s.steps`); the top one says what the game is
waiting for (its `decision`). A procedure that needs another one (a settlement whose
buyer cannot pay needs a debt, a debt needs sales...) pushes it, and when that one is
over the game pops it and hands its typed result (`AuctionOver`, `Settled`, `Sold`, or
`Done`) to `resume` of the step below. The actions are still handled by the game class
(engines/maxibourse/game.py), which reads the step on top.
"""
from dataclasses import dataclass

from engines.core.decision import Choice, Decision, Fixed, IntRange, Option
from engines.core.ledger import BANK
from engines.core.rounds import LotAuction, SpeakingRound
from engines.core.steps import Result, Step

MAX_ASK = 2        # 1 000 to 2 000 shares per speaking round (MB3)
AMOUNT_STEP = 10_000  # the smallest cheque
MAX_AMOUNT = 100_000_000
PRICE_STEP = 10    # every price is a multiple of 10 $ (MB1)
MIN_PRICE = 10


# What a finished procedure hands to the one below it --------------------------------
@dataclass
class Done(Result):
    """Over, with nothing to report (a titre square, a debt, a forced sale)."""


@dataclass
class AuctionOver(Result):
    price: int               # the price the auction closed at
    allocation: list         # [(seat, lots)] the lots each bidder gets; [] when the offer was withdrawn


@dataclass
class Settled(Result):
    proceeds: int            # what the buyers paid (or owe) the seller
    lots: int                # the lots sold
    au_cours: bool           # an au cours purchase (a titre square's first request, a double)


@dataclass
class Sold(Result):
    proceeds: int            # what the sale brought the seller


class Frame(Step):
    """A Maxi Bourse step. `rumours` is False where the session has not started or is over:
    only corrections are offered beside the step's own actions then (not reveal, close)."""
    rumours = True

    @property
    def name(self):
        return type(self).__name__  # the snapshot's "phase"

    def resume(self, game, result):
        return None


@dataclass
class Picking(Frame):
    order: list  # seats still to pick one starting lot, in order
    rumours = False

    def actor(self, game):
        return self.order[0]

    def decision(self, game):
        seat = self.order[0]
        mine = game.held(seat)
        choices = tuple(c for c in game.companies if c not in mine and game.s.lots.bank(c) > 0)
        return Decision("prompt.pick", {"player": game.players[seat], "left": self.order.count(seat)}, seat,
                        (Option("pick", {"player": Fixed(seat), "company": Choice(choices)}),))


@dataclass
class ChooseFirst(Frame):
    rumours = False

    def decision(self, game):
        return Decision("prompt.first", {}, None, (Option("first", {"player": Choice(tuple(range(len(game.players))))}),))


@dataclass
class Turn(Frame):
    seat: int
    phase: str = "start"  # start (may sell) -> double (after a double) -> square
    titre_done: bool = False
    card: bool = False     # a card's effect was entered on the square (no trade then: 1-2, 4)

    def actor(self, game):
        return self.seat

    def decision(self, game):
        seat, p = self.seat, {"player": game.players[self.seat]}
        if self.phase == "start":
            opts = [Option("roll", {"d1": IntRange(1, 6), "d2": IntRange(1, 6)})]
            held = game.sellable(seat)
            if held:
                opts.append(Option("sell", {"player": Fixed(seat), "company": Choice(held),
                                            "lots": IntRange(1, game.box.lots_per_company)}))
            if game.settings["payday"] == "manual":
                opts.append(Option("payday"))
            return Decision("prompt.turn_start", p, seat, tuple(opts + game.trade_option(seat)))
        if self.phase == "double":
            open_ = tuple(c for c in game.companies if game.s.lots.bank(c) > 0)
            return Decision("prompt.double", p, seat, (
                Option("double", {"player": Fixed(seat), "company": Choice(open_), "lots": Choice((1, 2))}),
                Option("pass", {"player": Fixed(seat)})))
        everyone = Choice(tuple(game.in_game()))
        amount = IntRange(AMOUNT_STEP, MAX_AMOUNT, AMOUNT_STEP)
        opts = []
        open_ = tuple(c for c in game.companies if game.s.lots.bank(c) > 0)
        if not self.titre_done and open_ and game.can_trade(seat):  # a sanctioned lander trades nothing
            opts.append(Option("titre", {"square": Choice(tuple(game.companies)), "company": Choice(open_ + (None,))}))
        opts += [
            Option("price", {"target": Choice(game.target_names()), "delta": IntRange(-1000, 1000, PRICE_STEP)}),
            Option("pay", {"player": everyone, "amount": amount}),
            Option("receive", {"player": everyone, "amount": amount}),
            Option("payeach", {"player": everyone, "amount": amount}),
            Option("forced", {"player": Fixed(seat), "amount": amount}),
            Option("rumour", {"player": Fixed(seat)}),
            *game.trade_option(seat),
            Option("end"),
        ]
        return Decision("prompt.square", p, seat, tuple(opts))

    def resume(self, game, result):
        if game.s.ruined[self.seat]:  # ruined during their own turn: the turn ends
            game.s.steps.pop()
            game.next_turn(self.seat)


@dataclass
class TitreSquare(Frame):
    company: str
    lander: int
    au_cours: bool           # the lander's first request is au cours (MB3)
    round: SpeakingRound
    round_no: int = 1
    au_cours_lots: int = 0   # lots bought au cours this round (they do not move the price)

    def actor(self, game):
        return self.round.speaker

    def is_au_cours(self):
        return self.au_cours and self.round_no == 1 and not self.round.answers and self.round.speaker == self.lander

    def decision(self, game):
        seat = self.round.speaker
        au_cours = self.is_au_cours()
        hi = min(MAX_ASK, game.s.lots.bank(self.company)) if au_cours else MAX_ASK
        params = {"player": game.players[seat], "company": self.company, "price": game.price(self.company),
                  "left": game.s.lots.bank(self.company), "round": self.round_no}
        return Decision("prompt.titre_au_cours" if au_cours else "prompt.titre", params, seat,
                        (Option("declare", {"player": Fixed(seat), "lots": Choice(tuple(range(hi + 1)))}),))

    def resume(self, game, result):
        if isinstance(result, AuctionOver):
            if not result.allocation:  # a correction gave away the bank's last lots during the auction
                return game.next_titre_round(self)
            return game.push(Settlement(self.company, BANK, result.allocation))
        if isinstance(result, Settled) and result.au_cours:  # the au cours purchase
            if game.s.lots.bank(self.company) == 0:  # "jusqu'à ce qu'il ne reste aucune action disponible"
                game.emit("titre_over", company=self.company)
                return game.pop()
            game.leave_round(self.round)
            return game.end_titre_round(self) if self.round.done else None
        return game.next_titre_round(self)


@dataclass
class Auction(Frame):
    company: str
    seller: int
    auction: LotAuction

    def decision(self, game):
        a = self.auction
        pending = a.pending()
        params = {"company": self.company, "price": a.price, "proposal": a.proposal, "lots": a.lots,
                  "bidders": [game.players[s] for s, _ in a.bidders]}
        return Decision("prompt.auction", params, None, (
            Option("raise"),
            Option("bid", {"player": Choice(tuple(s for s, _ in pending)),
                           "lots": IntRange(0, max(n for _, n in pending) - 1)})))


@dataclass
class Settlement(Frame):
    company: str
    seller: int
    purchases: list          # [(seat, lots)]
    au_cours: bool = False
    price: int | None = None  # fixed when the operator settles
    index: int = 0
    proceeds: int = 0

    def decision(self, game):
        params = {"company": self.company, "price": game.price(self.company),
                  "buyers": [f"{game.players[s]} {n}" for s, n in self.purchases]}
        return Decision("prompt.settle", params, None, (Option("settle"),))

    def resume(self, game, result):
        return game.continue_settlement(self)


@dataclass
class Sale(Frame):
    seller: int              # a seat, or the bank selling seized lots
    company: str
    lots: int                # lots still offered
    round: SpeakingRound
    declines: int = 0        # rounds in which nobody bought (MB6)
    proceeds: int = 0
    exclude: int | None = None  # a defaulter may not buy back the lots seized from them

    def actor(self, game):
        return self.round.speaker

    def decision(self, game):
        seat = self.round.speaker
        params = {"player": game.players[seat], "seller": game.holder_name(self.seller), "company": self.company,
                  "price": game.price(self.company), "lots": self.lots}
        return Decision("prompt.sale", params, seat,
                        (Option("declare", {"player": Fixed(seat), "lots": Choice(tuple(range(self.lots + 1)))}),))

    def resume(self, game, result):
        if isinstance(result, AuctionOver):
            if self.lots == 0:  # withdrawn by a correction during the auction
                return game.pop(Sold(self.proceeds))
            return game.push(Settlement(self.company, self.seller, result.allocation))
        self.proceeds += result.proceeds
        self.lots -= result.lots
        if self.lots == 0:
            return game.pop(Sold(self.proceeds))
        return game.new_sale_round(self)


class Selling(Frame):
    """A player who must raise cash: sells lots (a sale each) until the step is over."""

    def due(self):
        """What is still to pay."""
        raise NotImplementedError

    def decision(self, game):
        seat = self.actor(game)
        held = game.sellable(seat)
        params = {"player": game.players[seat], "amount": self.due(), "cash": game.cash(seat)}
        return Decision(self.prompt, params, seat, (
            Option("sell", {"player": Fixed(seat), "company": Choice(held),
                            "lots": IntRange(1, game.box.lots_per_company)}),))


@dataclass
class Debt(Selling):
    debtor: int
    owed: list               # [(creditor, amount)]
    purchase: tuple | None   # (company, lots, seller) for a purchase that cannot be paid
    fine: int = 0
    stage: str = "cover"     # cover (sell to raise cash) -> cessation (bank sells seized lots)
    paid: int = 0            # cash the defaulter handed over at cessation
    prompt = "prompt.debt"

    def actor(self, game):
        return self.debtor

    def due(self):
        return sum(a for _, a in self.owed) + self.fine

    def resume(self, game, result):
        return game.resume_debt(self, result)


@dataclass
class ForcedSale(Selling):
    seat: int
    amount: int
    proceeds: int = 0
    prompt = "prompt.forced"

    def actor(self, game):
        return self.seat

    def due(self):
        return self.amount - self.proceeds

    def resume(self, game, result):
        self.proceeds += result.proceeds
        return game.check_forced(self)


@dataclass
class PaydayStep(Frame):
    def decision(self, game):
        return Decision("prompt.payday", {"round": game.s.round}, None, (Option("payday"),))


@dataclass
class Over(Frame):
    reason: str
    rumours = False

    def decision(self, game):
        return Decision("prompt.over", {"reason": self.reason}, None, ())
