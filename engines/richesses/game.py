"""Richesses du Monde: every rule of the rulebook and rulings RM1-RM13.

The players start with 200 M split equally (RM10), the plaques are laid at random over
the 48 plaque squares (drawn by the device and recorded, or entered by hand and checked,
RM13), and the dice say who starts. Then each turn: the dice move the pawn round the
board (a double costs its face in millions), the lander pays the royalties of the
square's plaque to every other holder of 30 % or more of that production (automatically,
with their breakdown), then the square: titles of the country (up to 6, one action with
the list), of the continent or of the world in productions already held, 500 000 x dice,
a joker, a card entered by the operator, or an auction of whole trusts lot by lot. A
player who cannot pay is bankrupt (cash only: the bank pays his creditors, his titles go
back to the stock); the last player standing wins.

The procedure is a stack of steps (engines/core/steps.py, one module each in
engines/richesses/steps/). This class holds the set-up, the mechanics the steps share
(shares, royalties, purchases, payments) and the corrections. Cash is hidden: it is a
private path of the snapshot and no decision's params carry it.
"""
from dataclasses import field

from engines.core.cards import card_options, card_transfers
from engines.core.corrections import Cash, WhoseTurn
from engines.core.decision import Fixed, Option
from engines.core.deeds import STOCK, Deeds
from engines.core.errors import IllegalAction
from engines.core.learning import LearnedBox
from engines.core.ledger import BANK, Ledger
from engines.core.out_of_game import out_refusal
from engines.core.records import record
from engines.core.settings import check_header
from engines.core.table import TableGame
from engines.core.track import Track
from engines.richesses import GAME
from engines.richesses.actions import ACTIONS
from engines.richesses.box import load_box
from engines.richesses.corrections import GiveTitle, Jokers, Pawn, Plaques, TakeTitle
from engines.richesses.learning import Learning, learn_refusal, with_learned
from engines.richesses.rules import CASH_UNIT, MAX_ADJUST, MAX_AMOUNT, MAX_TITLES, ROYALTY_MIN, start_cash
from engines.richesses.steps import AuctionStep, Bankruptcy, ClaimStep, Over, SaleStep, Setup, Table, Turn


@record
class State:
    ledger: Ledger
    deeds: Deeds             # every title: owner a seat or STOCK
    track: Track
    jokers: list             # seat -> jokers held
    joker_stock: int
    steps: list
    plaques: dict = field(default_factory=dict)    # square number (text) -> production
    out: list = field(default_factory=list)        # bankrupt seats, in the order they went out
    last_roll: dict = field(default_factory=dict)
    # Box data read off the cards at the table (engines/core/learning.py): not a field, so a
    # state that learned nothing pickles to the bytes earlier versions wrote (its instance
    # holds it once something is learned, and checkpoints carry it then).
    learned = ()


