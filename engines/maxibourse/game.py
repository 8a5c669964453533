"""Maxi Bourse International: every rule of the rulebook and rulings MB1-MB12.

The game is a stack of procedures, steps of engines/core/steps.py (frames.py). The step
on top builds the pending decision; each action is checked against it, then applied by
the game's `on_<kind>` method; a procedure that finishes pops itself and hands its typed
result (`AuctionOver`, `Settled`, `Sold`, `Done`) to `resume` of the step below. See docs/rules/maxibourse.md for the rules digest and the tests
that pin each rule.
"""
from dataclasses import dataclass, field
from pathlib import Path

from engines.core.decision import Choice, Decision, Fixed, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.limits import MAX_ROUNDS, player_names_ok
from engines.core.i18n import register_catalog
from engines.core.ledger import BANK, Ledger
from engines.core.lots import Holdings
from engines.core.rounds import LotAuction, SpeakingRound, clockwise
from engines.core.steps import StepGame
from engines.maxibourse import frames as F
from engines.maxibourse.frames import AMOUNT_STEP, MAX_AMOUNT, MAX_ASK, MIN_PRICE, PRICE_STEP  # noqa: F401
from engines.maxibourse.actions import ACTIONS
from engines.maxibourse.box import load_box
from engines.maxibourse.payday import breakdown

register_catalog(Path(__file__).parent / "locale")

FORMATS = {  # MB2: starting cash and number of free starting lots
    "junior": (5_000_000, 5),
    "senior": (10_000_000, 7),
    "masters": (15_000_000, 10),
}
SETTINGS = {  # name -> (default, allowed values or type)
    "payday": ("each_round", ("each_round", "manual")),
    "vertical_bonus": ("per_group", ("per_group", "once")),
    "rounds": (0, int),  # 0: no limit, the operator closes the session
    "dice": ("physical", ("physical", "device")),
}
FINE = 100_000     # MB8
# IV: "A la fin de chaque tour complet de jeu, 1 tour pour ... Junior, 2 tours pour le jeu
# Senior et 3 tours pour le Masters": rounds of turns between two paydays
PAYDAY_EVERY = {"junior": 1, "senior": 2, "masters": 3}


def check_settings(header: dict) -> dict:
    fmt = header.get("format", "junior")
    if fmt not in FORMATS:
        raise IllegalAction("error.setting", key="format", value=fmt, allowed=list(FORMATS))
    players = header.get("players", [])
    lo, hi = MaxiBourse.PLAYERS
    if not lo <= len(players) <= hi:
        raise IllegalAction("error.players", count=len(players), lo=lo, hi=hi)
    if not player_names_ok(players):
        raise IllegalAction("error.player_names", players=list(players))
    settings = {}
    given = dict(header.get("settings", {}))
    for key, value in given.items():
        if key not in SETTINGS:
            raise IllegalAction("error.setting", key=key, value=value, allowed=list(SETTINGS))
    for key, (default, allowed) in SETTINGS.items():
        value = given.get(key, default)
        if allowed is int:      # rounds: the configuration's game.rounds has the same limit
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ROUNDS:
                raise IllegalAction("error.setting", key=key, value=value, allowed=[f"0 to {MAX_ROUNDS}"])
        elif value not in allowed:
            raise IllegalAction("error.setting", key=key, value=value, allowed=list(allowed))
        settings[key] = value
    return settings


@dataclass
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

    @property
    def stack(self):
        return self.steps


