"""The questions of A Vendre!'s turn without a board (AV15): the operator reads each square
the first time a pawn reaches it (the title printed on it, `learn_square`, or its colour
when it has none, `learn_colour`), which the box remembers; a title's PA and R are read when
the turn first needs them: the PA with the purchase (`buy_at`), the R with the tax or the
first time it is paid (`income`, which also tells a red establishment from a blue shop), or
the whole card at once (`learn_title`). These are A Vendre!'s box data learned at the table
(engines/core/learning.py, LEARNABLES). The turn (steps/turn.py) is this step with the
board's rules: it applies a square's colour (`apply`) and makes the payments (`pay`) these
answers lead to.
"""
from engines.avendre.no_board import learn, square_of
from engines.avendre.rules import COIN, ESTABLISHMENT, MAX_AMOUNT, SHOP
from engines.core.decision import Choice, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.steps import Step


class SquareReading(Step):
    def on_learn_square(self, game, a):
        """Without a board: the title read on the square reached (0: none, its colour next);
        the box remembers the square, and asks what the title costs when the turn needs it."""
        if not a.title:
            self.phase = "colour"
            return
        elsewhere = square_of(game, a.title)
        if elsewhere is not None and elsewhere != self.square:
            raise IllegalAction("error.av.title_square", title=a.title, square=elsewhere)
        game.s.read[self.square] = [None, a.title]
        self.apply(game, self.colour_of(game, str(a.title)), str(a.title))

    @staticmethod
    def colour_of(game, title):
        """A title's square colour as far as it is known (None: not read yet)."""
        return {SHOP: "blue", ESTABLISHMENT: "red"}.get(game.kind_of(title))

    def on_learn_colour(self, game, a):
        game.s.read[self.square] = [a.colour.lower(), 0]
        self.apply(game, a.colour.lower(), None)

    def on_buy_at(self, game, a):
        """Without a board: the shop bought at the PA read on its square."""
        learn(game, self.title, kind=SHOP, pa=a.pa)
        game.buy(self.seat, self.title)
        self.phase = "card"

    def on_income(self, game, a):
        """Without a board: the R read on the square, paid to the holder, or to the bank (an
        unowned title here is an establishment: an unowned shop is bought or taxed)."""
        owner = game.owner(self.title)
        learn(game, self.title, kind=ESTABLISHMENT if owner < 0 else None, r=a.r)
        payee = owner if owner >= 0 else BANK
        game.emit("av.income", player=game.players[self.seat], title=game.title_label(self.title), amount=a.r,
                  to=game.account_name(payee))
        self.pay(self.seat, payee, a.r, "income", then="card")

    def on_learn_title(self, game, a):
        """Without a board: the whole title read at once; the landing then goes on as on a
        title read before (a shop bought with `buy` and its confirmation, R paid at once)."""
        title, kind = self.title, SHOP if a.colour == "BLUE" else ESTABLISHMENT
        # the earlier version's checks: a shop has a PA, an establishment none ("ne sont pas
        # à vendre"); and a value read before stays the one printed (set_title corrects it)
        if kind == SHOP and a.pa <= 0:
            raise IllegalAction("error.av.shop_pa", title=title)
        if kind == ESTABLISHMENT and a.pa:
            raise IllegalAction("error.av.establishment_pa", title=title)
        _, pa, r = game.s.entered.get(title, (None, None, None))
        if kind == SHOP and pa not in (None, a.pa) or r not in (None, a.r):
            raise IllegalAction("error.av.amounts_read", title=title, pa="?" if pa is None else pa,
                                r="?" if r is None else r)
        learn(game, title, kind=kind, pa=a.pa, r=a.r)
        self.apply(game, self.colour_of(game, self.title), self.title)

    def amounts_option(self, game):
        """Without a board, a title whose values are not all read: the whole card at once
        (`learn_title`), after the answers that read only what the turn needs (the blue
        decision), so the common path is not longer. The colour is the one known, when it
        is; the domains are the earlier version's (PA and R from 0), whose journals replay
        through this option; `on_learn_title` checks what a shop and an establishment allow."""
        title = self.title
        if game.box is not None or title is None or None not in game.s.entered.get(title, (None, None, None)):
            return ()
        known = game.kind_of(title)
        colours = ("BLUE",) if known == SHOP else ("RED",) if known == ESTABLISHMENT else ("BLUE", "RED")
        return (Option("learn_title", {"colour": Choice(colours), "pa": IntRange(0, MAX_AMOUNT, COIN),
                                   "r": IntRange(0, MAX_AMOUNT, COIN)}),)
