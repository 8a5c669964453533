"""The operator's corrections in Maxi Bourse: what a table may find wrong and put right.

Besides the players' cash (engines/core/corrections.py), the kinds of state the operator
corrects (engines/core/corrections.py says how core offers and applies them): a player's
lots, to or from the bank (`adjust_lots`); a company's price (`set_price`); and a nominal
price of the box file found wrong (`set_nominal`: the price moves by the difference), from
the set-up on and until the session is closed, after which prices no longer move. Cash and
lots are offered for the players still in only: a ruined player gave everything back to the
bank and is never paid again (MB8), so what a correction gave him would stay outside the
game (the refusal: refusals.py).

The table's progress: whose turn it is (core, before the roll, nothing sold yet), a pawn on
the box file's board (`set_pawn`), the turns a player still skips (`set_skip`, MB8) and the
round under way (`set_round`: the paydays and the agreed rounds count from it).
"""
from engines.core.corrections import Correction, tell_correction
from engines.core.limits import MAX_ROUNDS
from engines.core.decision import Choice, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.learning import remember
from engines.core.ledger import BANK
from engines.core.per_game import per_game
from engines.core.records import record
from engines.maxibourse import steps as F
from engines.maxibourse.box import NOMINALS
from engines.maxibourse.options import company_choice
from engines.maxibourse.rules import MIN_PRICE, PRICE_STEP

MAX_SKIP = 2     # MB8: a fine skips one turn, a cessation de paiement one more


@record(frozen=True)
class Lots(Correction):
    """A player's lots of a company, from (+) or to (-) the bank."""
    kind = "adjust_lots"

    def option(self, game, seats):
        return lots_option(game, seats)

    def apply(self, game, a):
        src, dst = (BANK, a.player) if a.delta > 0 else (a.player, BANK)
        game.move_lots(a.company, src, dst, abs(a.delta))
        tell_correction(game, a.player, a.company, a.delta, a.reason)
        fit_offers(game, src, a.company)  # the player's offers, or the bank's


@record(frozen=True)
class Price(Correction):
    """A company's price."""
    kind = "set_price"

    def option(self, game, seats):
        return price_option(game)

    def apply(self, game, a):
        game.set_price(a.company, a.price, "correction")
        tell_correction(game, None, a.company, a.price, a.reason)


@record(frozen=True)
class Nominal(Correction):
    """A company's nominal price, as its quotation table prints it; none once it is over."""
    kind = "set_nominal"

    def option(self, game, seats):
        return None if game.over else nominal_option(game)

    def refusal(self, game, a):
        if a.company in game.box.companies and a.nominal == game.nominal(a.company):
            return IllegalAction("error.mb.nominal_same", company=a.company, nominal=a.nominal)
        return None

    def apply(self, game, a):
        old = game.nominal(a.company)
        game.s.nominals[a.company] = a.nominal
        remember(game, ("nominal", a.company, a.nominal))   # read off the quotation table: kept for the box file
        game.emit("mb.nominal", company=a.company, old=old, new=a.nominal, reason=a.reason)
        game.set_price(a.company, game.price(a.company) + a.nominal - old, "correction")


@record(frozen=True)
class Pawn(Correction):
    """With the box file's board."""
    kind = "set_pawn"

    def option(self, game, seats):
        return pawn_option(game, seats) if game.box.board else None

    def apply(self, game, a):
        game.s.pawns[a.player] = a.square
        tell_correction(game, a.player, "pawn", a.square, a.reason)


@record(frozen=True)
class Skip(Correction):
    kind = "set_skip"

    def option(self, game, seats):
        return skip_option(game, seats)

    def apply(self, game, a):
        game.s.skip[a.player] = a.turns
        tell_correction(game, a.player, "skip", a.turns, a.reason)


@record(frozen=True)
class Round(Correction):
    kind = "set_round"

    def option(self, game, seats):
        return round_option(game)

    def apply(self, game, a):
        game.s.round = a.round
        tell_correction(game, None, "round", a.round, a.reason)


@per_game
def pawn_option(game, seats):
    return Option("set_pawn", {"player": Choice(seats), "square": IntRange(0, len(game.box.board) - 1)})


@per_game
def skip_option(game, seats):
    return Option("set_skip", {"player": Choice(seats), "turns": IntRange(0, MAX_SKIP)})


@per_game
def round_option(game):
    return Option("set_round", {"round": IntRange(1, MAX_ROUNDS)})


@per_game
def lots_option(game, seats):
    lots = game.box.lots_per_company
    return Option("adjust_lots", {"player": Choice(seats), "company": company_choice(game), "delta": IntRange(-lots, lots)})


@per_game
def price_option(game):
    return Option("set_price", {"company": company_choice(game), "price": IntRange(MIN_PRICE, 100_000, PRICE_STEP)})


@per_game
def nominal_option(game):
    return Option("set_nominal", {"company": company_choice(game), "nominal": Choice(NOMINALS)})


def fit_offers(game, holder, company):
    """A correction took lots of `company` from `holder` (a player, or the bank when it
    gave them to a player): what is on offer shrinks to what is still held, the latest
    offer first, and is withdrawn when nothing is left; in a settlement the buyers last
    in order lose their lots first. Each change is an event, so the box shows it."""
    stack, name = game.s.steps, game.holder_name(holder)
    for f in stack:  # lots a buyer is paying for now (a debt under way) are sold already
        if isinstance(f, F.Debt) and f.stage == "cover" and f.purchase and f.purchase[::2] == (company, holder):
            raise IllegalAction("error.mb.correction_sold", player=name, company=company,
                                buyer=game.players[f.debtor])
    held = game.s.lots.of(company, holder)

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
            game.emit("mb.offer_reduced", player=name, company=company, lots=stack[i].lots)
    for i, f in enumerate(stack):
        if not (isinstance(f, (F.Auction, F.Settlement)) and f.seller == holder and f.company == company):
            continue
        parent = stack[i - 1]
        cap = parent.lots - gone(i - 1) if isinstance(parent, F.Sale) else held
        if isinstance(f, F.Auction) and f.auction.lots > cap:
            f.auction.lots = cap
            game.emit("mb.offer_reduced", player=name, company=company, lots=cap)
        if isinstance(f, F.Settlement):
            while sum(n for _, n in f.purchases[f.index:]) > cap:
                buyer, n = f.purchases.pop()
                keep = max(0, cap - sum(m for _, m in f.purchases[f.index:]))
                if keep:
                    f.purchases.append((buyer, keep))
                game.emit("mb.purchase_withdrawn", player=game.players[buyer], company=company, lots=n - keep)
    top = game.top  # an offer left with nothing to sell is withdrawn at once
    if isinstance(top, F.Auction) and top.auction.lots == 0:
        game.pop(F.AuctionOver(top.auction.price, []))
    elif isinstance(top, F.Settlement) and not top.purchases:
        game.pop(F.Settled(0, 0, top.au_cours))
    elif isinstance(top, F.Sale) and top.lots == 0:
        game.pop(F.Sold(top.proceeds))
