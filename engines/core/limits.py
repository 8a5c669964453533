"""Limits a script's header shares with the box's configuration: one place for each, so a
value the configuration accepts is one the game accepts (firmware/config.py reads these).
"""

MAX_ROUNDS = 999        # `set rounds N` and the configuration's game.rounds; 0 = no limit

# Characters a player's name may not hold: a name is one word of the command language,
# written unquoted by `corbeille export` (a # would start a comment, a quote a string).
_NOT_IN_NAMES = frozenset("#'\"\\")


def player_names_ok(names) -> bool:
    """Names are single printable words without # or quotes, unique ignoring case (a
    script names a player in any case: `sophie` is Sophie)."""
    return (all(isinstance(n, str) and n and n.isprintable() and not any(c.isspace() or c in _NOT_IN_NAMES
                                                                          for c in n) for n in names)
            and len({n.lower() for n in names}) == len(names))
