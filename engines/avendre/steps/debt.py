"""Short of cash (AV3, AV11): the core debt procedure with A Vendre!'s remedies.

"Quiconque n'a plus d'argent pour remplir ses obligations doit faire vendre aux enchères
par le banquier un ou plusieurs de ses commerces": the debtor chooses one shop at a time
(never an establishment), auctioned from half its PA, the bank taking it at half PA when
nobody bids; once no shop is left, "un emprunt de 1000.— à la banque, remboursable à la
fin du jeu avec 10 % d'intérêts", as many as needed, or leaving the game instead ("pour
ne pas être obligé de sortir du jeu"): his cash to the creditor, establishments back to
the bank, ranked last."""

from engines.avendre.rules import LOAN, LOAN_REPAYMENT, SHOP
from engines.core.debt import AuctionDeed, Debt, Ruin, TakeLoan
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.records import record


def is_shop(game, deed) -> bool:
    return game.kind_of(deed.name) == SHOP


@record
class AVDebt(Debt):
    remedies = (AuctionDeed(kind="auction_shop", field="title", only=is_shop),
                TakeLoan(LOAN, LOAN_REPAYMENT, kind="borrow", as_needed=True))
    ruin = Ruin(bank_pays_creditors=False, deeds_to=BANK)
    leave_beside = ("borrow",)
    prompt = "prompt.av.debt"

    def refusal(self, game, a, decision):
        """AV11's order and its shops: loans and leaving only once no shop is left; a shop of
        the debtor's own, never an establishment."""
        name = game.players[self.debtor]
        if a.kind in ("borrow", "leave") and decision.option("auction_shop") is not None:
            return IllegalAction("error.av.shops_first", player=name)
        if a.kind != "auction_shop" or decision.option("auction_shop") is None:
            return None
        title = str(a.title)
        if title not in game.s.deeds.items:
            return None                               # no such title: the list of the debtor's says it
        if game.title(title).kind != SHOP:
            return IllegalAction("error.av.establishment_auction", title=game.title_label(title))
        if game.owner(title) != self.debtor:
            return IllegalAction("error.av.auction_not_held", player=name, title=game.title_label(title))
        return None

    def on_auction_shop(self, game, a):
        game.emit("av.auction_shop", player=game.players[a.player], title=game.title_label(a.title))
        return self.use(game, a)

    def on_borrow(self, game, a):
        return self.use(game, a)

    def on_leave(self, game, a):
        return self.quit(game, a)
