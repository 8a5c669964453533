"""Checking an action against the pending decision, before anything moves.

An action is refused, with nothing changed, when the pending decision offers no option of
its kind, when a text field is not one printable line, or when a field's value is outside
the domain the option declares for it (engines/core/decision.py). The message names what
was wrong and what is allowed now: the game's own reason first, in its rulebook's words
(`Game.refusal`), else for a kind not offered the rule of when it is possible
(engines/core/refusals.py), with the allowed kinds or values added; the generic message when
the game has neither. Seats are named by their players' names, a list field by its first wrong item.
An action whose every field is allowed may still be refused by the state, in the game's words
(`Game.vet`: a correction the state cannot take), before anything moves too.
"""
import typing

from engines.core.actions import Cell, Seat, Text, cell_text, field_type, list_item
from engines.core.decision import LEFT_OUT, NOTHING, Items
from engines.core.errors import IllegalAction
from engines.core.refusals import when_refusal


def check(game, act, decision) -> None:
    """Refuse `act` unless `decision` (the game's pending decision) allows it."""
    option = decision.option(act.kind)
    if option is None:
        allowed = sorted({o.kind for o in decision.options})
        reason = game.refusal(act, decision, None) or when_refusal(game, act)
        if reason is not None:
            raise reason.allowing(allowed)
        raise IllegalAction("error.unexpected", kind=act.kind, allowed=allowed or ["-"])
    for name, typ in type(act)._types.items():
        value = getattr(act, name)
        if typ is Text and not (isinstance(value, str) and value.isprintable() and value.strip()):
            # one printable line: it is shown on a display and written in exported scripts
            raise IllegalAction("error.text", kind=act.kind, field=name, value=repr(value))
    for name, domain in option.fields.items():
        value = getattr(act, name)
        if value not in domain:
            typ = field_type(type(act), name)
            seat = typ is Seat or Seat in typing.get_args(typ) or list_item(typ) is Seat
            field, value, domain = first_refused(name, value, domain)
            allowed = describe(game, domain, seat)
            reason = game.refusal(act, decision, name)
            if reason is not None:
                raise reason.allowing(allowed, field)
            if value is None:
                shown = LEFT_OUT                   # a field left out, not Python's None
            elif typ is Cell and isinstance(value, tuple):
                shown = cell_text(value)
            else:
                shown = value
            if seat and value is not None:
                shown = ", ".join(game.seat_name(v) for v in value) if isinstance(value, tuple) else game.seat_name(value)
            raise IllegalAction("error.field", kind=act.kind, field=field, value=shown, allowed=allowed)
    vetted = game.vet(act)
    if vetted is not None:
        raise vetted


def first_refused(name, value, domain):
    """(field, value, domain) to name in a refusal: for a list of the right length,
    its first item out of its own domain (`moves TRANS-PACIFIC`: that company's die),
    else the whole field."""
    if isinstance(domain, Items) and isinstance(value, tuple) and len(value) == len(domain.items):
        for i, (item, item_domain) in enumerate(zip(value, domain.items)):
            if item not in item_domain:
                label = domain.labels[i] if domain.labels else i + 1
                return f"{name} {label}", item, item_domain
    return name, value, domain


def describe(game, domain, seat: bool) -> str:
    """What a domain allows, with seats written as the players' names."""
    if isinstance(domain, Items):
        return domain.describe(game.seat_name if seat else str)
    if not seat:
        return domain.describe()
    values = getattr(domain, "values", None)
    if values is None and hasattr(domain, "value"):
        values = (domain.value,)
    if values is None:
        return domain.describe()
    return ", ".join(str(game.seat_name(v)) for v in values) or NOTHING
