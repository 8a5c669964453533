"""The rules of each game, as pure Python (no I/O, no clock, no global randomness).

Which games exist is declared once, in engines/registry.py."""


def game_class(name: str):
    """The engine class for a game name, as written in a script header."""
    from engines.registry import spec

    return spec(name).engine_class()
