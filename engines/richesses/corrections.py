"""The operator's corrections in Richesses du Monde, between turns only (never inside an
auction, a sale or a bankruptcy), for the players still in: a bankrupt player's cash went
to the bank and his titles to the stock (RM11), so what a correction gave him would stay
outside the game.

Besides the players' cash (engines/core/corrections.py, hidden: RM10), a pawn put back
where it belongs, with its world tours (`set_pawn`); nothing is paid or bought (the table
settles what the wrong square did with other corrections).
"""
from engines.core.corrections import Correction
from engines.core.decision import Choice, IntRange, Option
from engines.core.per_game import per_game
from engines.core.records import record
from engines.richesses.rules import MAX_TOURS


@record(frozen=True)
class Pawn(Correction):
    kind = "set_pawn"

    def option(self, game, seats):
        return pawn_option(game, seats)

    def apply(self, game, act):
        game.s.track.positions[act.player] = act.square
        game.s.track.laps[act.player] = act.tours
        game.emit("correction", player=game.players[act.player], what="pawn", delta=f"{act.square}/{act.tours}",
                  reason=act.reason)


@per_game
def pawn_option(game, seats):
    return Option("set_pawn", {"player": Choice(seats), "square": IntRange(0, len(game.box.squares)),
                               "tours": IntRange(0, MAX_TOURS)})
