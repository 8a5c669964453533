"""A player's turn (MB3-MB9): before the roll they may sell; a double lets them buy one or
two lots au cours; then the square: a Titre square's purchases, a card's effect (price,
pay, receive, pay each, forced sale, rumour), a trade; the operator ends the turn."""
from engines.core.decision import Choice, Decision, Fixed, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.per_game import per_game
from engines.core.records import record
from engines.core.rounds import SpeakingRound, clockwise
from engines.maxibourse.board import correct_pawn, move_pawn, square_of
from engines.maxibourse.options import company_choice, target_names, trade_option
from engines.maxibourse.rules import AMOUNT_STEP, MAX_AMOUNT, PRICE_STEP
from engines.maxibourse.steps.base import Frame
from engines.maxibourse.steps.debt import ForcedSale
from engines.maxibourse.steps.payday import pay
from engines.maxibourse.steps.settlement import Settlement
from engines.maxibourse.steps.titre import TitreSquare


_AMOUNT = IntRange(AMOUNT_STEP, MAX_AMOUNT, AMOUNT_STEP)
_END = Option("end")


@per_game
def _card_options(game, seat, everyone):
    """The square's card effects for `seat` with `everyone` still in (a tuple): the same
    options for the whole of a turn, so built once per game for each (engines/core/per_game.py)."""
    players = Choice(everyone)
    return (
        Option("price", {"target": Choice(target_names(game)), "delta": IntRange(-1000, 1000, PRICE_STEP)}),
        Option("pay", {"player": players, "amount": _AMOUNT}),
        Option("receive", {"player": players, "amount": _AMOUNT}),
        Option("payeach", {"player": players, "amount": _AMOUNT}),
        Option("forced", {"player": Fixed(seat), "amount": _AMOUNT}),
        Option("rumour", {"player": Fixed(seat)}),
    )


