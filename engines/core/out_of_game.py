"""A player out of the game (ruined, bankrupt, gone) named by an action: the refusal.

Once out, a player holds nothing and is owed nothing (Maxi Bourse MB8, A Vendre! AV11,
Shark SH9, Richesses du Monde RM11), so each game's decisions offer its corrections,
trades and bids only to the players still in. An action aimed at a player out is then
outside the decision; the generic message ("player = Ben is not allowed") would leave the
table guessing why, so the game says it in its own words (`key`, with `player`), and
`Game.check` adds the players it allows.

Only the first field the decision refuses is looked at, the one `Game.check` found and
passes to the game's `refusal` hook: the allowed values it adds are that field's, so the
reason must be too.
"""
from engines.core.actions import Seat, field_type
from engines.core.errors import IllegalAction


def out_refusal(game, act, field, key):
    """IllegalAction(`key`, player=NAME) when `field`, the first field of `act` its
    decision refuses (None: its kind is not offered), names a player `game.eliminated`,
    else None."""
    if field is None or field_type(type(act), field) is not Seat:
        return None
    value = getattr(act, field)
    if isinstance(value, int) and 0 <= value < len(game.players) and game.eliminated(value):
        return IllegalAction(key, player=game.players[value])
    return None
