"""Dividends: every rule of the rulebook and rulings DV1-DV7.

Five years of five steps: (1) the dice move the dividend markers, (2) the turn-order
tokens are auctioned, (3) each player in turn order buys and sells certificates at the
chart's prices and plays influence cards, (4) dividends are paid and majority holders
draw influence cards, (5) an event tile is drawn and applied to everyone in turn order.
Then the end: last influence cards, final dividends, liquidation; most cash wins.

The game is always in one procedure (`proc`, plain data). Each action is checked against
the pending decision built from it, then applied by its `on_<kind>` method; after every
action `advance` plays whatever needs no choice (a forced sale with one candidate, a
player not concerned by the event, the last token going to the last bidder...), so the
game always stops on a real decision. Chance (dice, event tile, random token deal) comes
in the actions; `fill_chance` is how the device draws it. See docs/rules/dividends.md for
the digest and the tests pinning each rule.
"""
from dataclasses import dataclass, field
from pathlib import Path

from engines.core.actions import Name, Seat, Signed
from engines.core.decision import Choice, Decision, Fixed, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.game import Game, drop_private
from engines.core.limits import player_names_ok
from engines.core.i18n import register_catalog
from engines.core.ledger import BANK, Ledger
from engines.core.lots import Holdings
from engines.core.majority import player_counts, tile_holder
from engines.core.open_auction import AuctionSeries
from engines.dividends.actions import ACTIONS, DEAL_FIELDS, DICE_FIELDS, Deal, Dice, DrawEvent
from engines.dividends.box import DICE, load_box

register_catalog(Path(__file__).parent / "locale")

START_CASH = 4_000       # DV2
START_CARDS = 2          # DV2
YEARS = 5                # DV7
OPENING_BID = 50         # DV4: the lowest first bid, and the price of a dealt token
MIN_CASH = 50            # DV4: below this, sell the cheapest certificate before the auction
MIN_PLAYERS, MAX_PLAYERS = 2, 12
FORCE_SELL, BUY_IN, PLACEMENT, CORRECTION = "FORCE-SELL", "BUY-IN", "PLACEMENT-OFFER", "TECHNICAL-CORRECTION"
TILES = (FORCE_SELL, BUY_IN, PLACEMENT, CORRECTION)
MAX_BID = 1_000_000      # the top of the bid range offered; each bid is checked against cash
MAX_ADJUST = 1_000_000
SETTINGS = {  # name -> (default, allowed values, or a type)
    "dice": ("physical", ("physical", "device")),
    "bid_step": (50, int),
    "companies": ("", str),  # 2-3 players: which companies play, e.g. CEDARPINES,DESERT-OIL,...
}


def companies_for(players: int) -> int:
    """DV2: 2 players: 3 companies; 3 players: 4; 4 to 12 players: 5."""
    return {2: 3, 3: 4}.get(players, 5)


def check_settings(header: dict, box) -> tuple[dict, list]:
    players = header.get("players", [])
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalAction("error.players", count=len(players), lo=MIN_PLAYERS, hi=MAX_PLAYERS)
    if not player_names_ok(players):
        raise IllegalAction("error.player_names", players=list(players))
    given = dict(header.get("settings", {}))
    for key, value in given.items():
        if key not in SETTINGS:
            raise IllegalAction("error.setting", key=key, value=value, allowed=list(SETTINGS))
    settings = {}
    for key, (default, allowed) in SETTINGS.items():
        value = given.get(key, default)
        if allowed is int:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise IllegalAction("error.setting", key=key, value=value, allowed=["1, 2, 3, ..."])
        elif allowed is str:
            if not isinstance(value, str):
                raise IllegalAction("error.setting", key=key, value=value, allowed=["ID,ID,..."])
        elif value not in allowed:
            raise IllegalAction("error.setting", key=key, value=value, allowed=list(allowed))
        settings[key] = value
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


# The procedures the game can be in -------------------------------------------------
@dataclass
class DiceStep:
    pass


@dataclass
class AuctionStep:
    short: list                        # seats still to check for the 50 $ minimum, in order
    series: AuctionSeries | None = None
    dues: list = field(default_factory=list)  # [seat, how]: tokens taken at 50 $ (dealt, last), not paid yet


@dataclass
class ActionsStep:
    index: int = 0                     # position in the turn order
    influenced: bool = False           # an influence card was played: buying and selling are over


@dataclass
class PaymentStep:
    final: bool = False                # the end of the game: final dividends only


@dataclass
class EventStep:
    tile: str | None = None
    affected: tuple = ()               # companies under a Placement Offer / Technical Correction marker
    index: int = 0


