"""Step 3: each player in turn order buys and sells certificates at the chart's prices,
then may play influence cards (no buying or selling after one: D8), and ends the turn."""

from engines.core.actions import CORRECTION
from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step
from engines.dividends.steps.results import TurnsPlayed


@record
class ActionsStep(Step):
    index: int = 0                     # position in the turn order
    influenced: bool = False           # an influence card was played: buying and selling are over

    name = "actions"

    def actor(self, game):
        order = game.s.order
        return order[self.index] if self.index < len(order) else None

    def turn_start(self, game):
        """Until the player on turn trades or plays a card: what he did is the log's last
        action but corrections (read there, so the state keeps the form journals' snapshots
        pickled)."""
        played = next((a.kind for a in reversed(game.log) if not game.ACTIONS.has(a.kind, CORRECTION)), None)
        return None if played in ("buy", "sell", "influence") else self.actor(game)

    def decision(self, game):
        seat = self.actor(game)
        opts = []
        if not self.influenced:
            open_ = game.s.certs.in_bank(game.companies)
            if open_:
                opts.append(Option("buy", {"player": Fixed(seat), "company": Choice(open_)}))
            held = tuple(c for c in game.companies if game.count(c, seat))
            if held:
                opts.append(Option("sell", {"player": Fixed(seat), "company": Choice(held)}))
        opts += game.influence_options(seat)
        opts.append(Option("done", {"player": Fixed(seat)}))
        params = {"player": game.players[seat], "cards": game.s.hands[seat], "year": game.s.year}
        return Decision("prompt.dv.turn", params, seat, tuple(opts))

    def refusal(self, game, a, decision):
        if a.kind == "influence":
            return game.influence_refusal(a)
        if a.kind not in ("buy", "sell") or a.company not in game.companies:
            return None
        if self.influenced:  # D8: "Après l'achat et la vente ..."
            return IllegalAction("error.dv.after_influence", player=game.players[a.player])
        return game.trade_refusal(a)

    def vet(self, game, a):
        """A purchase the buyer cannot pay, before anything moves (`Game.buy` says so too)."""
        if a.kind == "buy" and game.left(a.company):
            return game.cash_refusal(a.player, game.buy_price(a.company))
        return None

    def on_buy(self, game, a):
        game.buy(a.player, a.company, game.buy_price(a.company), "purchase")

    def on_sell(self, game, a):
        game.sell(a.player, a.company, game.sell_price(a.company), "sale")

    def on_influence(self, game, a):
        game.play_influence(a.player, a.company, a.move)
        self.influenced = True

    def on_done(self, game, a):
        game.return_cards(a.player)
        self.index += 1
        self.influenced = False

    def advance(self, game):
        return TurnsPlayed() if self.index >= len(game.s.order) else None
