"""The start (SH1, SH8): each player's one random share, then the operator names the first
player."""
from dataclasses import dataclass

from engines.core.actions import Company
from engines.core.decision import Choice, Decision, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.steps import Step
from engines.shark.actions import Deal
from engines.shark.rules import COMPANIES
from engines.shark.steps.results import Dealt, FirstNamed


@dataclass
class DealStep(Step):
    """"il distribuera au hasard, 1 carte-action de valeur 1 à tous les joueurs"."""
    name = "deal"

    def decision(self, game):
        return Decision("prompt.sh.deal", {"players": len(game.players)}, None, (Option("deal", {}),))

    def fill_chance(self, game, act, rng):
        if act.kind == "deal" and not act.companies:
            return Deal(tuple(Company(rng.choice(COMPANIES)) for _ in game.players))
        return act

    def on_deal(self, game, a):
        if len(a.companies) != len(game.players) or any(c not in COMPANIES for c in a.companies):
            raise IllegalAction("error.sh.deal", given=list(a.companies), count=len(game.players),
                                allowed=list(COMPANIES))
        for seat, company in enumerate(a.companies):
            game.move_shares(company, BANK, seat, 1, "start")
        return Dealt()


@dataclass
class FirstStep(Step):
    name = "first"

    def decision(self, game):
        seats = Choice(tuple(range(len(game.players))))
        return Decision("prompt.sh.first", {}, None, (Option("first", {"player": seats}),))

    def on_first(self, game, a):
        return FirstNamed(a.player)
