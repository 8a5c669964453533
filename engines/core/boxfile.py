"""Reading box files: TOML descriptions of the owner's physical copy.

Each game validates its box file with these small checks so that every error names the
file, the key (as a dotted path) and what is allowed.
"""
from pathlib import Path

from engines.core.errors import BoxFileError
from engines.core.files import read_toml


def load_toml(path: Path) -> dict:
    """The box file as a dict; a missing, unreadable, non-UTF-8 or non-TOML file is a
    BoxFileError naming it (engines.core.files)."""
    return read_toml(path, "box file", BoxFileError)


class Reader:
    """Typed access to a parsed TOML table, with errors naming file and key."""

    def __init__(self, path, data, where=""):
        self.path, self.data, self.where = path, data, where

    def fail(self, key, what):
        raise BoxFileError(f"{self.path}: {self._key(key)}: {what}")

    def _key(self, key):
        return f"{self.where}.{key}" if self.where else str(key)

    def get(self, key, typ, default=..., allowed=None, minimum=None):
        if key not in self.data:
            if default is ...:
                self.fail(key, f"missing; expected {typ.__name__}")
            return default
        value = self.data[key]
        if typ is int and isinstance(value, bool) or not isinstance(value, typ):
            self.fail(key, f"{value!r} is not {'an' if typ is int else 'a'} {typ.__name__}")
        if allowed is not None and value not in allowed:
            self.fail(key, f"{value!r} is not allowed; allowed: {', '.join(map(str, allowed))}")
        if minimum is not None and value < minimum:
            self.fail(key, f"{value!r} is below the minimum {minimum}")
        return value

    def table(self, key):
        return Reader(self.path, self.get(key, dict), self._key(key))

    def tables(self, key):
        items = self.get(key, list)
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                self.fail(f"{key}[{i}]", "must be a table")
            out.append(Reader(self.path, item, f"{self._key(key)}[{i}]"))
        return out

    def refuse_unknown(self, known):
        for key in self.data:
            if key not in known:
                self.fail(key, f"unknown key; known keys: {', '.join(sorted(known))}")
