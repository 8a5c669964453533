"""A player who must raise cash (MB8, MB9): a debt they cannot pay, or a forced sale.

The debt is the core debt step (engines/core/debt.py) with Maxi Bourse's one remedy, lots
offered to the table (MB8: "il doit vendre des actions"), and its ruin, the bank paying the
creditors in full; what is Maxi Bourse's own stays here: a purchase that cannot be paid
(the fine, the cessation of payments and the bank's sale of the seized lots)."""

from engines.core.debt import Debt as CoreDebt
from engines.core.debt import Remedy, Ruin, bank_pays
from engines.core.decision import Choice, Fixed, IntRange, Option
from engines.core.ledger import BANK
from engines.core.records import record
from engines.maxibourse.steps.base import Frame


@record(frozen=True)
class SellToTable(Remedy):
    """The debtor offers lots to the table, a sale each (the Sale step); what it brings is
    in the debtor's cash when the sale is over."""
    kind: str = "sell"

    def available(self, game, debt):
        return game.can_sell(debt.debtor)

    def option(self, game, debt):
        seat = debt.debtor
        return Option("sell", {"player": Fixed(seat), "company": Choice(game.sellable(seat)),
                               "lots": IntRange(1, game.box.lots_per_company)})

    def play(self, game, debt, act=None):
        game.offer_lots(act)

    def resume(self, game, debt, result):
        pass  # the buyers paid the debtor: the proceeds are in the cash


SELL = SellToTable()


@record
class Debt(Frame, CoreDebt):
    """`owed` is [(creditor, amount)]. Checked by whoever pushes it (`check`) and again
    after each sale, not by `advance`: the purchase's fine decides when it is paid."""
    purchase: tuple | None   # (company, lots, seller) for a purchase that cannot be paid
    fine: int = 0
    stage: str = "cover"     # cover (sell to raise cash) -> cessation (bank sells seized lots)
    paid: int = 0            # cash the defaulter handed over at cessation
    remedies = (SELL,)
    ruin = Ruin(bank_pays_creditors=True)  # MB8: "la banque paie ses créanciers"; lots back via game.ruin
    prompt = "prompt.mb.debt"

    def due(self):
        return super().due() + self.fine

    def advance(self, game):
        return None

    def on_sell(self, game, a):
        return self.use(game, a)

    def check(self, game):
        """Paid when the cash covers it; else the debtor sells, and with nothing left to
        sell: ruin (a card debt) or cessation of payment (a purchase)."""
        if game.s.ruined[self.debtor]:  # ruined in a nested default: the bank settles
            return self.bank_settles(game)
        debtor, owed = self.debtor, sum(a for _, a in self.owed)
        cash, has_lots = game.cash(debtor), game.can_sell(debtor)
        if cash >= owed + self.fine or (cash >= owed and not has_lots):
            for creditor, amount in self.owed:
                game.transfer(debtor, creditor, amount, "debt")
            if self.purchase:
                company, lots, seller = self.purchase
                game.move_lots(company, seller, debtor, lots)
                game.transfer(debtor, BANK, min(self.fine, game.cash(debtor)), "fine")
                game.s.skip[debtor] += 1  # the imprudent player skips the next turn
                game.emit("mb.sanction", player=game.players[debtor], fine=self.fine)
            return game.pop()
        if has_lots:
            return None  # the debtor must sell (decision: sell)
        if self.purchase is None:  # a card debt that cannot be paid: ruined, the bank pays
            return game.pop(self.ruin.apply(game, self))
        # Cessation de paiement: the bank seizes the lots being bought and sells them.
        company, lots, seller = self.purchase
        self.stage, self.paid = "cessation", cash
        game.transfer(debtor, BANK, cash, "cessation")
        game.move_lots(company, seller, BANK, lots)
        game.emit("mb.cessation", player=game.players[debtor], company=company, lots=lots)
        game.start_sale(BANK, company, lots, exclude=debtor)

    def bank_settles(self, game):
        """The debtor was ruined meanwhile: the bank pays the creditors in full and, for a
        purchase not yet seized, takes the lots it has just paid for."""
        if self.purchase and self.stage == "cover":
            company, lots, seller = self.purchase
            game.move_lots(company, seller, BANK, lots)
        for creditor, amount in self.owed:
            if creditor != BANK:
                bank_pays(game, creditor, amount, "debt")
        game.pop()

    def resume(self, game, result):
        if self.pushed is not None:  # the debtor's own sale (the remedy), not the bank's
            CoreDebt.resume(self, game, result)
        if self.stage == "cover" or game.s.ruined[self.debtor]:
            return self.check(game)
        proceeds = result.proceeds  # the bank's sale of the seized lots
        for creditor, amount in self.owed:
            if creditor != BANK:
                bank_pays(game, creditor, amount, "debt")
        # "Il vous verse la différence ... Mais vous êtes sanctionné et devez passer un nouveau
        # tour": the sanction (the 100 000 $ fine, one turn) comes out of the difference, then
        # one more turn; "Si le banquier ne vous reverse pas d'argent, vous êtes ruiné".
        surplus = self.paid + proceeds - sum(a for _, a in self.owed)
        returned = surplus - self.fine
        if returned > 0:
            game.transfer(BANK, self.debtor, returned, "surplus")
            game.s.skip[self.debtor] += 2  # the sanction's turn plus one more
            game.emit("mb.sanction", player=game.players[self.debtor], fine=self.fine)
        else:
            game.ruin(self.debtor)
        game.pop()


@record
class ForcedSale(Frame, CoreDebt):
    """MB9: the player owes the bank `amount` and must sell lots until the sales bring it;
    `owed` is [(BANK, amount)]. Covered by the proceeds of the sales, not by the cash."""
    proceeds: int = 0
    remedies = (SELL,)
    ruin = Ruin(bank_pays_creditors=True)  # all the cash to the bank, ruined (MB8)
    prompt = "prompt.mb.forced"

    @classmethod
    def of(cls, seat, amount):
        return cls(seat, [(BANK, amount)])

    @property
    def amount(self):
        return CoreDebt.due(self)

    def due(self):
        return self.amount - self.proceeds

    def advance(self, game):
        return None  # checked by whoever pushes it and after each sale

    def on_sell(self, game, a):
        return self.use(game, a)

    def check(self, game):
        """MB9: sell until the proceeds reach X, then pay X; short of lots, pay the rest in cash."""
        if self.proceeds < self.amount and game.can_sell(self.debtor):
            return None
        if game.cash(self.debtor) >= self.amount:
            game.transfer(self.debtor, BANK, self.amount, "forced_sale")
            return game.pop()
        return game.pop(self.ruin.apply(game, self))

    def resume(self, game, result):
        CoreDebt.resume(self, game, result)
        self.proceeds += result.proceeds
        return self.check(game)
