"""A free sale or exchange between players (RM12): the seller offers his whole trust to a
buyer for an amount, or against the buyer's whole trust of another production and an
amount the buyer adds (0 or more); for 7 seconds anyone else may overbid in cash by at
least 100 000 above the amount (never above his cash; an overbid turns an exchange into a
sale to the overbidder: the rulebook allows overbids "même en cours de transaction libre");
when the window closes the seller has 7 seconds to accept the best offer, else it lapses.
Both silences are the game's rule, carried by the decision (`silence_s`)."""

from engines.core.decision import Choice, Decision, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.steps import Step
from engines.richesses.rules import MAX_AMOUNT, RAISE
from engines.richesses.steps.results import SaleOver


def sale_options(game):
    """RM12: a free sale, offered between turns (never inside an auction or a debt)."""
    trusts = {s: game.trusts(s) for s in game.in_game()}     # each asked once: a decision between turns
    sellers = tuple(s for s, held in trusts.items() if held)
    if not sellers or len(trusts) < 2:
        return ()
    held = tuple(p for p in game.box.productions if any(p in trusts[s] for s in sellers))
    options = (Option("offer", {"seller": Choice(sellers), "production": Choice(held),
                                "buyer": Choice(tuple(game.in_game())), "amount": IntRange(RAISE, MAX_AMOUNT)}),)
    if len(sellers) >= 2:   # an exchange needs two players with a trust each
        options += (Option("exchange", {"seller": Choice(sellers), "production": Choice(held),
                                        "buyer": Choice(sellers), "other": Choice(held),
                                        "amount": IntRange(0, MAX_AMOUNT)}),)
    return options


def offer_refusal(game, act):
    """Why a free sale or an exchange is refused, in the rulebook's words (RM12)."""
    n = len(game.players)
    if not (0 <= act.seller < n and 0 <= act.buyer < n):
        return None
    if act.buyer == act.seller:
        return IllegalAction("error.rm.self_sale", player=game.players[act.seller])
    if act.production not in game.trusts(act.seller):
        return IllegalAction("error.rm.no_trust", player=game.players[act.seller],
                             production=game.box.production_name(act.production))
    if act.kind == "exchange":
        if act.other not in game.trusts(act.buyer):
            return IllegalAction("error.rm.no_trust", player=game.players[act.buyer],
                                 production=game.box.production_name(act.other))
        if act.other == act.production:
            return IllegalAction("error.rm.same_trust", production=game.box.production_name(act.other))
    if act.amount > game.cash(act.buyer):
        return IllegalAction("error.rm.cash", player=game.players[act.buyer], amount=act.amount)
    return None


@record
class SaleStep(Step):
    seller: int
    production: str
    buyer: int          # the best offer so far
    amount: int
    swap: str | None = None  # an exchange: the production of the buyer's trust given in return
    closed: bool = False     # the overbid window is over: the seller answers
    name = "sale"

    def actor(self, game):
        return self.seller if self.closed else None

    def high_bid_of(self, seat):
        """The best offer's maker keeps at least his offer: a cash correction leaves it
        payable (an offer has no earlier bid to fall back on)."""
        return self.amount if seat == self.buyer else None

    def minimum(self):
        return self.amount + RAISE

    def decision(self, game):
        params = {"seller": game.players[self.seller], "production": self.production,
                  "buyer": game.players[self.buyer], "amount": self.amount, "minimum": self.minimum()}
        kind = "sale"
        if self.swap is not None:
            params["other"], kind = self.swap, "exchange"
        if self.closed:
            return Decision(f"prompt.rm.{kind}_accept", params, self.seller, (Option("accept"), Option("lapse")))
        bidders = tuple(s for s in game.in_game() if s not in (self.seller, self.buyer))
        options = (Option("overbid", {"player": Choice(bidders), "amount": IntRange(self.minimum(), MAX_AMOUNT)}),) \
            if bidders else ()
        return Decision(f"prompt.rm.{kind}_window", params, None, options + (Option("close_offer"),))

    def refusal(self, game, act, decision):
        if act.kind == "overbid" and 0 <= act.player < len(game.players) and act.player != self.seller \
                and act.amount >= self.minimum() and act.amount > game.cash(act.player):
            return IllegalAction("error.rm.cash", player=game.players[act.player], amount=act.amount)
        return None

    def on_overbid(self, game, act):
        if act.amount > game.cash(act.player):
            raise IllegalAction("error.rm.cash", player=game.players[act.player], amount=act.amount)
        self.buyer, self.amount, self.swap = act.player, act.amount, None
        game.emit("rm.overbid", player=game.players[act.player], amount=act.amount,
                  production=game.box.production_name(self.production))
        return None

    def on_close_offer(self, game, act):
        self.closed = True
        game.emit("rm.offer_closed", seller=game.players[self.seller], buyer=game.players[self.buyer],
                  amount=self.amount, production=game.box.production_name(self.production))
        return None

    def on_accept(self, game, act):
        if game.cash(self.buyer) < self.amount:   # a correction took the cash meanwhile; not shown
            raise IllegalAction("error.rm.cash", player=game.players[self.buyer], amount=self.amount)
        game.transfer(self.buyer, self.seller, self.amount, "sale")
        game.move_trust(self.seller, self.production, self.buyer)
        if self.swap is not None:
            game.move_trust(self.buyer, self.swap, self.seller)
            game.emit("rm.exchange", seller=game.players[self.seller], buyer=game.players[self.buyer],
                      production=game.box.production_name(self.production), other=game.box.production_name(self.swap),
                      amount=self.amount)
            return SaleOver(True)
        game.emit("rm.sale", seller=game.players[self.seller], buyer=game.players[self.buyer],
                  production=game.box.production_name(self.production), amount=self.amount)
        return SaleOver(True)

    def on_lapse(self, game, act):
        game.emit("rm.offer_lapsed", seller=game.players[self.seller],
                  production=game.box.production_name(self.production))
        return SaleOver(False)
