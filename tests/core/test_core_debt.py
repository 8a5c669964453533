"""engines.core.debt and engines.core.deeds on a toy game: a debtor raises cash by the
game's remedies in the rulebook's order, then is ruined by the game's policy; deeds have
one owner each and loans are counted in fortune. The three toy rule sets follow the
rulings of the next games: A Vendre! (AV3/AV11: shops auctioned, the bank takes unsold at
half PA, then loans of 1 000 repaid 1 100), Shark (SH9: shares sold to the bank at half
price rounded up, then out with the rest written off) and Richesses du Monde (RM11: cash
only, the bank pays every creditor in full, titles back to the stock)."""
import copy
from dataclasses import dataclass, field

import pytest

from engines.core.actions import ActionSet, Name, Seat, Signed, action
from engines.core.debt import AuctionDeed, DeedSold, Debt, Paid, Ruin, Ruined, SellDeed, TakeLoan
from engines.core.decision import Decision, Fixed, IntRange, Option
from engines.core.deeds import STOCK, Deeds, Loans, fortune
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK, Ledger
from engines.core.open_auction import OpenAuction
from engines.core.steps import Step, StepGame


@action("owe")
class Owe:
    player: Seat
    creditor: Signed
    amount: Signed


@action("sell_deed")
class SellDeedAct:
    player: Seat
    deed: Name


@action("auction_deed")
class AuctionDeedAct:
    player: Seat
    deed: Name


@action("borrow")
class Borrow:
    player: Seat


@action("bid")
class Bid:
    player: Seat
    amount: Signed


@action("hammer")
class Hammer:
    pass


class ToyDebt(Debt):
    def on_sell_deed(self, game, act):
        return self.use(game, act)

    def on_auction_deed(self, game, act):
        return self.use(game, act)

    def on_borrow(self, game, act):
        return self.use(game, act)


@dataclass
class AVDebt(ToyDebt):
    remedies = (AuctionDeed(), TakeLoan(1000, 1100))
    ruin = Ruin(bank_pays_creditors=True)


