"""Lots (share cards) of companies held by the bank and the players, and majorities.

Each company has a fixed number of lots; they only move between holders, so the count
per company is conserved by construction.
"""
from engines.core.errors import IllegalAction
from engines.core.events import Event
from engines.core.ledger import BANK


class Holdings:
    def __init__(self, companies, lots_per_company: int, seats: int):
        self.lots_per_company = lots_per_company
        self.held: dict[str, dict[int, int]] = {
            c: {BANK: lots_per_company, **{s: 0 for s in range(seats)}} for c in companies
        }

    def __deepcopy__(self, memo):
        # Copied before every action (Game.apply); a dict of flat int dicts copies far
        # faster by hand than through the generic deepcopy.
        clone = object.__new__(Holdings)
        clone.lots_per_company = self.lots_per_company
        clone.held = {company: dict(holders) for company, holders in self.held.items()}
        return clone

    def of(self, company: str, holder: int) -> int:
        return self.held[company][holder]

    def bank(self, company: str) -> int:
        return self.held[company][BANK]

    def in_bank(self, companies) -> tuple[str, ...]:
        """The companies of `companies` the bank still holds a lot of, in their order: what a
        decision offers to buy, built for every decision (one dict lookup each, not a call)."""
        held = self.held
        return tuple([c for c in companies if held[c][BANK] > 0])

    def any_in_bank(self, companies) -> bool:
        """Whether the bank still holds a lot of one of `companies`: what closes a session
        (MB11), asked at every turn; it stops at the first, where `in_bank` lists them all."""
        held = self.held
        for c in companies:
            if held[c][BANK] > 0:
                return True
        return False

    def holds_any(self, holder: int, companies) -> bool:
        """Whether `holder` holds a lot of one of `companies`: `bool(held_by(...))`, stopping
        at the first."""
        held = self.held
        for c in companies:
            if held[c][holder]:
                return True
        return False

    def held_by(self, holder: int, companies) -> tuple[str, ...]:
        """The companies of `companies` of which `holder` holds a lot, in their order: the
        keys of `portfolio` in that order, without building the dict (a debt asks after
        every sale and settlement)."""
        held = self.held
        return tuple([c for c in companies if held[c][holder]])

    def portfolio(self, holder: int) -> dict[str, int]:
        return {c: h[holder] for c, h in self.held.items() if h[holder]}

    def count(self, holder: int) -> int:
        return sum(h[holder] for h in self.held.values())

    def move(self, company: str, src: int, dst: int, lots: int) -> Event:
        if lots < 0 or self.held[company][src] < lots:
            raise IllegalAction("error.not_enough_lots", company=company, lots=lots, held=self.held[company][src])
        self.held[company][src] -= lots
        self.held[company][dst] += lots
        return Event("lots_moved", {"company": company, "src": src, "dst": dst, "lots": lots})

    def majority(self, company: str, threshold: int) -> int | None:
        """The player holding at least `threshold` lots, if any (a strict majority is unique)."""
        for holder, n in self.held[company].items():
            if holder != BANK and n >= threshold:
                return holder
        return None
