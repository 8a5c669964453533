"""The operator's corrections in Dividends, offered at every step until the game is over
(then undo the end first).

Besides the players' cash (engines/core/corrections.py, hidden: DV2), the kinds of state
the operator corrects (core offers and applies them, engines/core/corrections.py): a
player's certificates, to or from the chart (the majority tile follows, DV3); his influence
cards, to or from the piles (given cards are drawn like any card, the discard pile becoming
the draw pile when it is empty, DV5; cards given back go under the draw pile, like unused
ones); a company's dividend marker, on a value of the track; the year under way
(`set_year`, DV7); whose turn it is in the year's turn order (core's, before the player
trades: the turns go on from him in that order). Their domains are what the set-up fixes
(seats, companies, the box), so each option is built once per game.
"""
from engines.core.corrections import Correction, tell_correction
from engines.core.decision import Choice, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.per_game import per_game
from engines.core.records import record
from engines.dividends.rules import YEARS


@record(frozen=True)
class Certificates(Correction):
    kind = "adjust_certs"

    def option(self, game, seats):
        return certificates_option(game)

    def refusal(self, game, a):
        """More than its source holds: the chart (given to the player) or the player
        (given back to the chart)."""
        if a.company not in game.companies or not 0 <= a.player < len(game.players):
            return None
        if a.delta > game.left(a.company):
            return IllegalAction("error.dv.certs_chart", player=game.players[a.player], company=a.company,
                                 certs=a.delta, left=game.left(a.company))
        if -a.delta > game.count(a.company, a.player):
            return IllegalAction("error.dv.certs_held", player=game.players[a.player], company=a.company,
                                 certs=-a.delta, held=game.count(a.company, a.player))
        return None

    def apply(self, game, a):
        src, dst = (BANK, a.player) if a.delta > 0 else (a.player, BANK)
        if a.delta:
            event = game.s.certs.move(a.company, src, dst, abs(a.delta))
            game.emit_event(event)
            game.update_tile(a.company)
        tell_correction(game, a.player, a.company, a.delta, a.reason)


@record(frozen=True)
class Cards(Correction):
    kind = "adjust_cards"

    def option(self, game, seats):
        return cards_option(game)

    def refusal(self, game, a):
        """More than the piles (given) or the hand (given back)."""
        if not 0 <= a.player < len(game.players):
            return None
        if a.delta > game.s.draw_pile + game.s.discard:
            return IllegalAction("error.dv.cards_pile", cards=a.delta, pile=game.s.draw_pile, discard=game.s.discard)
        if -a.delta > game.s.hands[a.player]:
            return IllegalAction("error.dv.cards_hand", player=game.players[a.player], cards=-a.delta,
                                 hand=game.s.hands[a.player])
        return None

    def apply(self, game, a):
        if a.delta > 0:  # a forgotten card comes from the draw pile, rebuilt from the discard pile if need be (DV5)
            game.draw_cards(a.player, a.delta)
        else:  # given back under the draw pile, like unused cards
            game.s.hands[a.player] += a.delta
            game.s.draw_pile -= a.delta
        tell_correction(game, a.player, "cards", a.delta, a.reason)


@record(frozen=True)
class Marker(Correction):
    kind = "set_marker"

    def option(self, game, seats):
        return marker_option(game)

    def apply(self, game, a):
        old = game.s.markers[a.company]
        game.s.markers[a.company] = a.value
        game.emit("dv.marker", company=a.company, old=old, new=a.value, steps=0, reason="correction")
        game.emit("dv.marker_corrected", company=a.company, value=a.value, reason=a.reason)


@record(frozen=True)
class Year(Correction):
    kind = "set_year"

    def option(self, game, seats):
        return YEAR

    def apply(self, game, a):
        game.s.year = a.year
        tell_correction(game, None, "year", a.year, a.reason)


YEAR = Option("set_year", {"year": IntRange(1, YEARS)})


@per_game
def certificates_option(game):
    return Option("adjust_certs", {"player": Choice(tuple(range(len(game.players)))),
                                   "company": Choice(tuple(game.companies)), "delta": IntRange(-game.slots, game.slots)})


@per_game
def cards_option(game):
    return Option("adjust_cards", {"player": Choice(tuple(range(len(game.players)))),
                                   "delta": IntRange(-game.total_cards, game.total_cards)})


@per_game
def marker_option(game):
    return Option("set_marker", {"company": Choice(tuple(game.companies)), "value": Choice(game.box.track)})
