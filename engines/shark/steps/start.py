"""The start (SH1, SH8): each player's one random share, then the operator names the first
player."""

from engines.core.decision import Choice, Decision, Items, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.records import record
from engines.core.steps import Step
from engines.shark.rules import COMPANIES
from engines.shark.steps.results import Dealt, FirstNamed


@record
class DealStep(Step):
    """"il distribuera au hasard, 1 carte-action de valeur 1 à tous les joueurs": one company
    per player, in seat order (the device draws each one like a die, engines/core/chance.py)."""
    name = "deal"

    def decision(self, game):
        companies = Items(tuple(Choice(COMPANIES) for _ in game.players), labels=tuple(game.players))
        return Decision("prompt.sh.deal", {"players": len(game.players)}, None,
                        (Option("deal", {"companies": companies}),))

    def refusal(self, game, a, decision):
        if a.kind != "deal":
            return None
        return IllegalAction("error.sh.deal", given=list(a.companies or ()), count=len(game.players),
                             allowed=list(COMPANIES))

    def on_deal(self, game, a):
        for seat, company in enumerate(a.companies):
            game.move_shares(company, BANK, seat, 1, "start")
        return Dealt()


@record
class FirstStep(Step):
    name = "first"

    def decision(self, game):
        seats = Choice(tuple(range(len(game.players))))
        return Decision("prompt.sh.first", {}, None, (Option("first", {"player": seats}),))

    def on_first(self, game, a):
        return FirstNamed(a.player)
