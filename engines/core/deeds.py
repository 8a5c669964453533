"""Titles and deeds with an owner each, and loans counted in fortune.

A deed is one distinct card (A Vendre!'s shop, Richesses du Monde's title, a Shark share
certificate when a game needs it as a card): unlike lots (engines/core/lots.py, counted
per company), each deed has a name, a printed price and one owner at a time: a player
(seat 0, 1, ...), the bank (BANK: it paid for it, AV3 "la banque la prend à la moitié du
PA") or the stock (STOCK: not yet sold or given back, RM11 "les titres retournent au
stock"). A deed only moves from the owner the caller names, so a move the state does not
support is refused rather than silently re-homed.

A loan is what a player owes the bank beyond his cash (AV3: 1 000 lent, 1 100 repaid at
the end): `fortune` subtracts what is to be repaid, so a loan never makes a player richer
on the ranking than the cash it brought.

Both are plain data (dicts and lists of small dataclasses): they live in a game's state
and are copied, compared, undone and replayed with it.
"""
from dataclasses import field

from engines.core.errors import IllegalAction
from engines.core.events import Event
from engines.core.records import record

STOCK = -2  # the owner of deeds nobody holds (the game box's stock), beside BANK (-1)


@record
class Deed:
    name: str
    price: int          # the printed price (A Vendre!'s PA, a title's price)
    owner: int = STOCK


@record
class Deeds:
    """Every deed of the game by name, in the box's order."""
    items: dict = field(default_factory=dict)

    @classmethod
    def of(cls, prices) -> "Deeds":
        """Deeds from `{name: price}` (or pairs), all in the stock."""
        return cls({name: Deed(name, price) for name, price in dict(prices).items()})

    def __getitem__(self, name: str) -> Deed:
        try:
            return self.items[name]
        except KeyError:
            raise IllegalAction("error.unknown_deed", deed=name, known=", ".join(self.items)) from None

    def owner(self, name: str) -> int:
        return self[name].owner

    def owned_by(self, owner: int) -> tuple:
        """The names of the deeds `owner` holds, in the box's order."""
        return tuple([n for n, d in self.items.items() if d.owner == owner])   # a list first: faster than a generator

    def move(self, name: str, src: int, dst: int) -> Event:
        deed = self[name]
        if deed.owner != src:
            raise IllegalAction("error.not_owner", deed=name, owner=deed.owner, claimed=src)
        deed.owner = dst
        return Event("deed_moved", {"deed": name, "src": src, "dst": dst})

    def return_all(self, src: int, dst: int) -> list:
        """Every deed of `src` to `dst` (a ruined player's titles back to the stock)."""
        return [self.move(name, src, dst) for name in self.owned_by(src)]


@record
class Loan:
    amount: int         # what the bank lent
    repayment: int      # what is owed back (AV3: 1 000 lent, 1 100 repaid)


@record
class Loans:
    """Loans per seat, in the order they were taken."""
    by_seat: dict = field(default_factory=dict)

    def take(self, seat: int, amount: int, repayment: int) -> Event:
        if amount <= 0 or repayment < amount:
            raise ValueError(f"a loan lends a positive amount and is repaid at least that, got {amount}/{repayment}")
        self.by_seat.setdefault(seat, []).append(Loan(amount, repayment))
        return Event("loan", {"player": seat, "amount": amount, "repayment": repayment})

    def of(self, seat: int) -> list:
        return list(self.by_seat.get(seat, ()))

    def owed(self, seat: int) -> int:
        """What `seat` must repay, loans together."""
        return sum(loan.repayment for loan in self.by_seat.get(seat, ()))

    def cancel(self, seat: int, count: int) -> None:
        """The last `count` loans of `seat` were never taken (an operator's correction)."""
        kept = self.by_seat.get(seat, [])[:-count]
        if kept:
            self.by_seat[seat] = kept
        else:
            self.by_seat.pop(seat, None)

    def write_off(self, seat: int) -> int:
        """A ruined player's loans are cancelled; returns what was owed."""
        return sum(loan.repayment for loan in self.by_seat.pop(seat, ()))


def fortune(cash: int, deeds: Deeds, loans: Loans, seat: int, value=lambda deed: deed.price) -> int:
    """Cash, plus each deed held at `value` (A Vendre!'s AV5: half the PA), minus what the
    loans are to be repaid."""
    return cash + sum(value(deeds[name]) for name in deeds.owned_by(seat)) - loans.owed(seat)
