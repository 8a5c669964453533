"""RM11: bankruptcy is cash only. A player who cannot pay what he owes (royalties, a
double, a card) is bankrupt at once: no sale to raise cash, his cash goes to the bank, the
bank pays every creditor in full, his titles go back to the stock (the core Debt step with
no remedy and the bank paying the creditors). With no remedy it never waits on a decision:
`Richesses.charge` runs it at once."""

from engines.core.debt import Debt, Ruin
from engines.core.deeds import STOCK
from engines.core.records import record


@record
class Bankruptcy(Debt):
    remedies = ()
    ruin = Ruin(bank_pays_creditors=True, deeds_to=STOCK)
    prompt = "prompt.rm.debt"
