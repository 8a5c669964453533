"""The ledger: integer balances that change only by transfers between accounts.

Money is never created or destroyed inside a game: the bank is an account like the
players'. A bank with unlimited cash (Maxi Bourse, MB12) may go below zero; a bank that
can run dry (A Vendre!) may not, and says so through `InsufficientFunds`. Conservation is
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
