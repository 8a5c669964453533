"""The operator's corrections in Shark, at any time until the game is over (then: undo the
end first), for the players still in: an eliminated player holds nothing and is never
liquidated (SH9), so cash or shares given to him would stay outside the game.

Besides the players' cash (engines/core/corrections.py), a player's shares of a company,
from (+) or to (-) the bank's stock of 40 (SH1), within what is there.
"""
from engines.core.corrections import Correction
from engines.core.decision import Choice, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.per_game import per_game
from engines.core.records import record
from engines.shark.rules import COMPANIES, SHARES


@record(frozen=True)
class Shares(Correction):
    kind = "adjust_shares"

    def option(self, game, seats):
        return shares_option(game, seats)

    def refusal(self, game, a):
        if a.delta > game.stock(a.company):
            return IllegalAction("error.sh.stock", company=a.company, shares=a.delta, stock=game.stock(a.company))
        if -a.delta > game.shares(a.company, a.player):
            return IllegalAction("error.sh.not_held", player=game.players[a.player], company=a.company,
                                 shares=-a.delta, held=game.shares(a.company, a.player))
        return None

    def apply(self, game, a):
        if a.delta:
            src, dst = (BANK, a.player) if a.delta > 0 else (a.player, BANK)
            game.move_shares(a.company, src, dst, abs(a.delta), "correction")
        game.emit("correction", player=game.players[a.player], what=a.company, delta=a.delta, reason=a.reason)


@per_game
def shares_option(game, seats):
    return Option("adjust_shares", {"player": Choice(seats), "company": Choice(COMPANIES),
                                    "delta": IntRange(-SHARES, SHARES)})
