"""The operator's corrections in Richesses du Monde, at every step but a bankruptcy (its
debt is counted from the cash and titles it found), for the players still in: a bankrupt
player's cash went to the bank and his titles to the stock (RM11), so what a correction gave
him would stay outside the game.

Besides the players' cash (engines/core/corrections.py, hidden: RM10) and whose turn it is
(between turns), the kinds of state the operator corrects: a pawn put back where it belongs,
with its world tours (`set_pawn`, between turns); a title given to a player from the stock or
another player (`give_title`) or taken back to the stock (`take_title`); a player's jokers,
to or from the stock (`adjust_jokers`); two plaques swapped as they lie on the board
(`swap_plaques`). Nothing is paid or bought: the table settles what the mistake did with
cash corrections. A trust under the hammer or offered in a free sale changes hands only by
that sale, so its titles are not corrected until it is over.

During an auction a cash correction re-checks the bids (`AuctionStep.cash_corrected`): a high
bid above its bidder's corrected cash is withdrawn and the previous bid stands. The clock of
RM9 is the box's and is not touched. In a free sale the best offer's maker keeps at least
his offer (the core refusal: an offer has no previous bid to fall back on).
"""
from engines.core.corrections import Correction, tell_correction
from engines.core.decision import Choice, IntRange, Option
from engines.core.deeds import STOCK
from engines.core.errors import IllegalAction
from engines.core.per_game import per_game
from engines.core.records import record
from engines.richesses.rules import MAX_TOURS
from engines.richesses.steps import AuctionStep, SaleStep


@record(frozen=True)
class Pawn(Correction):
    kind = "set_pawn"

    def option(self, game, seats):
        return pawn_option(game, seats)

    def refusal(self, game, act):
        if game.turn_start() is None:
            return IllegalAction("error.rm.pawn_between_turns")
        return None

    def apply(self, game, act):
        game.s.track.positions[act.player] = act.square
        game.s.track.laps[act.player] = act.tours
        tell_correction(game, act.player, "pawn", f"{act.square}/{act.tours}", act.reason)


@per_game
def pawn_option(game, seats):
    return Option("set_pawn", {"player": Choice(seats), "square": IntRange(0, len(game.box.squares)),
                               "tours": IntRange(0, MAX_TOURS)})


def on_sale(game, title, holder):
    """Why `title` cannot go to or from `holder` by a correction now (his trust of its
    production is under the hammer or offered in a free sale), or None."""
    production = game.box.titles[title].production
    for step in game.s.steps:
        if isinstance(step, AuctionStep) and holder == step.seller and production in step.lots \
                or isinstance(step, SaleStep) and (holder, production) in ((step.seller, step.production),
                                                                         (step.buyer, step.swap)):
            return IllegalAction("error.rm.title_on_sale", title=game.box.title_name(title),
                                 production=game.box.production_name(production))
    return None


@record(frozen=True)
class GiveTitle(Correction):
    kind = "give_title"

    def option(self, game, seats):
        return give_title_option(game, seats, tuple(game.box.titles))

    def refusal(self, game, act):
        if act.title not in game.box.titles:
            return None
        if game.s.deeds.owner(act.title) == act.player:
            return IllegalAction("error.rm.title_held", player=game.players[act.player],
                                 title=game.box.title_name(act.title))
        return on_sale(game, act.title, game.s.deeds.owner(act.title)) or on_sale(game, act.title, act.player)

    def apply(self, game, act):
        event = game.s.deeds.move(act.title, game.s.deeds.owner(act.title), act.player)
        game.emit_event(event)
        tell_correction(game, act.player, game.box.title_name(act.title), 1, act.reason)


@record(frozen=True)
class TakeTitle(Correction):
    kind = "take_title"

    def option(self, game, seats):
        return take_title_option(game, tuple(game.box.titles))

    def refusal(self, game, act):
        if act.title not in game.box.titles:
            return None
        if game.s.deeds.owner(act.title) == STOCK:
            return IllegalAction("error.rm.title_in_stock", title=game.box.title_name(act.title))
        return on_sale(game, act.title, game.s.deeds.owner(act.title))

    def apply(self, game, act):
        owner = game.s.deeds.owner(act.title)
        game.emit_event(game.s.deeds.move(act.title, owner, STOCK))
        tell_correction(game, owner, game.box.title_name(act.title), -1, act.reason)


@record(frozen=True)
class Jokers(Correction):
    kind = "adjust_jokers"

    def option(self, game, seats):
        return jokers_option(game, seats, game.box.jokers)

    def refusal(self, game, act):
        if not 0 <= act.player < len(game.players):
            return None
        if act.delta > game.s.joker_stock:
            return IllegalAction("error.rm.joker_stock", jokers=act.delta, stock=game.s.joker_stock)
        if -act.delta > game.s.jokers[act.player]:
            return IllegalAction("error.rm.jokers_held", player=game.players[act.player], jokers=-act.delta,
                                 held=game.s.jokers[act.player])
        return None

    def apply(self, game, act):
        game.s.jokers[act.player] += act.delta
        game.s.joker_stock -= act.delta
        tell_correction(game, act.player, "jokers", act.delta, act.reason)


@record(frozen=True)
class Plaques(Correction):
    kind = "swap_plaques"

    def option(self, game, seats):
        return plaques_option(game)

    def refusal(self, game, act):
        if not game.s.plaques:
            return IllegalAction("error.rm.plaques_none")
        if act.square == act.other:
            return IllegalAction("error.rm.plaques_same", square=act.square)
        return None

    def apply(self, game, act):
        a, b = str(act.square), str(act.other)
        plaques = game.s.plaques
        plaques[a], plaques[b] = plaques[b], plaques[a]
        tell_correction(game, None, "plaques", f"{a}<>{b}", act.reason)


# The titles and the jokers are arguments: a table learns them during play (engines/core/learning.py).
@per_game
def give_title_option(game, seats, titles):
    return Option("give_title", {"player": Choice(seats), "title": Choice(titles)})


@per_game
def take_title_option(game, titles):
    return Option("take_title", {"title": Choice(titles)})


@per_game
def jokers_option(game, seats, jokers):
    """None until the table counted the jokers: there are none to correct before."""
    if jokers is None:
        return None
    return Option("adjust_jokers", {"player": Choice(seats), "delta": IntRange(-jokers, jokers)})


@per_game
def plaques_option(game):
    squares = tuple(int(sq) for sq in game.box.plaque_squares())
    return Option("swap_plaques", {"square": Choice(squares), "other": Choice(squares)})
