"""Errors raised by engines.

An illegal action never changes the game: the engine raises `IllegalAction` before
the new state is published. The error carries a message key and parameters so that the
box can show it in the player's language; `str(error)` is the English text, which is
what scripts and logs print.

A refusal of the pending decision (`Game.check`) says its own reason first, then what is
allowed now (`allowing`): "Jean holds no CEDARPINES certificate; allowed now: buy, done".
"""


class CorbeilleError(Exception):
    """Base of every error this project raises on purpose."""


def worded(cls: type, key: str, /, **params) -> Exception:
    """An error of class `cls` (any exception class: a configuration's ConfigError is a
    ValueError) in the words of the catalog's `key`: `str` is the English, `said_as` keeps the
    key and its parameters so that a command says it in the language asked (firmware.script.said)."""
    from engines.core.i18n import text

    error = cls(text(key, "en", **params))
    error.said_as = (key, params)
    return error


class IllegalAction(CorbeilleError, ValueError):
    """The action is not allowed now; the game state is unchanged."""

    def __init__(self, key: str, /, **params):
        self.key = key
        self.params = params
        self.allowed: tuple | None = None  # (field or None, what is allowed), see `allowing`
        self.money = ""   # the catalog prefix of the game whose money the amounts are in
        super().__init__(key)

    def __str__(self):
        # worded when read: most refusals (random play's, a menu's trials) are never printed
        return self.message("en")

    def allowing(self, allowed, field: str | None = None) -> "IllegalAction":
        """Add what the pending decision allows after the reason: the action kinds allowed
        now, or with `field` the values that field may take. Nothing is added when nothing
        is allowed."""
        self.allowed = (field, allowed)
        return self

    def in_money_of(self, prefix: str) -> "IllegalAction":
        """Say the amounts in the money of the game whose catalog prefix is `prefix` (a
        refusal of core's does not know the game that raised it; `Game` says it), unless a
        game already did."""
        if not self.money and prefix:
            self.money = prefix
        return self

    def message(self, lang: str = "en") -> str:
        from engines.core.i18n import text

        out = text(self.key, lang, money_of=self.money, **self.params)
        if self.allowed and self.allowed[1]:
            field, allowed = self.allowed
            out += text("error.allowed_field" if field else "error.allowed", lang, field=field, allowed=allowed)
        return out


class BoxFileError(CorbeilleError, ValueError):
    """A box file (the owner's physical copy described as data) is malformed."""


class BoxKeyError(BoxFileError):
    """A key of a box file that its game's schema refuses: the file, the key, then what is
    wrong in words of the catalog's `box.<what>`, in the language `message` is asked in."""

    def __init__(self, path, key: str, what: str, /, **params):
        self.path, self.key, self.what, self.params = path, key, what, params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        from engines.core.i18n import text

        return f"{self.path}: {self.key}: " + text("box." + self.what, lang, **self.params)


class ProtocolError(CorbeilleError, ValueError):
    """A line of the command language cannot be read. Made with `worded`, it is said in the
    language `message` is asked in (an unknown action, a player not in the game...)."""

    key = None

    @classmethod
    def worded(cls, key: str, /, **params) -> "ProtocolError":
        from engines.core.i18n import text

        error = cls(text(key, "en", **params))
        error.key, error.params = key, params
        return error

    def message(self, lang: str = "en") -> str:
        from engines.core.i18n import text

        return str(self) if self.key is None else text(self.key, lang, **self.params)
