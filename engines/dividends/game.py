"""Dividends: every rule of the rulebook and rulings DV1-DV7.

Five years of five steps: (1) the dice move the dividend markers, (2) the turn-order
tokens are auctioned, (3) each player in turn order buys and sells certificates at the
chart's prices and plays influence cards, (4) dividends are paid and majority holders
draw influence cards, (5) an event tile is drawn and applied to everyone in turn order.
Then the end: last influence cards, final dividends, liquidation; most cash wins.

The procedure is a stack of steps (engines/core/steps.py), one module each in
engines/dividends/steps/: the year at the bottom, the step under way on top. The step on
top offers the decision, handles its actions and plays whatever needs no choice (a
forced sale with one candidate, a player not concerned by the event, the last token
going to the last bidder...), so the game always stops on a real decision; when it is
over it hands its result to the year, which puts the next step on top. This class holds
the set-up and the mechanics every step shares (buying, selling, majorities, markers,
influence cards) and the operator's corrections, allowed at any time. Chance (dice,
event tile, random token deal) comes in the actions; `fill_chance` is how the device
draws it. See docs/rules/dividends.md for the digest and the tests pinning each rule.
"""
from dataclasses import field

from engines.core.corrections import Cash, WhoseTurn
from engines.core.decision import Choice, Fixed, Option
from engines.core.errors import IllegalAction
from engines.core.records import record
from engines.core.settings import check_header
from engines.core.ledger import BANK, Ledger
from engines.core.lots import Holdings
from engines.core.majority import player_counts, tile_holder
from engines.core.table import TableGame
from engines.dividends import GAME
from engines.dividends.actions import ACTIONS
from engines.dividends.box import load_box
from engines.dividends.corrections import Cards, Certificates, Marker, Year
from engines.dividends.rules import (BUY_IN, CORRECTION, FORCE_SELL, MAX_ADJUST, MAX_BID, MAX_PLAYERS,  # noqa: F401
                                     MIN_CASH, MIN_PLAYERS, OPENING_BID, PLACEMENT, START_CARDS, START_CASH, TILES,
                                     YEARS)
from engines.dividends.steps import (ActionsStep, AuctionStep, DiceStep, EventStep, FinalInfluence,  # noqa: F401
                                     Liquidation, Over, PaymentStep, Years)


def companies_for(players: int) -> int:
    """DV2: 2 players: 3 companies; 3 players: 4; 4 to 12 players: 5."""
    return {2: 3, 3: 4}.get(players, 5)


def check_settings(header: dict, box) -> tuple[dict, list]:
    players = header.get("players", [])
    settings = check_header(header, GAME.players, GAME.settings)
    count = companies_for(len(players))
    if settings["companies"]:
        chosen = [c.strip().upper() for c in settings["companies"].split(",") if c.strip()]
        if len(chosen) != count or len(set(chosen)) != count or any(c not in box.companies for c in chosen):
            raise IllegalAction("error.dv.setting_companies", value=settings["companies"], count=count,
                                players=len(players), allowed=list(box.companies))
        chosen = [c for c in box.companies if c in chosen]  # chart order
    else:
        chosen = list(box.companies)[:count]
    return settings, chosen


@record
class State:
    ledger: Ledger
    certs: Holdings
    markers: dict            # company -> dividend per certificate
    tiles: dict              # company -> seat holding the majority tile, or None (on the chart)
    hands: list              # influence cards in each player's hand
    draw_pile: int
    discard: int
    tokens: list             # seat -> turn-order token won this year, or None
    order: list              # seats in turn order
    steps: list              # the procedure: Years at the bottom, the step under way on top
    year: int = 1
    tile: str | None = None  # this year's event tile, once drawn
    last_dice: dict = field(default_factory=dict)
    last_payment: dict = field(default_factory=dict)

    @property
    def proc(self):
        """The step under way."""
        return self.steps[-1]


