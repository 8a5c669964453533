"""Payday at the end of a round of turns (IV, MB7: every round in Junior, every two in
Senior, every three in Masters, unless the operator calls it: the "manual" setting)."""

from engines.core.decision import Decision, Option
from engines.core.ledger import BANK
from engines.core.records import record
from engines.maxibourse.payday import breakdown
from engines.maxibourse.steps.base import Frame


@record
class PaydayStep(Frame):
    def decision(self, game):
        return Decision("prompt.mb.payday", {"round": game.s.round}, None, (Option("payday"),))

    def on_payday(self, game, a):
        pay(game)
        game.s.steps.pop()
        game.after_payday()


def payday_breakdown(game, seat):
    """What `seat` is paid now, part by part (MB10)."""
    return breakdown(game.held(seat), game.s.prices, game.box, game.shares, game.settings["vertical_bonus"])


def pay(game):
    """The bank pays every player still in his breakdown; the last payday is kept to show."""
    paid = {}
    for seat in game.in_game():
        b = payday_breakdown(game, seat)
        game.transfer(BANK, seat, b.total, "payday")
        paid[game.players[seat]] = b.to_json()
    game.s.last_payday = paid
    game.emit("mb.payday", round=game.s.round, paid={k: v["total"] for k, v in paid.items()})
