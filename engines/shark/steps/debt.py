"""SH9, the forced sale, on the core debt procedure (engines/core/debt.py).

"Si [...] un des joueurs ne détient pas suffisamment d'argent liquide afin de payer la
baisse de valeur [...] il devra verser cette somme sous forme d'actions. [...] La banque
reprend ces actions à 50%. Si la somme à verser est inférieure à 1.000 FT, elle sera
automatiquement arrondie à 1.000 FT. [...] Si un joueur se trouve dans l'impossibilité de
payer même après avoir vendu toutes ses actions, il devra [...] arrêter là son rôle."

All the cash first (the step pays as soon as the cash covers the fall), then shares the
holder chooses one at a time among companies worth more than 0, each credited at half
price rounded (`forced_rounding`); the excess of the last share stays his. Still short
with nothing left: the core ruin without the bank paying (his cash to the bank, the rest
written off), then out of the game.
"""

from engines.core.debt import Debt, Remedy, Ruin, bank_pays
from engines.core.decision import Choice, Fixed, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.records import record


@record(frozen=True)
class SellShare(Remedy):
    """One share of a company worth more than 0, chosen by the debtor, to the bank."""
    kind: str = "forced_sale"

    def companies(self, game, debt):
        return tuple(c for c in game.companies if game.s.values[c] > 0 and game.shares(c, debt.debtor))

    def available(self, game, debt):
        return bool(self.companies(game, debt))

    def option(self, game, debt):
        return Option(self.kind, {"player": Fixed(debt.debtor), "company": Choice(self.companies(game, debt))})

    def play(self, game, debt, act=None):
        price = game.forced_price(act.company)
        game.move_shares(act.company, debt.debtor, BANK, 1, "forced_sale")
        game.emit("sh.forced_sale", player=game.players[debt.debtor], company=act.company, price=price)
        bank_pays(game, debt.debtor, price, "forced_sale")


@record
class ShareDebt(Debt):
    remedies = (SellShare(),)
    ruin = Ruin()                    # no bank paying: the rest is written off (SH9)
    prompt = "prompt.sh.debt"

    def refusal(self, game, act, decision):
        """Nothing else until the fall is paid: who owes what, and what they hold to sell."""
        name = game.players[self.debtor]
        if act.kind == "forced_sale" and decision.option("forced_sale") is not None and act.player == self.debtor \
                and act.company in game.companies:
            if not game.shares(act.company, self.debtor):
                return IllegalAction("error.sh.forced_not_held", player=name, company=act.company)
            return IllegalAction("error.sh.value_zero_forced", company=act.company) \
                if not game.s.values[act.company] else None
        if decision.option(act.kind) is None:
            return IllegalAction("error.sh.in_debt", player=name, amount=self.due(), cash=game.cash(self.debtor))
        return None

    def on_forced_sale(self, game, act):
        return self.use(game, act)
