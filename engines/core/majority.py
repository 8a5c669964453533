"""Majority tiles: one tile per company, held by the player with strictly the most lots.

The rule (Dividends, ruling DV3, the rulebook's three cases after a purchase or a sale):
  - the holder of strictly the most lots takes the tile;
  - a tie for the most keeps the tile with its current holder, if they are in the tie;
  - if the holder falls behind and the new top is a tie, nobody in the tie takes it: the
    tile returns to the chart (and stays there until someone is strictly first);
  - nobody holding anything: the tile is on the chart.

Call it after every move of lots of a company; it only needs the current holder and the
counts, so it works for any game with majority tiles or titles (Maxi Bourse's 6-lot
majority is a threshold, see `Holdings.majority`).
"""
from engines.core.ledger import BANK


def tile_holder(current, counts: dict):
    """The new holder of the tile (a seat) or None (the tile is on the chart).

    `current`: the seat holding the tile now, or None; `counts`: seat -> lots held."""
    top = max(counts.values(), default=0)
    if top <= 0:
        return None
    leaders = [seat for seat, n in counts.items() if n == top]
    if len(leaders) == 1:
        return leaders[0]
    return current if current in leaders else None


def player_counts(holdings, company: str) -> dict:
    """Lots of `company` per player (the bank left out) from a `Holdings`."""
    return {seat: n for seat, n in holdings.held[company].items() if seat != BANK}