class Dividends(TableGame):
    name = "dividends"
    ACTIONS = ACTIONS
    PLAYERS = GAME.players       # declared with the game (engines/dividends/__init__.py)
    SETTINGS = GAME.settings
    PRIVATE = ("players.*.cash",)  # DV2: cash is hidden until the game is over
    CORRECTIONS = (Cash(MAX_ADJUST), Certificates(), Cards(), Marker(), WhoseTurn(),
                   Year())   # engines/dividends/corrections.py
    money_step = 100             # 4 000 $ "1,000 $ x 3  500 $ x 1  100 $ x 4  50 $ x 2"

    def view(self) -> dict:
        return view(self)

    def private(self) -> tuple:
        return () if self.over else self.PRIVATE

    @property
    def over(self) -> bool:
        return isinstance(self.step, Over)

    def __init__(self, header: dict):
        self.box = load_box(header.get("box"))
        self.settings, self.companies = check_settings(header, self.box)
        self.columns = {c: self.box.companies[c].prices for c in self.companies}  # each company's printed price column
        self.slots = self.box.slots
        self.total_cards = self.box.influence_cards(len(self.companies))
        super().__init__(header)

    def initial_state(self):
        n = len(self.players)
        state = State(
            ledger=Ledger({BANK: 0, **{s: 0 for s in range(n)}}),  # the bank is unlimited
            certs=Holdings(self.companies, self.slots, n),
            markers={c: self.box.start for c in self.companies},
            tiles={c: None for c in self.companies},
            hands=[0] * n,
            draw_pile=self.total_cards,
            discard=0,
            tokens=[None] * n,
            order=list(range(n)),
            steps=[Years(), DiceStep()],
        )
        for seat in range(n):
            state.ledger.transfer(BANK, seat, START_CASH, "start")
            dealt = min(START_CARDS, state.draw_pile)
            state.hands[seat] += dealt
            state.draw_pile -= dealt
        return state

    # ------------------------------------------------------------------ queries
    def held(self, company):
        """Certificates of `company` held by players (taken from the chart)."""
        return self.slots - self.s.certs.bank(company)

    def left(self, company):
        """Certificates of `company` still on the chart."""
        return self.s.certs.bank(company)

    def buy_price(self, company):
        """DV1: with k certificates held, buying costs slot k; None when none is left."""
        k = self.held(company)
        return self.columns[company][k] if k < self.slots else None

    def sell_price(self, company):
        """DV1: selling puts the certificate back in slot k - 1 and pays its price."""
        k = self.held(company)
        return self.columns[company][k - 1] if k > 0 else None

    def portfolio(self, seat):
        return self.s.certs.portfolio(seat)

    def count(self, company, seat):
        return self.s.certs.of(company, seat)

    def zone(self, company):
        return self.box.zone_of(self.s.markers[company]).die

    def current_seat(self):
        return self.step.actor(self)

    def step_name(self):
        return self.step.name

    def fortunes(self):
        """DV7: the richest in cash wins; equal cash shares a rank."""
        return {s: self.cash(s) for s in range(len(self.players))}

    def prices(self):
        """The chart's price of each company: its buy price, the sell price once sold out."""
        return {c: self.buy_price(c) or self.sell_price(c) or 0 for c in self.companies}

    # --------------------------------------------------------------- mechanics
    def need_cash(self, seat, amount):
        refused = self.cash_refusal(seat, amount)
        if refused:
            raise refused

    def cash_refusal(self, seat, amount):
        """A payment the player cannot make, or None; the message does not show their cash."""
        if self.cash(seat) < amount:
            return IllegalAction("error.dv.cash", player=self.players[seat], amount=amount)
        return None

    def buy(self, seat, company, price, reason):
        if self.left(company) == 0:
            raise IllegalAction("error.dv.none_left", company=company)
        self.need_cash(seat, price)
        self.transfer(seat, BANK, price, reason)
        event = self.s.certs.move(company, BANK, seat, 1)
        self.emit_event(event)
        self.emit("dv.bought", player=self.players[seat], company=company, price=price, reason=reason)
        self.update_tile(company)

    def sell(self, seat, company, price, reason):
        if self.count(company, seat) == 0:
            raise IllegalAction("error.dv.not_held", player=self.players[seat], company=company)
        event = self.s.certs.move(company, seat, BANK, 1)
        self.emit_event(event)
        self.transfer(BANK, seat, price, reason)
        self.emit("dv.sold", player=self.players[seat], company=company, price=price, reason=reason)
        self.update_tile(company)

    def update_tile(self, company):
        """DV3 after every move of certificates of `company`."""
        old = self.s.tiles[company]
        new = tile_holder(old, player_counts(self.s.certs, company))
        if new != old:
            self.s.tiles[company] = new
            self.emit("dv.majority", company=company, old=self.holder_name(old), new=self.holder_name(new))

    def holder_name(self, seat):
        return "-" if seat is None else self.players[seat]

    def move_marker(self, company, steps, reason):
        """Move a dividend marker `steps` places along the track; it stops at the ends (DV1)."""
        track = self.box.track
        old = self.s.markers[company]
        i = max(0, min(len(track) - 1, track.index(old) + steps))
        self.s.markers[company] = track[i]
        self.emit("dv.marker", company=company, old=old, new=track[i], steps=steps, reason=reason)

    def draw_cards(self, seat, wanted):
        """Deal influence cards from the draw pile; an empty pile is rebuilt from the discard
        pile (DV5); with both empty there is nothing more to draw."""
        got = 0
        while got < wanted:
            if self.s.draw_pile == 0:
                if self.s.discard == 0:
                    self.emit("dv.no_cards_left", player=self.players[seat], missing=wanted - got)
                    break
                self.s.draw_pile, self.s.discard = self.s.discard, 0
                self.emit("dv.reshuffle", cards=self.s.draw_pile)
            take = min(wanted - got, self.s.draw_pile)
            self.s.draw_pile -= take
            got += take
        self.s.hands[seat] += got
        return got

    def cheapest_held(self, seat):
        """The companies of `seat`'s certificates with the lowest sell price (DV4)."""
        held = list(self.portfolio(seat))
        if not held:
            return []
        low = min(self.sell_price(c) for c in held)
        return [c for c in held if self.sell_price(c) == low]

    def enter(self, step):
        """Put the next step on top (the year does, when a step is over)."""
        self.push(step)
        self.emit("dv.step", year=self.s.year, step=self.step_name())

    def trade_refusal(self, a):
        """A purchase with no certificate left or a sale of one not held, where buying or
        selling is the step's own action."""
        if a.kind == "buy" and not self.left(a.company):
            return IllegalAction("error.dv.none_left", company=a.company)
        if a.kind == "sell" and not self.count(a.company, a.player):
            return IllegalAction("error.dv.not_held", player=self.players[a.player], company=a.company)
        return None

    # ------------------------------------------------------- influence cards
    def influence_options(self, seat):
        if not self.s.hands[seat]:
            return []
        return [Option("influence", {"player": Fixed(seat), "company": Choice(tuple(self.companies)),
                                     "move": Choice((1, -1))})]

    def influence_refusal(self, a):
        if not self.s.hands[a.player]:
            return IllegalAction("error.dv.no_cards", player=self.players[a.player])
        return None

    def play_influence(self, seat, company, move):
        self.s.hands[seat] -= 1
        self.s.discard += 1
        self.emit("dv.influence", player=self.players[seat], company=company, move=move)
        self.move_marker(company, move, "influence")

    def return_cards(self, seat):
        """DV5: unused cards go back, face down, under the draw pile."""
        unused = self.s.hands[seat]
        if unused:
            self.s.hands[seat] = 0
            self.s.draw_pile += unused
            self.emit("dv.cards_returned", player=self.players[seat], cards=unused)

    # ---------------------------------------------------------------- refusals
    def refusal(self, a, decision, field):
        """Why the pending decision refuses `a`, in the rulebook's terms (Game.check adds
        what is allowed after it); None where the generic message says it all. What every
        step shares is checked here, the rest by the step on top."""
        if self.over:
            return self.step.refusal(self, a, decision)
        kind = a.kind
        if kind in ("adjust_certs", "adjust_cards", "set_turn"):
            return self.correction_refusal(a)
        seat = getattr(a, "player", None)
        if seat is not None and not 0 <= seat < len(self.players):
            return None
        if kind in ("buy", "sell", "influence", "done", "pass"):
            if seat is None:
                return None
            if decision.actor is not None and seat != decision.actor:
                return IllegalAction("error.dv.not_turn", player=self.players[seat], turn=self.players[decision.actor])
        return self.step.refusal(self, a, decision)

    # ---------------------------------------------------------- corrections
    def restart_turn(self, seat):
        """The turns of the year go on from `seat`, in its turn order."""
        self.step.index = self.s.order.index(seat)

    def anytime_options(self):
        """Corrections at any time (engines/dividends/corrections.py); once the winners are
        known, undo the end to correct anything."""
        return () if self.over else self.corrections()