class Richesses(Learning, TableGame):
    name = "richesses"
    ACTIONS = ACTIONS
    PLAYERS = GAME.players       # declared with the game (engines/richesses/__init__.py)
    SETTINGS = GAME.settings
    PRIVATE = ("players.*.cash",)   # RM10: cash is hidden; titles, shares, jokers and plaques are public
    CORRECTIONS = (Cash(MAX_ADJUST), Pawn(), WhoseTurn(), GiveTitle(), TakeTitle(), Jokers(),
                   Plaques())   # engines/richesses/corrections.py
    money_step = CASH_UNIT       # RM10 shares and RM4 raises are counted in 100 000

    def __init__(self, header: dict):
        self.settings = check_header(header, GAME.players, GAME.settings)
        self.file_box = load_box(header.get("box"))
        self.read_box = LearnedBox(self.file_box, with_learned)
        super().__init__(header)

    @property
    def box(self):
        """The box file with what was learned at the table so far (RM13 as amended); read
        at every look-up of a title, so the common case (nothing new learned) is one test."""
        try:
            learned = self.s.learned
        except AttributeError:           # the initial state is being built
            return self.file_box
        read = self.read_box
        return read.box if learned is read.learned else read.of(learned)

    def initial_state(self):
        n = len(self.players)
        state = State(
            ledger=Ledger({BANK: 0, **{s: 0 for s in range(n)}}),   # the bank never runs dry
            deeds=Deeds.of((t.id, t.price) for t in self.box.titles.values()),
            track=self.new_track(n),
            jokers=[0] * n,
            joker_stock=self.box.jokers or 0,    # unknown: counted at the first joker square
            steps=[Table(), Setup()],
        )
        for seat in range(n):
            state.ledger.transfer(BANK, seat, start_cash(n), "start")
        return state

    def new_track(self, n):
        """The board's squares from the box file; without their order (RM8) a track of no
        known square: the pawns are where the operator says, and its laps are the world
        tours he answers."""
        if self.box.ordered:
            return Track.new(len(self.box.squares), n, circular=True)
        return Track(0, True, [0] * n, [0] * n)

    @property
    def over(self) -> bool:
        return isinstance(self.step, Over)

    def view(self) -> dict:
        return view(self)

    # ------------------------------------------------------------------ queries
    def toured(self, seat):
        """RM8: the world tour that opens world choice and auction squares."""
        if self.settings["world_tour"] == "anyone":
            return any(self.s.track.laps[s] for s in range(len(self.players)))
        return self.s.track.laps[seat] > 0

    def trust(self, seat, production):
        """The titles of `production` that `seat` holds: his trust (RM6)."""
        titles = self.box.titles        # read once: `box` folds what was learned
        return [t for t in self.s.deeds.owned_by(seat) if titles[t].production == production]

    def trusts(self, seat):
        """The productions `seat` holds titles of, in the box's order."""
        box = self.box
        held = {box.titles[t].production for t in self.s.deeds.owned_by(seat)}
        return tuple(p for p in box.productions if p in held)

    def share(self, seat, production):
        """RM6: the sum of the printed percents of the holder's titles of `production`."""
        return sum(self.box.titles[t].percent for t in self.trust(seat, production))

    def holding(self, seat, production):
        """The titles of `seat`'s trust of `production`: a free sale offers only what its
        seller holds."""
        return len(self.trust(seat, production))

    def trust_price(self, seat, production):
        return sum(self.box.titles[t].price for t in self.trust(seat, production))

    def royalties(self, lander, production):
        """RM2, RM6: [(seat, share, amount)] paid by the lander to every other player in the
        game holding 30 % or more of `production`, each his own band."""
        lines = []
        for seat in self.in_game():
            if seat == lander:
                continue
            share = self.share(seat, production)
            if share >= ROYALTY_MIN:
                band = self.box.productions[production].royalty(share, self.settings["royalty_edge"])
                lines.append((seat, share, band))
        return [line for line in lines if line[2]]

    def owed(self, lander):
        """The productions whose plaque would cost `lander` royalties now (another player
        in the game holds 30 % or more): what a landing entered without the square order
        asks about; any other plaque costs nothing. (The shares summed in one pass over
        each holder's titles: this is asked at every landing's decision.)"""
        edge, owed = self.settings["royalty_edge"], set()
        for seat in (s for s in self.in_game() if s != lander):
            shares = {}
            for tid in self.s.deeds.owned_by(seat):
                title = self.box.titles[tid]
                shares[title.production] = shares.get(title.production, 0) + title.percent
            owed |= {p for p, share in shares.items()
                     if share >= ROYALTY_MIN and self.box.productions[p].royalty(share, edge)}
        return tuple(p for p in self.box.productions if p in owed)

    def square_name(self, square):
        """How texts name `square`: a country by its box file's name, any other square by its
        landing's word (BONUS, CONTINENTAL-EUROPE), which templates write through the catalog
        (`{square:@rm.place}`: "Choix continental Europe"), never as the protocol's word."""
        if square.kind == "country":
            return self.box.countries[square.country][0]
        return self.box.word(square)

    def purchasable(self, seat, square):
        """The titles in stock `seat` may buy on `square` (RM3, RM7): the country's; on a
        continental choice the continent's, of productions already held; on a world choice
        any, of productions already held."""
        stock = list(map(self.box.titles.__getitem__, self.s.deeds.owned_by(STOCK)))   # `box` read once
        if square.kind == "country":
            return tuple(t.id for t in stock if t.country == square.country)
        held = set(self.trusts(seat))
        if square.kind == "continental":
            return tuple(t.id for t in stock if t.continent == square.continent and t.production in held)
        return tuple(t.id for t in stock if t.production in held)

    # --------------------------------------------------------------- mechanics
    def charge(self, debtor, owed, reason) -> bool:
        """Pay `owed` ([[creditor, amount]]) now, or go bankrupt: RM11 is cash only, so the
        core Debt procedure, with no remedy to offer, ruins him at once (his cash to the bank,
        the bank paying every creditor in full, his titles to the stock); it needs no
        decision, so it runs here rather than waiting on the stack. True when paid."""
        if self.s.ledger.can_pay(debtor, sum(a for _, a in owed)):
            for creditor, amount in owed:
                self.transfer(debtor, creditor, amount, reason)
            return True
        Bankruptcy(debtor, [list(line) for line in owed]).advance(self)
        return False

    def royalties_due(self, lander, production):
        """RM2, RM7: the plaque's royalties the moment the pawn lands: paid by the box, or,
        with `strict_claims`, owed only to the holders who claim them in time (a claim
        window pushed on top of the turn)."""
        if not self.royalties_known(lander, production):
            return                   # its table is read first; the Learn step comes back here
        lines = self.royalties(lander, production)
        if not lines:
            return
        if self.settings["strict_claims"]:
            self.push(ClaimStep(lander, production, [list(line) for line in lines]))
            self.emit("rm.claims_open", player=self.players[lander], production=self.box.production_name(production),
                      owed=len(lines))
            return
        self.pay_royalties(lander, production, lines)

    def pay_royalties(self, lander, production, lines):
        """The lander pays every line ([seat, share, amount]) with its breakdown, or goes
        bankrupt and the bank pays them in full (RM11)."""
        if not lines:
            return
        self.emit("rm.royalties", player=self.players[lander], production=self.box.production_name(production),
                  total=sum(a for _, _, a in lines))
        for seat, share, amount in lines:       # a line each: its amount written as every amount is
            self.emit("rm.royalty", player=self.players[seat], share=share, amount=amount)
        self.charge(lander, [[s, a] for s, _, a in lines], "royalties")

    def eliminate(self, seat):
        """The Debt's ruin: out of the game; his jokers go back to the stock (RM11)."""
        self.s.out.append(seat)
        self.s.joker_stock += self.s.jokers[seat]
        self.s.jokers[seat] = 0
        self.emit("rm.bankrupt", player=self.players[seat], left=len(self.in_game()))

    def move_trust(self, src, production, dst):
        """A whole trust changes hands, never a part of it (RM6)."""
        for title in self.trust(src, production):
            event = self.s.deeds.move(title, src, dst)
            self.emit_event(event)

    def buy_titles(self, seat, titles):
        refused = self.buy_refusal_of(seat, titles)
        if refused:
            raise refused
        total = sum(self.box.titles[t].price for t in titles)
        self.transfer(seat, BANK, total, "titles")
        for title in titles:
            event = self.s.deeds.move(title, STOCK, seat)
            self.emit_event(event)
        self.emit("rm.bought", player=self.players[seat], titles=[self.box.title_name(t) for t in titles], amount=total,
                  shares=", ".join(f"{self.box.production_name(p)} {self.share(seat, p)} %"
                                   for p in dict.fromkeys(self.box.titles[t].production for t in titles)))

    def buy_refusal_of(self, seat, titles):
        total = sum(self.box.titles[t].price for t in titles if t in self.box.titles)
        if total > self.cash(seat):
            return IllegalAction("error.rm.cash", player=self.players[seat], amount=total)
        return None

    def buy_refusal(self, act, square):
        unknown = [t for t in act.titles if t not in self.box.titles]
        if unknown:
            return IllegalAction("error.rm.unknown_title", title=unknown[0])
        if len(act.titles) > MAX_TITLES:
            return IllegalAction("error.rm.too_many", count=len(act.titles), most=MAX_TITLES)
        taken = [t for t in act.titles if self.s.deeds.owner(t) != STOCK]
        if taken:
            return IllegalAction("error.rm.not_in_stock", title=self.box.title_name(taken[0]))
        allowed = self.purchasable(act.player, square)
        wrong = [t for t in act.titles if t not in allowed]
        if wrong:
            key = {"country": "error.rm.not_country", "continental": "error.rm.not_continent"}.get(square.kind,
                                                                                                 "error.rm.not_held")
            return IllegalAction(key, title=self.box.title_name(wrong[0]), square=self.square_name(square))
        return None

    def lots_refusal(self, act, red):
        """RM9: whole trusts reaching the red die with none to spare (all of them if he
        holds fewer titles)."""
        held = self.trusts(act.player)
        wrong = [p for p in act.productions if p not in held]
        if wrong:
            return IllegalAction("error.rm.no_trust", player=self.players[act.player],
                                 production=self.box.production_name(wrong[0]))
        return self.lots_rule(act.player, act.productions, red)

    def lots_rule(self, seat, productions, red):
        sizes = [len(self.trust(seat, p)) for p in productions]
        total, owned = sum(sizes), len(self.s.deeds.owned_by(seat))
        if owned <= red:
            if total != owned:
                return IllegalAction("error.rm.lots_all", red=red, titles=owned)
            return None
        if total < red or (sizes and total - min(sizes) >= red):
            return IllegalAction("error.rm.lots_red", red=red, titles=total)
        return None

    def start_turn(self, seat):
        self.push(Turn(seat))
        self.emit("rm.turn", player=self.players[seat])

    def finish_game(self):
        self.push(Over())
        self.emit("rm.over", winner=self.players[self.ranking()[0][1]])

    def fortunes(self):
        """What each player is worth, for the report: cash plus titles at their price; 0
        once bankrupt (his cash went to the bank, his titles to the stock)."""
        return {s: 0 if s in self.s.out else
                self.cash(s) + sum(self.box.titles[t].price for t in self.s.deeds.owned_by(s))
                for s in range(len(self.players))}

    # ----------------------------------------------------------------- cards
    def card_options(self, seat):
        """An Actualité card, entered as what it says in red (RM: "selon le cas, donne ou
        reçoit la somme indiquée"): the four core card effects, amounts by 100 000; or
        nothing, for a card the table reads as no payment."""
        return card_options(seat, CASH_UNIT, MAX_AMOUNT) + (Option("done", {"player": Fixed(seat)}),)

    def play_card(self, act):
        """The card's payments in order, each payer paying what he owes now or going
        bankrupt (RM11); the others are paid from the lander's left, in turn order."""
        others = self.others(act.player)
        self.emit("rm.card", player=self.players[act.player], kind=act.kind, amount=act.amount)
        payments = card_transfers(act, others)
        if act.kind == "card_pay_each":      # one debt to all the others: paid whole, or bankrupt
            self.charge(act.player, [[payee, amount] for _, payee, amount in payments], "card")
            return
        for payer, payee, amount in payments:
            if payer == BANK:
                self.transfer(BANK, payee, amount, "card")
            elif not self.eliminated(payer):
                self.charge(payer, [[payee, amount]], "card")

    # ---------------------------------------------------------- corrections
    def anytime_options(self):
        """Corrections once the game is set up, until it is over, but never inside a
        bankruptcy (its debt was counted from what the player held); for the players still
        in (a bankrupt player's cash went to the bank and his titles to the stock, RM11: what
        a correction gave him would stay outside the game)."""
        if isinstance(self.step, (Setup, Over)) or any(isinstance(step, Bankruptcy) for step in self.s.steps):
            return ()
        return self.corrections()

    def refusal(self, act, decision, field):
        out = out_refusal(self, act, field, "error.rm.out")   # before "whose turn": he has none any more
        if out is not None:
            return out
        if act.kind.startswith("learn_"):
            return learn_refusal(self, act) or super().refusal(act, decision, field)
        if self.correction(act.kind) is not None:   # a correction is nobody's move: no "whose turn"
            return self.correction_refusal(act)
        return super().refusal(act, decision, field)


