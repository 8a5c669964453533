"""The operator's corrections in A Vendre!, until the game is over, for the players still
in: one who left gave everything away and is ranked last (AV11), so cash, a title or a pawn
a correction gave him would stay outside the game.

Besides the players' cash (engines/core/corrections.py: from or to the bank's till, which
must hold it), the kinds of state the operator corrects (core offers and applies them):
a pawn put on a square, nothing applied (`set_pawn`); a title given to a player, from the
bank or another player (`give_title`), or taken back to the bank (`take_title`); without a
board (AV15), a square read wrongly forgotten, read again at its next landing
(`forget_square`), and a title's PA and R as printed (`set_title`, PA 0 for an
establishment; money already paid is corrected with `adjust_cash`). A title under the
hammer changes hands only by the auction.

Whose turn it is (core, at the start of a turn), a player's loans of 1 000 repaid 1 100
(`adjust_loans`, recorded or cancelled: no cash moves), the trip he is on in the double game
(`set_trip`, 1 or 2: the titles he needs at 60 follow, AV4) and who owns the bank
(`set_bank_owner`, `clear_bank_owner`: its last buyer, who takes a quarter of its cash at the
end, AV12). The bank's till is its cash: corrected with the players' cash, from or to it.
"""
from engines.avendre.no_board import learn
from engines.avendre.rules import LOAN, LOAN_REPAYMENT, COIN, ESTABLISHMENT, MAX_AMOUNT, SHOP, SQUARES, TITLES
from engines.avendre.steps import ShopAuction
from engines.core.corrections import Correction, tell_correction
from engines.core.decision import Choice, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.per_game import per_game
from engines.core.records import record

MAX_LOANS = 20       # the most loans one correction records or cancels
TITLE_NUMBERS = Choice(tuple(str(n) for n in range(1, TITLES + 1)))


@record(frozen=True)
class Pawn(Correction):
    kind = "set_pawn"

    def option(self, game, seats):
        return pawn_option(game, seats)

    def apply(self, game, a):
        game.s.track.jump(a.player, a.square)
        game.s.waiting[a.player] = False
        tell_correction(game, a.player, "pawn", a.square, a.reason)


@record(frozen=True)
class GiveTitle(Correction):
    kind = "give_title"

    def option(self, game, seats):
        return give_title_option(game, seats)

    def refusal(self, game, a):
        if game.owner(a.title) == a.player:
            return IllegalAction("error.av.title_held", player=game.players[a.player], title=game.title_label(a.title))
        return auctioned(game, a.title)

    def apply(self, game, a):
        game.move_title(a.title, game.owner(a.title), a.player)
        tell_correction(game, a.player, game.title_label(a.title), 1, a.reason)


@record(frozen=True)
class TakeTitle(Correction):
    """Offered while a player holds a title."""
    kind = "take_title"
    reads_state = True

    def option(self, game, seats):
        held = tuple(n for n, d in game.s.deeds.items.items() if d.owner >= 0)
        return Option("take_title", {"title": Choice(held)}) if held else None

    def refusal(self, game, a):
        if game.owner(a.title) < 0:
            return IllegalAction("error.av.title_free", title=game.title_label(a.title))
        return auctioned(game, a.title)

    def apply(self, game, a):
        owner = game.owner(a.title)
        game.move_title(a.title, owner, BANK)
        tell_correction(game, owner, game.title_label(a.title), -1, a.reason)


@record(frozen=True)
class ForgetSquare(Correction):
    """Without a board, once a square was read."""
    kind = "forget_square"
    reads_state = True

    def option(self, game, seats):
        if game.box is not None or not game.s.read:
            return None
        return Option("forget_square", {"square": Choice(tuple(sorted(game.s.read)))})

    def apply(self, game, a):
        game.s.read.pop(a.square)
        game.emit("av.square_forgotten", square=a.square, reason=a.reason)


