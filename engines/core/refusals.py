"""When an action is possible at all: the rule a refusal names when nothing more precise does.

The decision check (engines/core/check.py) refuses an action its pending decision does not
offer. The game's own hook (`Game.refusal`) says why first where it knows a precise reason
("it is Ana's turn, not Bob's"); when it has none, the rule of when that kind of action is
possible is the reason: each game's catalog words it once per action kind, under
`error.<prefix>.when.<kind>` ("borrow: loans come only once no shop is left to auction
(AV11)"), and the check adds what is allowed now. Only a kind the game gives no such rule
keeps the generic message, `GENERIC`, which the refusal test over random games of every
game holds to a reviewed list (tests/core/test_refusals.py).
"""
from engines.core.errors import IllegalAction
from engines.core.i18n import catalog

# The keys of the refusals that name no rule: only what was refused and what is allowed.
GENERIC = ("error.unexpected", "error.field")


def when_key(game, kind: str) -> str:
    """The catalog key of the rule saying when `kind` is possible in `game`."""
    return f"error.{game.catalog_prefix}.when.{kind}"


def when_refusal(game, act) -> IllegalAction | None:
    """The rule of when `act`'s kind is possible, as a refusal, or None when the game's
    catalog words none for it."""
    key = when_key(game, act.kind)
    if key not in catalog("en"):
        return None
    return IllegalAction(key, kind=act.kind)
