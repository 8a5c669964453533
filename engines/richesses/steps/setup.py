"""Before the first turn: the plaques are laid (RM13) and the dice say who starts (RM10);
then the table turns, one player's turn after another, skipping bankrupt seats (RM11)."""

from engines.core.decision import Arrangement, Choice, Decision, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step
from engines.richesses.rules import PLAQUES_PER_PRODUCTION
from engines.richesses.steps.results import SetupDone


@record
class Table(Step):
    """The bottom of the stack: whose turn comes next, or the end when one player is left."""
    name = "table"

    def resume(self, game, result):
        if isinstance(result, SetupDone):
            game.start_turn(result.first)
            return None
        if len(game.in_game()) <= 1:
            game.finish_game()
            return None
        game.start_turn(game.next_seat(result.seat))
        return None


@record
class Setup(Step):
    laid: bool = False
    name = "setup"

    def decision(self, game):
        if not self.laid and game.box.ordered:   # without the square order the table lays them (RM8)
            items = tuple(p for p in game.box.productions for _ in range(PLAQUES_PER_PRODUCTION))
            return Decision("prompt.rm.plaques", {"squares": len(game.box.plaque_squares())}, None,
                            (Option("plaques", {"productions": Arrangement(items)}),))
        return Decision("prompt.rm.first", {}, None,
                        (Option("first", {"player": Choice(tuple(range(len(game.players))))}),))

    def refusal(self, game, act, decision):
        if act.kind == "plaques":
            return IllegalAction("error.rm.plaques", count=len(act.productions),
                                 squares=len(game.box.plaque_squares()), twice=PLAQUES_PER_PRODUCTION)
        return None

    def on_plaques(self, game, act):
        squares = game.box.plaque_squares()
        game.s.plaques = {str(sq): p for sq, p in zip(squares, act.productions)}
        game.emit("rm.plaques", plaques=[f"{sq} {game.box.production_name(p)}" for sq, p in zip(squares,
                  act.productions)])
        self.laid = True

    def on_first(self, game, act):
        game.emit("rm.first", player=game.players[act.player])
        return SetupDone(act.player)