@record(frozen=True)
class SetTitle(Correction):
    """Without a board: a title's PA and R as printed (PA 0: an establishment), in place of
    what was read."""
    kind = "set_title"

    def option(self, game, seats):
        return None if game.box is not None else set_title_option(game)

    def refusal(self, game, a):
        refused = auctioned(game, a.title)
        if refused is not None:
            return refused
        kind = SHOP if a.pa else ESTABLISHMENT
        if kind == SHOP and game.owner(a.title) >= 0 and game.kind_of(a.title) == ESTABLISHMENT \
                or kind == ESTABLISHMENT and game.owner(a.title) >= 0 and game.kind_of(a.title) == SHOP:
            return IllegalAction("error.av.set_title_held", title=a.title, player=game.players[game.owner(a.title)])
        return None

    def apply(self, game, a):
        entered = game.s.entered.setdefault(str(a.title), [None, None, None])
        entered[0] = None   # the correction decides the kind
        learn(game, a.title, kind=SHOP if a.pa else ESTABLISHMENT, pa=a.pa, r=a.r)
        game.emit("av.title_corrected", title=a.title, pa=a.pa, r=a.r, reason=a.reason)


def auctioned(game, name):
    """A title under the hammer changes hands only by the auction."""
    if isinstance(game.step, ShopAuction) and game.step.title == str(name):
        return IllegalAction("error.av.title_auctioned", title=game.title_label(name))
    return None


@per_game
def pawn_option(game, seats):
    return Option("set_pawn", {"player": Choice(seats), "square": IntRange(0, SQUARES - 1)})


@per_game
def give_title_option(game, seats):
    return Option("give_title", {"player": Choice(seats), "title": TITLE_NUMBERS})


@per_game
def set_title_option(game):
    return Option("set_title", {"title": TITLE_NUMBERS, "pa": IntRange(0, MAX_AMOUNT, COIN),
                                "r": IntRange(COIN, MAX_AMOUNT, COIN)})


@record(frozen=True)
class Loans(Correction):
    kind = "adjust_loans"

    def option(self, game, seats):
        return loans_option(game, seats)

    def refusal(self, game, a):
        if 0 <= a.player < len(game.players) and -a.delta > len(game.s.loans.of(a.player)):
            return IllegalAction("error.av.loans_held", player=game.players[a.player], loans=-a.delta,
                                 held=len(game.s.loans.of(a.player)))
        return None

    def apply(self, game, a):
        for _ in range(a.delta):
            game.emit_event(game.s.loans.take(a.player, LOAN, LOAN_REPAYMENT))
        if a.delta < 0:
            game.s.loans.cancel(a.player, -a.delta)
        tell_correction(game, a.player, "loans", a.delta, a.reason)


@record(frozen=True)
class Trip(Correction):
    """The double game's trips."""
    kind = "set_trip"

    def option(self, game, seats):
        return trip_option(game, seats) if game.double else None

    def apply(self, game, a):
        game.s.trips[a.player] = a.trip
        tell_correction(game, a.player, "trip", a.trip, a.reason)


@record(frozen=True)
class BankOwner(Correction):
    kind = "set_bank_owner"

    def option(self, game, seats):
        return bank_owner_option(game, seats)

    def refusal(self, game, a):
        if a.player == game.s.bank_owner:
            return IllegalAction("error.av.bank_owner_same", player=game.players[a.player])
        return None

    def apply(self, game, a):
        game.s.bank_owner = a.player
        tell_correction(game, a.player, "bank_owner", "+", a.reason)


@record(frozen=True)
class NoBankOwner(Correction):
    kind = "clear_bank_owner"

    def option(self, game, seats):
        return NO_OWNER

    def refusal(self, game, a):
        if game.s.bank_owner is None:
            return IllegalAction("error.av.bank_owner_none")
        return None

    def apply(self, game, a):
        owner, game.s.bank_owner = game.s.bank_owner, None
        tell_correction(game, owner, "bank_owner", "-", a.reason)


NO_OWNER = Option("clear_bank_owner", {})


@per_game
def loans_option(game, seats):
    return Option("adjust_loans", {"player": Choice(seats), "delta": IntRange(-MAX_LOANS, MAX_LOANS)})


@per_game
def trip_option(game, seats):
    return Option("set_trip", {"player": Choice(seats), "trip": IntRange(1, 2)})


@per_game
def bank_owner_option(game, seats):
    return Option("set_bank_owner", {"player": Choice(seats)})
