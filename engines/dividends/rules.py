"""Dividends' numbers, from the rulebook and rulings DV1-DV7 (one place for each)."""

START_CASH = 4_000       # DV2
START_CARDS = 2          # DV2
YEARS = 5                # DV7
OPENING_BID = 50         # DV4: the lowest first bid, and the price of a dealt token
MIN_CASH = 50            # DV4: below this, sell the cheapest certificate before the auction
MIN_PLAYERS, MAX_PLAYERS = 2, 12
FORCE_SELL, BUY_IN, PLACEMENT, CORRECTION = "FORCE-SELL", "BUY-IN", "PLACEMENT-OFFER", "TECHNICAL-CORRECTION"
TILES = (FORCE_SELL, BUY_IN, PLACEMENT, CORRECTION)
MAX_BID = 1_000_000      # the top of the bid range offered; each bid is checked against cash
MAX_ADJUST = 1_000_000
# Ten times the rulebook's 24 influence cards: far above any printed copy, and a count the
# piles and hands hold.
MAX_INFLUENCE_CARDS = 240
