"""The rules of each game, as pure Python (no I/O, no clock, no global randomness)."""


def game_class(name: str):
    """The engine class for a game name, as written in a script header."""
    if name == "maxibourse":
        from engines.maxibourse.game import MaxiBourse

        return MaxiBourse
    if name == "dividends":
        from engines.dividends.game import Dividends

        return Dividends
    from engines.core.errors import ProtocolError

    raise ProtocolError(f"unknown game {name!r}; known: maxibourse, dividends")
