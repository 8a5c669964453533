"""The set-up (MB2): each player picks free starting lots, one at a time (or, with the
setting `picks = "dealt"`, the device deals them all in one recorded action), then the
table says who plays first."""

from engines.core.chance import draw
from engines.core.decision import Choice, Decision, Fixed, Items, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.records import record
from engines.maxibourse.steps.base import Frame
from engines.maxibourse.rules import FORMATS


@record
class Picking(Frame):
    order: list  # seats still to pick one starting lot, in order
    rumours = False

    def actor(self, game):
        return self.order[0]

    def decision(self, game):
        if game.settings["picks"] == "dealt":
            slots = tuple(Choice(tuple(self.takeable(game, seat))) for seat in self.order)
            return Decision("prompt.mb.deal", {"lots": len(self.order)}, None,
                            (Option("deal", {"companies": Items(slots)}),))
        seat = self.order[0]
        of = FORMATS[game.format][1]
        left = self.order.count(seat)
        return Decision("prompt.mb.pick", {"player": game.players[seat], "left": left, "n": of - left + 1, "of": of},
                        seat, (Option("pick", {"player": Fixed(seat), "company": Choice(self.takeable(game, seat))}),))

    @staticmethod
    def takeable(game, seat):
        """The companies `seat` may still take: one they hold none of, the bank has a lot."""
        mine = game.held(seat)
        return tuple(c for c in game.s.lots.in_bank(game.companies) if c not in mine)

    def on_pick(self, game, a):
        self.take(game, a.player, a.company)

    def take(self, game, seat, company):
        game.move_lots(company, BANK, seat, 1)
        self.order.pop(0)
        if not self.order:
            game.s.steps[-1] = ChooseFirst()

    def on_deal(self, game, a):
        """The deal taken lot by lot, in the picking order, under the rule of a pick: a
        company the player does not hold yet, with a lot at the bank. Checked whole before
        any lot moves (its length is the decision's: one company per pick)."""
        dealt = {}
        for seat, company in zip(self.order, a.companies):
            if company not in self.takeable(game, seat) or company in dealt.get(seat, ()):
                raise IllegalAction("error.mb.deal_company", player=game.players[seat], company=company)
            dealt.setdefault(seat, []).append(company)
        for seat, company in zip(list(self.order), a.companies):
            self.take(game, seat, company)
        for seat, companies in dealt.items():
            game.emit("mb.dealt", player=game.players[seat], companies=", ".join(companies))

    def fill_chance(self, game, act, rng):
        """The device's deal: lot by lot in the picking order, each drawn (core chance.draw)
        among the companies that player may still take, so a player's are distinct: not
        one value per item of a fixed domain, so the step fills it rather than the core."""
        if act.kind != "deal" or act.companies:
            return super().fill_chance(game, act, rng)
        hands, companies = {}, []
        for seat in self.order:  # each lot drawn among what this player may still take
            hand = hands.setdefault(seat, [])
            company = draw(Choice(tuple(c for c in self.takeable(game, seat) if c not in hand)), rng)
            hand.append(company)
            companies.append(company)
        return type(act)(tuple(companies))


@record
class ChooseFirst(Frame):
    rumours = False

    def decision(self, game):
        return Decision("prompt.mb.first", {}, None, (Option("first", {"player": Choice(tuple(range(len(game.players))))}),))

    def on_first(self, game, a):
        game.s.first = a.player
        game.s.round = 1
        game.s.steps.pop()
        game.emit("mb.round", round=1)
        game.next_turn(None)
