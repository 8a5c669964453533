"""A Vendre!: every rule of the rulebook and rulings AV1-AV15.

Everyone, the bank included, starts with 5 100; one die moves the pawns along the 60
squares of the board (engines/core/track.py); a square's colour says what the lander
does (steps/turn.py). The bank's cash is finite (engines/core/ledger.py without
`unlimited`): a shortfall is an event of the game, recorded in `bank_owed`, and the bank
is auctioned before anything else goes on (AV12, steps/auctions.py). A player short of
cash enters the core debt procedure (engines/core/debt.py): shops auctioned, then loans,
or leaving (AV11, steps/debt.py). The simple game ends at the first arrival at 60; the
double game needs 3 titles to restart and 6 to end (AV4, AV14). The settlement (AV13)
is computed, never paid: loans count at 1 100 each, shops at half PA, establishments 0,
and the bank's last buyer a quarter of the bank's cash.

The procedure is a stack of steps (engines/core/steps.py, one module each in
engines/avendre/steps/); this class holds the set-up, the mechanics the steps share, the
bank's shortfall and the end of trips, checked after every action (`advance`), and the
operator's corrections, allowed at any time. See docs/rules/avendre.md for the digest
and the tests pinning each rule.
"""
from dataclasses import field

from engines.avendre import GAME
from engines.avendre.actions import ACTIONS
from engines.avendre.box import Title, load_box
from engines.avendre.corrections import (BankOwner, ForgetSquare, GiveTitle, Loans as LoansCorrection, NoBankOwner,
                                        Pawn, SetTitle, TakeTitle, Trip)
from engines.avendre.learning import Learning
from engines.avendre.no_board import learn
from engines.avendre.rules import (BANK_CASH, BANK_OPENING, ESTABLISHMENT, MAX_ADJUST, PRIME, SHOP, SQUARES, START_CASH,
                                   TITLES, TITLES_FIRST, TITLES_SECOND)
from engines.avendre.steps import BankAuction, Over, Play, ShopAuction, Start  # noqa: F401
from engines.core.corrections import Cash, WhoseTurn
from engines.core.decision import Choice, IntRange
from engines.core.deeds import Deeds, Loans
from engines.core.debt import bank_pays
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK, Ledger
from engines.core.records import record
from engines.core.settings import check_header
from engines.core.open_auction import OpenAuction
from engines.core.out_of_game import out_refusal
from engines.core.table import TableGame
from engines.core.track import Track


def check_settings(header: dict) -> dict:
    return check_header(header, GAME.players, GAME.settings)


@record
class State:
    ledger: Ledger
    deeds: Deeds             # the 43 titles by number ("1".."43"); price = PA (0 for an establishment)
    loans: Loans
    track: Track
    trips: list              # seat -> the trip under way (1, 2; 3 once the second is done)
    waiting: list            # seat -> waiting at 60 for the titles it lacks (AV14)
    steps: list
    out: list = field(default_factory=list)          # seats out of the game, in the order they left
    bank_owner: int | None = None                    # the bank's last buyer (AV12)
    bank_owed: list = field(default_factory=list)    # [seat, amount] the bank could not pay yet
    bank_unpaid: list = field(default_factory=list)  # [seat, amount] never paid (bank_unsold = "end")
    entered: dict = field(default_factory=dict)      # no board: title -> [kind, pa, r] as read (None: not yet)
    read: dict = field(default_factory=dict)         # no board: square -> [colour, title] as read (title 0: none)
    ending: str | None = None                        # why the game ends, once it must
    last_die: list | None = None


