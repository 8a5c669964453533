"""A Vendre! (rules/a-vendre.fr.txt): the game as the registry declares it.

What the box asks before a game is played, declared without importing the engine:
engines/registry.py says why, and how the game's catalogs are registered.
"""
from engines.core.settings import DICE
from engines.avendre.rules import MAX_PLAYERS, MIN_PLAYERS
from engines.registry import GameSpec

SETTINGS = {  # name -> (default, allowed, what it means): engines/core/settings.py
    "dice": DICE,
    # The rulebook sets no raise (AV11, AV12); 50 is the ruling's, a table may agree on another.
    "bid_step": (50, range(1, 1000), "(AV11, AV12): the raise of the auctions (a shop from half PA + step, "
                                     "the bank from 2 550)"),
    "mode": ("double", ("simple", "double"),
             "(AV7): simple, the first at 60 ends the game; double, two trips, 3 then 6 titles"),
    "start": ("before_1", ("before_1", "on_1"),
              "(AV8): pawns start before square 1 (a roll of n lands on n) or on square 1"),
    "card_move_lands": ("yes", ("yes", "no"),
                        "(AV9): a blue or red square reached by a card's move applies as a landing"),
    "bank_unsold": ("continue", ("continue", "end"),
                    "(AV12): nobody buys the bank: it pays and shows a debt (continue), or the game ends"),
    "board": ("box", ("box", "none"),
              "(AV15): squares and titles from the box file, or none: the operator reads each square"),
    # The rulebook sets no length for an auction's silence (AV11): a window the table agrees
    # on, paused and resumed by the operator like any window no rule fixes.
    "auction_silence_s": (5, range(2, 31), "(AV11): seconds of silence that close an auction"),
    # Without a board the box remembers each square read (AV15); the version before it asked
    # the square again at every landing, and its journals and scripts read that way. Last in
    # the box's Options: a table has little reason to change it.
    "squares": ("remembered", ("remembered", "each_landing"),
                "(AV15): without a board, a square read once is remembered, or read again at every landing "
                "(as journals and scripts of the earlier version were written)"),
}

GAME = GameSpec("avendre", "engines.avendre.game:AVendre", "firmware.games.avendre:AVendreUI",
                prefix="av", box="engines.avendre.box", players=(MIN_PLAYERS, MAX_PLAYERS), settings=SETTINGS)
