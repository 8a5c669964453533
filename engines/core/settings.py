"""A game's settings: declared once by its engine class, checked here for every game.

`SETTINGS` maps a setting's name to `(default, allowed, meaning)`: `meaning` says in a line
what the values do, for `corbeille settings` (it may be left out: `(default, allowed)`);
`allowed` is

* a tuple of values: one of them (the setup's Options step through them);
* a `range` of whole numbers: its first value, its last and its step are what is allowed
  (the setup's Options enter a number by that step);
* `str`: a text the game checks itself when it starts, because what it accepts depends on
  the players or the box (Dividends' companies);
* `int`, the older form: a whole number a script's `set` accepts, `WHOLE`.

A script's header, the configuration's [game] table (firmware/config.py) and the setup's
Options all read the declaration through this module, so a value one accepts is a value the
others accept, and a refusal names the setting, the value and what is allowed.
"""
from __future__ import annotations

from engines.core.errors import IllegalAction
from engines.core.limits import MAX_ROUNDS, player_names_ok

WHOLE = range(0, MAX_ROUNDS + 1)

# Who rolls the dice, a setting of every game with dice. One declaration: a configuration
# key two games declare must mean the same in both (engines/registry.game_settings).
DICE = ("physical", ("physical", "device"),
        "physical: the players roll and the operator enters the dice; device: the box rolls and records the roll")


def entry(declaration: tuple) -> tuple:
    """(default, allowed, meaning) of one setting's declaration."""
    default, allowed, *meaning = declaration
    return default, allowed_of(allowed), meaning[0] if meaning else ""


def allowed_of(declared):
    """The declared allowed values in one of the three forms (tuple, range, str)."""
    if declared is int:
        return WHOLE
    if isinstance(declared, (tuple, range)) or declared is str:
        return declared
    raise TypeError(f"a game setting declared as {declared!r}: declare a tuple of values, a range or str")


def allows(declared, value) -> bool:
    """Whether `value` is allowed (a number is never a bool, a choice has its value's type)."""
    allowed = allowed_of(declared)
    if allowed is str:
        return isinstance(value, str)
    if isinstance(allowed, range):
        return type(value) is int and value in allowed
    return any(type(value) is type(a) and value == a for a in allowed)


def describe(declared) -> str:
    """What is allowed, in words (English: the configuration's and the command line's)."""
    allowed = allowed_of(declared)
    if allowed is str:
        return "a text in quotes"
    if isinstance(allowed, range):
        steps = f" in steps of {allowed.step}" if allowed.step != 1 else ""
        return f"a whole number from {allowed.start} to {allowed[-1]}{steps}"
    return ", ".join(str(a) for a in allowed)


def refusal(key: str, value, declared) -> IllegalAction:
    """The error of a value `declared` does not allow, in the catalog's words."""
    allowed = allowed_of(declared)
    if allowed is str:
        return IllegalAction("error.setting_text", key=key, value=value)
    if isinstance(allowed, range):
        if allowed.step != 1:
            return IllegalAction("error.setting_steps", key=key, value=value, lo=allowed.start, hi=allowed[-1],
                                 step=allowed.step)
        return IllegalAction("error.setting_range", key=key, value=value, lo=allowed.start, hi=allowed[-1])
    return IllegalAction("error.setting", key=key, value=value, allowed=list(allowed))


def check_settings(declared: dict, given: dict) -> dict:
    """Every declared setting's value: `given`'s, else the default. A name not declared, or
    a value the declaration does not allow, is refused naming it and what is allowed."""
    for key, value in given.items():
        if key not in declared:
            raise IllegalAction("error.setting", key=key, value=value, allowed=list(declared))
    settings = {}
    for key, declaration in declared.items():
        default, allowed, _ = entry(declaration)
        value = given.get(key, default)
        if not allows(allowed, value):
            raise refusal(key, value, allowed)
        settings[key] = value
    return settings


def check_header(header: dict, players: tuple[int, int], declared: dict) -> dict:
    """A new game's header checked the same way for every game: as many players as the
    rulebook allows (`players`: the fewest, the most), each name one word and unique, and
    the settings against their declaration (`check_settings`); returns the settings."""
    names = header.get("players", [])
    lo, hi = players
    if not lo <= len(names) <= hi:
        raise IllegalAction("error.players", count=len(names), lo=lo, hi=hi)
    if not player_names_ok(names):
        raise IllegalAction("error.player_names", players=list(names))
    return check_settings(declared, dict(header.get("settings", {})))
