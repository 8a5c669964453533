"""Why Maxi Bourse refuses an action its pending decision does not allow, said in the
rulebook's terms where the generic message ("sell: player = Thierry is not allowed") would
leave the table guessing. `Game.check` adds what is allowed after the reason; None keeps the
generic message, which already names the field and its allowed values."""
from engines.core.errors import IllegalAction
from engines.core.out_of_game import out_refusal


def refusal(game, act, decision, field):
    players = game.players
    option = decision.option(act.kind)
    actor = decision.actor
    if option is None:
        if act.kind == "end" and decision.option("roll") and actor is not None:
            return IllegalAction("error.mb.roll_first", player=players[actor])
        return None
    out = out_refusal(game, act, field, "error.mb.ruined")  # before "whose turn": he has none any more
    if out is not None:
        return out
    seat = getattr(act, "player", None)
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        return None
    if "player" in option.fields and seat not in option.fields["player"] and actor is not None and seat != actor:
        return IllegalAction("error.mb.turn_of", player=players[seat], turn=players[actor])
    if act.kind == "sell" and act.company in game.companies and not game.s.lots.of(act.company, seat):
        return IllegalAction("error.mb.not_held", player=players[seat], company=act.company)
    return None