def half_up_thousand(deed):
    return -(-deed.price // 2000) * 1000


@dataclass
class SHDebt(ToyDebt):
    remedies = (SellDeed(price=half_up_thousand),)
    ruin = Ruin(bank_pays_creditors=False)


@dataclass
class RMDebt(ToyDebt):
    remedies = ()
    ruin = Ruin(bank_pays_creditors=True, deeds_to=STOCK)


@dataclass
class DeedAuction(Step):
    """The toy's auction of a debtor's deed: the others bid (a bid is a promise: the toy
    does not bound it by cash, so a winner may fall into debt paying it), the hammer sells."""
    seller: int
    deed: str
    auction: OpenAuction
    name = "auction"

    def decision(self, game):
        may = [s for s in self.auction.may_bid() if s not in game.s.out]
        options = [Option("bid", {"player": IntRange(min(may), max(may)), "amount": IntRange(self.auction.minimum, 10**6)})] if may else []
        return Decision("prompt.mb.auction", {}, None, tuple(options) + (Option("hammer", {}),))

    def on_bid(self, game, act):
        self.auction.bid(act.player, act.amount, cash=10**6)

    def on_hammer(self, game, act):
        won = self.auction.hammer()
        if won is None:
            return DeedSold(self.deed, None, 0)
        buyer, price = won
        game.push(type(game.debt_step)(buyer, [[self.seller, price]]))
        return None

    def resume(self, game, result):
        """The winner paid (Paid) and takes the deed; or was ruined (Ruined): the deed he
        could not pay goes back to the stock with the rest of his."""
        buyer, price = self.auction.hammer()
        dst = buyer if isinstance(result, Paid) else STOCK
        game.emit(**_ev(game.s.deeds.move(self.deed, self.seller, dst)))
        return DeedSold(self.deed, buyer, price)


def _ev(event):
    return {"key": event.key, **event.params}


@dataclass
class Play(Step):
    results: list = field(default_factory=list)
    name = "play"

    def decision(self, game):
        n = len(game.players) - 1
        return Decision("prompt.play", {}, None,
                        (Option("owe", {"player": IntRange(0, n), "creditor": IntRange(-1, n), "amount": IntRange(1, 10**6)}),))

    def on_owe(self, game, act):
        game.push(game.debt_step.__class__(act.player, [[act.creditor, act.amount]]))

    def resume(self, game, result):
        self.results.append(result)
        return None


@dataclass
class Table:
    ledger: Ledger
    deeds: Deeds
    loans: Loans
    out: list = field(default_factory=list)
    steps: list = field(default_factory=list)


class Toy(StepGame):
    name = "toy"
    ACTIONS = ActionSet(Owe, SellDeedAct, AuctionDeedAct, Borrow, Bid, Hammer)
    PLAYERS = (2, 4)
    CHECKPOINT_EVERY = 2
    debt_step = AVDebt(0, [])
    CASH = (100, 50, 3000)
    BANK_CASH = 5000
    DEEDS = {"S1": 400, "S2": 600, "S3": 3000}
    HOLDERS = {"S1": 0, "S2": 0}

    def initial_state(self):
        ledger = Ledger({BANK: self.BANK_CASH, **dict(enumerate(self.CASH))}, unlimited=())
        deeds = Deeds.of(self.DEEDS)
        for name, seat in self.HOLDERS.items():
            deeds.move(name, STOCK, seat)
        return Table(ledger, deeds, Loans(), steps=[Play()])

    def transfer(self, src, dst, amount, reason):
        if amount:
            self.emit(**_ev(self.s.ledger.transfer(src, dst, amount, reason)))

    def eliminate(self, seat):
        self.s.out.append(seat)
        self.emit("ruined", player=seat)

    def eliminated(self, seat):
        return seat in self.s.out

    def deed_auction(self, debtor, deed):
        others = [s for s in range(len(self.players)) if s != debtor and s not in self.s.out]
        return DeedAuction(debtor, deed, OpenAuction(deed, others, self.DEEDS[deed] // 2, 50, on_grid=False))

    @property
    def over(self):
        return False

    def snapshot(self):
        return {"cash": dict(self.s.ledger.balances), "deeds": {n: d.owner for n, d in self.s.deeds.items.items()},
                "loans": {s: [(l.amount, l.repayment) for l in ls] for s, ls in self.s.loans.by_seat.items()},
                "out": list(self.s.out), "steps": [repr(s) for s in self.s.steps]}


def toy(debt=AVDebt, players=3, **kw):
    cls = type("ToyGame", (Toy,), {"debt_step": debt(0, []), **kw})
    return cls({"players": ["A", "B", "C"][:players]})


def keys(events):
    return [e.key for e in events]


def test_a_debt_the_cash_covers_is_paid_at_once():
    g = toy()
    events = g.apply(Owe(Seat(0), Signed(1), Signed(60)))
    assert g.s.ledger[0] == 40 and g.s.ledger[1] == 110 and g.s.steps[0].results == [Paid(0, 60)]
    assert keys(events) == ["transfer"]


def test_av_shops_are_auctioned_before_any_loan_and_unsold_go_to_the_bank_at_half_pa():
    """AV3: "Ses propriétés sont mises aux enchères ... la banque la prend à la moitié du PA";
    AV11: loans "only once no shop is left"."""
    g = toy()
    g.apply(Owe(Seat(0), Signed(BANK), Signed(300)))
    d = g.decision()
    assert d.actor == 0 and [o.kind for o in d.options] == ["auction_deed"]  # no loan while a shop is left
    assert d.options[0].fields["deed"].values == ("S1", "S2")
    with pytest.raises(IllegalAction):
        g.apply(Borrow(Seat(0)))
    g.apply(AuctionDeedAct(Seat(0), Name("S1")))
    assert g.step.name == "auction" and g.step.auction.opening == 200
    g.apply(Hammer())  # nobody bid: the bank takes it at half PA
    assert g.s.deeds.owner("S1") == BANK and g.s.ledger[0] == 0 and g.s.steps[0].results == [Paid(0, 300)]
    assert g.s.ledger[BANK] == 5000 - 200 + 300


def test_av_the_last_shop_then_loans_as_many_as_needed_counted_in_fortune():
    g = toy()
    g.apply(Owe(Seat(0), Signed(2), Signed(2500)))
    g.apply(AuctionDeedAct(Seat(0), Name("S2")))
    g.apply(Bid(Seat(2), Signed(350)))
    g.apply(Hammer())  # C pays 350 for S2
    assert g.s.deeds.owner("S2") == 2 and g.s.ledger[0] == 450
    g.apply(AuctionDeedAct(Seat(0), Name("S1")))  # the last asset
    g.apply(Hammer())
    assert g.s.deeds.owned_by(0) == () and g.s.ledger[0] == 650
    assert [o.kind for o in g.decision().options] == ["borrow"]  # now, and only now, a loan
    g.apply(Borrow(Seat(0)))
    assert g.step.name == "debt"  # 1 650: still short
    g.apply(Borrow(Seat(0)))
    assert g.s.steps[0].results == [Paid(0, 2500)] and g.s.ledger[0] == 150
    assert g.s.loans.owed(0) == 2200 and fortune(g.s.ledger[0], g.s.deeds, g.s.loans, 0) == 150 - 2200
    assert fortune(g.s.ledger[2], g.s.deeds, g.s.loans, 2, value=lambda d: d.price // 2) == 3000 - 350 + 2500 + 300


def test_ruin_during_an_auction_the_winner_cannot_pay_and_the_bank_pays_the_seller():
    """A's shop is won by B, who cannot pay: B's own debt, no shop, a bank with no cash to
    lend: B is ruined (his new shop back to the stock) and the bank pays A in full (RM11's
    policy) -- here the bank holds enough only for part of it: its shortfall is an event."""
    g = toy(BANK_CASH=0, CASH=(100, 50, 0))
    g.apply(Owe(Seat(0), Signed(2), Signed(100)))  # A can pay: no debt
    g.apply(Owe(Seat(0), Signed(2), Signed(400)))  # A: 0 cash, owes C 400
    g.apply(AuctionDeedAct(Seat(0), Name("S2")))
    g.apply(Bid(Seat(1), Signed(500)))
    events = g.apply(Hammer())
    assert g.s.out == [1] and g.s.deeds.owner("S2") == STOCK  # B ruined inside the auction
    assert "ruined" in keys(events) and "bank_short" in keys(events)
    # The bank had B's 50 only: A got 50 of 500, then sells S1 to cover C.
    assert g.s.ledger[0] == 50 and g.step.name == "debt" and g.step.debtor == 0
    assert [o.kind for o in g.decision().options] == ["auction_deed"]  # S1 is left
    assert g.decision().options[0].fields["deed"].values == ("S1",)
    g.apply(AuctionDeedAct(Seat(0), Name("S1")))
    assert g.step.auction.bidders == [2]  # the ruined B bids no more
    g.apply(Hammer())  # no bid, the bank is dry: it takes S1 and pays nothing
    assert g.s.deeds.owner("S1") == BANK
    # Nothing left, the bank lends nothing: A ruined, his 50 to the bank, which pays C
    # what it has (50 of 400).
    assert g.s.out == [1, 0] and g.s.steps[0].results[-1] == Ruined(0, 350) and g.s.ledger[2] == 100 + 50
    assert sum(g.s.ledger.balances.values()) == 150 + 0


def test_sh_shares_to_the_bank_at_half_price_rounded_up_then_out_with_the_rest_written_off():
    """SH9: "at half price rounded up to the thousand ... the excess of the last share is
    returned in cash. Still short with nothing left: out of the game, the rest written off"."""
    g = toy(SHDebt, DEEDS={"S1": 3000, "S2": 2000, "S3": 1000})
    g.apply(Owe(Seat(0), Signed(1), Signed(1500)))
    assert [o.kind for o in g.decision().options] == ["sell_deed"]
    g.apply(SellDeedAct(Seat(0), Name("S1")))  # 3 000 -> 2 000 (1 500 rounded up)
    assert g.s.deeds.owner("S1") == BANK and g.s.ledger[0] == 100 + 2000 - 1500 and g.s.steps[0].results == [Paid(0, 1500)]
    g.apply(Owe(Seat(0), Signed(1), Signed(5000)))
    events = g.apply(SellDeedAct(Seat(0), Name("S2")))  # the last share: 1 000, still short
    assert "written_off" in keys(events) and g.s.ledger[0] == 0 and g.s.deeds.owned_by(0) == ()
    assert g.s.out == [0] and g.s.steps[0].results[-1] == Ruined(0, 5000 - 1600)
    assert g.s.ledger[1] == 50 + 1500 + 1600


def test_rm_cash_only_the_bank_pays_in_full_and_titles_go_back_to_the_stock():
    """RM11: "the debtor's cash goes to the bank, the bank pays every creditor in full,
    titles go back to the stock"."""
    g = toy(RMDebt)
    events = g.apply(Owe(Seat(0), Signed(1), Signed(700)))
    assert g.s.out == [0] and g.s.ledger[0] == 0 and g.s.ledger[1] == 750 and g.s.ledger[BANK] == 5000 + 100 - 700
    assert g.s.deeds.owner("S1") == g.s.deeds.owner("S2") == STOCK and g.s.steps[0].results == [Ruined(0, 0)]
    assert "bank_short" not in keys(events) and g.decision().prompt == "prompt.play"


def test_a_bank_that_cannot_pay_pays_what_it_has_and_the_shortfall_is_an_event():
    g = toy(RMDebt, BANK_CASH=200)
    events = g.apply(Owe(Seat(0), Signed(1), Signed(700)))  # the bank holds 200 + A's 100
    assert g.s.ledger[1] == 50 + 300 and g.s.ledger[BANK] == 0 and g.s.steps[0].results == [Ruined(0, 400)]
    short = [e for e in events if e.key == "bank_short"]
    assert short and short[0].params == {"player": 1, "amount": 700, "unpaid": 400}


def test_a_loan_from_a_bank_running_dry_lends_what_it_has_repaid_in_proportion():
    """AV12: a loan can itself run the bank dry."""
    g = toy(BANK_CASH=500, HOLDERS={})
    g.apply(Owe(Seat(0), Signed(2), Signed(300)))
    events = g.apply(Borrow(Seat(0)))
    assert g.s.loans.owed(0) == 550 and g.s.ledger[BANK] == 0 and "bank_short" in keys(events)
    assert g.s.steps[0].results == [Paid(0, 300)] and g.s.ledger[0] == 300


def test_deeds_move_only_from_their_owner_and_loans_are_checked():
    deeds = Deeds.of({"S1": 400})
    with pytest.raises(IllegalAction) as err:
        deeds.move("S1", 0, 1)
    assert err.value.key == "error.not_owner" and deeds.owner("S1") == STOCK
    with pytest.raises(IllegalAction) as err:
        deeds["S9"]
    assert err.value.key == "error.unknown_deed"
    with pytest.raises(ValueError):
        Loans().take(0, 1000, 900)


def test_a_refused_remedy_changes_nothing_and_undo_replays_the_debt():
    g = toy()
    g.apply(Owe(Seat(0), Signed(BANK), Signed(300)))
    before, steps = g.snapshot(), copy.deepcopy(g.s.steps)
    with pytest.raises(IllegalAction):
        g.apply(AuctionDeedAct(Seat(0), Name("S3")))  # C's shop, not A's
    assert g.snapshot() == before and g.s.steps == steps
    g.apply(AuctionDeedAct(Seat(0), Name("S1")))
    g.apply(Bid(Seat(2), Signed(250)))
    after = g.snapshot()
    g.apply(Hammer())
    g.undo()
    assert g.snapshot() == after


def test_a_debtor_put_out_while_his_auction_runs_is_ruined_when_it_ends():
    """Out meanwhile (here by hand, as a correction would): the auction still sells his
    shop, then his debt ends in the ruin policy, without offering another remedy."""
    g = toy()
    g.apply(Owe(Seat(0), Signed(2), Signed(300)))
    g.apply(AuctionDeedAct(Seat(0), Name("S1")))
    g.apply(Bid(Seat(2), Signed(250)))
    g.s.out.append(0)
    g.apply(Hammer())  # C pays A 250; A is out: A's 350 to the bank, which pays C in full
    assert g.s.steps[0].results == [Ruined(0, 0)] and g.s.ledger[2] == 3000 - 250 + 300 and g.s.ledger[0] == 0
    assert g.s.deeds.owner("S1") == 2 and g.s.deeds.owner("S2") == STOCK and g.step.name == "play"


# ---- the remedies A Vendre! needs beyond the first three rule sets (AV11, AV12) ----------
@action("leave")
class LeaveAct:
    player: Seat


@dataclass
class AVFullDebt(ToyDebt):
    """AV11: shops only (S3 counts as an honorary establishment, never auctioned), loans as
    many as needed in one answer, leaving offered beside the loan."""
    remedies = (AuctionDeed(only=lambda game, deed: deed.name != "S3"), TakeLoan(1000, 1100, as_needed=True))
    ruin = Ruin(bank_pays_creditors=False, deeds_to=BANK)
    leave_beside = ("borrow",)

    def on_leave(self, game, act):
        return self.quit(game, act)


def av_toy(**kw):
    cls = type("AVToy", (Toy,), {"debt_step": AVFullDebt(0, []), "ACTIONS": ActionSet(
        Owe, SellDeedAct, AuctionDeedAct, Borrow, Bid, Hammer, LeaveAct), "HOLDERS": {"S1": 0, "S3": 0}, **kw})
    return cls({"players": ["A", "B", "C"]})


def test_a_deed_remedy_takes_only_the_deeds_the_game_accepts():
    """AV11: "Establishments are never auctioned"."""
    g = av_toy()
    g.apply(Owe(Seat(0), Signed(BANK), Signed(500)))
    assert g.decision().options[0].fields["deed"].values == ("S1",)
    g.apply(AuctionDeedAct(Seat(0), Name("S1")))
    g.apply(Hammer())
    assert g.s.deeds.owned_by(0) == ("S3",) and [o.kind for o in g.decision().options] == ["borrow", "leave"]


def test_loans_as_many_as_needed_in_one_answer():
    """AV11: "Loans of 1 000 only once no shop is left, as many as needed"."""
    g = av_toy(HOLDERS={})
    g.apply(Owe(Seat(0), Signed(1), Signed(2500)))   # A holds 100: 2 400 short, three loans
    g.apply(Borrow(Seat(0)))
    assert g.s.loans.owed(0) == 3300 and g.s.ledger[0] == 600 and g.s.steps[0].results == [Paid(0, 2500)]


def test_leaving_beside_the_loan_is_the_games_ruin():
    """AV11: "the debtor may instead leave the game (cash to the creditor, establishments
    back to the bank, ranked last)"."""
    g = av_toy(HOLDERS={"S3": 0})
    g.apply(Owe(Seat(0), Signed(1), Signed(2500)))
    g.apply(LeaveAct(Seat(0)))
    assert g.s.out == [0] and g.s.ledger[1] == 150 and g.s.deeds.owner("S3") == BANK
    assert g.s.steps[0].results == [Ruined(0, 2400)]


def test_a_game_that_settles_its_banks_shortfall_later_lends_in_full():
    """AV12: a loan can run the bank dry; the bank is auctioned and pays the rest, so the
    loan is 1 000 repaid 1 100 and what the bank could not pay is handed to the game."""
    owed = []
    g = av_toy(HOLDERS={}, BANK_CASH=400, bank_shortfall=lambda self, dst, unpaid, reason: owed.append((dst, unpaid, reason)))
    g.apply(Owe(Seat(0), Signed(1), Signed(500)))
    g.apply(Borrow(Seat(0)))
    assert g.s.loans.owed(0) == 1100 and g.s.ledger[0] == 500 - 500 + 0 and owed == [(0, 600, "loan")]
    assert g.s.ledger[BANK] == 0
