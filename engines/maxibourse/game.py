"""Maxi Bourse International: every rule of the rulebook and rulings MB1-MB12.

The game is a stack of procedures, steps of engines/core/steps.py with one module each in
engines/maxibourse/steps/: a turn, and what it pushes (a titre square, a sale, an auction,
a settlement, a debt, a forced sale). The step on top builds the pending decision and
handles its actions; a procedure that finishes pops itself and hands its typed result
(`AuctionOver`, `Settled`, `Sold`, `Done`) to `resume` of the step below. This class
keeps the set-up, the turn order and the end of the session, the mechanics the steps
share (prices, lots, sales to the table, debts, ruin) and the actions allowed at any
time (rumours revealed and closing: options.py; corrections: corrections.py); the board's
pawns are board.py, the payday steps/payday.py. See docs/rules/maxibourse.md for the rules
digest and the tests that pin each rule.
"""
from dataclasses import field

from engines.core.corrections import Cash, WhoseTurn
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.settings import check_header
from engines.core.ledger import BANK, Ledger
from engines.core.lots import Holdings
from engines.core.rounds import SpeakingRound, clockwise
from engines.core.table import TableGame
from engines.maxibourse import GAME
from engines.maxibourse import steps as F
from engines.maxibourse.rules import FORMATS, MAX_AMOUNT, MIN_PRICE, PAYDAY_EVERY, PRICE_STEP
from engines.maxibourse.actions import ACTIONS
from engines.maxibourse.board import square_of
from engines.maxibourse.box import load_box
from engines.maxibourse.corrections import Lots, Nominal, Pawn, Price, Round, Skip
from engines.maxibourse.learning import Learning
from engines.maxibourse.options import anytime


def check_settings(header: dict) -> dict:
    fmt = header.get("format", "junior")
    if fmt not in FORMATS:
        raise IllegalAction("error.setting", key="format", value=fmt, allowed=list(FORMATS))
    return check_header(header, GAME.players, GAME.settings)


@record
class State:
    ledger: Ledger
    lots: Holdings
    prices: dict
    last_change: dict
    skip: list
    ruined: list
    rumours: list
    steps: list              # the procedure: the step under way last
    first: int | None = None
    round: int = 0
    last_payday: dict = field(default_factory=dict)
    pawns: list = field(default_factory=list)  # with a board: each seat's square (index from "Action !")
    nominals: dict = field(default_factory=dict)  # company -> nominal corrected during the game (set_nominal)
    learned = ()             # box data read at the table: not a field (see engines/richesses/game.py's State)

    @property
    def stack(self):
        return self.steps


