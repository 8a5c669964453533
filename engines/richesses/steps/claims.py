"""Royalties claimed in time (RM2 with `strict_claims` on): "Les droits sont à réclamer
aussitôt le pion posé sur la case. Passé ce délai, les joueurs perdent le bénéfice de leur
pourcentage."

The box computes who is owed what the moment the pawn lands (the same lines as when it
pays by itself); each holder claims his on his seat button (the operator answers for a
seat without one). The rulebook gives no number for "aussitôt"; the box reads it with the
game's own measure of the table's silence (7 seconds, RM9): the time to claim closes after
7 seconds without a claim (`close_claims`, the decision's silence), and the lander then
pays what was claimed, whole or going bankrupt (RM11). An unclaimed royalty is not paid.
Claims and the close are actions in the log, so a replay pays the same."""
from dataclasses import field

from engines.core.decision import Choice, Decision, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step
from engines.richesses.steps.results import ClaimsOver


@record
class ClaimStep(Step):
    lander: int
    production: str
    lines: list                                    # [seat, share, amount] owed if claimed
    claimed: list = field(default_factory=list)    # seats who claimed, in order
    name = "claims"

    def unclaimed(self):
        return [line for line in self.lines if line[0] not in self.claimed]

    def decision(self, game):
        params = {"player": game.players[self.lander], "production": self.production,
                  "claimed": len(self.claimed), "owed": len(self.lines)}
        options = ()
        waiting = self.unclaimed()
        if waiting:
            amounts = tuple(dict.fromkeys(a for _, _, a in waiting))
            options = (Option("claim", {"player": Choice(tuple(s for s, _, _ in waiting)),
                                        "amount": Choice(amounts + (None,))}),)
        return Decision("prompt.rm.claims", params, None, options + (Option("close_claims"),))

    def refusal(self, game, act, decision):
        if act.kind != "claim" or not 0 <= act.player < len(game.players):
            return None
        owed = {seat: amount for seat, _, amount in self.lines}
        if act.player in self.claimed:
            return IllegalAction("error.rm.claimed", player=game.players[act.player])
        if act.player not in owed:
            return IllegalAction("error.rm.not_owed", player=game.players[act.player],
                                 production=game.box.production_name(self.production))
        if act.amount is not None and act.amount != owed[act.player]:
            return IllegalAction("error.rm.claim_amount", player=game.players[act.player], amount=act.amount,
                                 owed=owed[act.player])
        return None

    def on_claim(self, game, act):
        refused = self.refusal(game, act, None)    # an amount his share does not earn
        if refused:
            raise refused
        self.claimed.append(act.player)
        amount = next(a for s, _, a in self.lines if s == act.player)
        game.emit("rm.claim", player=game.players[act.player],
                  production=game.box.production_name(self.production), amount=amount)
        if not self.unclaimed():       # every holder has claimed: nothing left to wait for
            return self.on_close_claims(game, act)
        return None

    def on_close_claims(self, game, act):
        paid = [line for line in self.lines if line[0] in self.claimed]
        lost = [line for line in self.lines if line[0] not in self.claimed]
        for seat, share, amount in lost:
            game.emit("rm.claim_lost", player=game.players[seat],
                      production=game.box.production_name(self.production), amount=amount)
        game.pay_royalties(self.lander, self.production, paid)
        return ClaimsOver(self.lander)