@dataclass
class FinalInfluence:
    index: int = 0


@dataclass
class Liquidation:
    index: int = 0                     # counts on past the end of the order: pass after pass


@dataclass
class Over:
    pass


STEP_NAMES = {
    DiceStep: "dice", AuctionStep: "auction", ActionsStep: "actions", EventStep: "event",
    FinalInfluence: "final_influence", Liquidation: "liquidation", Over: "over",
}


@dataclass
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
    proc: object
    year: int = 1
    tile: str | None = None  # this year's event tile, once drawn
    last_dice: dict = field(default_factory=dict)
    last_payment: dict = field(default_factory=dict)


class Dividends(Game):
    name = "dividends"
    ACTIONS = ACTIONS
    PLAYERS = (MIN_PLAYERS, MAX_PLAYERS)
    SETTINGS = SETTINGS

    def snapshot(self) -> dict:
        return snapshot(self)

    @property
    def over(self) -> bool:
        return isinstance(self.s.proc, Over)

    def __init__(self, header: dict):
        self.box = load_box(header.get("box"))
        self.settings, self.companies = check_settings(header, self.box)
        self.prices = {c: self.box.companies[c].prices for c in self.companies}
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
            proc=DiceStep(),
        )
        for seat in range(n):
            state.ledger.transfer(BANK, seat, START_CASH, "start")
            dealt = min(START_CARDS, state.draw_pile)
            state.hands[seat] += dealt
            state.draw_pile -= dealt
        return state

    # ------------------------------------------------------------------ queries
    def cash(self, seat):
        return self.s.ledger[seat]

    def held(self, company):
        """Certificates of `company` held by players (taken from the chart)."""
        return self.slots - self.s.certs.bank(company)

    def left(self, company):
        """Certificates of `company` still on the chart."""
        return self.s.certs.bank(company)

    def buy_price(self, company):
        """DV1: with k certificates held, buying costs slot k; None when none is left."""
        k = self.held(company)
        return self.prices[company][k] if k < self.slots else None

    def sell_price(self, company):
        """DV1: selling puts the certificate back in slot k - 1 and pays its price."""
        k = self.held(company)
        return self.prices[company][k - 1] if k > 0 else None

    def portfolio(self, seat):
        return self.s.certs.portfolio(seat)

    def count(self, company, seat):
        return self.s.certs.of(company, seat)

    def zone(self, company):
        return self.box.zone_of(self.s.markers[company]).die

    def current_seat(self):
        p, order = self.s.proc, self.s.order
        if isinstance(p, AuctionStep):
            return p.short[0] if p.short else p.dues[0][0] if p.dues else None
        if isinstance(p, (ActionsStep, FinalInfluence)) or (isinstance(p, EventStep) and p.tile):
            return order[p.index] if p.index < len(order) else None
        if isinstance(p, Liquidation):
            return order[p.index % len(order)]
        return None

    def step_name(self):
        p = self.s.proc
        if isinstance(p, PaymentStep):
            return "final_dividends" if p.final else "payment"
        return STEP_NAMES[type(p)]

    def ranking(self):
        """[(rank, seat, cash)], most cash first; equal cash shares a rank (DV7)."""
        pairs = sorted(((s, self.cash(s)) for s in range(len(self.players))), key=lambda p: -p[1])
        out, rank = [], 0
        for i, (seat, cash) in enumerate(pairs):
            if i == 0 or cash != out[-1][2]:
                rank = i + 1
            out.append((rank, seat, cash))
        return out

    def winners(self):
        return [seat for rank, seat, _ in self.ranking() if rank == 1]

    # --------------------------------------------------------------- mechanics
    def transfer(self, src, dst, amount, reason):
        if amount:
            event = self.s.ledger.transfer(src, dst, amount, reason)
            self.emit(event.key, **event.params)

    def need_cash(self, seat, amount):
        """Refuse a payment the player cannot make; the message does not show their cash."""
        if self.cash(seat) < amount:
            raise IllegalAction("error.dv.cash", player=self.players[seat], amount=amount)

    def buy(self, seat, company, price, reason):
        if self.left(company) == 0:
            raise IllegalAction("error.dv.none_left", company=company)
        self.need_cash(seat, price)
        self.transfer(seat, BANK, price, reason)
        event = self.s.certs.move(company, BANK, seat, 1)
        self.emit(event.key, **event.params)
        self.emit("dv.bought", player=self.players[seat], company=company, price=price, reason=reason)
        self.update_tile(company)

    def sell(self, seat, company, price, reason):
        if self.count(company, seat) == 0:
            raise IllegalAction("error.dv.not_held", player=self.players[seat], company=company)
        event = self.s.certs.move(company, seat, BANK, 1)
        self.emit(event.key, **event.params)
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

    # ------------------------------------------------------------- the flow
    def after_action(self):
        self.advance()

    def advance(self):
        """Play everything that needs no choice, until the game waits for a decision."""
        while True:
            p = self.s.proc
            step = {AuctionStep: self.advance_auction, ActionsStep: self.advance_actions,
                    EventStep: self.advance_event, FinalInfluence: self.advance_final_influence,
                    Liquidation: self.advance_liquidation}.get(type(p))
            if step is None or not step(p):
                return

    def enter(self, proc):
        self.s.proc = proc
        self.emit("dv.step", year=self.s.year, step=self.step_name())

    def sell_short(self, seats):
        """DV4 "Si un joueur possède moins de 50 $ en argent liquide, il doit vendre à la
        banque le certificat d'action le moins cher qu'il possède": `seats[0]` sells until
        it has 50 $ or nothing left to sell. False when it must choose among equally
        cheap certificates (the decision asks); True when it is done."""
        seat = seats[0]
        while self.cash(seat) < MIN_CASH and self.portfolio(seat):
            cheapest = self.cheapest_held(seat)
            if len(cheapest) > 1:
                return False
            self.sell(seat, cheapest[0], self.sell_price(cheapest[0]), "short_of_cash")
        return True

    def advance_auction(self, p):
        while p.short:  # before the auction
            if not self.sell_short(p.short):
                return False
            p.short.pop(0)
        if p.series is None:
            self.s.tokens = [None] * len(self.players)
            p.series = AuctionSeries(list(range(1, len(self.players) + 1)), sorted(range(len(self.players))),
                                     OPENING_BID, self.settings["bid_step"])
            self.emit("dv.token_on_sale", token=p.series.current.item)
        series = p.series
        if not series.done and len(series.bidders) == 1:
            seat = series.bidders[0]  # the last bidder alone: the last token at the opening price
            self.award_token(series, seat, OPENING_BID)
            p.dues.append([seat, "last"])
        while p.dues:  # tokens dealt or left at 50 $: a player short of cash sells first (DV4)
            if not self.sell_short([p.dues[0][0]]):
                return False
            seat, how = p.dues.pop(0)
            self.pay_opening_price(seat, how)
        if not series.done:
            return False
        self.s.order = sorted(range(len(self.players)), key=lambda s: self.s.tokens[s])
        self.emit("dv.turn_order", order=[self.players[s] for s in self.s.order])
        self.enter(ActionsStep())
        return True

    def award_token(self, series, seat, amount):
        token, _, _ = series.award(seat, amount)
        self.s.tokens[seat] = token
        if not series.done:
            self.emit("dv.token_on_sale", token=series.current.item)
        return token

    def take_token(self, series, seat, amount):
        """The high bidder takes the token and pays the bid (never above their cash)."""
        token = self.award_token(series, seat, amount)
        self.transfer(seat, BANK, amount, "token")
        self.emit("dv.token_won", player=self.players[seat], token=token, amount=amount, how="auction")

    def pay_opening_price(self, seat, how):
        """A token dealt or left to the last bidder costs 50 $ ("Chacun de ces joueurs doit
        payer le montant minimum de 50 $ à la banque"), paid after the short-of-cash sale.
        A player still under 50 $ has nothing left to sell and pays all their cash (D6);
        that amount is hidden cash, so no event carries it (D17)."""
        token = self.s.tokens[seat]
        if self.cash(seat) >= OPENING_BID:
            self.transfer(seat, BANK, OPENING_BID, "token")
            self.emit("dv.token_won", player=self.players[seat], token=token, amount=OPENING_BID, how=how)
        else:
            self.s.ledger.transfer(seat, BANK, self.cash(seat), "token")  # no transfer event: hidden amount
            self.emit("dv.token_won_all_cash", player=self.players[seat], token=token, how=how)

    def advance_actions(self, p):
        if p.index < len(self.s.order):
            return False
        self.enter(PaymentStep())
        return True

    def event_choices(self, p, seat):
        """The companies `seat` may (or must) act on under the event tile; [] = not concerned."""
        cash = self.cash(seat)
        if p.tile == FORCE_SELL:
            return self.most_expensive_held(seat)
        if p.tile == BUY_IN:
            open_ = [c for c in self.companies if self.left(c)]
            if not open_:
                return []
            low = min(self.buy_price(c) for c in open_)
            return [c for c in open_ if self.buy_price(c) == low] if low <= cash else []
        if p.tile == PLACEMENT:
            return [c for c in p.affected if self.left(c) and self.buy_price(c) // 2 <= cash]
        return [c for c in p.affected if self.count(c, seat)]  # TECHNICAL-CORRECTION

    def most_expensive_held(self, seat):
        held = list(self.portfolio(seat))
        if not held:
            return []
        high = max(self.sell_price(c) for c in held)
        return [c for c in held if self.sell_price(c) == high]

    def advance_event(self, p):
        if p.tile is None:
            return False
        order = self.s.order
        while p.index < len(order):
            seat = order[p.index]
            choices = self.event_choices(p, seat)
            if not choices:
                self.emit("dv.not_concerned", player=self.players[seat], tile=p.tile)
                p.index += 1
                continue
            if p.tile == PLACEMENT or len(choices) > 1:
                return False  # an offer to take or leave, or a choice among equal certificates
            self.apply_event(p, seat, choices[0])
        self.emit("dv.event_over", tile=p.tile)
        self.s.tile = None  # the tile goes back in the box (also after year 5)
        if self.s.year < YEARS:
            self.s.year += 1
            self.emit("dv.year", year=self.s.year)
            self.enter(DiceStep())
        else:
            self.enter(FinalInfluence())
        return True

    def apply_event(self, p, seat, company):
        if p.tile == FORCE_SELL:
            self.sell(seat, company, self.sell_price(company), "force_sell")
        elif p.tile == BUY_IN:
            self.buy(seat, company, self.buy_price(company), "buy_in")
        elif p.tile == PLACEMENT:
            self.buy(seat, company, self.buy_price(company) // 2, "placement_offer")
        else:
            self.sell(seat, company, self.sell_price(company) // 2, "technical_correction")
        p.index += 1

    def advance_final_influence(self, p):
        order = self.s.order
        while p.index < len(order) and self.s.hands[order[p.index]] == 0:
            p.index += 1
        if p.index < len(order):
            return False
        self.enter(PaymentStep(final=True))
        return True

    def advance_liquidation(self, p):
        order = self.s.order
        while any(self.held(c) for c in self.companies):
            seat = order[p.index % len(order)]
            held = list(self.portfolio(seat))
            if len(held) > 1:
                return False  # the player chooses which certificate to sell
            if held:
                self.sell(seat, held[0], self.sell_price(held[0]), "liquidation")
            p.index += 1
        self.enter(Over())
        self.emit("dv.game_over", winners=[self.players[s] for s in self.winners()],
                  ranking=[[self.players[s], c] for _, s, c in self.ranking()])
        return False

    # --------------------------------------------------------------- decisions
    def decision(self) -> Decision:
        prompt, params, actor, options = self.step_decision()
        if isinstance(self.s.proc, Over):  # the winners are known: undo the end to correct anything
            return Decision(prompt, params, actor, tuple(options))
        return Decision(prompt, params, actor, tuple(options) + self.corrections())

    def step_decision(self):
        p, names = self.s.proc, self.players
        year = {"year": self.s.year}
        if isinstance(p, DiceStep):
            fields = {}
            for i, name in enumerate(DICE_FIELDS):
                if i < len(self.companies):
                    fields[name] = Choice(tuple(sorted(set(DICE[self.zone(self.companies[i])]))))
                else:
                    fields[name] = Fixed(None)
            return "prompt.dv.dice", year, None, [Option("dice", fields)]
        if isinstance(p, AuctionStep):
            if p.short or p.dues:
                seat = self.current_seat()
                return "prompt.dv.short_of_cash", {"player": names[seat]}, seat, [
                    Option("sell", {"player": Fixed(seat), "company": Choice(tuple(self.cheapest_held(seat)))})]
            a = p.series.current
            params = {**year, "token": a.item, "high": a.high or 0, "bidder": self.holder_name(a.high_bidder),
                      "minimum": a.minimum}
            opts = []
            if a.may_bid():
                opts.append(Option("bid", {"player": Choice(tuple(a.may_bid())),
                                           "amount": IntRange(a.minimum, max(a.minimum, MAX_BID), a.step)}))
            if a.high is not None:
                opts.append(Option("sold"))
            else:
                bidders = tuple(p.series.bidders)
                opts.append(Option("deal", {f: Choice(bidders) if i < len(bidders) else Fixed(None)
                                            for i, f in enumerate(DEAL_FIELDS)}))
            return ("prompt.dv.auction" if a.high is not None else "prompt.dv.auction_open"), params, None, opts
        if isinstance(p, ActionsStep):
            seat = self.current_seat()
            opts = []
            if not p.influenced:
                open_ = tuple(c for c in self.companies if self.left(c))
                if open_:
                    opts.append(Option("buy", {"player": Fixed(seat), "company": Choice(open_)}))
                held = tuple(c for c in self.companies if self.count(c, seat))
                if held:
                    opts.append(Option("sell", {"player": Fixed(seat), "company": Choice(held)}))
            opts += self.influence_options(seat)
            opts.append(Option("done", {"player": Fixed(seat)}))
            return "prompt.dv.turn", {"player": names[seat], "cards": self.s.hands[seat], **year}, seat, opts
        if isinstance(p, PaymentStep):
            return ("prompt.dv.final_dividends" if p.final else "prompt.dv.payment"), year, None, [Option("pay")]
        if isinstance(p, EventStep):
            if p.tile is None:
                return "prompt.dv.event", year, None, [Option("event", {"tile": Choice(TILES)})]
            seat = self.current_seat()
            choices = Choice(tuple(self.event_choices(p, seat)))
            who = {"player": names[seat], "tile": p.tile}
            if p.tile in (FORCE_SELL, CORRECTION):
                return "prompt.dv.event_sell", who, seat, [Option("sell", {"player": Fixed(seat), "company": choices})]
            if p.tile == BUY_IN:
                return "prompt.dv.event_buy", who, seat, [Option("buy", {"player": Fixed(seat), "company": choices})]
            return "prompt.dv.placement", who, seat, [Option("buy", {"player": Fixed(seat), "company": choices}),
                                                   Option("pass", {"player": Fixed(seat)})]
        if isinstance(p, FinalInfluence):
            seat = self.current_seat()
            return "prompt.dv.final_influence", {"player": names[seat], "cards": self.s.hands[seat]}, seat, (
                self.influence_options(seat) + [Option("done", {"player": Fixed(seat)})])
        if isinstance(p, Liquidation):
            seat = self.current_seat()
            return "prompt.dv.liquidation", {"player": names[seat]}, seat, [
                Option("sell", {"player": Fixed(seat), "company": Choice(tuple(self.portfolio(seat)))})]
        if isinstance(p, Over):
            return "prompt.dv.over", {"winners": [names[s] for s in self.winners()]}, None, []
        raise AssertionError(f"no decision for {p!r}")

    def influence_options(self, seat):
        if not self.s.hands[seat]:
            return []
        return [Option("influence", {"player": Fixed(seat), "company": Choice(tuple(self.companies)),
                                     "move": Choice((1, -1))})]

    def corrections(self):
        seats = Choice(tuple(range(len(self.players))))
        companies = Choice(tuple(self.companies))
        return (
            Option("adjust_cash", {"player": seats, "delta": IntRange(-MAX_ADJUST, MAX_ADJUST)}),
            Option("adjust_certs", {"player": seats, "company": companies, "delta": IntRange(-self.slots, self.slots)}),
            Option("adjust_cards", {"player": seats, "delta": IntRange(-self.total_cards, self.total_cards)}),
            Option("set_marker", {"company": companies, "value": Choice(self.box.track)}),
        )

    # ---------------------------------------------------------------- refusals
    def refusal(self, a, decision):
        """Why the pending decision refuses `a`, in the rulebook's terms (Game.check adds
        what is allowed after it); None where the generic message says it all."""
        p, kind = self.s.proc, a.kind
        if isinstance(p, Over):
            return IllegalAction("error.dv.over", kind=kind)
        if kind == "adjust_certs":
            return self.certs_refusal(a)
        if kind == "adjust_cards":
            return self.cards_refusal(a)
        if kind == "dice":
            return self.dice_refusal(a) if isinstance(p, DiceStep) else None
        seat = getattr(a, "player", None)
        if seat is not None and not 0 <= seat < len(self.players):
            return None
        if kind == "bid":
            return self.bid_refusal(p, a) if isinstance(p, AuctionStep) else None
        if kind == "deal":
            ready = (isinstance(p, AuctionStep) and not (p.short or p.dues) and p.series and p.series.current
                     and p.series.current.high is None)
            return self.deal_refusal(a) if ready else None
        if seat is None or kind not in ("buy", "sell", "influence", "done", "pass"):
            return None
        if decision.actor is not None and seat != decision.actor:
            return IllegalAction("error.dv.not_turn", player=self.players[seat], turn=self.players[decision.actor])
        if kind == "influence" and isinstance(p, (ActionsStep, FinalInfluence)) and not self.s.hands[seat]:
            return IllegalAction("error.dv.no_cards", player=self.players[seat])
        if kind not in ("buy", "sell") or a.company not in self.companies:
            return None
        # where this kind is a step's own action (the others get the generic message)
        if isinstance(p, EventStep):
            if not p.tile or kind != ("sell" if p.tile in (FORCE_SELL, CORRECTION) else "buy"):
                return None
        elif isinstance(p, (AuctionStep, Liquidation)):
            if kind != "sell" or (isinstance(p, AuctionStep) and not (p.short or p.dues)):
                return None
        elif not isinstance(p, ActionsStep):
            return None
        if isinstance(p, ActionsStep) and p.influenced:  # D8: "Après l'achat et la vente ..."
            return IllegalAction("error.dv.after_influence", player=self.players[seat])
        if kind == "buy" and not self.left(a.company):
            return IllegalAction("error.dv.none_left", company=a.company)
        if kind == "sell" and not self.count(a.company, seat):
            return IllegalAction("error.dv.not_held", player=self.players[seat], company=a.company)
        if isinstance(p, AuctionStep):
            return IllegalAction("error.dv.not_cheapest", player=self.players[seat], company=a.company)
        if isinstance(p, EventStep):
            if p.tile in (PLACEMENT, CORRECTION) and a.company not in p.affected:
                return IllegalAction("error.dv.not_marked", company=a.company, tile=p.tile)
            if p.tile == FORCE_SELL:
                return IllegalAction("error.dv.not_most_expensive", player=self.players[seat], company=a.company)
            if p.tile == BUY_IN:
                return IllegalAction("error.dv.not_cheapest_buy", player=self.players[seat], company=a.company)
            if p.tile == PLACEMENT:  # marked, a certificate left, but half the price is more than the cash
                return IllegalAction("error.dv.cash", player=self.players[seat], amount=self.buy_price(a.company) // 2)
        return None

    def dice_refusal(self, a):
        given = [getattr(a, f) for f in DICE_FIELDS]
        count = len(self.companies)
        if any(v is None for v in given[:count]) or any(v is not None for v in given[count:]):
            return IllegalAction("error.dv.dice_count", given=sum(v is not None for v in given), count=count,
                                 companies=list(self.companies))
        for move, company in zip(given, self.companies):
            if move not in DICE[self.zone(company)]:
                return IllegalAction("error.dv.die_face", company=company, die=self.zone(company), move=f"{move:+d}")
        return None

    def bid_refusal(self, p, a):
        if p.short or p.dues or p.series is None or p.series.current is None:
            return None  # a short-of-cash sale first: the generic message lists it
        if self.s.tokens[a.player] is not None:  # "prend le jeton ... et ne participe plus à l'enchère"
            return IllegalAction("error.dv.token_taken", player=self.players[a.player], token=self.s.tokens[a.player])
        try:
            p.series.current.check(a.player, a.amount, self.cash(a.player), self.players[a.player])
        except IllegalAction as reason:
            return reason
        return None

    # ------------------------------------------------------------------ chance
    def fill_chance(self, act, rng):
        """What the device draws: the dice, the event tile, the random deal of tokens.

        Fields left out (None) are drawn with `rng` (a random.Random the firmware seeds
        from the game's seed and the action's index); the returned action records the
        outcome, so a replay never draws again. Other actions are returned unchanged."""
        p = self.s.proc
        if act.kind == "dice" and isinstance(p, DiceStep) and all(getattr(act, f) is None for f in DICE_FIELDS):
            # Only `dice` alone is the device's roll: a line with a die missing is a typo,
            # refused like a partial `deal` (Game.check).
            return Dice(**{name: Signed(rng.choice(DICE[self.zone(company)]))
                           for name, company in zip(DICE_FIELDS, self.companies)})
        if act.kind == "event" and act.tile is None and isinstance(p, EventStep) and p.tile is None:
            return DrawEvent(Name(rng.choice(TILES)))
        if (act.kind == "deal" and isinstance(p, AuctionStep) and p.series
                and all(getattr(act, f) is None for f in DEAL_FIELDS)):
            bidders = list(p.series.bidders)
            dealt = rng.sample(bidders, len(bidders))
            return Deal(**{f: Seat(s) for f, s in zip(DEAL_FIELDS, dealt)})
        return act

    # ----------------------------------------------------------- step 1: dice
    def on_dice(self, a):
        self.s.last_dice = {}
        for i, company in enumerate(self.companies):
            move = getattr(a, DICE_FIELDS[i])
            die = self.zone(company)
            self.emit("dv.die", company=company, die=die, move=move)
            self.move_marker(company, move, "dice")
            self.s.last_dice[company] = {"die": die, "move": move}
        self.enter(AuctionStep(short=list(self.s.order)))

    # -------------------------------------------------------- step 2: auction
    def on_bid(self, a):
        p = self.s.proc
        p.series.current.bid(a.player, a.amount, self.cash(a.player), self.players[a.player])
        self.emit("dv.bid", player=self.players[a.player], amount=a.amount, token=p.series.current.item)

    def on_sold(self, a):
        series = self.s.proc.series
        seat, amount = series.current.hammer()
        self.take_token(series, seat, amount)

    def deal_refusal(self, a):
        series = self.s.proc.series
        dealt = [getattr(a, f) for f in DEAL_FIELDS]
        if (sorted(s for s in dealt if s is not None) != sorted(series.bidders)
                or any(s is None for s in dealt[:len(series.bidders)])):
            return IllegalAction("error.dv.deal", players=[self.seat_name(s) for s in dealt if s is not None],
                                 bidders=[self.players[s] for s in series.bidders])
        return None

    def on_deal(self, a):
        p = self.s.proc
        series = p.series
        refused = self.deal_refusal(a)
        if refused:
            raise refused
        dealt = [getattr(a, f) for f in DEAL_FIELDS[:len(series.bidders)]]
        self.emit("dv.tokens_dealt", tokens=list(series.items), players=[self.players[s] for s in dealt])
        for seat in dealt:  # each pays 50 $ once the tokens are out (advance_auction)
            self.award_token(series, seat, OPENING_BID)
            p.dues.append([seat, "deal"])

    # -------------------------------------------------------- step 3: actions
    def on_buy(self, a):
        p = self.s.proc
        if isinstance(p, EventStep):
            return self.apply_event(p, a.player, a.company)
        self.buy(a.player, a.company, self.buy_price(a.company), "purchase")

    def on_sell(self, a):
        p = self.s.proc
        if isinstance(p, EventStep):
            return self.apply_event(p, a.player, a.company)
        if isinstance(p, AuctionStep):
            return self.sell(a.player, a.company, self.sell_price(a.company), "short_of_cash")
        if isinstance(p, Liquidation):
            self.sell(a.player, a.company, self.sell_price(a.company), "liquidation")
            p.index += 1
            return
        self.sell(a.player, a.company, self.sell_price(a.company), "sale")

    def on_influence(self, a):
        self.s.hands[a.player] -= 1
        self.s.discard += 1
        if isinstance(self.s.proc, ActionsStep):
            self.s.proc.influenced = True
        self.emit("dv.influence", player=self.players[a.player], company=a.company, move=a.move)
        self.move_marker(a.company, a.move, "influence")

    def on_done(self, a):
        unused = self.s.hands[a.player]
        if unused:  # DV5: unused cards go back, face down, under the draw pile
            self.s.hands[a.player] = 0
            self.s.draw_pile += unused
            self.emit("dv.cards_returned", player=self.players[a.player], cards=unused)
        p = self.s.proc
        p.index += 1
        if isinstance(p, ActionsStep):
            p.influenced = False

    def on_pass(self, a):
        self.emit("dv.offer_declined", player=self.players[a.player])
        self.s.proc.index += 1

    # -------------------------------------------------------- step 4: payment
    def on_pay(self, a):
        final = self.s.proc.final
        paid = {}
        for seat in self.s.order:
            amount = sum(self.s.markers[c] * n for c, n in self.portfolio(seat).items())
            self.transfer(BANK, seat, amount, "final_dividends" if final else "dividends")
            paid[self.players[seat]] = {"dividends": amount, "cards": 0}
            if amount:
                self.emit("dv.dividends", player=self.players[seat], amount=amount)
        if not final:
            for seat in self.s.order:  # DV5: one card per certificate of each company led
                wanted = sum(self.count(c, seat) for c in self.companies if self.s.tiles[c] == seat)
                if wanted:
                    got = self.draw_cards(seat, wanted)
                    paid[self.players[seat]]["cards"] = got
                    self.emit("dv.cards_drawn", player=self.players[seat], cards=got)
        self.s.last_payment = paid
        self.enter(Liquidation() if final else EventStep())

    # ---------------------------------------------------------- step 5: event
    def on_event(self, a):
        p = self.s.proc
        p.tile = self.s.tile = a.tile
        if a.tile == PLACEMENT:  # most certificates still on the chart; ties: all of them
            top = max(self.left(c) for c in self.companies)
            p.affected = tuple(c for c in self.companies if self.left(c) == top) if top else ()
        elif a.tile == CORRECTION:  # most certificates held by players; ties: all of them
            top = max(self.held(c) for c in self.companies)
            p.affected = tuple(c for c in self.companies if self.held(c) == top) if top else ()
        self.emit("dv.event", tile=a.tile, affected=list(p.affected) or ["-"])

    # ---------------------------------------------------------- corrections
    def on_adjust_cash(self, a):
        seat = a.player
        if a.delta < 0:
            self.need_cash(seat, -a.delta)
            p = self.s.proc
            if (isinstance(p, AuctionStep) and p.series and p.series.current
                    and p.series.current.high_bidder == seat and self.cash(seat) + a.delta < p.series.current.high):
                raise IllegalAction("error.dv.adjust_high_bid", player=self.players[seat], amount=p.series.current.high)
        self.transfer(*((BANK, seat) if a.delta > 0 else (seat, BANK)), abs(a.delta), "correction")
        self.emit("correction", player=self.players[seat], what="cash", delta=a.delta, reason=a.reason)

    def certs_refusal(self, a):
        """A certificate correction larger than what its source holds: the chart (given to
        the player) or the player (given back to the chart)."""
        if a.company not in self.companies or not 0 <= a.player < len(self.players):
            return None
        if a.delta > self.left(a.company):
            return IllegalAction("error.dv.certs_chart", player=self.players[a.player], company=a.company,
                                 certs=a.delta, left=self.left(a.company))
        if -a.delta > self.count(a.company, a.player):
            return IllegalAction("error.dv.certs_held", player=self.players[a.player], company=a.company,
                                 certs=-a.delta, held=self.count(a.company, a.player))
        return None

    def cards_refusal(self, a):
        """A card correction larger than the piles (given) or the hand (given back)."""
        if not 0 <= a.player < len(self.players):
            return None
        if a.delta > self.s.draw_pile + self.s.discard:
            return IllegalAction("error.dv.cards_pile", cards=a.delta, pile=self.s.draw_pile, discard=self.s.discard)
        if -a.delta > self.s.hands[a.player]:
            return IllegalAction("error.dv.cards_hand", player=self.players[a.player], cards=-a.delta,
                                 hand=self.s.hands[a.player])
        return None

    def on_adjust_certs(self, a):
        refused = self.certs_refusal(a)
        if refused:
            raise refused
        src, dst = (BANK, a.player) if a.delta > 0 else (a.player, BANK)
        if a.delta:
            event = self.s.certs.move(a.company, src, dst, abs(a.delta))
            self.emit(event.key, **event.params)
            self.update_tile(a.company)
        self.emit("correction", player=self.players[a.player], what=a.company, delta=a.delta, reason=a.reason)

    def on_adjust_cards(self, a):
        refused = self.cards_refusal(a)
        if refused:
            raise refused
        if a.delta > 0:  # a forgotten card comes from the draw pile, rebuilt from the discard pile if need be (DV5)
            self.draw_cards(a.player, a.delta)
        else:  # given back under the draw pile, like unused cards
            self.s.hands[a.player] += a.delta
            self.s.draw_pile -= a.delta
        self.emit("correction", player=self.players[a.player], what="cards", delta=a.delta, reason=a.reason)

    def on_set_marker(self, a):
        old = self.s.markers[a.company]
        self.s.markers[a.company] = a.value
        self.emit("dv.marker", company=a.company, old=old, new=a.value, steps=0, reason="correction")
        self.emit("correction", player="-", what=a.company, delta=a.value, reason=a.reason)


# ------------------------------------------------------------------------ views
PRIVATE = ("players.*.cash",)  # DV2: cash is hidden until the game is over


def snapshot(game: Dividends) -> dict:
    """The state as JSON: what `corbeille script` prints.

    `private` lists the fields no display everyone sees may draw (dotted paths, `*` for
    every item of a list); `public(snapshot)` is the snapshot without them."""
    s, names = game.s, game.players
    over = isinstance(s.proc, Over)
    players = []
    for seat, name in enumerate(names):
        players.append({
            "name": name,
            "cash": game.cash(seat),
            "certificates": game.portfolio(seat),
            "influence_cards": s.hands[seat],
            "token": s.tokens[seat],
            "majority_tiles": [c for c in game.companies if s.tiles[c] == seat],
        })
    p = s.proc
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
    out = {
        "game": game.name,
        "box_verified": game.box.verified,
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
        "pending": game.decision().to_json(),
        "private": [] if over else list(PRIVATE),
        "actions": len(game.log),
    }
    if over:
        out["ranking"] = [{"rank": r, "name": names[x], "cash": c} for r, x, c in game.ranking()]
        out["winners"] = [names[x] for x in game.winners()]
    return out


def public(snap: dict) -> dict:
    """The snapshot without its private fields: what a display everyone sees may use."""
    return drop_private(snap)
