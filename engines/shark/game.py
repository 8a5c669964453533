"""Shark: every rule of the rulebook and rulings SH1-SH11.

Four companies, one per colour of building, priced from the buildings on a world map: a
colour's value is the total of its chains (SH2) and a share costs value x 1 000 FT. Each
turn a player trades with the bank, rolls the zone and the colour, places a building
(which may remove smaller chains of other colours: SH6), cashes the success bonus; every
holder then gains the rises and pays the falls (SH3), a holder short of cash selling
shares at half price or leaving the game (SH9); then trades again. The game ends at value
15 or at a colour's 18th building; every share is sold at its value and the largest
fortune wins (SH10).

The procedure is a stack of steps (engines/shark/steps/); this class holds the set-up,
the mechanics the steps share (trading, the map, the payments) and the views. With the
grid of the box file the engine keeps the map (engines/core/grid.py, rules in
engines/shark/board.py); without it (`grid = "none"`, SH11) the operator enters the new
values and the engine still counts the buildings. See docs/rules/shark.md.
"""
from dataclasses import field

from engines.core.actions import Cell, cell_text
from engines.core.corrections import Cash, WhoseTurn
from engines.core.decision import NOTHING, Choice, Fixed, IntRange, Option
from engines.core.i18n import Worded
from engines.core.errors import IllegalAction
from engines.core.grid import Grid
from engines.core.ledger import BANK, Ledger
from engines.core.lots import Holdings
from engines.core.out_of_game import out_refusal
from engines.core.records import record
from engines.core.settings import check_header
from engines.core.table import TableGame
from engines.shark import board
from engines.shark import GAME
from engines.shark.actions import ACTIONS
from engines.shark.box import load_box
from engines.shark.corrections import MoveBuilding, PutBuilding, RemoveBuilding, Shares, Used, Value
from engines.shark.rules import (BUILDINGS, BUY_LIMIT, COMPANIES, MAX_ADJUST, MAX_VALUE,
                                 SHARES, UNIT, VARIANT1_CHAIN)
from engines.shark.steps import DealStep, FirstStep, Over, Table, Turn


def check_settings(header: dict) -> dict:
    return check_header(header, GAME.players, GAME.settings)


@record
class State:
    ledger: Ledger
    shares: Holdings          # 40 shares of each company, the bank's stock included (SH1)
    values: dict              # company -> value 0..15
    used: dict                # company -> buildings taken from the supply (on the board or removed: SH7)
    on_board: dict            # company -> buildings on the map now
    pieces: dict              # with the grid: (row, column) -> company
    steps: list
    out: list = field(default_factory=list)     # seats out of the game, in the order they left (SH9)
    roll: dict = field(default_factory=dict)    # the last roll
    last: dict = field(default_factory=dict)    # the last placement and its payments (public board)