class MaxiBourse(StepGame):
    name = "maxibourse"
    ACTIONS = ACTIONS
    PLAYERS = (2, 6)
    FORMATS = tuple(FORMATS)
    SETTINGS = SETTINGS

    def snapshot(self) -> dict:
        return snapshot(self)

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

    def in_game(self):
        return [s for s in range(len(self.players)) if not self.s.ruined[s]]

    def buyers_after(self, seat, exclude=None):
        """The other players who may trade, clockwise from the left of `seat`."""
        others = [s for s in range(len(self.players)) if s != seat and s != exclude and self.can_trade(s)]
        return clockwise((seat + 1) % len(self.players), others)

    def price(self, company):
        return self.s.prices[company]

    def cash(self, seat):
        return self.s.ledger[seat]

    def held(self, seat):
        return self.s.lots.portfolio(seat)

    def free_lots(self, seat, company):
        """Lots the player may still offer: those already on offer in a sale under way
        (lower in the stack, e.g. a seller who fell into debt buying in a nested sale)
        are spoken for."""
        offered = sum(f.lots for f in self.s.steps
                      if isinstance(f, F.Sale) and f.seller == seat and f.company == company)
        return self.s.lots.of(company, seat) - offered

    def sellable(self, seat):
        return tuple(c for c in self.companies if self.free_lots(seat, c) > 0)

    def wealth(self, seat):
        return self.cash(seat) + sum(n * self.shares * self.price(c) for c, n in self.held(seat).items())

    def transfer(self, src, dst, amount, reason):
        if amount:
            event = self.s.ledger.transfer(src, dst, amount, reason)
            self.emit(event.key, **event.params)

    def move_lots(self, company, src, dst, lots):
        if lots:
            event = self.s.lots.move(company, src, dst, lots)
            self.emit(event.key, **event.params)

    def set_price(self, company, new, reason):
        new = max(MIN_PRICE, new)
        old = self.s.prices[company]
        if new != old:
            self.s.prices[company] = new
            self.s.last_change[company] = new - old
            self.emit("price", company=company, old=old, new=new, reason=reason)
        for f in self.s.steps:  # an auction under way goes on from the quotation (MB5: a rumour counts)
            if isinstance(f, F.Auction) and f.company == company:
                f.auction.price = new

    def targets(self, target):
        if target in self.box.companies:
            return [target]
        if target in self.sectors:
            return list(self.sectors[target])
        if target == "ALL":
            return list(self.companies)
        raise IllegalAction("error.target", target=target)

    def change_prices(self, target, delta, reason):
        if delta == 0 or delta % PRICE_STEP:
            raise IllegalAction("error.delta", delta=delta, step=PRICE_STEP)
        for company in self.targets(target):
            self.set_price(company, self.price(company) + delta, reason)

    def pop(self, result=None):
        """The step on top is over: the step below resumes with `result` (Done when the
        step reports nothing)."""
        self.finish(self.step, F.Done() if result is None else result)

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
        self.emit("ruined", player=self.players[seat])

    # --------------------------------------------------------------- decisions
    def anytime_options(self):
        """Beside the step's own actions: rumours, closing and corrections while the session
        runs; corrections alone during the set-up and once it is over."""
        return self.anytime() if self.step.rumours else self.corrections()

    def trade_option(self, seat):
        """The player whose turn it is sells to, or buys from, another player (when both may trade)."""
        traders = tuple(s for s in range(len(self.players)) if self.can_trade(s))
        if seat not in traders or len(traders) < 2:
            return []
        return [Option("trade", {"seller": Choice(traders), "buyer": Choice(traders),
                                "company": Choice(tuple(self.companies)),
                                "lots": IntRange(1, self.box.lots_per_company),
                                "price": IntRange(MIN_PRICE, 100_000, PRICE_STEP)})]

    def target_names(self):
        return tuple(self.companies) + tuple(self.sectors) + ("ALL",)

    def holder_name(self, holder):
        return "BANK" if holder == BANK else self.players[holder]

    def anytime(self):
        """Rumours may be revealed at any moment of the session (MB5); corrections too."""
        holders = tuple(s for s in range(len(self.players)) if self.s.rumours[s] and self.can_trade(s))
        opts = ()
        if holders:
            opts = (Option("reveal", {"player": Choice(holders), "target": Choice(self.target_names()),
                                      "delta": IntRange(-1000, 1000, PRICE_STEP)}),)
        return opts + (Option("close"),) + self.corrections()

    def corrections(self):
        seats = Choice(tuple(range(len(self.players))))
        return (
            Option("adjust_cash", {"player": seats, "delta": IntRange(-MAX_AMOUNT, MAX_AMOUNT, 1)}),
            Option("adjust_lots", {"player": seats, "company": Choice(tuple(self.companies)),
                                   "delta": IntRange(-self.box.lots_per_company, self.box.lots_per_company)}),
            Option("set_price", {"company": Choice(tuple(self.companies)), "price": IntRange(MIN_PRICE, 100_000, PRICE_STEP)}),
        )

    def is_au_cours(self, f):
        return f.is_au_cours()

    # ------------------------------------------------------------------ set-up
    def on_pick(self, a):
        self.move_lots(a.company, BANK, a.player, 1)
        self.top.order.pop(0)
        if not self.top.order:
            self.s.steps[-1] = F.ChooseFirst()

    def on_first(self, a):
        self.s.first = a.player
        self.s.round = 1
        self.s.steps.pop()
        self.emit("round", round=1)
        self.next_turn(None)

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
                self.emit("turn_skipped", player=self.players[seat])
                continue
            self.push(F.Turn(seat))
            self.emit("turn", player=self.players[seat], round=self.s.round)
            return
        if self.settings["payday"] == "each_round" and self.s.round % PAYDAY_EVERY[self.format] == 0:
            self.push(F.PaydayStep())
        else:
            self.after_payday()

    def after_payday(self):
        rounds = self.settings["rounds"]
        if rounds and self.s.round >= rounds:
            return self.close("rounds")
        self.s.round += 1
        self.emit("round", round=self.s.round)
        self.next_turn(None)

    def closing_reason(self):
        """MB11: one player left, or the bank has sold every lot."""
        if len(self.in_game()) <= 1:
            return "last_player"
        if all(self.s.lots.bank(c) == 0 for c in self.companies):
            return "bank_empty"
        return None

    def close(self, reason):
        self.s.steps = [F.Over(reason)]
        self.emit("closed", reason=reason, ranking=[[self.players[s], w] for s, w in self.ranking_pairs()])

    def ranking_pairs(self):
        pairs = [(s, 0 if self.s.ruined[s] else self.wealth(s)) for s in range(len(self.players))]
        return sorted(pairs, key=lambda p: -p[1])

    def ranking(self):
        """[(rank, seat, wealth)], equal wealth sharing a rank."""
        out, rank = [], 0
        for i, (seat, w) in enumerate(self.ranking_pairs()):
            if i == 0 or w != out[-1][2]:
                rank = i + 1
            out.append((rank, seat, w))
        return out

    def fill_chance(self, act, rng):
        """Dice rolled by the device: `rng` is given by the caller (the engine draws
        nothing itself) and the values are recorded in the returned action."""
        if act.kind == "roll" and (act.d1 is None or act.d2 is None):
            return type(act)(rng.randint(1, 6), rng.randint(1, 6))
        return act

    def on_roll(self, a):
        turn = self.top
        self.emit("rolled", player=self.players[turn.seat], d1=a.d1, d2=a.d2)
        double = a.d1 == a.d2 and self.can_trade(turn.seat) and any(self.s.lots.bank(c) for c in self.companies)
        turn.phase = "double" if double else "square"

    def on_double(self, a):
        if self.s.lots.bank(a.company) < a.lots:
            raise IllegalAction("error.bank_lots", company=a.company, lots=a.lots, left=self.s.lots.bank(a.company))
        self.top.phase = "square"
        self.push(F.Settlement(a.company, BANK, [(a.player, a.lots)], au_cours=True))

    def on_pass(self, a):
        self.top.phase = "square"

    def on_end(self, a):
        seat = self.top.seat
        self.s.steps.pop()
        self.next_turn(seat)

    # ------------------------------------------------------------ titre square
    def on_titre(self, a):
        company = a.company or a.square
        if self.s.lots.bank(company) == 0:
            raise IllegalAction("error.no_lots_left", company=company)
        turn = self.top
        turn.titre_done = True
        order = clockwise(turn.seat, [s for s in range(len(self.players)) if self.can_trade(s)])
        self.emit("titre", player=self.players[turn.seat], company=company, au_cours=company == a.square)
        self.push(F.TitreSquare(company, turn.seat, company == a.square, SpeakingRound(order)))

    def on_declare(self, a):
        f = self.top
        if isinstance(f, F.Sale):
            f.round.answer(a.player, a.lots)
            if f.round.done:
                self.end_sale_round(f)
            return
        if self.is_au_cours(f):
            f.round.answer(a.player, a.lots)
            if a.lots:
                f.au_cours_lots = a.lots
                self.emit("declared", player=self.players[a.player], lots=a.lots, au_cours=True)
                return self.push(F.Settlement(f.company, BANK, [(a.player, a.lots)], au_cours=True))
        else:
            f.round.answer(a.player, a.lots)
            self.emit("declared", player=self.players[a.player], lots=a.lots, au_cours=False)
            # au mieux: +10 $ per 1 000 shares asked, in declaration order (SONY example)
            self.set_price(f.company, self.price(f.company) + PRICE_STEP * a.lots, "au_mieux")
        if f.round.done:
            self.end_titre_round(f)

    def end_titre_round(self, f):
        takers = [(s, n) for s, n in f.round.takers() if self.can_trade(s)]
        if f.au_cours_lots:
            takers = [(s, n) for s, n in takers if s != f.lander]  # the au cours purchase is already settled
        requested, left = sum(n for _, n in takers), self.s.lots.bank(f.company)
        if requested == 0 or left == 0:  # nobody asked, or no lot left to sell (no auction for 0 lots)
            return self.next_titre_round(f)
        if requested <= left:
            return self.push(F.Settlement(f.company, BANK, takers))
        self.emit("shortage", company=f.company, requested=requested, left=left)
        self.push(F.Auction(f.company, BANK, LotAuction(left, self.price(f.company), PRICE_STEP, takers)))

    def next_titre_round(self, f):
        stayers = [s for s, n in f.round.answers if n > 0 and self.can_trade(s)]
        if not stayers or self.s.lots.bank(f.company) == 0:
            return self.pop()
        f.round = SpeakingRound(clockwise(f.lander, stayers))
        f.round_no += 1
        f.au_cours_lots = 0

    def leave_round(self, round_):
        """A player sanctioned or ruined during the round (in a debt nested under it) is no
        longer asked (MB8: "ni acheter, ni vendre")."""
        asked = len(round_.answers)
        round_.order = round_.order[:asked] + [s for s in round_.order[asked:] if self.can_trade(s)]

    # ---------------------------------------------------------------- auctions
    def on_raise(self, a):
        self.auction_step(self.top, self.top.auction.close_step())

    def on_bid(self, a):
        f = self.top
        current = dict(f.auction.bidders)[a.player]
        if a.lots >= current:
            raise IllegalAction("error.bid", player=self.players[a.player], lots=a.lots, current=current)
        self.emit("bid", player=self.players[a.player], lots=a.lots, price=f.auction.proposal)
        self.auction_step(f, f.auction.answer(a.player, a.lots))

    def auction_step(self, f, result):
        if result is None:
            if not f.auction.answers:  # a step closed with requests still too high
                self.set_price(f.company, f.auction.price, "auction")
            return
        price, allocation = result
        self.set_price(f.company, price, "auction")
        self.pop(F.AuctionOver(price, allocation))

    # -------------------------------------------------------------- settlement
    def on_settle(self, a):
        f = self.top
        f.price = self.price(f.company)  # a rumour revealed before now counts (MB5)
        self.emit("settled", company=f.company, price=f.price)
        self.continue_settlement(f)

    def continue_settlement(self, f):
        while f.index < len(f.purchases):
            seat, lots = f.purchases[f.index]
            if not self.can_trade(seat):  # sanctioned or ruined since the declaration: no purchase (MB8)
                del f.purchases[f.index]
                self.emit("purchase_withdrawn", player=self.players[seat], company=f.company, lots=lots)
                continue
            f.index += 1
            amount = f.price * self.shares * lots
            f.proceeds += amount  # the creditor is always paid in full (MB8)
            if self.cash(seat) >= amount:
                self.transfer(seat, f.seller, amount, "purchase")
                self.move_lots(f.company, f.seller, seat, lots)
            else:
                self.emit("cannot_pay", player=self.players[seat], amount=amount, cash=self.cash(seat))
                self.push(F.Debt(seat, [(f.seller, amount)], (f.company, lots, f.seller), FINE))
                return self.check_debt(self.top)
        self.pop(F.Settled(f.proceeds, sum(n for _, n in f.purchases), f.au_cours))

    # ------------------------------------------------------------------- sales
    def on_sell(self, a):
        if self.free_lots(a.player, a.company) < a.lots:
            raise IllegalAction("error.not_enough_lots", company=a.company, lots=a.lots,
                                held=self.free_lots(a.player, a.company))
        self.emit("offer", player=self.players[a.player], company=a.company, lots=a.lots, price=self.price(a.company))
        self.start_sale(a.player, a.company, a.lots)

    def start_sale(self, seller, company, lots, exclude=None):
        anchor = exclude if seller == BANK else seller
        sale = F.Sale(seller, company, lots, SpeakingRound(self.buyers_after(anchor, exclude)), exclude=exclude)
        self.push(sale)
        if sale.round.done:  # nobody may buy
            self.end_sale_round(sale)

    def end_sale_round(self, f):
        takers = f.round.takers()
        requested = sum(n for _, n in takers)
        if requested == 0:
            # MB6: -10 $ per lot offered and per player declining; two such rounds, then the bank
            self.set_price(f.company, self.price(f.company) - PRICE_STEP * f.lots * len(f.round.order), "decline")
            f.declines += 1
            if f.declines >= 2:
                return self.bank_buys(f)
            return self.new_sale_round(f)
        if requested <= f.lots:
            return self.push(F.Settlement(f.company, f.seller, takers))
        self.push(F.Auction(f.company, f.seller, LotAuction(f.lots, self.price(f.company), PRICE_STEP, takers)))

    def new_sale_round(self, f):
        anchor = f.exclude if f.seller == BANK else f.seller
        f.round = SpeakingRound(self.buyers_after(anchor, f.exclude))
        if f.round.done:
            self.end_sale_round(f)

    def bank_buys(self, f):
        self.set_price(f.company, self.price(f.company) - PRICE_STEP * f.lots, "bank_buys")
        amount = self.price(f.company) * self.shares * f.lots
        self.transfer(BANK, f.seller, amount, "sale") if f.seller != BANK else None
        self.move_lots(f.company, f.seller, BANK, f.lots)
        self.emit("bank_bought", company=f.company, lots=f.lots, price=self.price(f.company), amount=amount)
        f.proceeds += amount
        self.pop(F.Sold(f.proceeds))

    def on_trade(self, a):
        turn = self.top.seat
        if turn not in (a.seller, a.buyer) or a.seller == a.buyer:
            raise IllegalAction("error.trade_parties", player=self.players[turn])
        if self.top.phase != "start":
            self.check_trade_after_roll(self.top, a)
        if a.price < self.price(a.company):
            raise IllegalAction("error.trade_price", company=a.company, price=a.price, current=self.price(a.company))
        if self.s.lots.of(a.company, a.seller) < a.lots:
            raise IllegalAction("error.not_enough_lots", company=a.company, lots=a.lots,
                                held=self.s.lots.of(a.company, a.seller))
        amount = a.price * self.shares * a.lots
        if self.cash(a.buyer) < amount:  # an agreed deal, not a speaking round: no imprudence
            raise IllegalAction("error.trade_cash", player=self.players[a.buyer], amount=amount, cash=self.cash(a.buyer))
        self.set_price(a.company, a.price, "trade")
        self.transfer(a.buyer, a.seller, amount, "trade")
        self.move_lots(a.company, a.seller, a.buyer, a.lots)

    def check_trade_after_roll(self, turn, a):
        """After the roll the book allows one trade only: on a Titre square whose lots are all
        held by players, the lander may offer to buy them from the holders (1-7). Selling is
        forbidden while a Titre is traded (1-2) and a Politique square allows no transaction
        at all (4); a card entered this turn (price change, pay...) means the square was not
        a Titre square."""
        if turn.titre_done:
            raise IllegalAction("error.trade_titre", player=self.players[turn.seat])
        if turn.card:
            raise IllegalAction("error.trade_card", player=self.players[turn.seat])
        if a.buyer != turn.seat or self.s.lots.bank(a.company) > 0:
            raise IllegalAction("error.trade_after_roll", player=self.players[turn.seat], company=a.company,
                                left=self.s.lots.bank(a.company))

    # -------------------------------------------------------------- debts (MB8)
    def check_debt(self, d):
        if self.s.ruined[d.debtor]:  # ruined in a nested default: the bank settles
            return self.bank_settles(d)
        debtor, owed = d.debtor, sum(a for _, a in d.owed)
        cash, has_lots = self.cash(debtor), bool(self.sellable(debtor))
        if cash >= owed + d.fine or (cash >= owed and not has_lots):
            for creditor, amount in d.owed:
                self.transfer(debtor, creditor, amount, "debt")
            if d.purchase:
                company, lots, seller = d.purchase
                self.move_lots(company, seller, debtor, lots)
                self.transfer(debtor, BANK, min(d.fine, self.cash(debtor)), "fine")
                self.s.skip[debtor] += 1  # the imprudent player skips the next turn
                self.emit("sanction", player=self.players[debtor], fine=d.fine)
            return self.pop()
        if has_lots:
            return None  # the debtor must sell (decision: sell)
        if d.purchase is None:  # a card debt that cannot be paid: ruined, the bank pays
            self.transfer(debtor, BANK, cash, "debt")
            for creditor, amount in d.owed:
                if creditor != BANK:
                    self.transfer(BANK, creditor, amount, "debt")
            self.ruin(debtor)
            return self.pop()
        # Cessation de paiement: the bank seizes the lots being bought and sells them.
        company, lots, seller = d.purchase
        d.stage, d.paid = "cessation", cash
        self.transfer(debtor, BANK, cash, "cessation")
        self.move_lots(company, seller, BANK, lots)
        self.emit("cessation", player=self.players[debtor], company=company, lots=lots)
        self.start_sale(BANK, company, lots, exclude=debtor)

    def bank_settles(self, d):
        """The debtor was ruined meanwhile: the bank pays the creditors in full and, for a
        purchase not yet seized, takes the lots it has just paid for."""
        if d.purchase and d.stage == "cover":
            company, lots, seller = d.purchase
            self.move_lots(company, seller, BANK, lots)
        for creditor, amount in d.owed:
            if creditor != BANK:
                self.transfer(BANK, creditor, amount, "debt")
        self.pop()

    def resume_debt(self, d, result):
        if d.stage == "cover" or self.s.ruined[d.debtor]:
            return self.check_debt(d)
        proceeds = result.proceeds  # the bank's sale of the seized lots
        for creditor, amount in d.owed:
            if creditor != BANK:
                self.transfer(BANK, creditor, amount, "debt")
        # "Il vous verse la différence ... Mais vous êtes sanctionné et devez passer un nouveau
        # tour": the sanction (the 100 000 $ fine, one turn) comes out of the difference, then
        # one more turn; "Si le banquier ne vous reverse pas d'argent, vous êtes ruiné".
        surplus = d.paid + proceeds - sum(a for _, a in d.owed)
        returned = surplus - d.fine
        if returned > 0:
            self.transfer(BANK, d.debtor, returned, "surplus")
            self.s.skip[d.debtor] += 2  # the sanction's turn plus one more
            self.emit("sanction", player=self.players[d.debtor], fine=d.fine)
        else:
            self.ruin(d.debtor)
        self.pop()

    # --------------------------------------------------------- card effects
    def on_price(self, a):
        self.card_entered()
        self.change_prices(a.target, a.delta, "card")

    def on_rumour(self, a):
        self.card_entered()
        self.s.rumours[a.player] += 1
        self.emit("rumour_drawn", player=self.players[a.player])

    def on_reveal(self, a):
        self.change_prices(a.target, a.delta, "rumour")
        self.s.rumours[a.player] -= 1
        self.emit("rumour_revealed", player=self.players[a.player], target=a.target, delta=a.delta)

    def on_receive(self, a):
        self.card_entered()
        self.transfer(BANK, a.player, a.amount, "card")

    def on_pay(self, a):
        self.card_entered()
        self.owe(a.player, [(BANK, a.amount)])

    def on_payeach(self, a):
        self.card_entered()
        self.owe(a.player, [(s, a.amount) for s in self.in_game() if s != a.player])

    def card_entered(self):
        if isinstance(self.top, F.Turn):
            self.top.card = True

    def owe(self, seat, owed):
        if self.cash(seat) >= sum(a for _, a in owed):
            for creditor, amount in owed:
                self.transfer(seat, creditor, amount, "card")
            return
        self.emit("cannot_pay", player=self.players[seat], amount=sum(a for _, a in owed), cash=self.cash(seat))
        self.push(F.Debt(seat, owed, None))
        self.check_debt(self.top)

    def on_forced(self, a):
        self.card_entered()
        self.push(F.ForcedSale(a.player, a.amount))
        self.check_forced(self.top)

    def check_forced(self, f):
        """MB9: sell until the proceeds reach X, then pay X; short of lots, pay the rest in cash."""
        if f.proceeds < f.amount and self.sellable(f.seat):
            return None
        if self.cash(f.seat) >= f.amount:
            self.transfer(f.seat, BANK, f.amount, "forced_sale")
        else:
            self.transfer(f.seat, BANK, self.cash(f.seat), "forced_sale")
            self.ruin(f.seat)
        self.pop()

    # ------------------------------------------------------------------ payday
    def payday_breakdown(self, seat):
        return breakdown(self.held(seat), self.s.prices, self.box, self.shares, self.settings["vertical_bonus"])

    def on_payday(self, a):
        paid = {}
        for seat in self.in_game():
            b = self.payday_breakdown(seat)
            self.transfer(BANK, seat, b.total, "payday")
            paid[self.players[seat]] = b.to_json()
        self.s.last_payday = paid
        self.emit("payday", round=self.s.round, paid={k: v["total"] for k, v in paid.items()})
        if isinstance(self.top, F.PaydayStep):
            self.s.steps.pop()
            self.after_payday()

    def on_close(self, a):
        self.close("time")

    # ------------------------------------------------------------- corrections
    def refuse_ruined(self, seat):
        if self.s.ruined[seat]:
            raise IllegalAction("error.ruined", player=self.players[seat])

    def on_adjust_cash(self, a):
        self.refuse_ruined(a.player)
        if a.delta < 0 and self.cash(a.player) < -a.delta:
            raise IllegalAction("error.insufficient_funds", account=self.players[a.player], amount=-a.delta,
                                balance=self.cash(a.player))
        self.transfer(*((BANK, a.player) if a.delta > 0 else (a.player, BANK)), abs(a.delta), "correction")
        self.emit("correction", player=self.players[a.player], what="cash", delta=a.delta, reason=a.reason)

    def on_adjust_lots(self, a):
        self.refuse_ruined(a.player)
        src, dst = (BANK, a.player) if a.delta > 0 else (a.player, BANK)
        self.move_lots(a.company, src, dst, abs(a.delta))
        self.emit("correction", player=self.players[a.player], what=a.company, delta=a.delta, reason=a.reason)
        self.fit_offers(src, a.company)  # the player's offers, or the bank's

    def fit_offers(self, holder, company):
        """A correction took lots of `company` from `holder` (a player, or the bank when it
        gave them to a player): what is on offer shrinks to what is still held, the latest
        offer first, and is withdrawn when nothing is left; in a settlement the buyers last
        in order lose their lots first. Each change is an event, so the box shows it."""
        stack, name = self.s.steps, self.holder_name(holder)
        for f in stack:  # lots a buyer is paying for now (a debt under way) are sold already
            if isinstance(f, F.Debt) and f.stage == "cover" and f.purchase and f.purchase[::2] == (company, holder):
                raise IllegalAction("error.correction_sold", player=name, company=company,
                                    buyer=self.players[f.debtor])
        held = self.s.lots.of(company, holder)

        def gone(i):
            """Lots of the sale at stack[i] its settlement has already delivered (or seen
            seized): they left the holder but still count in the sale until it resumes."""
            child = stack[i + 1] if i + 1 < len(stack) else None
            return sum(n for _, n in child.purchases[:child.index]) if isinstance(child, F.Settlement) else 0

        sales = [i for i, f in enumerate(stack) if isinstance(f, F.Sale) and f.seller == holder and f.company == company]
        excess = sum(stack[i].lots - gone(i) for i in sales) - held
        for i in reversed(sales):
            if excess > 0:
                cut = min(excess, stack[i].lots - gone(i))
                stack[i].lots, excess = stack[i].lots - cut, excess - cut
                self.emit("offer_reduced", player=name, company=company, lots=stack[i].lots)
        for i, f in enumerate(stack):
            if not (isinstance(f, (F.Auction, F.Settlement)) and f.seller == holder and f.company == company):
                continue
            parent = stack[i - 1]
            cap = parent.lots - gone(i - 1) if isinstance(parent, F.Sale) else held
            if isinstance(f, F.Auction) and f.auction.lots > cap:
                f.auction.lots = cap
                self.emit("offer_reduced", player=name, company=company, lots=cap)
            if isinstance(f, F.Settlement):
                while sum(n for _, n in f.purchases[f.index:]) > cap:
                    buyer, n = f.purchases.pop()
                    keep = max(0, cap - sum(m for _, m in f.purchases[f.index:]))
                    if keep:
                        f.purchases.append((buyer, keep))
                    self.emit("purchase_withdrawn", player=self.players[buyer], company=company, lots=n - keep)
        top = self.top  # an offer left with nothing to sell is withdrawn at once
        if isinstance(top, F.Auction) and top.auction.lots == 0:
            self.pop(F.AuctionOver(top.auction.price, []))
        elif isinstance(top, F.Settlement) and not top.purchases:
            self.pop(F.Settled(0, 0, top.au_cours))
        elif isinstance(top, F.Sale) and top.lots == 0:
            self.pop(F.Sold(top.proceeds))

    def on_set_price(self, a):
        self.set_price(a.company, a.price, "correction")
        self.emit("correction", player="-", what=a.company, delta=a.price, reason=a.reason)


