"""Payday (MB10): dividends, jetons de présence, horizontal and vertical bonuses.

Pure functions of a portfolio and the prices, so each can be checked against the
rulebook's examples (Nathalie, Marine, Pierre, Yves) on its own.
"""
from dataclasses import field

from engines.core.records import record

DIVIDEND_PER_SHARE = 10
MAJORITY_LOTS = 6          # 6 000 shares of 10 000
HORIZONTAL_BONUS = 300_000
HORIZONTAL_MIN_LOTS = 3    # 3 000 shares in each of two other companies
VERTICAL_BONUS = 600_000


@record
class Breakdown:
    dividends: int = 0
    jetons: dict = field(default_factory=dict)     # company -> amount
    horizontal: list = field(default_factory=list)  # a sector per group (twice for two groups)
    vertical_groups: int = 0
    vertical: int = 0

    @property
    def total(self):
        return self.dividends + sum(self.jetons.values()) + HORIZONTAL_BONUS * len(self.horizontal) + self.vertical

    def to_json(self):
        return {
            "dividends": self.dividends,
            "jetons": dict(self.jetons),
            "horizontal": list(self.horizontal),
            "vertical_groups": self.vertical_groups,
            "vertical": self.vertical,
            "total": self.total,
        }


def vertical_groups(majorities_per_sector: dict) -> int:
    """Most disjoint groups of three majorities, each group in three different sectors.

    k groups exist iff the majorities, each sector counted at most k times, number 3k."""
    k = 0
    while sum(min(m, k + 1) for m in majorities_per_sector.values()) >= 3 * (k + 1):
        k += 1
    return k


def horizontal_groups(companies, portfolio: dict) -> int:
    """Most disjoint groups of three companies of one sector, each with a majority and two
    others of at least 3 lots ("3 entreprises appartenant à un même secteur"): a sector of
    six (AUTOMOBILE) can hold two. A majority counts as one of the "3 000 titres au moins"."""
    majors = enough = 0      # one pass (a majority has the 3 lots too: MAJORITY_LOTS >= HORIZONTAL_MIN_LOTS)
    for c in companies:
        n = portfolio.get(c, 0)
        if n >= HORIZONTAL_MIN_LOTS:
            enough += 1
            majors += n >= MAJORITY_LOTS
    return min(majors, enough // 3)


def breakdown(portfolio: dict, prices: dict, box, shares_per_lot: int, vertical_rule: str = "per_group") -> Breakdown:
    """portfolio: company -> lots held."""
    b = Breakdown()
    b.dividends = DIVIDEND_PER_SHARE * shares_per_lot * sum(portfolio.values())
    majorities = {c for c, n in portfolio.items() if n >= MAJORITY_LOTS}
    for company in box.companies:
        if company in majorities:
            b.jetons[company] = shares_per_lot * prices[company]
    per_sector = {}
    for sector in box.sectors:
        held = [c for c in sector.companies if c in majorities]
        per_sector[sector.id] = len(held)
        b.horizontal += [sector.id] * horizontal_groups(sector.companies, portfolio)
    groups = vertical_groups(per_sector)
    b.vertical_groups = groups
    b.vertical = VERTICAL_BONUS * (groups if vertical_rule == "per_group" else min(groups, 1))
    return b
