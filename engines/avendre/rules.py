"""A Vendre!'s numbers, from the rulebook and rulings AV1-AV15 (one place for each)."""

START_CASH = 5_100        # AV2 "remet en commençant à chaque participant et à la banque elle-même 5100.—"
BANK_CASH = 5_100         # AV2: the bank starts with the same
BANK_OPENING = 2_550      # AV12 "la banque est mise aux enchères en partant du prix minimum de 2550.—"
LOAN = 1_000              # AV3 "un emprunt de 1000.— à la banque"
LOAN_REPAYMENT = 1_100    # AV3 "remboursable à la fin du jeu avec 10 % d'intérêts"
PRIME = 2_000             # AV4 "un versement de 2000.— de la banque", and "une nouvelle prime de 2000.—"
TITLES_FIRST = 3          # AV4 "au moins 3 commerces; les établissements confiés (cases rouges) comptent aussi"
TITLES_SECOND = 6         # AV4 "6 commerces ou établissements"
SQUARES = 60              # AV1: the track 1-60; 60 is the goal
TITLES = 43               # AV15: "43 titres de propriété"
DIE = (1, 2, 3, 4, 5, 6)  # AV1: one die
MIN_PLAYERS, MAX_PLAYERS = 2, 10   # AV6
COIN = 10                 # the smallest bill ("100 de 10.—"): amounts are entered in tens
MAX_AMOUNT = 1_000_000    # the top of a bid range offered; each bid is checked against cash
CARD_MAX = 5_000          # the top of a card's amount: about a starting cash, more than a card asks (unverified)
MAX_ADJUST = 1_000_000
COLOURS = ("yellow", "green", "blue", "red")   # AV9; square 60 is the goal
GOAL = "goal"
SHOP, ESTABLISHMENT = "shop", "establishment"