# ------------------------------------------------------------------------ views
def trust_rows(game: Richesses, seat: int) -> dict:
    """What each trust of `seat` earns now when someone lands on its plaque (RM6): public,
    like the shares. Per production he holds titles of, in the box's order: the share (the
    sum of its titles' printed percents, as `share`), the titles (as `trust`) and the
    royalty, None while its table is still to be read (it is read when first owed). The
    seat's titles are read once, not once per production: every view reads them all."""
    box = game.box                              # read once: `box` folds what was learned
    titles, by_production = box.titles, {}
    for title in game.s.deeds.owned_by(seat):
        by_production.setdefault(titles[title].production, []).append(title)
    rows = {}
    for production in box.productions:
        if production in by_production:
            held = by_production[production]
            share = sum(titles[title].percent for title in held)
            table = box.productions[production]
            rows[production] = {"share": share, "titles": held,
                                "royalty": table.royalty(share, game.settings["royalty_edge"]) if table.bands else None}
    return rows


def view(game: Richesses) -> dict:
    """The game's part of the state as JSON (in the core envelope: engines/core/table.py);
    the players' cash is private (`PRIVATE`). RM11 ranks by elimination: the last player
    standing first, then those out, the last to leave first (the core ranking)."""
    s, names = game.s, game.players
    players = game.player_rows(lambda seat: {
        "in_game": seat not in s.out,
        "square": s.track.positions[seat],
        "world_tours": s.track.laps[seat],
        "jokers": s.jokers[seat],
        "trusts": trust_rows(game, seat),
    })
    step = game.step
    auction = None
    if isinstance(step, AuctionStep) and step.auction is not None:
        a = step.auction
        auction = {"seller": names[step.seller], "production": a.item, "opening": a.opening, "high": a.high,
                   "high_bidder": None if a.high_bidder is None else names[a.high_bidder], "minimum": a.minimum,
                   "bidders": [names[x] for x in a.bidders], "lots_left": list(step.lots)}
    sale = None
    if isinstance(step, SaleStep):
        sale = {"seller": names[step.seller], "production": step.production, "buyer": names[step.buyer],
                "amount": step.amount, "exchange_for": step.swap, "closed": step.closed}
        # the offer on the table, as an open auction's screen shows one: the best offer and who may overbid
        auction = {"seller": names[step.seller], "production": step.production, "opening": step.amount,
                   "high": step.amount, "high_bidder": names[step.buyer], "minimum": step.minimum(),
                   "bidders": [names[x] for x in game.in_game() if x != step.seller], "lots_left": []}
    turn = next((x.seat for x in reversed(s.steps) if isinstance(x, Turn)), None)
    return {
        "step": step.name,
        "turn": None if turn is None else names[turn],
        "players": players,
        "plaques": dict(s.plaques),
        "stock": list(s.deeds.owned_by(STOCK)),
        "joker_stock": s.joker_stock,
        "auction": auction,
        "sale": sale,
        "last_roll": s.last_roll,
        "out": [names[x] for x in s.out],
    } | ({"learned": len(s.learned)} if s.learned else {})
