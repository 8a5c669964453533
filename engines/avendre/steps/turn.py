"""One player's turn (AV8, AV9, AV10, AV14): the die, the square, its payment, its card.

"On joue avec un seul dé": the pawn moves the die's points (past 60 they are lost: the
57 + 4 example stops at 60). The square then applies (AV9):

- yellow: the player may ask for a card;
- green, reached by the die: "avance sans autre formalité dans la case suivante", and
  that square applies in turn (greens chain);
- blue: unowned, buy it at PA (offered only with the cash) or pay R to the bank as a tax;
  owned by another, R to him; his own, nothing; then a card, always ("a l'obligation de
  réclamer une carte des charges");
- red: R to the bank or to the establishment's holder (his own: nothing); then a card;
- 60: the end of a trip (the game's `arrive`).

A pawn waiting at 60 in the double game rolls no die: its turn is a card (AV14).
Payments are made in order; a player who cannot pay enters the debt procedure (AV11)
and the turn goes on when it is over ("payment first, then the card"). Without a board
(AV15) the operator reads each square the first time a pawn reaches it, and a title's
values when a turn first needs them: those questions are steps/reading.py, which this
step extends.
"""
from dataclasses import field

from engines.avendre.no_board import learn, likely_title
from engines.avendre.rules import CARD_MAX, COIN, ESTABLISHMENT, MAX_AMOUNT, SHOP, SQUARES, TITLES
from engines.avendre.steps.debt import AVDebt
from engines.avendre.steps.play import TurnOver
from engines.avendre.steps.reading import SquareReading
from engines.core.cards import card_options, card_transfers
from engines.core.chance import SIX
from engines.core.decision import Choice, Decision, Fixed, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.records import record