class AVendre(Learning, TableGame):
    name = "avendre"
    ACTIONS = ACTIONS
    PLAYERS = GAME.players       # declared with the game (engines/avendre/__init__.py)
    SETTINGS = GAME.settings
    CORRECTIONS = (Cash(MAX_ADJUST), WhoseTurn(), Pawn(), GiveTitle(), TakeTitle(), ForgetSquare(), SetTitle(),
                   LoansCorrection(), Trip(), BankOwner(), NoBankOwner())
    money_step = 100             # "100 de 10.—, 200 de 50.—, 100 de 100.—, 60 de 500.—"; each player holds 5 100

    def __init__(self, header: dict):
        self.settings = check_settings(header)
        self.box = None if self.settings["board"] == "none" else load_box(header.get("box"))
        self.double = self.settings["mode"] == "double"
        self.start_square = 0 if self.settings["start"] == "before_1" else 1
        self.card_move_lands = self.settings["card_move_lands"] == "yes"
        self.each_landing = self.box is None and self.settings["squares"] == "each_landing"
        super().__init__(header)

    @classmethod
    def older_readings(cls, header):
        """A game without a board recorded by the version that read every square at every
        landing (its `square` after each roll) replays with that setting."""
        settings = header.get("settings", {})
        if settings.get("board") != "none" or settings.get("squares", "remembered") != "remembered":
            return ()
        return ({**header, "settings": {**settings, "squares": "each_landing"}},)

    def initial_state(self):
        n = len(self.players)
        prices = {str(t): (self.box.titles[t].pa if self.box else 0) for t in range(1, TITLES + 1)}
        return State(
            ledger=Ledger({BANK: BANK_CASH, **{s: START_CASH for s in range(n)}}, unlimited=()),  # AV2: a finite bank
            deeds=Deeds.of(prices),
            loans=Loans(),
            track=Track.new(SQUARES, n, circular=False, start=self.start_square),
            trips=[1] * n,
            waiting=[False] * n,
            steps=[Play(), Start()],
        )

    @property
    def over(self) -> bool:
        return isinstance(self.step, Over)

    def view(self) -> dict:
        return view(self)

    # ------------------------------------------------------------------ queries
    def title(self, name) -> Title:
        """What a title is: from the box file, or as the operator read it (no board; a value
        not read yet counts 0, and a title whose colour is not read yet counts as a shop)."""
        if self.box is not None:
            return self.box.titles[int(name)]
        kind, pa, r = self.s.entered.get(str(name), (None, None, None))
        return Title(int(name), str(name), kind or SHOP, pa or 0, r or 0)

    def kind_of(self, name):
        if self.box is not None:
            return self.box.titles[int(name)].kind
        entered = self.s.entered.get(str(name))
        return entered[0] if entered else None

    def read_value(self, name, which):
        """Without a board: a title's PA (`1`) or R (`2`) as read, None while not read."""
        entered = self.s.entered.get(str(name))
        return entered[which] if entered else None

    def titles_of_kind(self, kind):
        """Titles a card may name: the box's shops or establishments; without a board,
        every title not read as the other kind."""
        if self.box is not None:
            return tuple(str(n) for n, t in self.box.titles.items() if t.kind == kind)
        return tuple(str(n) for n in range(1, TITLES + 1) if self.kind_of(str(n)) in (kind, None))

    def green_squares(self):
        if self.box is not None:
            return Choice(self.box.squares_of("green"))
        return IntRange(1, SQUARES - 1)

    def owner(self, name) -> int:
        """The seat holding a title, or a negative owner (the bank, the stock) when nobody does."""
        return self.s.deeds.owner(str(name))

    def titles_held(self, seat) -> tuple:
        return self.s.deeds.owned_by(seat)

    def half_pa(self, name) -> int:
        return self.title(name).pa // 2

    def title_label(self, name) -> str:
        info = self.title(name)
        return f"{info.number} {info.name}" if self.box is not None else str(info.number)

    def bank_label(self) -> str:
        return "bank"

    def account_name(self, account) -> str:
        return self.bank_label() if account < 0 else self.players[account]

    def needed(self, seat) -> int:
        return TITLES_FIRST if self.s.trips[seat] == 1 else TITLES_SECOND

    # --------------------------------------------------------------- mechanics
    def bank_pays(self, dst, amount, reason):
        """The bank pays what it has; the rest is its shortfall (AV12)."""
        bank_pays(self, dst, amount, reason)

    def bank_shortfall(self, dst, unpaid, reason):
        """engines.core.debt's hook: what the bank could not pay is owed, and the bank is
        auctioned before anything else goes on ("Dans ce cas la banque est mise aux enchères")."""
        self.s.bank_owed.append([dst, unpaid])

    def settle_bank(self):
        """The bank pays what it owes, in order, as far as its cash goes."""
        owed, self.s.bank_owed = self.s.bank_owed, []
        for seat, amount in owed:
            event, short = self.s.ledger.pay_what_it_can(BANK, seat, amount, "bank_debt")
            if event is not None:
                self.emit_event(event)
            if short:
                self.s.bank_owed.append([seat, short])

    def bank_unsold(self):
        """Nobody bought the bank (AV12 `bank_unsold`): it pays anyway and shows a debt, or
        the game ends now."""
        owed = sum(amount for _, amount in self.s.bank_owed)
        self.emit("av.bank_unsold", owed=owed)
        if self.settings["bank_unsold"] == "continue":
            self.s.ledger.unlimited = frozenset({BANK})   # until its till is back above zero
            self.settle_bank()
            self.emit("av.bank_debt", amount=-self.cash(BANK))
        else:
            self.s.bank_unpaid, self.s.bank_owed = self.s.bank_owed, []
            self.s.ending = self.s.ending or "bank_unsold"

    def move_title(self, name, src, dst):
        event = self.s.deeds.move(str(name), src, dst)
        self.emit_event(event)

    def buy(self, seat, name):
        """Blue square: the shop from the bank at PA (the decision offers it only with the cash)."""
        info = self.title(name)
        if self.cash(seat) < info.pa:
            raise IllegalAction("error.av.buy_cash", player=self.players[seat], title=self.title_label(name), pa=info.pa)
        self.transfer(seat, BANK, info.pa, "purchase")
        self.move_title(name, self.owner(name), seat)
        self.emit("av.bought", player=self.players[seat], title=self.title_label(name), pa=info.pa)

    def grant(self, seat, name):
        """An honorary card: the establishment free, unless it is already granted (AV10)."""
        name = str(name)
        if self.box is None:
            if self.kind_of(name) == SHOP:
                raise IllegalAction("error.av.not_establishment", title=name)
            learn(self, name, kind=ESTABLISHMENT)   # its R is read at its first landing
        owner = self.owner(name)
        if owner >= 0:
            self.emit("av.grant_none", player=self.players[seat], title=self.title_label(name),
                      holder=self.players[owner])
            return
        self.move_title(name, owner, seat)
        self.emit("av.granted", player=self.players[seat], title=self.title_label(name))

    def jump(self, seat, square):
        """A card moves the pawn: a wait at 60 is over (AV14)."""
        self.s.track.jump(seat, square)
        self.s.waiting[seat] = False

    def arrive(self, seat):
        """The pawn reaches 60 (AV4, AV7, AV14)."""
        self.emit("av.arrived", player=self.players[seat], trip=self.s.trips[seat])
        if not self.double:
            self.s.ending = self.s.ending or "goal"   # "Aussitôt qu'un joueur y est parvenu, le jeu est terminé"
            return
        if len(self.titles_held(seat)) >= self.needed(seat):
            self.release(seat)
        else:
            self.s.waiting[seat] = True
            self.emit("av.waiting", player=self.players[seat], titles=len(self.titles_held(seat)),
                      needed=self.needed(seat))

    def release(self, seat):
        """Enough titles at 60: the prime, then the second trip or the end (AV4)."""
        self.s.waiting[seat] = False
        self.bank_pays(seat, PRIME, "prime")
        if self.s.trips[seat] == 1:
            self.s.trips[seat] = 2
            self.s.track.jump(seat, self.start_square)
            self.emit("av.restart", player=self.players[seat], prime=PRIME)
        else:
            self.s.trips[seat] = 3
            self.emit("av.second_trip", player=self.players[seat], prime=PRIME)
            self.s.ending = self.s.ending or "goal"

    def eliminate(self, seat):
        """engines.core.debt's ruin: the player leaves the game, ranked last (AV11)."""
        self.s.out.append(seat)
        self.s.waiting[seat] = False
        self.emit("av.out", player=self.players[seat])
        if self.s.bank_owner == seat:
            # he no longer plays, so he no longer keeps the bank: its quarter at the end goes
            # to nobody, and a new shortage auctions it among the players still in
            self.s.bank_owner = None
            self.emit("av.bank_unowned", player=self.players[seat])

    def deed_auction(self, debtor, name):
        """engines.core.debt's AuctionDeed: the other players bid from over half PA (AV11)."""
        step = self.settings["bid_step"]
        return ShopAuction(debtor, name, OpenAuction(name, self.others(debtor), self.half_pa(name) + step, step))

    def start_turn(self, seat):
        from engines.avendre.steps import Turn
        waiting = self.s.waiting[seat]
        self.push(Turn(seat, "card" if waiting else "roll", square=self.s.track.positions[seat]))
        self.emit("av.turn", player=self.players[seat], square=self.s.track.positions[seat])

    # ------------------------------------------------------- after every action
    def advance(self):
        """The steps' own moves, after what concerns the whole game: a bank that owes is
        auctioned first; a pawn waiting at 60 goes on the moment its titles suffice; the
        end comes once the bank has paid."""
        while True:
            if not self.over and self.interrupt():
                continue
            step, depth = self.step, len(self.s.steps)
            result = step.advance(self)
            if result is not None:
                self.finish(step, result)
            elif self.step is step and len(self.s.steps) == depth and (self.over or not self.interrupt()):
                return

    def interrupt(self) -> bool:
        """Play what comes before the step on top; True when something changed."""
        s = self.s
        if BANK in s.ledger.unlimited and s.ledger[BANK] >= 0:
            s.ledger.unlimited = frozenset()   # the bank's debt is paid back: its cash is finite again
            self.emit("av.bank_solvent", cash=s.ledger[BANK])
            return True
        if s.bank_owed:
            if isinstance(self.step, BankAuction):
                return False
            self.push(BankAuction(OpenAuction("bank", self.in_game(), BANK_OPENING, self.settings["bid_step"])))
            self.emit("av.bank_auction", owed=sum(amount for _, amount in s.bank_owed), opening=BANK_OPENING)
            return True
        for seat in self.in_game():
            if s.waiting[seat] and len(self.titles_held(seat)) >= self.needed(seat):
                self.release(seat)   # "la moment the player holds 3 (or 6) titles" (AV14)
                return True
        if s.ending is None and not self.in_game():
            s.ending = "none_left"   # the last player left too: nobody is left to play
        # One player left plays on alone: the rulebook ends the game only at square 60.
        if s.ending is not None and not isinstance(self.step, BankAuction):
            self.push(Over(s.ending))
            self.emit("av.game_over", winners=", ".join(self.players[x] for x in self.winners()))
            return True
        return False

    # ------------------------------------------------------------ settlement
    def bank_final_cash(self):
        """The bank's cash once the loans are repaid (AV13: "les dettes de ce genre doivent
        d'abord être déduites")."""
        return self.cash(BANK) + sum(self.s.loans.owed(s) for s in self.in_game())

    def fortune(self, seat):
        """AV13: cash + half PA of the shops held (establishments 0) - loans at 1 100 each,
        + a quarter of the bank's cash for its last buyer (rounded down)."""
        shops = sum(self.title(n).pa // 2 for n in self.titles_held(seat) if self.kind_of(n) == SHOP)
        out = self.cash(seat) + shops - self.s.loans.owed(seat)
        if self.s.bank_owner == seat:
            out += max(0, self.bank_final_cash()) // 4
        return out

    def fortunes(self) -> dict:
        """Each seat's fortune (AV13). A player who left the game has nothing (cash to the
        creditor, titles to the bank, loans cancelled) and is ranked last (AV11): 0, or the
        lowest fortune of the players still in when that is below 0."""
        inside = {s: self.fortune(s) for s in self.in_game()}
        floor = min([0, *inside.values()])
        return {s: inside.get(s, floor) for s in range(len(self.players))}

    def prices(self) -> dict:
        return {}   # no market: the report charts the fortunes only

    # ---------------------------------------------------------------- refusals
    def refusal(self, a, decision, field):
        out = out_refusal(self, a, field, "error.av.out")   # before "whose turn": he has none any more
        if out is not None:
            return out
        seat = getattr(a, "player", None)
        # whose turn it is, only for an action offered now: else when it is offered says more
        if (seat is not None and decision.actor is not None and 0 <= seat < len(self.players)
                and seat != decision.actor and not self.ACTIONS.has(a.kind, "correction")
                and decision.option(a.kind) is not None):
            return IllegalAction("error.av.not_turn", player=self.players[seat], turn=self.players[decision.actor])
        return self.step.refusal(self, a, decision)

    # ---------------------------------------------------------- corrections
    def anytime_options(self):
        """Corrections (engines/avendre/corrections.py) until the game is over."""
        return () if self.over else self.corrections()


# ------------------------------------------------------------------------ views
def view(game: AVendre) -> dict:
    """The game's part of the state as JSON (what `corbeille script` prints, in the core
    envelope: engines/core/table.py). Nothing is hidden in this game: the banknotes lie on
    the table, so `private` is empty."""
    s, names = game.s, game.players
    players = game.player_rows(lambda seat: {
        "square": s.track.positions[seat],
        "trip": min(s.trips[seat], 2),
        "waiting": s.waiting[seat],
        "titles": [{"title": game.title_label(n), "kind": game.kind_of(n), "half_pa": game.half_pa(n)
                    if game.kind_of(n) == SHOP else 0} for n in game.titles_held(seat)],
        "titles_count": len(game.titles_held(seat)),
        "titles_needed": game.needed(seat) if game.double and s.trips[seat] <= 2 else None,
        "loans": len(s.loans.of(seat)),
        "loans_owed": s.loans.owed(seat),
        "out": seat in s.out,
        "fortune": game.fortune(seat),
    })
    top = game.step
    auction = None
    if isinstance(top, (ShopAuction, BankAuction)):
        a = top.auction
        auction = {"item": "bank" if isinstance(top, BankAuction) else game.title_label(top.title),
                   "seller": names[top.seller] if isinstance(top, ShopAuction) else None,
                   "high": a.high, "high_bidder": None if a.high_bidder is None else names[a.high_bidder],
                   "minimum": a.minimum}
    turn = top.actor(game) if not game.over else None
    out = {
        "settings": dict(game.settings),
        "step": top.name,
        "turn": None if turn is None else names[turn],
        "players": players,
        "bank": {"cash": game.cash(BANK), "owner": None if s.bank_owner is None else names[s.bank_owner],
                 "debt": max(0, -game.cash(BANK)), "owed": [[names[x], amount] for x, amount in s.bank_owed],
                 "unpaid": [[names[x], amount] for x, amount in s.bank_unpaid]},
        "owners": {n: names[d.owner] for n, d in s.deeds.items.items() if d.owner >= 0},
        "entered": {n: list(v) for n, v in s.entered.items()},
        "read": {str(sq): list(v) for sq, v in sorted(s.read.items())},
        "auction": auction,
        "last_die": None if s.last_die is None else {"player": names[s.last_die[0]], "die": s.last_die[1]},
    }
    if game.over:
        out["ending"] = top.reason
    return out
