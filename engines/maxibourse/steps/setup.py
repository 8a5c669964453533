"""The set-up (MB2): each player picks free starting lots, one at a time, then the table
says who plays first."""
from dataclasses import dataclass

from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.ledger import BANK
from engines.maxibourse.steps.base import Frame


@dataclass
class Picking(Frame):
    order: list  # seats still to pick one starting lot, in order
    rumours = False

    def actor(self, game):
        return self.order[0]

    def decision(self, game):
        seat = self.order[0]
        mine = game.held(seat)
        choices = tuple(c for c in game.companies if c not in mine and game.s.lots.bank(c) > 0)
        return Decision("prompt.mb.pick", {"player": game.players[seat], "left": self.order.count(seat)}, seat,
                        (Option("pick", {"player": Fixed(seat), "company": Choice(choices)}),))

    def on_pick(self, game, a):
        game.move_lots(a.company, BANK, a.player, 1)
        self.order.pop(0)
        if not self.order:
            game.s.steps[-1] = ChooseFirst()


@dataclass
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