@record
class Turn(SquareReading):
    seat: int
    phase: str                 # roll, square, colour, income, amounts (no board), yellow, blue, card, pay, done
    square: int = 0            # the square whose rule applies
    by_card: bool = False      # reached by a card's move
    title: str | None = None   # the title on that square
    payments: list = field(default_factory=list)   # [payer, payee, amount, reason] still to make, in order
    then: str = "done"         # the phase once the payments are made
    name = "turn"

    def actor(self, game):
        return self.seat

    def turn_start(self, game):
        """Until its die is rolled (or, waiting at 60, its card drawn)."""
        starts = self.phase == "roll" or self.phase == "card" and game.s.waiting[self.seat] and not self.by_card
        return self.seat if starts else None

    # ------------------------------------------------------------ decision
    def decision(self, game):
        seat, name = self.seat, game.players[self.seat]
        me = Fixed(seat)
        if self.phase == "roll":
            return Decision("prompt.av.roll", {"player": name, "square": game.s.track.positions[seat],
                                               "trip": game.s.trips[seat]}, seat,
                            (Option("roll", {"die": SIX}),))   # the device draws it from here (core chance)
        if self.phase == "square":
            return Decision("prompt.av.square", {"player": name, "square": self.square,
                                                 "likely": likely_title(game, self.square)}, seat,
                            (Option("learn_square", {"title": IntRange(0, TITLES)}),))
        if self.phase == "colour":
            return Decision("prompt.av.colour", {"player": name, "square": self.square}, seat,
                            (Option("learn_colour", {"colour": Choice(("YELLOW", "GREEN"))}),))
        if self.phase == "income":
            return Decision("prompt.av.income", {"player": name, "title": game.title_label(self.title)}, seat,
                            (Option("income", {"r": IntRange(COIN, MAX_AMOUNT, COIN)}),
                             # the R is all a whole card would add here: a second entry would only
                             # turn the R's own screen into a menu; the earlier version's reading has it
                             *(self.amounts_option(game) if game.each_landing else ())))
        if self.phase == "amounts":
            return Decision("prompt.av.amounts", {"player": name, "title": game.title_label(self.title)}, seat,
                            self.amounts_option(game))
        if self.phase == "yellow":
            return Decision("prompt.av.yellow", {"player": name, "square": self.square}, seat,
                            (Option("card", {"player": me}), Option("no_card", {"player": me})))
        if self.phase == "blue":
            return self.blue_decision(game)
        if self.phase == "card":
            return Decision("prompt.av.card", {"player": name, "square": game.s.track.positions[seat]}, seat,
                            self.card_options(game))
        raise AssertionError(f"a turn waits in phase {self.phase!r}")

    def blue_decision(self, game):
        """An unowned blue square: buy at PA (offered only with the cash) or pay R as a tax.
        Without a board (AV15) a value not read yet is asked with the answer that needs it:
        the PA with the purchase (`buy_at`), the R with the tax; and a title whose colour
        is not known yet may be an establishment on a red square (`income`: its R)."""
        seat, name, me = self.seat, game.players[self.seat], Fixed(self.seat)
        cash, title = game.cash(seat), self.title
        pa = game.title(title).pa if game.box is not None else game.read_value(title, 1)
        r = game.title(title).r if game.box is not None else game.read_value(title, 2)
        options = []
        if pa is not None and cash >= pa:
            options.append(Option("buy", {"player": me}))
        elif pa is None and cash >= COIN:
            options.append(Option("buy_at", {"player": me, "pa": IntRange(COIN, cash - cash % COIN, COIN)}))
        options.append(Option("tax", {"player": me, "r": Fixed(None) if r is not None else IntRange(COIN, MAX_AMOUNT, COIN)}))
        if game.box is None and game.kind_of(title) is None:
            options.append(Option("income", {"r": IntRange(COIN, MAX_AMOUNT, COIN)}))
        if len(options) > 1 or game.each_landing:   # never a menu where one answer had its own screen
            options += self.amounts_option(game)
        if pa is None or r is None:
            return Decision("prompt.av.blue_read", {"player": name, "title": game.title_label(title)}, seat,
                            tuple(options))
        return Decision("prompt.av.blue", {"player": name, "title": game.title_label(title), "pa": pa, "r": r}, seat,
                        tuple(options))

    def card_options(self, game):
        seat, me = self.seat, Fixed(self.seat)
        amounts = IntRange(COIN, CARD_MAX, COIN)
        options = [Option("card_none", {"player": me}), *card_options(seat, COIN, CARD_MAX)]
        options.append(Option("card_grant", {"player": me, "title": Choice(game.titles_of_kind(ESTABLISHMENT))}))
        greens = game.green_squares()
        options.append(Option("card_green", {"player": me, "square": greens, "amount": amounts}))
        options.append(Option("card_tax", {"player": me, "title": Choice(game.titles_of_kind(SHOP)), "amount": amounts}))
        square = game.s.track.positions[seat]
        if square > 1:
            options.append(Option("card_back", {"player": me, "squares": IntRange(1, square - 1)}))
        return tuple(options)

    def refusal(self, game, a, decision):
        if a.kind == "buy" and self.phase == "blue" and a.player == self.seat:
            info = game.title(self.title)
            return IllegalAction("error.av.buy_cash", player=game.players[self.seat], title=game.title_label(self.title),
                                 pa=info.pa)
        if a.kind == "buy_at" and self.phase == "blue" and a.player == self.seat and isinstance(a.pa, int) \
                and a.pa > game.cash(self.seat):
            return IllegalAction("error.av.buy_cash", player=game.players[self.seat], title=game.title_label(self.title),
                                 pa=a.pa)
        if a.kind == "roll" and self.phase == "card" and game.s.waiting[self.seat]:
            return IllegalAction("error.av.waiting", player=game.players[self.seat])
        return None

    # ------------------------------------------------------------ handlers
    def on_roll(self, game, a):
        game.s.last_die = [self.seat, a.die]
        move = game.s.track.move(self.seat, a.die)
        game.emit("av.rolled", player=game.players[self.seat], die=a.die, start=move.start, end=move.end)
        self.reach(game, move.end, by_card=False)

    def on_card(self, game, a):
        game.emit("av.asks_card", player=game.players[self.seat])
        self.phase = "card"

    def on_no_card(self, game, a):
        game.emit("av.no_card", player=game.players[self.seat])
        self.phase = "done"

    def on_buy(self, game, a):
        game.buy(self.seat, self.title)
        self.phase = "card"

    def on_tax(self, game, a):
        if a.r is not None:
            learn(game, self.title, kind=SHOP, r=a.r)
        info = game.title(self.title)
        game.emit("av.tax", player=game.players[self.seat], title=game.title_label(self.title), amount=info.r)
        self.pay(self.seat, BANK, info.r, "tax", then="card")

    # Cards (AV10) ---------------------------------------------------------
    def on_card_none(self, game, a):
        game.emit("av.card_none", player=game.players[self.seat])
        self.phase = "done"

    def card_money(self, game, a):
        game.emit("av." + a.kind, player=game.players[self.seat], amount=a.amount)
        for payer, payee, amount in card_transfers(a, game.others(self.seat)):
            self.payments.append([payer, payee, amount, "card"])
        self.phase, self.then = "pay", "done"

    on_card_pay = on_card_receive = on_card_pay_each = on_card_collect = card_money

    def on_card_grant(self, game, a):
        game.grant(self.seat, a.title)
        self.phase = "done"

    def on_card_green(self, game, a):
        game.jump(self.seat, a.square)
        game.emit("av.card_green", player=game.players[self.seat], square=a.square, amount=a.amount)
        self.pay(self.seat, BANK, a.amount, "card", then="done")

    def on_card_tax(self, game, a):
        owner = game.owner(a.title)
        payee = owner if owner >= 0 else BANK
        game.emit("av.card_tax", player=game.players[self.seat], title=game.title_label(a.title), amount=a.amount,
                  to=game.account_name(payee))
        if payee == self.seat:   # his own shop: he would pay himself
            self.phase = "done"
            return
        self.pay(self.seat, payee, a.amount, "card", then="done")

    def on_card_back(self, game, a):
        square = game.s.track.positions[self.seat] - a.squares
        game.jump(self.seat, square)
        game.emit("av.card_back", player=game.players[self.seat], squares=a.squares, square=square)
        self.reach(game, square, by_card=True)

    # ------------------------------------------------------------ the square's rule
    def pay(self, payer, payee, amount, reason, then):
        self.payments.append([payer, payee, amount, reason])
        self.phase, self.then = "pay", then

    def reach(self, game, square, by_card):
        """The pawn stands on `square`: its rule applies."""
        self.square, self.by_card, self.title = square, by_card, None
        if square == SQUARES:
            game.arrive(self.seat)
            self.phase = "done"
        elif game.box is None and square in game.s.read and not game.each_landing:   # the box remembers it
            colour, title = game.s.read[square]
            self.apply(game, colour if not title else self.colour_of(game, str(title)), str(title) if title else None)
        elif game.box is None:
            self.phase = "square"       # the operator reads the square (AV15)
        else:
            sq = game.box.square(square)
            self.apply(game, sq.colour, str(sq.title) if sq.title else None)

    def apply(self, game, colour, title):
        seat = self.seat
        if colour == "green":
            if self.by_card:            # reached by a card moving the pawn back: nothing more
                self.phase = "done"
                return
            move = game.s.track.move(seat, 1)   # "avance sans autre formalité dans la case suivante"
            game.emit("av.green", player=game.players[seat], start=move.start, end=move.end)
            self.reach(game, move.end, by_card=False)
            return
        if colour == "yellow":
            self.phase = "done" if self.by_card else "yellow"
            return
        if self.by_card and not game.card_move_lands:
            self.phase = "done"
            return
        self.title = title
        owner, info = game.owner(title), game.title(title)
        r_unread = game.box is None and game.read_value(title, 2) is None
        if owner == seat and game.each_landing and r_unread:
            self.phase = "amounts"      # the earlier version read a title whole at its landing, one's own too
        elif owner == seat:
            game.emit("av.own_square", player=game.players[seat], title=game.title_label(title))
            self.phase = "card"
        elif owner >= 0 and r_unread:
            self.phase = "income"       # its R is read the first time it is paid
        elif owner >= 0:
            game.emit("av.income", player=game.players[seat], title=game.title_label(title), amount=info.r,
                      to=game.players[owner])
            self.pay(seat, owner, info.r, "income", then="card")
        elif colour in ("blue", None):  # None: a title whose colour is not read yet
            self.phase = "blue"
        elif r_unread:
            self.phase = "income"
        else:
            game.emit("av.income", player=game.players[seat], title=game.title_label(title), amount=info.r,
                      to=game.bank_label())
            self.pay(seat, BANK, info.r, "income", then="card")

    # ------------------------------------------------------------ automatic moves
    def advance(self, game):
        while True:
            if game.eliminated(self.seat) or game.s.ending:
                return TurnOver(self.seat)
            if game.s.bank_owed:
                return None             # the bank is auctioned first (AV12), then pays
            if self.payments:
                payer, payee, amount, reason = self.payments.pop(0)
                if payer == BANK:
                    game.bank_pays(payee, amount, reason)
                elif game.eliminated(payer) or not amount:
                    pass
                elif game.cash(payer) >= amount:
                    game.transfer(payer, payee, amount, reason)
                else:
                    game.push(AVDebt(payer, [[payee, amount]]))
                    return None
                continue
            if self.phase == "pay":
                self.phase = self.then
                continue
            if self.phase == "done":
                return TurnOver(self.seat)
            return None

    def resume(self, game, result):
        return None   # a debt is over (paid, or the debtor left): advance goes on
