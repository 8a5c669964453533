"""Step 1: the dice move the dividend markers (DV1), one die per company, chosen by the
zone its marker is in."""

from engines.core.decision import Decision, Die, Items, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.box import DICE
from engines.dividends.steps.results import Rolled


@record
class DiceStep(Step):
    name = "dice"

    def decision(self, game):
        dice = Items(tuple(Die.of(DICE[game.zone(c)], game.zone(c)) for c in game.companies),
                     labels=tuple(game.companies))
        return Decision("prompt.dv.dice", {"year": game.s.year}, None, (Option("dice", {"moves": dice}),))

    def refusal(self, game, a, decision):
        if a.kind != "dice":
            return None
        count, moves = len(game.companies), tuple(a.moves or ())
        if len(moves) != count:
            return IllegalAction("error.dv.dice_count", given=len(moves), count=count, companies=list(game.companies))
        for move, company in zip(moves, game.companies):
            if move not in Die.of(DICE[game.zone(company)]):
                return IllegalAction("error.dv.die_face", company=company, die=game.zone(company), move=f"{move:+d}")
        return None

    def on_dice(self, game, a):
        game.s.last_dice = {}
        for company, move in zip(game.companies, a.moves):
            die = game.zone(company)
            game.emit("dv.die", company=company, die=die, move=move)
            game.move_marker(company, move, "dice")
            game.s.last_dice[company] = {"die": die, "move": move}
        return Rolled(dict(game.s.last_dice))
