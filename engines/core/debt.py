"""A player short of cash: the game's ordered ways to raise it, then ruin.

Every game of the family has a debt procedure, each with its own remedies and its own
ruin, written here once:

- A Vendre! (AV3, AV11): the debtor's shops are auctioned one at a time from half the PA
  (no bid: the bank takes it at half PA); once no shop is left, loans of 1 000 repaid
  1 100, as many as needed, paid from a bank that may run dry (AV12).
- Shark (SH9): all the cash, then shares the debtor chooses one at a time, sold to the bank
  at half price rounded up; still short with nothing left: out, the rest written off.
- Richesses du Monde (RM11): cash only; the debtor's cash goes to the bank, the bank pays
  every creditor in full, the titles go back to the stock.
- Maxi Bourse (MB8): a debt of a card the debtor cannot pay even after selling: ruined,
  the bank pays the creditors in full.

`Debt` is a Step (engines/core/steps.py). A game subclasses it once and declares, as class
attributes (never state), its `remedies` in the rulebook's order and its `ruin` policy.
The step pays as soon as the cash covers what is owed; otherwise it offers the FIRST
remedy still available (a later one only once the earlier ones are exhausted: AV11's
loans "only once no shop is left"), or plays it itself when the remedy needs no choice;
with no remedy left the debtor is ruined. It hands the step below a typed result: `Paid`
or `Ruined`.

What the step needs of the game (the protocol): `game.s.ledger` (engines/core/ledger.py),
`game.transfer(src, dst, amount, reason)` and `game.emit(key, **params)` (events),
`game.s.deeds` / `game.s.loans` (engines/core/deeds.py) for the remedies that use them,
`game.eliminate(seat)` (the game's own bookkeeping of a player out: turns skipped,
ranking) and `game.eliminated(seat)` and, for `AuctionDeed`, `game.deed_auction(debtor, deed)`: the game's auction
step, which settles the winner's payment to the debtor itself (a winner short of cash is
a nested Debt of its own) and finishes with `DeedSold`. Optionally
`game.bank_shortfall(dst, unpaid, reason)`: a game whose bank settles later what it
could not pay (A Vendre!'s bank auction, AV12) takes the unpaid part over, so it is owed,
not lost: `bank_pays` then reports nothing unpaid and a loan is lent in full.

A debtor may also be offered to leave the game instead of a remedy (A Vendre! AV11: "pour
ne pas être obligé de sortir du jeu", loans or leaving): `leave_beside` names the remedies
beside which the decision offers `leave_kind`, answered by `quit` (the game's ruin).
"""
from dataclasses import field

from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.deeds import STOCK
from engines.core.ledger import BANK
from engines.core.records import record
from engines.core.steps import Result, Step


# ------------------------------------------------------------------- results
@record
class Paid(Result):
    debtor: int
    amount: int              # what the creditors received


@record
class Ruined(Result):
    debtor: int
    unpaid: int              # what the creditors did not receive (written off, or the bank's shortfall)


@record
class DeedSold(Result):
    """What a deed auction (the game's step) hands back to the debt that pushed it."""
    deed: str
    buyer: int | None        # None: nobody bid
    price: int               # what the buyer paid the debtor (0 when nobody bid)


# ------------------------------------------------------------------ remedies
class Remedy:
    """One way to raise cash. `kind` is the action that answers it (None: the remedy plays
    itself, no choice to make)."""
    kind: str | None = None

    def available(self, game, debt) -> bool:
        raise NotImplementedError

    def option(self, game, debt) -> Option:
        raise NotImplementedError(f"{type(self).__name__} needs no choice")

    def play(self, game, debt, act=None) -> None:
        """Raise cash (with `act` when the remedy is a choice); may push a step, whose result
        comes back through `resume`."""
        raise NotImplementedError

    def resume(self, game, debt, result) -> None:
        raise NotImplementedError(f"{type(self).__name__} pushed no step: it cannot resume with {result!r}")


@record(frozen=True)
class DeedRemedy(Remedy):
    """A remedy where the debtor chooses one of his deeds (named by the action's `field`);
    with `only(game, deed)`, only the deeds it accepts (A Vendre! AV11: shops, never the
    honorary establishments)."""
    field: str = "deed"
    only: object = None

    def deeds(self, game, debt) -> tuple:
        held = game.s.deeds.owned_by(debt.debtor)
        if self.only is None:
            return held
        return tuple(name for name in held if self.only(game, game.s.deeds[name]))

    def available(self, game, debt):
        return bool(self.deeds(game, debt))

    def option(self, game, debt):
        return Option(self.kind, {"player": Fixed(debt.debtor), self.field: Choice(self.deeds(game, debt))})


