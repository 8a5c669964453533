"""Richesses du Monde's numbers, from the rulebook and rulings RM1-RM13 (one place for each)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 6          # "Nombre de joueurs : 2 à 6."
TOTAL_CASH = 200_000_000                 # "200 millions sont à partager entre les joueurs"
CASH_UNIT = 100_000                      # RM10: each share rounded down to 100 000
DOUBLE_COST = 1_000_000                  # "1 double as, il paie 1 million à la banque" ... n M
MAX_TITLES = 6                           # "autant de titres ... jusqu'à concurrence de 6"
ROYALTY_MIN = 30                         # "posséder un minimum de 30 % de la production"
BONUS_PER_POINT = 500_000                # "autant de fois 500.000 F qu'il a tiré de points"
JOKER_PRICE = 3_000_000                  # "Pour 3.000.000 le joueur peut acheter une carte joker"
RAISE = 100_000                          # "Les surenchères sont au minimum de 100.000"
SILENCE_S = 7                            # "Il ne peut s'écouler plus de 7 secondes de silence"
TITLES_PER_PRODUCTION = 6                # "le trust-monopole se compose de 6 titres"
PRODUCTIONS = 24                         # "Il y a 24 productions"
PLAQUES = 48                             # "48 petites plaquettes ... soit 2 par production"
PLAQUES_PER_PRODUCTION = 2
# The special squares, as the rulebook counts them (RM7, RM13: the box file's board is checked
# against these).
SQUARES = {"continental": 6, "world": 2, "auction": 4, "joker": 3, "news": 6, "bonus": 8}
CONTINENTAL = {"AMERIQUE": 2, "EUROPE": 2, "ASIE": 1, "AFRIQUE": 1}
# The seven colours of the board: "Ocre jaune représente l'Afrique ..."
CONTINENTS = ("AFRIQUE", "AMERIQUE", "ETATS-UNIS", "EUROPE", "URSS", "ASIE", "OCEANIE")
MAX_AMOUNT = TOTAL_CASH                  # the top of the amount ranges offered; each is checked against cash
MAX_ADJUST = TOTAL_CASH
MAX_JOKERS = 99                          # a joker count the table may learn or a box file give


def start_cash(players: int) -> int:
    """RM10: 200 M divided equally, each share rounded down to 100 000."""
    return TOTAL_CASH // players // CASH_UNIT * CASH_UNIT
MAX_TOURS = 99                           # the most world tours a correction sets