class MaxiBourse(Learning, TableGame):
    name = "maxibourse"
    ACTIONS = ACTIONS
    PLAYERS = GAME.players       # declared with the game (engines/maxibourse/__init__.py)
    FORMATS = GAME.formats
    SETTINGS = GAME.settings
    CORRECTIONS = (Cash(MAX_AMOUNT), Lots(), Price(), Nominal(), WhoseTurn(), Pawn(), Skip(),
                   Round())   # engines/maxibourse/corrections.py
    money_step = 100_000         # a lot at 100 $ a share; cards pay in cheques of 10 000 $ and more (D16)

    def view(self) -> dict:
        return view(self)

    @property
    def over(self) -> bool:
        return isinstance(self.step, F.Over)

    def __init__(self, header: dict):
        self.settings = check_settings(header)
        self.format = header.get("format", "junior")
        self.box = load_box(header.get("box"))
        self.shares = self.box.shares_per_lot
        self.companies = list(self.box.companies)
        self.sectors = {s.id: s.companies for s in self.box.sectors}
        super().__init__(header)

    def initial_state(self):
        n = len(self.players)
        cash, picks = FORMATS[self.format]
        state = State(
            ledger=Ledger({BANK: 0, **{s: 0 for s in range(n)}}),
            lots=Holdings(self.companies, self.box.lots_per_company, n),
            prices={c: co.nominal for c, co in self.box.companies.items()},
            last_change={c: 0 for c in self.companies},
            skip=[0] * n,
            ruined=[False] * n,
            rumours=[0] * n,
            steps=[F.Picking(order=[s for _ in range(picks) for s in range(n)])],
            pawns=[0] * n,  # rule 8: every pawn starts on the square "Action !"
        )
        for seat in range(n):  # the bank deals the starting cash (MB2)
            state.ledger.transfer(BANK, seat, cash, "start")
        return state

    # ------------------------------------------------------------------ helpers
    @property
    def top(self):
        return self.step

    def frame(self, kind):
        for f in reversed(self.s.steps):
            if isinstance(f, kind):
                return f
        return None

    def can_trade(self, seat):
        """Ruined players are out; a skipping player may not buy, sell or reveal (MB8)."""
        return not self.s.ruined[seat] and self.s.skip[seat] == 0

    def buyers_after(self, seat, exclude=None):
        """The other players who may trade, clockwise from the left of `seat`."""
        count = len(self.players)
        others = [s for s in range(count) if s != seat and s != exclude and self.can_trade(s)]
        return clockwise((seat + 1) % count, others)

    def price(self, company):
        return self.s.prices[company]

    def held(self, seat):
        return self.s.lots.portfolio(seat)

    def offered(self, seat):
        """company -> lots `seat` has on offer in the sales under way (lower in the stack,
        e.g. a seller who fell into debt buying in a nested sale): those are spoken for."""
        out = {}
        for f in self.s.steps:
            if isinstance(f, F.Sale) and f.seller == seat:
                out[f.company] = out.get(f.company, 0) + f.lots
        return out

    def free_lots(self, seat, company):
        """Lots the player may still offer: what they hold less what is on offer already."""
        return self.s.lots.of(company, seat) - self.offered(seat).get(company, 0)

    def sellable(self, seat):
        """The companies of which `seat` may still offer lots, in board order. A debt asks
        this after every sale and settlement, so the stack is read once, not per company."""
        offered = self.offered(seat)
        if not offered:                                         # the common case: no sale of theirs under way
            return self.s.lots.held_by(seat, self.companies)
        held = self.held(seat)                                  # held: companies with lots only
        return tuple(c for c in self.companies if held.get(c, 0) > offered.get(c, 0))

    def can_sell(self, seat):
        """`bool(sellable(seat))`, stopping at the first company when no sale of theirs is
        under way: a debt asks it after every sale and settlement."""
        if self.offered(seat):
            return bool(self.sellable(seat))
        return self.s.lots.holds_any(seat, self.companies)

    def wealth(self, seat):
        return self.cash(seat) + sum(n * self.shares * self.price(c) for c, n in self.held(seat).items())

    def move_lots(self, company, src, dst, lots):
        if lots:
            event = self.s.lots.move(company, src, dst, lots)
            self.emit_event(event)

    def set_price(self, company, new, reason):
        new = max(MIN_PRICE, new)
        old = self.s.prices[company]
        if new != old:
            self.s.prices[company] = new
            self.s.last_change[company] = new - old
            self.emit("mb.price", company=company, old=old, new=new, reason=reason)
        auction = F.Auction    # read once: every price change walks the stack
        for f in self.s.steps:  # an auction under way goes on from the quotation (MB5: a rumour counts)
            if isinstance(f, auction) and f.company == company:
                f.auction.price = new

    def targets(self, target):
        if target in self.box.companies:
            return [target]
        if target in self.sectors:
            return list(self.sectors[target])
        if target == "ALL":
            return list(self.companies)
        raise IllegalAction("error.mb.target", target=target)

    def change_prices(self, target, delta, reason):
        if delta == 0 or delta % PRICE_STEP:
            raise IllegalAction("error.mb.delta", delta=delta, step=PRICE_STEP)
        for company in self.targets(target):
            self.set_price(company, self.price(company) + delta, reason)

    def pop(self, result=None):
        """The step on top is over: the step below resumes with `result` (Done when the
        step reports nothing)."""
        self.finish(self.step, F.Done() if result is None else result)

    def eliminate(self, seat):
        """What the core debt's ruin calls (engines/core/debt.py)."""
        self.ruin(seat)

    def eliminated(self, seat):
        return self.s.ruined[seat]

    def ruin(self, seat):
        """Out of the game: lots back to the bank, cash to the bank (MB8). A sale of theirs
        still under way goes on for the bank, which now holds the lots."""
        if self.s.ruined[seat]:
            return
        for f in self.s.steps:  # whatever they were selling or owed now belongs to the bank
            if isinstance(f, F.Sale) and f.seller == seat and f.exclude is None:
                f.exclude = seat  # the bank's sale still asks the others from the seller's left
            if isinstance(f, (F.Sale, F.Settlement, F.Auction)) and f.seller == seat:
                f.seller = BANK
            if isinstance(f, F.Debt):
                f.owed = [(BANK if c == seat else c, a) for c, a in f.owed]
                if f.purchase and f.purchase[2] == seat:
                    f.purchase = (f.purchase[0], f.purchase[1], BANK)
        for company, n in self.held(seat).items():
            self.move_lots(company, seat, BANK, n)
        self.transfer(seat, BANK, self.cash(seat), "ruin")
        self.s.ruined[seat] = True
        self.s.skip[seat] = 0
        self.s.rumours[seat] = 0
        self.emit("mb.ruined", player=self.players[seat])

    # --------------------------------------------------------------- decisions
    def anytime_options(self):
        """Beside the step's own actions: rumours, closing and corrections while the session
        runs; corrections alone during the set-up and once it is over."""
        return anytime(self) if self.step.rumours else self.corrections()

    def holder_name(self, holder):
        return "BANK" if holder == BANK else self.players[holder]

    # ------------------------------------------------------------------- turns
    def next_turn(self, after):
        """Give the turn to the next player after `after` in this round, or end the round."""
        reason = self.closing_reason()
        if reason:
            return self.close(reason)
        n, first = len(self.players), self.s.first
        pos = lambda s: (s - first) % n
        for seat in clockwise(first, self.in_game()):
            if after is not None and pos(seat) <= pos(after):
                continue
            if self.s.skip[seat]:
                self.s.skip[seat] -= 1
                self.emit("mb.turn_skipped", player=self.players[seat])
                continue
            self.start_turn(seat)
            return
        if self.settings["payday"] == "each_round" and self.s.round % PAYDAY_EVERY[self.format] == 0:
            self.push(F.PaydayStep())
        else:
            self.after_payday()

    def start_turn(self, seat):
        self.push(F.Turn(seat))
        self.emit("mb.turn", player=self.players[seat], round=self.s.round)

    def after_payday(self):
        rounds = self.settings["rounds"]
        if rounds and self.s.round >= rounds:
            return self.close("rounds")
        self.s.round += 1
        self.emit("mb.round", round=self.s.round)
        self.next_turn(None)

    def closing_reason(self):
        """MB11: one player left, or the bank has sold every lot."""
        if len(self.in_game()) <= 1:
            return "last_player"
        if not self.s.lots.any_in_bank(self.companies):
            return "bank_empty"
        return None

    def close(self, reason):
        self.s.steps = [F.Over(reason)]
        self.emit("mb.closed", reason=reason, ranking=[[self.players[s], w] for _, s, w in self.ranking()])

    def decision(self):
        """The nominals the box file leaves out come first: every price starts at one."""
        return self.learn_decision() or super().decision()

    def refusal(self, act, decision, field):
        """The step on top says why first; then the reasons any step shares (whose turn,
        what is held)."""
        from engines.maxibourse.refusals import refusal

        if act.kind == "learn_nominal":
            return self.learn_refusal(act)
        return super().refusal(act, decision, field) or refusal(self, act, decision, field)

    def vet(self, act):
        return lots_refusal(self, act) if act.kind == "sell" else super().vet(act)

    def fortunes(self):
        """MB10: cash plus shares at their price; a ruined player has nothing."""
        return {s: 0 if self.s.ruined[s] else self.wealth(s) for s in range(len(self.players))}

    def prices(self):
        return {c: self.price(c) for c in self.companies}

    @property
    def lot_size(self):
        return self.shares

    def groups(self):
        return [(s.id, dict(s.name), list(s.companies)) for s in self.box.sectors]

    def holding(self, seat, company):
        return self.s.lots.of(company, seat)

    # ------------------------------------------------------- sales to the table
    def offer_lots(self, a):
        """`sell`: a player offers lots to the table (before the roll, or to raise cash)."""
        refused = lots_refusal(self, a)
        if refused:
            raise refused
        self.emit("mb.offer", player=self.players[a.player], company=a.company, lots=a.lots, price=self.price(a.company))
        self.start_sale(a.player, a.company, a.lots)

    def start_sale(self, seller, company, lots, exclude=None):
        anchor = exclude if seller == BANK else seller
        sale = F.Sale(seller, company, lots, SpeakingRound(self.buyers_after(anchor, exclude)), exclude=exclude)
        self.push(sale)
        if sale.round.done:  # nobody may buy
            sale.end_round(self)

    # ------------------------------------------------------- rumours and debts
    def on_reveal(self, a):
        self.change_prices(a.target, a.delta, "rumour")
        self.s.rumours[a.player] -= 1
        self.emit("mb.rumour_revealed", player=self.players[a.player], target=a.target, delta=a.delta)

    def owe(self, seat, owed):
        if self.cash(seat) >= sum(a for _, a in owed):
            for creditor, amount in owed:
                self.transfer(seat, creditor, amount, "card")
            return
        self.emit("mb.cannot_pay", player=self.players[seat], amount=sum(a for _, a in owed), cash=self.cash(seat))
        debt = F.Debt(seat, owed, None)
        self.push(debt)
        debt.check(self)

    def on_close(self, a):
        self.close("time")

    # ------------------------------------------------------------- corrections
    def nominal(self, company):
        """The company's nominal price: the box file's, or its correction during the game."""
        return self.s.nominals.get(company, self.box.companies[company].nominal)


