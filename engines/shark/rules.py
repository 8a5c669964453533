"""Shark's numbers, from the rulebook and rulings SH1-SH11 (one place for each)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 6
COMPANIES = ("RED", "YELLOW", "GREEN", "BLUE")   # the four colours of buildings and companies
LETTERS = {"RED": "R", "YELLOW": "Y", "GREEN": "G", "BLUE": "B"}   # a building's letter on the drawn map
CHOOSE = ("WHITE", "BLACK")                      # SH7: the colour die's faces that let the player choose
COLOUR_DIE = COMPANIES + CHOOSE                  # "jaune, rouge, verte, bleue, noire, blanche"
ZONES = (1, 2, 3, 4, 5, 6)                       # "divisée en 6 zones (numérotées de 1 à 6)"
CELLS_PER_ZONE = 20                              # "Chaque zone comprend 20 petites cases"
UNIT = 1_000                                     # SH1: a share costs value x 1 000 FT
MAX_VALUE = 15                                   # "La valeur maximale que l'on peut attendre est 15"
SHARES = 40                                      # SH1: 15 cards of 1 and 5 cards of 5 per company
BUILDINGS = 18                                   # "72 Pions immeubles (18 de chaque couleur)"
BUY_LIMIT = 5                                    # SH8: "5 actions au maximum"
VARIANT1_CHAIN = 7                               # SH10: variant 1 counts a chain as at most 7
MAX_ADJUST = 1_000_000                           # the largest cash correction offered
