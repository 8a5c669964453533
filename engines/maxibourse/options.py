"""Options of Maxi Bourse's decisions that several of them offer: any company of the box, what
a price card or a rumour may name, a trade between two players, and what is offered at any
moment of the session (rumours revealed, closing, corrections). Those that depend only on
the box and a few values of the state are built once per game for each (`@per_game`)."""
from engines.core.decision import Choice, IntRange, Option
from engines.core.per_game import per_game
from engines.maxibourse.rules import MIN_PRICE, PRICE_STEP


@per_game
def company_choice(game):
    """Any company of the box, as a decision's domain."""
    return Choice(tuple(game.companies))


@per_game
def target_names(game):
    """What a price card or a rumour may name: a company, a sector, or all of them."""
    return tuple(game.companies) + tuple(game.sectors) + ("ALL",)


def trade_option(game, seat):
    """The player whose turn it is sells to, or buys from, another player (when both may trade)."""
    traders = tuple(s for s in range(len(game.players)) if game.can_trade(s))
    if seat not in traders or len(traders) < 2:
        return []
    return [trade(game, traders)]


@per_game
def trade(game, traders):
    """The trade between `traders`: one per set of traders."""
    return Option("trade", {
        "seller": Choice(traders), "buyer": Choice(traders), "company": company_choice(game),
        "lots": IntRange(1, game.box.lots_per_company), "price": IntRange(MIN_PRICE, 100_000, PRICE_STEP)})


def anytime(game):
    """Rumours may be revealed at any moment of the session (MB5); closing and corrections too."""
    holders = tuple(s for s in range(len(game.players)) if game.s.rumours[s] and game.can_trade(s))
    opts = ()
    if holders:
        opts = (Option("reveal", {"player": Choice(holders), "target": Choice(target_names(game)),
                                  "delta": IntRange(-1000, 1000, PRICE_STEP)}),)
    return opts + (Option("close"),) + game.corrections()