@record(frozen=True)
class SellDeed(DeedRemedy):
    """The debtor chooses one of his deeds and sells it to the bank at `price(deed)`
    (Shark SH9: half price rounded up to the thousand). The deed goes to `to` (the bank, or
    back to the stock). A bank that cannot pay it all pays what it has: the shortfall is an
    event of the game (`bank_short`), the deed is sold anyway."""
    kind: str = "sell_deed"
    price: object = lambda deed: deed.price // 2
    to: int = BANK

    def play(self, game, debt, act=None):
        name = getattr(act, self.field)
        deed = game.s.deeds[name]
        game.emit(**_event(game.s.deeds.move(name, debt.debtor, self.to)))
        bank_pays(game, debt.debtor, self.price(deed), "deed_sale")


@record(frozen=True)
class AuctionDeed(DeedRemedy):
    """The debtor chooses one of his deeds; the game's auction sells it to the other
    players (A Vendre! AV11). Nobody bids: the bank buys it at `fallback(deed)` (AV3
    "la banque la prend à la moitié du PA") and it goes to `to`."""
    kind: str = "auction_deed"
    fallback: object = lambda deed: deed.price // 2
    to: int = BANK

    def play(self, game, debt, act=None):
        game.push(game.deed_auction(debt.debtor, getattr(act, self.field)))

    def resume(self, game, debt, result):
        if result.buyer is not None:
            return  # the auction moved the deed and the buyer's payment
        deed = game.s.deeds[result.deed]
        if deed.owner == debt.debtor:  # still his (not seized by a ruin meanwhile)
            game.emit(**_event(game.s.deeds.move(deed.name, debt.debtor, self.to)))
            bank_pays(game, debt.debtor, self.fallback(deed), "deed_sale")


