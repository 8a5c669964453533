"""The ledger: integer balances that change only by transfers between accounts.

Money is never created or destroyed inside a game: the bank is an account like the
players'. A bank with unlimited cash (Maxi Bourse, MB12) may go below zero; an account that
can run dry (every player; A Vendre!'s bank, AV2) may not: `transfer` refuses a payment it
cannot make (error.insufficient_funds), and `pay_what_it_can` pays what there is and
returns the shortfall, for the rules where running short is an event of the game (a bank
that cannot pay is auctioned, a debtor sells) rather than a refused action. Conservation is
therefore a one-line check: the sum of all balances never changes.
"""
from engines.core.errors import IllegalAction
from engines.core.events import Event

BANK = -1  # the bank's account key; players are keyed by seat (0, 1, ...)


class Ledger:
    def __init__(self, accounts, unlimited=(BANK,)):
        self.balances: dict[int, int] = dict(accounts)
        self.unlimited = frozenset(unlimited)

    def __getitem__(self, account: int) -> int:
        return self.balances[account]

    def total(self) -> int:
        return sum(self.balances.values())

    def can_pay(self, account: int, amount: int) -> bool:
        return account in self.unlimited or self.balances[account] >= amount

    def transfer(self, src: int, dst: int, amount: int, reason: str) -> Event:
        if not isinstance(amount, int) or amount < 0:
            raise ValueError(f"a transfer moves a non-negative integer, got {amount!r}")
        if not self.can_pay(src, amount):
            raise IllegalAction("error.insufficient_funds", account=src, amount=amount, balance=self.balances[src])
        self.balances[src] -= amount
        self.balances[dst] += amount
        return Event("transfer", {"src": src, "dst": dst, "amount": amount, "reason": reason})

    def shortfall(self, account: int, amount: int) -> int:
        """How much `account` lacks to pay `amount` (0 when it can)."""
        return 0 if self.can_pay(account, amount) else amount - self.balances[account]

    def pay_what_it_can(self, src: int, dst: int, amount: int, reason: str) -> tuple[Event | None, int]:
        """Pay `amount`, or all of `src`'s balance when it holds less; returns the transfer's
        event (None when nothing moved) and the part left unpaid."""
        short = self.shortfall(src, amount)
        paid = amount - short
        return (self.transfer(src, dst, paid, reason) if paid else None), short
