"""A Vendre!'s steps (engines/core/steps.py): the round of turns at the bottom, a player's
turn on it, and what a turn may push: the debt procedure and its shop auction, the bank
auction (pushed by the game whenever its bank could not pay), the end."""
from engines.avendre.steps.auctions import BankAuction, ShopAuction
from engines.avendre.steps.debt import AVDebt
from engines.avendre.steps.over import Over
from engines.avendre.steps.play import Play, Start, Started, TurnOver
from engines.avendre.steps.turn import Turn

__all__ = ["AVDebt", "BankAuction", "Over", "Play", "ShopAuction", "Start", "Started", "Turn", "TurnOver"]