def snapshot(game: MaxiBourse) -> dict:
    """The state as JSON: what `corbeille script` prints."""
    s, names = game.s, game.players
    top = s.steps[-1]
    turn = game.frame(F.Turn)
    players = []
    for seat, name in enumerate(names):
        status = "ruined" if s.ruined[seat] else "skipping" if s.skip[seat] else "playing"
        players.append({
            "name": name,
            "cash": game.cash(seat),
            "lots": game.held(seat),
            "wealth": 0 if s.ruined[seat] else game.wealth(seat),
            "status": status,
            "skip_turns": s.skip[seat],
            "rumours": s.rumours[seat],
        })
    companies = {
        c: {"price": s.prices[c], "bank_lots": s.lots.bank(c), "sector": game.box.sector_of(c),
            "last_change": s.last_change[c]}
        for c in game.companies
    }
    out = {
        "game": game.name,
        "format": game.format,
        "box_verified": game.box.verified,
        "round": s.round,
        "turn": names[turn.seat] if turn else None,
        "phase": type(top).__name__,
        "players": players,
        "companies": companies,
        "pending": game.decision().to_json(),
        "last_payday": s.last_payday,
        "actions": len(game.log),
    }
    if isinstance(top, F.Over):
        out["closed"] = top.reason
        out["ranking"] = [{"rank": r, "name": names[seat], "wealth": w} for r, seat, w in game.ranking()]
    return out
