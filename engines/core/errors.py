"""Errors raised by engines.

An illegal action never changes the game: the engine raises `IllegalAction` before
the new state is published. The error carries a message key and parameters so that the
box can show it in the player's language; `str(error)` is the English text, which is
what scripts and logs print.
"""


class CorbeilleError(Exception):
    """Base of every error this project raises on purpose."""


class IllegalAction(CorbeilleError, ValueError):
    """The action is not allowed now; the game state is unchanged."""

    def __init__(self, key: str, /, **params):
        self.key = key
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        from engines.core.i18n import text

        return text(self.key, lang, **self.params)


class BoxFileError(CorbeilleError, ValueError):
    """A box file (the owner's physical copy described as data) is malformed."""


class ProtocolError(CorbeilleError, ValueError):
    """A line of the command language cannot be read."""
