"""Step 1: the dice move the dividend markers (DV1), one die per company, chosen by the
zone its marker is in."""
from dataclasses import dataclass

from engines.core.decision import Decision, Die, Fixed, Option
from engines.core.errors import IllegalAction
from engines.core.steps import Step
from engines.dividends.actions import DICE_FIELDS
from engines.dividends.box import DICE
from engines.dividends.steps.results import Rolled


@dataclass
class DiceStep(Step):
    name = "dice"

    def decision(self, game):
        fields = {}
        for i, name in enumerate(DICE_FIELDS):
            if i < len(game.companies):
                fields[name] = Die.of(DICE[game.zone(game.companies[i])])  # the device rolls it (Game.fill_chance)
            else:
                fields[name] = Fixed(None)
        return Decision("prompt.dv.dice", {"year": game.s.year}, None, (Option("dice", fields),))

    def refusal(self, game, a, decision):
        if a.kind != "dice":
            return None
        given = [getattr(a, f) for f in DICE_FIELDS]
        count = len(game.companies)
        if any(v is None for v in given[:count]) or any(v is not None for v in given[count:]):
            return IllegalAction("error.dv.dice_count", given=sum(v is not None for v in given), count=count,
                                 companies=list(game.companies))
        for move, company in zip(given, game.companies):
            if move not in DICE[game.zone(company)]:
                return IllegalAction("error.dv.die_face", company=company, die=game.zone(company), move=f"{move:+d}")
        return None

    def on_dice(self, game, a):
        game.s.last_dice = {}
        for i, company in enumerate(game.companies):
            move = getattr(a, DICE_FIELDS[i])
            die = game.zone(company)
            game.emit("dv.die", company=company, die=die, move=move)
            game.move_marker(company, move, "dice")
            game.s.last_dice[company] = {"die": die, "move": move}
        return Rolled(dict(game.s.last_dice))