class Shark(TableGame):
    name = "shark"
    ACTIONS = ACTIONS
    PLAYERS = GAME.players       # declared with the game (engines/shark/__init__.py)
    SETTINGS = GAME.settings
    CORRECTIONS = (Cash(MAX_ADJUST), Shares(), WhoseTurn(), PutBuilding(), RemoveBuilding(), MoveBuilding(),
                   Value(), Used())   # engines/shark/corrections.py
    money_step = UNIT            # SH1: prices, bonuses, rises and falls are counted in 1 000 FT
    companies = COMPANIES

    def __init__(self, header: dict):
        self.settings = check_settings(header)
        self.box = load_box(header.get("box")) if self.settings["grid"] == "box" else None
        super().__init__(header)

    def initial_state(self):
        n = len(self.players)
        steps = [Table(), FirstStep()] if self.settings["variant1"] else [Table(), DealStep()]
        return State(
            ledger=Ledger({BANK: 0, **{s: 0 for s in range(n)}}),  # SH8: the bank's cash is unlimited
            shares=Holdings(COMPANIES, SHARES, n),
            values={c: 0 for c in COMPANIES},
            used={c: 0 for c in COMPANIES},
            on_board={c: 0 for c in COMPANIES},
            pieces={},
            steps=steps,
        )

    @property
    def over(self) -> bool:
        return isinstance(self.step, Over)

    @property
    def grid(self) -> Grid | None:
        """The map as a core grid over the state's pieces (None without the grid)."""
        if self.box is None:
            return None
        rows, cols = self.box.size
        return Grid(rows, cols, self.box.holes, self.s.pieces)

    # ------------------------------------------------------------------ queries
    def shares(self, company, seat):
        return self.s.shares.of(company, seat)

    def stock(self, company):
        return self.s.shares.bank(company)

    def price(self, company):
        return self.s.values[company] * UNIT

    def fortune(self, seat):
        return self.cash(seat) + sum(self.price(c) * self.shares(c, seat) for c in COMPANIES)

    def fortunes(self) -> dict[int, int]:
        """SH10: cash plus every share at its value; a player out of the game has nothing
        left (SH9: his cash went to the bank, his shares back to the stock)."""
        return {seat: self.fortune(seat) for seat in range(len(self.players))}

    def prices(self) -> dict[str, int]:
        return {c: self.price(c) for c in COMPANIES}

    def current_seat(self):
        return self.step.actor(self)

    # ----------------------------------------------------------------- trading
    def buy_left(self, bought):
        return BUY_LIMIT - bought

    def buy_max(self, seat, company, bought):
        """SH8: at most 5 shares a turn, never more than the cash or the stock of 40."""
        price = self.price(company)
        if not price:
            return 0
        return max(0, min(self.buy_left(bought), self.stock(company), self.cash(seat) // price))

    def trade_options(self, seat, bought):
        opts = []
        buyable = {c: self.buy_max(seat, c, bought) for c in COMPANIES}
        buyable = {c: m for c, m in buyable.items() if m}
        if buyable:
            opts.append(Option("buy", {"player": Fixed(seat), "company": Choice(tuple(buyable)),
                                       "shares": IntRange(1, max(buyable.values()))}))
        held = {c: self.shares(c, seat) for c in COMPANIES if self.s.values[c] and self.shares(c, seat)}
        if held:
            opts.append(Option("sell", {"player": Fixed(seat), "company": Choice(tuple(held)),
                                        "shares": IntRange(1, max(held.values()))}))
        return opts

    def trade_refusal(self, a, bought):
        """Why a purchase or a sale is refused, in the rulebook's words; a purchase too large
        with how many shares of that company may be bought now."""
        refused = self._trade_refusal(a, bought)
        if refused is not None and a.kind == "buy" and refused.key != "error.sh.value_zero":
            most = self.buy_max(a.player, a.company, bought)
            refused.allowing(Worded("allowed.range", lo=1, hi=most, step=1) if most else NOTHING, "shares")
        return refused

    def _trade_refusal(self, a, bought):
        if a.company not in COMPANIES or not 0 <= a.player < len(self.players):
            return None
        if not self.s.values[a.company]:
            # "Il ne peut en aucun cas acheter ou revendre des actions de sociétés dont la
            # valeur boursière est de 0."
            return IllegalAction("error.sh.value_zero", company=a.company)
        if a.kind == "sell":
            if a.shares > self.shares(a.company, a.player):
                return IllegalAction("error.sh.not_held", player=self.players[a.player], company=a.company,
                                     shares=a.shares, held=self.shares(a.company, a.player))
            return None
        if a.shares > self.buy_left(bought):
            # "Un joueur ne peut acheter que 5 actions au maximum à la fois"
            return IllegalAction("error.sh.buy_limit", player=self.players[a.player], shares=a.shares,
                                 left=self.buy_left(bought))
        if a.shares > self.stock(a.company):
            return IllegalAction("error.sh.stock", company=a.company, shares=a.shares, stock=self.stock(a.company))
        if a.shares * self.price(a.company) > self.cash(a.player):
            # "Le crédit n'est pas de mise, ni de la part de la banque ni de la part des joueurs."
            return IllegalAction("error.sh.cash", player=self.players[a.player], amount=a.shares * self.price(a.company),
                                 cash=self.cash(a.player))
        return None

    def buy(self, seat, company, shares, bought):
        refused = self.trade_refusal(_Trade("buy", seat, company, shares), bought)
        if refused:
            raise refused
        self.transfer(seat, BANK, shares * self.price(company), "purchase")
        self.move_shares(company, BANK, seat, shares, "purchase")
        self.emit("sh.bought", player=self.players[seat], company=company, shares=shares,
                  price=self.price(company), left=self.buy_left(bought + shares))

    def sell(self, seat, company, shares):
        refused = self.trade_refusal(_Trade("sell", seat, company, shares), 0)
        if refused:
            raise refused
        self.move_shares(company, seat, BANK, shares, "sale")
        self.transfer(BANK, seat, shares * self.price(company), "sale")
        self.emit("sh.sold", player=self.players[seat], company=company, shares=shares, price=self.price(company))

    def move_shares(self, company, src, dst, shares, reason):
        event = self.s.shares.move(company, src, dst, shares)
        self.emit_event(event)

    def forced_price(self, company):
        """SH9: half price, rounded up to the thousand (`thousand_up`: value 1 or 2 gives
        1 000, 3 or 4 gives 2 000) or not rounded (`exact`)."""
        half = self.price(company) // 2
        if self.settings["forced_rounding"] == "thousand_up":
            return -(-half // UNIT) * UNIT
        return half

    # ----------------------------------------------------------------- the map
    def legal_cells(self, zone, company) -> list:
        """SH6: the free cells of `zone` where a building of `company` may go, by row then
        column."""
        grid = self.grid
        return [Cell(c) for c in self.box.cells_of(zone) if board.legal(grid, c, company)]

    def has_legal_cell(self, zone, company) -> bool:
        """SH6: `legal_cells` is not empty, found at its first cell (what a turn asks of
        every colour after each roll, in play and in a replay)."""
        grid = self.grid
        return any(board.legal(grid, c, company) for c in self.box.cells_of(zone))

    def place_refusal(self, zone, company, cell):
        """Why `cell` is not a legal cell for the building, in the rulebook's words."""
        grid = self.grid
        if not grid.on_map(cell) or self.box.zones.get(tuple(cell)) != zone:
            return IllegalAction("error.sh.cell_zone", cell=cell_text(cell), zone=zone)
        if not grid.free(cell):
            return IllegalAction("error.sh.cell_taken", cell=cell_text(cell), company=self.s.pieces[tuple(cell)])
        blocking = board.blocker(grid, cell, company)
        if blocking is not None:
            # "Un immeuble de couleur différente ne pourra être posé directement à côté d'un
            # autre, sauf si les immeubles d'une des deux chaînes couleurs sont en surnombre."
            return IllegalAction("error.sh.cell_outnumbered", cell=cell_text(cell), company=company,
                                 chain=len(grid.would_join(cell, company)),
                                 other=self.s.pieces[next(iter(blocking))], size=len(blocking))
        return None

    def outcome(self, company, cell) -> board.Outcome:
        return board.outcome(self.grid, tuple(cell), company, self.settings["variant1"], self.s.values)

    def place(self, company, cell) -> board.Outcome:
        """SH6: the building goes on `cell`, every touched smaller chain is removed for good,
        and the values are recomputed (SH2)."""
        result = self.outcome(company, cell)
        grid = self.grid
        grid.place(tuple(cell), company)
        self.s.used[company] += 1
        self.s.on_board[company] += 1
        self.emit("sh.placed", player=self.players[self.current_seat()], company=company, cell=cell_text(cell))
        for colour, cells in result.removed.items():
            grid.remove(cells)
            self.s.on_board[colour] -= len(cells)
            self.emit("sh.removed", company=colour, buildings=len(cells))
        self.set_values(result.values)
        return result

    def set_values(self, values):
        for company in COMPANIES:
            old, new = self.s.values[company], values[company]
            if new != old:
                self.s.values[company] = new
                self.emit("sh.value", company=company, old=old, new=new)

    def bonus(self, company, old, new, chain) -> int:
        """SH3: new value x 1 000 if the value rose, else 1 000; variant 1 (SH10): none for a
        chain of 8 or more."""
        if self.settings["variant1"] and chain is not None and chain > VARIANT1_CHAIN:
            return 0
        return new * UNIT if new > old else UNIT

    def settle(self, seat, company, old, chain) -> list:
        """SH3 after a placement, in the rulebook's order: the success bonus to the active
        player, the rises to every holder; returns the falls every other holder owes, in
        turn order from the active player ([seat, amount]), collected by the turn."""
        new = self.s.values
        lines = []
        bonus = self.bonus(company, old[company], new[company], chain)
        self.transfer(BANK, seat, bonus, "bonus")
        self.emit("sh.bonus", player=self.players[seat], amount=bonus)
        lines.append({"player": self.players[seat], "what": "bonus", "company": company, "amount": bonus})
        order = [(seat + k) % len(self.players) for k in range(len(self.players))]
        for c in COMPANIES:
            rise = new[c] - old[c]
            if rise > 0:
                for holder in order:
                    amount = rise * UNIT * self.shares(c, holder)
                    if amount:
                        self.transfer(BANK, holder, amount, "rise")
                        self.emit("sh.rise", player=self.players[holder], company=c, amount=amount)
                        lines.append({"player": self.players[holder], "what": "rise", "company": c, "amount": amount})
        owed = {}
        for c in COMPANIES:
            fall = old[c] - new[c]
            if fall > 0:
                for holder in order[1:]:   # "le joueur qui l'a occasionnée n'est pas tenu pour responsable"
                    amount = fall * UNIT * self.shares(c, holder)
                    if amount:
                        owed[holder] = owed.get(holder, 0) + amount
                        lines.append({"player": self.players[holder], "what": "fall", "company": c,
                                      "amount": -amount})
        self.s.last = {"player": self.players[seat], "company": company,
                       "changes": {c: [old[c], new[c]] for c in COMPANIES if old[c] != new[c]}, "lines": lines}
        return [[holder, owed[holder]] for holder in order if holder in owed]

    # -------------------------------------------------------------- the flow
    def start_turn(self, seat):
        self.push(Turn(seat))
        self.emit("sh.turn", player=self.players[seat])

    def eliminate(self, seat):
        """SH9: out of the game; what he holds still (shares of a company worth 0) goes back
        to the bank's stock; his turns are skipped and he is ranked after the others."""
        for company in COMPANIES:
            held = self.shares(company, seat)
            if held:
                self.move_shares(company, seat, BANK, held, "out")
        self.s.out.append(seat)
        self.emit("sh.out", player=self.players[seat])

    def end_reason(self) -> str | None:
        """SH10: a value at 15, a colour's 18th building used, or one player left."""
        if any(v >= MAX_VALUE for v in self.s.values.values()):
            return "value"
        if any(n >= BUILDINGS for n in self.s.used.values()):
            return "buildings"
        if len(self.in_game()) <= 1:
            return "alone"
        return None

    def finish_game(self, reason):
        """SH10: every share sold to the bank at its value; the largest fortune wins."""
        self.emit("sh.end_" + reason)
        for seat in self.in_game():
            for company in COMPANIES:
                held = self.shares(company, seat)
                if held:
                    self.move_shares(company, seat, BANK, held, "liquidation")
                    self.transfer(BANK, seat, held * self.price(company), "liquidation")
        self.push(Over(reason))
        self.emit("sh.game_over", winners=[self.players[s] for s in self.winners()],
                  ranking=[[self.players[s], money] for _, s, money in self.ranking()])

    # ------------------------------------------------------------- corrections
    def refusal(self, act, decision, field):
        """A correction aimed at a player out says so in its own words first (SH9); then
        the step's reasons."""
        return out_refusal(self, act, field, "error.sh.out") or super().refusal(act, decision, field)

    def anytime_options(self):
        """Corrections (engines/shark/corrections.py) until the game is over."""
        return () if self.over else self.corrections()

    def view(self) -> dict:
        return view(self)


@record(frozen=True)
class _Trade:
    kind: str
    player: int
    company: str
    shares: int


def view(game: Shark) -> dict:
    """The game's part of the state as JSON (what `corbeille script` prints, in the core
    envelope: engines/core/table.py). Cash and holdings are public in this game (SH8):
    nothing is private."""
    s, names = game.s, game.players
    players = game.player_rows(lambda seat: {"shares": game.s.shares.portfolio(seat), "fortune": game.fortune(seat),
                                             "out": seat in s.out})
    companies = {c: {"value": s.values[c], "price": game.price(c), "stock": game.stock(c),
                     "on_board": s.on_board[c], "used": s.used[c]} for c in COMPANIES}
    step = game.step
    out = {
        "step": step.name,
        "turn": None if game.current_seat() is None else names[game.current_seat()],
        "phase": getattr(step, "phase", None),
        "roll": dict(s.roll),
        "players": players,
        "companies": companies,
        "map": None if game.box is None else {
            "rows": list(game.box.rows),
            "pieces": {cell_text(cell): c for cell, c in sorted(s.pieces.items())},
        },
        "last": s.last,
    }
    if game.over:
        out["end"] = step.reason
    return out