@record(frozen=True)
class TakeLoan(Remedy):
    """A loan from the bank: `amount` lent, `repayment` owed back (A Vendre! AV3: 1 000,
    repaid 1 100; several allowed). With `choice` the debtor asks for it (an action of kind
    `kind`); without, the step takes it itself. A bank with no cash left lends nothing, so
    the remedy is unavailable then; a bank with less than `amount` lends what it has (AV12:
    a loan can run the bank dry) and the loan is recorded for what was lent, repaid in the
    same proportion. A game that settles its bank's shortfall later (`game.bank_shortfall`,
    AV12: the bank is auctioned, then pays the rest) always lends, in full.
    With `as_needed`, one answer takes as many loans as cover the debt (AV11 "as many as
    needed"), each recorded on its own."""
    amount: int = 1000
    repayment: int = 1100
    kind: str | None = "borrow"
    as_needed: bool = False

    def available(self, game, debt):
        return game.s.ledger.can_pay(BANK, 1) or hasattr(game, "bank_shortfall")

    def option(self, game, debt):
        return Option(self.kind, {"player": Fixed(debt.debtor)})

    def loans(self, game, debt) -> int:
        """How many loans one answer takes: one, or as many as the debt needs."""
        if not self.as_needed:
            return 1
        short = debt.due() - game.s.ledger[debt.debtor]
        return max(1, -(-short // self.amount))

    def play(self, game, debt, act=None):
        for _ in range(self.loans(game, debt)):
            lent = self.amount - bank_pays(game, debt.debtor, self.amount, "loan")
            if not lent:
                break   # the bank has nothing left to lend
            repayment = self.repayment * lent // self.amount
            game.emit(**_event(game.s.loans.take(debt.debtor, lent, repayment)))


# --------------------------------------------------------------------- ruin
@record(frozen=True)
class Ruin:
    """What happens to a debtor with nothing left to raise cash from.

    `bank_pays_creditors` (Richesses du Monde RM11, Maxi Bourse MB8): the debtor's cash goes
    to the bank, which pays every creditor in full, or what it has (a bank that runs dry:
    the rest is its shortfall, event `bank_short`). Without it (Shark SH9): the debtor's cash
    goes to the creditors in order and the rest is written off. The debtor's deeds go to
    `deeds_to` (the stock, RM11) and his loans are cancelled."""
    bank_pays_creditors: bool = False
    deeds_to: int = STOCK

    def apply(self, game, debt) -> "Ruined":
        debtor, unpaid = debt.debtor, 0
        if self.bank_pays_creditors:
            game.transfer(debtor, BANK, game.s.ledger[debtor], "ruin")
            for creditor, amount in debt.owed:
                if creditor != BANK:
                    unpaid += bank_pays(game, creditor, amount, "debt")
        else:
            for creditor, amount in debt.owed:
                event, short = game.s.ledger.pay_what_it_can(debtor, creditor, amount, "debt")
                if event is not None:
                    game.emit(**_event(event))
                unpaid += short
            if unpaid:
                game.emit("written_off", player=debtor, amount=unpaid)
        deeds = getattr(game.s, "deeds", None)
        if deeds is not None:
            for event in deeds.return_all(debtor, self.deeds_to):
                game.emit(**_event(event))
        loans = getattr(game.s, "loans", None)
        if loans is not None and loans.write_off(debtor):
            game.emit("loans_cancelled", player=debtor)
        game.eliminate(debtor)  # the game's own bookkeeping and event of a player out
        return Ruined(debtor, unpaid)


# --------------------------------------------------------------------- step
@record
class Debt(Step):
    """`debtor` owes each `[creditor, amount]` of `owed`. Subclass it with the game's
    `remedies` (in the rulebook's order) and `ruin`, and one `on_<kind>` per remedy that is
    a choice, calling `use`."""
    debtor: int
    owed: list
    # the kind of the remedy whose step (an auction) is under way; keyword-only, so a game's
    # subclass adds its own fields after `owed`
    pushed: str | None = field(default=None, kw_only=True)
    remedies = ()
    ruin = Ruin()
    leave_beside = ()     # kinds of remedies beside which the debtor may leave the game instead
    leave_kind = "leave"
    prompt = "prompt.debt"
    name = "debt"

    def actor(self, game):
        return self.debtor

    def due(self) -> int:
        return sum(amount for _, amount in self.owed)

    def remedy(self, game) -> Remedy | None:
        """The first remedy of the rulebook's order still available."""
        return next((r for r in self.remedies if r.available(game, self)), None)

    def decision(self, game):
        remedy = self.remedy(game)
        params = {"player": game.players[self.debtor], "amount": self.due(), "cash": game.s.ledger[self.debtor]}
        options = (remedy.option(game, self),) if remedy else ()
        if remedy is not None and remedy.kind in self.leave_beside:
            options += (Option(self.leave_kind, {"player": Fixed(self.debtor)}),)
        return Decision(self.prompt, params, self.debtor, options)

    def quit(self, game, act):
        """The debtor leaves the game rather than take the remedy offered: the game's ruin."""
        return self.ruin.apply(game, self)

    def use(self, game, act):
        """The handler of every remedy that is a choice: the game's `on_<kind>` calls it."""
        self.play(game, next(r for r in self.remedies if r.kind == act.kind), act)
        return None  # advance pays, or offers the next remedy

    def advance(self, game):
        while True:
            if game.eliminated(self.debtor):  # out meanwhile (a nested debt, a correction)
                return self.ruin.apply(game, self) if self.due() else Paid(self.debtor, 0)
            if game.s.ledger.can_pay(self.debtor, self.due()):
                for creditor, amount in self.owed:
                    game.transfer(self.debtor, creditor, amount, "debt")
                return Paid(self.debtor, self.due())
            remedy = self.remedy(game)
            if remedy is None:
                return self.ruin.apply(game, self)
            if remedy.kind is not None:
                return None  # the debtor chooses (the decision offers it)
            if self.play(game, remedy):
                return None  # it pushed a step: wait for its result

    def play(self, game, remedy, act=None) -> bool:
        """Play `remedy`; True when the step it pushed is still under way. `pushed` is set
        before it plays: a step it pushes may be over at once and resume this one."""
        depth = len(game.s.steps)
        self.pushed = remedy.kind
        remedy.play(game, self, act)
        if len(game.s.steps) > depth:
            return True
        self.pushed = None
        return False

    def resume(self, game, result):
        """The step a remedy pushed (an auction) is over; `advance` goes on from there."""
        remedy = next(r for r in self.remedies if r.kind == self.pushed)
        self.pushed = None
        remedy.resume(game, self, result)
        return None


def bank_pays(game, dst: int, amount: int, reason: str) -> int:
    """The bank pays `amount`, or what it has when its cash can run out; the part it could
    not pay is an event of the game (`bank_short`), returned."""
    event, short = game.s.ledger.pay_what_it_can(BANK, dst, amount, reason)
    if event is not None:
        game.emit(**_event(event))
    if short:
        game.emit("bank_short", player=dst, amount=amount, unpaid=short)
        settle = getattr(game, "bank_shortfall", None)
        if settle is not None:   # the game pays it later (AV12): owed, not lost
            settle(dst, short, reason)
            return 0
    return short


def _event(event) -> dict:
    return {"key": event.key, **event.params}
