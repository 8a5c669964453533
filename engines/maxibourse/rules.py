"""Maxi Bourse's numbers, from the rulebook and rulings MB1-MB12 (one place for each)."""

FORMATS = {  # MB2: starting cash and number of free starting lots
    "junior": (5_000_000, 5),
    "senior": (10_000_000, 7),
    "masters": (15_000_000, 10),
}
PRICE_STEP = 10    # every price is a multiple of 10 $ (MB1)
MIN_PRICE = 10
FINE = 100_000     # MB8
# IV: "A la fin de chaque tour complet de jeu, 1 tour pour ... Junior, 2 tours pour le jeu
# Senior et 3 tours pour le Masters": rounds of turns between two paydays
PAYDAY_EVERY = {"junior": 1, "senior": 2, "masters": 3}
MAX_ASK = 2        # 1 000 to 2 000 shares per speaking round (MB3)
AMOUNT_STEP = 10_000  # the smallest cheque
MAX_AMOUNT = 100_000_000