@record
class Turn(Frame):
    seat: int
    phase: str = "start"  # start (may sell) -> double (after a double) -> square
    titre_done: bool = False
    card: bool = False     # a card's effect was entered on the square (no trade then: 1-2, 4)

    def actor(self, game):
        return self.seat

    def turn_start(self, game):
        """Before the roll (a sale made before it stays made)."""
        return self.seat if self.phase == "start" else None

    def decision(self, game):
        seat, p = self.seat, {"player": game.players[self.seat]}
        if self.phase == "start":
            opts = [Option("roll", {"d1": IntRange(1, 6), "d2": IntRange(1, 6)})]
            held = game.sellable(seat)
            if held:
                opts.append(Option("sell", {"player": Fixed(seat), "company": Choice(held),
                                            "lots": IntRange(1, game.box.lots_per_company)}))
            if game.settings["payday"] == "manual":
                opts.append(Option("payday"))
            return Decision("prompt.mb.turn_start", p, seat, tuple(opts + trade_option(game, seat)))
        if self.phase == "double":
            open_ = game.s.lots.in_bank(game.companies)
            return Decision("prompt.mb.double", p, seat, (
                Option("double", {"player": Fixed(seat), "company": Choice(open_), "lots": Choice((1, 2))}),
                Option("pass", {"player": Fixed(seat)})))
        opts = []
        open_ = game.s.lots.in_bank(game.companies)
        if not self.titre_done and open_ and game.can_trade(seat):  # a sanctioned lander trades nothing
            opts.append(Option("titre", {"square": company_choice(game), "company": Choice(open_ + (None,))}))
        opts += [
            *_card_options(game, seat, tuple(game.in_game())),
            *trade_option(game, seat),
            _END,
        ]
        square = square_of(game, seat)
        if square is not None:  # the board's square: the box offers it first (the operator confirms or corrects)
            p = {**p, "square": square}
        return Decision("prompt.mb.square", p, seat, tuple(opts))

    def resume(self, game, result):
        if game.s.ruined[self.seat]:  # ruined during their own turn: the turn ends
            game.s.steps.pop()
            game.next_turn(self.seat)

    # ------------------------------------------------------------ before the square
    def on_sell(self, game, a):
        game.offer_lots(a)

    def on_payday(self, game, a):  # the "manual" setting: the operator calls payday
        pay(game)

    def on_roll(self, game, a):
        move_pawn(game, self.seat, a.d1 + a.d2)
        square = square_of(game, self.seat)
        game.emit("mb.rolled", player=game.players[self.seat], d1=a.d1, d2=a.d2,
                  **({} if square is None else {"square": square}))
        double = a.d1 == a.d2 and game.can_trade(self.seat) and bool(game.s.lots.in_bank(game.companies))
        self.phase = "double" if double else "square"

    def on_double(self, game, a):
        if game.s.lots.bank(a.company) < a.lots:
            raise IllegalAction("error.mb.bank_lots", company=a.company, lots=a.lots, left=game.s.lots.bank(a.company))
        self.phase = "square"
        game.push(Settlement(a.company, BANK, [(a.player, a.lots)], au_cours=True))

    def on_pass(self, game, a):
        self.phase = "square"

    def on_end(self, game, a):
        game.s.steps.pop()
        game.next_turn(self.seat)

    # ------------------------------------------------------------ the square
    def on_titre(self, game, a):
        company = a.company or a.square
        if game.s.lots.bank(company) == 0:
            raise IllegalAction("error.mb.no_lots_left", company=company)
        self.titre_done = True
        correct_pawn(game, self.seat, a.square)
        order = clockwise(self.seat, [s for s in range(len(game.players)) if game.can_trade(s)])
        game.emit("mb.titre", player=game.players[self.seat], company=company, au_cours=company == a.square)
        game.push(TitreSquare(company, self.seat, company == a.square, SpeakingRound(order)))

    def on_price(self, game, a):
        self.card = True
        game.change_prices(a.target, a.delta, "card")

    def on_rumour(self, game, a):
        self.card = True
        game.s.rumours[a.player] += 1
        game.emit("mb.rumour_drawn", player=game.players[a.player])

    def on_receive(self, game, a):
        self.card = True
        game.transfer(BANK, a.player, a.amount, "card")

    def on_pay(self, game, a):
        self.card = True
        game.owe(a.player, [(BANK, a.amount)])

    def on_payeach(self, game, a):
        self.card = True
        game.owe(a.player, [(s, a.amount) for s in game.in_game() if s != a.player])

    def on_forced(self, game, a):
        self.card = True
        forced = ForcedSale.of(a.player, a.amount)
        game.push(forced)
        forced.check(game)

    def on_trade(self, game, a):
        turn = self.seat
        if turn not in (a.seller, a.buyer) or a.seller == a.buyer:
            raise IllegalAction("error.mb.trade_parties", player=game.players[turn])
        if self.phase != "start":
            self.check_trade_after_roll(game, a)
        if a.price < game.price(a.company):
            raise IllegalAction("error.mb.trade_price", company=a.company, price=a.price, current=game.price(a.company))
        if game.s.lots.of(a.company, a.seller) < a.lots:
            raise IllegalAction("error.not_enough_lots", company=a.company, lots=a.lots,
                                held=game.s.lots.of(a.company, a.seller))
        amount = a.price * game.shares * a.lots
        if game.cash(a.buyer) < amount:  # an agreed deal, not a speaking round: no imprudence
            raise IllegalAction("error.mb.trade_cash", player=game.players[a.buyer], amount=amount, cash=game.cash(a.buyer))
        game.set_price(a.company, a.price, "trade")
        game.transfer(a.buyer, a.seller, amount, "trade")
        game.move_lots(a.company, a.seller, a.buyer, a.lots)

    def check_trade_after_roll(self, game, a):
        """After the roll the book allows one trade only: on a Titre square whose lots are all
        held by players, the lander may offer to buy them from the holders (1-7). Selling is
        forbidden while a Titre is traded (1-2) and a Politique square allows no transaction
        at all (4); a card entered this turn (price change, pay...) means the square was not
        a Titre square."""
        if self.titre_done:
            raise IllegalAction("error.mb.trade_titre", player=game.players[self.seat])
        if self.card:
            raise IllegalAction("error.mb.trade_card", player=game.players[self.seat])
        if a.buyer != self.seat or game.s.lots.bank(a.company) > 0:
            raise IllegalAction("error.mb.trade_after_roll", player=game.players[self.seat], company=a.company,
                                left=game.s.lots.bank(a.company))