# ------------------------------------------------------------------------ views
def view(game: Dividends) -> dict:
    """The game's part of the state as JSON (what `corbeille script` prints, in the core
    envelope: engines/core/table.py, whose `private` lists the players' cash until the
    game is over)."""
    s, names = game.s, game.players
    players = game.player_rows(lambda seat: {
        "certificates": game.portfolio(seat),
        "influence_cards": s.hands[seat],
        "token": s.tokens[seat],
        "majority_tiles": [c for c in game.companies if s.tiles[c] == seat],
    })
    p = game.step
    affected = p.affected if isinstance(p, EventStep) else ()
    companies = {}
    for c in game.companies:
        co = game.box.companies[c]
        companies[c] = {
            "name": co.name,
            "colour": co.colour,
            "certificates_left": game.left(c),
            "certificates_held": game.held(c),
            "buy_price": game.buy_price(c),
            "sell_price": game.sell_price(c),
            "dividend": s.markers[c],
            "zone": game.zone(c),
            "majority": None if s.tiles[c] is None else names[s.tiles[c]],
            "event_marker": p.tile if c in affected else None,
        }
    auction = None
    if isinstance(p, AuctionStep) and p.series and p.series.current:
        a = p.series.current
        auction = {"token": a.item, "high": a.high, "high_bidder": None if a.high_bidder is None else names[a.high_bidder],
                   "minimum": a.minimum, "bidders": [names[x] for x in p.series.bidders],
                   "tokens_left": list(p.series.items)}
    seat = game.current_seat()
    return {
        "year": s.year,
        "step": game.step_name(),
        "turn": None if seat is None else names[seat],
        "turn_order": [names[x] for x in s.order],
        "players": players,
        "companies": companies,
        "influence": {"draw_pile": s.draw_pile, "discard_pile": s.discard, "total": game.total_cards},
        "auction": auction,
        "event": s.tile,
        "last_dice": s.last_dice,
        "last_payment": s.last_payment,
    }