def view(game: MaxiBourse) -> dict:
    """The game's part of the state as JSON (what `corbeille script` prints, in the core
    envelope: engines/core/table.py)."""
    s, names = game.s, game.players
    top = s.steps[-1]
    turn = game.frame(F.Turn)
    players = game.player_rows(lambda seat: {
        "lots": game.held(seat),
        "wealth": 0 if s.ruined[seat] else game.wealth(seat),
        "status": "ruined" if s.ruined[seat] else "skipping" if s.skip[seat] else "playing",
        "skip_turns": s.skip[seat],
        "rumours": s.rumours[seat],
    })
    companies = {
        c: {"price": s.prices[c], "bank_lots": s.lots.bank(c), "sector": game.box.sector_of(c),
            "last_change": s.last_change[c]}
        for c in game.companies
    }
    out = {
        "format": game.format,
        "round": s.round,
        "turn": names[turn.seat] if turn else None,
        "phase": type(top).__name__,
        "players": players,
        "companies": companies,
        "last_payday": s.last_payday,
    }
    if s.nominals:  # only once corrected: the records made before keep their shape
        out["nominals_corrected"] = dict(s.nominals)
    if game.box.board:  # only with a board: the records made without one keep their shape
        out["squares"] = {names[seat]: square_of(game, seat) for seat in range(len(names))}
    if isinstance(top, F.Over):
        out["closed"] = top.reason
    return out


def lots_refusal(game, act):
    """A `sell` of more lots than the player may still offer (`free_lots`), or None."""
    free = game.free_lots(act.player, act.company)
    if free < act.lots:
        return IllegalAction("error.not_enough_lots", company=act.company, lots=act.lots, held=free)
    return None
