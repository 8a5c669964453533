"""Reading box files: TOML descriptions of the owner's physical copy.

Each game declares its box file's schema (`SCHEMA` in engines/<game>/box.py: which tables
and keys, of which type, with which defaults and allowed values) and checks a file
against it with `check` before building its objects; what a schema cannot say (ids
unique, a track covered by its zones...) the loader checks after. Every error names the
file, the key (as a dotted path) and what is allowed.
"""
import json
from dataclasses import field
from pathlib import Path
from typing import Any

from engines.core.errors import BoxFileError, BoxKeyError
from engines.core.files import read_toml
from engines.core.records import record


def load_toml(path: Path) -> dict:
    """The box file as a dict; a missing, unreadable, non-UTF-8 or non-TOML file is a
    BoxFileError naming it (engines.core.files)."""
    return read_toml(path, "box file", BoxFileError)


class Reader:
    """Typed access to a parsed TOML table, with errors naming file and key."""

    def __init__(self, path, data, where=""):
        self.path, self.data, self.where = path, data, where

    def refuse(self, key, what, **params):
        """The mistake at `key` in the catalog's words (`box.<what>`), naming the file and
        the key, said in the language asked."""
        raise BoxKeyError(self.path, self._key(key), what, **params)

    def _key(self, key):
        return f"{self.where}.{key}" if self.where else str(key)

    def get(self, key, typ, default=..., allowed=None, minimum=None, maximum=None):
        if key not in self.data:
            if default is ...:
                self.refuse(key, "missing", type=typ.__name__)
            return default
        value = self.data[key]
        # a value of exactly the type asked (what a parsed file holds) needs no more test
        if type(value) is not typ and (typ is int and isinstance(value, bool) or not isinstance(value, typ)):
            self.refuse(key, "type_" + typ.__name__, value=repr(value))
        if allowed is not None and value not in allowed:
            self.refuse(key, "allowed", value=repr(value), allowed=", ".join(map(str, allowed)))
        if minimum is not None and value < minimum:
            self.refuse(key, "minimum", value=repr(value), minimum=str(minimum))
        if maximum is not None and value > maximum:
            self.refuse(key, "maximum", value=repr(value), maximum=str(maximum),
                        lo=str(1 if minimum is None else minimum))
        return value

    def table(self, key):
        return Reader(self.path, self.get(key, dict), self._key(key))

    def tables(self, key):
        items = self.get(key, list)
        out, where = [], self._key(key)
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                self.refuse(f"{key}[{i}]", "not_table")
            out.append(Reader(self.path, item, f"{where}[{i}]"))
        return out

    def refuse_unknown(self, known):
        for key in self.data:
            if key not in known:
                self.refuse(key, "unknown", known=", ".join(sorted(known)))


# ---- Declared schemas ------------------------------------------------------------------

@record(frozen=True)
class Key:
    """One value: its type, its default (``...``: the key is required), the values allowed."""
    typ: type
    default: Any = ...
    allowed: tuple | None = None
    minimum: int | None = None
    maximum: int | None = None      # what the game can hold (each game's box.py says why)


@record(frozen=True)
class Ints:
    """A list of whole numbers >= 0 in `order` ("increasing" or "non-decreasing"), each at
    most `maximum` (what the game can hold) when it says one."""
    order: str
    required: bool = True
    maximum: int | None = None


@record(frozen=True)
class Table:
    """A table and its keys; with `others`, keys it does not name are accepted too; an
    `optional` table may be left out of the file."""
    keys: dict = field(default_factory=dict)
    others: bool = False
    optional: bool = False


@record(frozen=True)
class Tables:
    """An array of tables, each checked against `table`; an `optional` array may be left
    out of the file (the game then plays without what it lists)."""
    table: Table
    optional: bool = False


def check(reader: Reader, schema: Table) -> None:
    """Check the table `reader` reads against `schema`; the first mistake is a BoxFileError
    naming the file and the key.

    An array of tables of plain keys (a box's titles, squares...: most of a file) is first
    checked item by item in one pass over plain dicts (`_passes`); only an array with an item
    that does not pass is walked by the readers, which name the mistake. The fast pass says
    yes only where the readers would too (a value of exactly its type, allowed, not below
    its minimum, no unknown key), so what passes is the same and every error the same; it
    cost a resume of Richesses du Monde about 5 M instructions to walk 300 tables by readers."""
    if not schema.others:
        reader.refuse_unknown(schema.keys)
    for key, part in schema.keys.items():
        if isinstance(part, Key):
            reader.get(key, part.typ, part.default, part.allowed, part.minimum, part.maximum)
        elif isinstance(part, Ints):
            if part.required or key in reader.data:
                int_list(reader, key, part.order, part.maximum)
        elif isinstance(part, Table):
            if not part.optional or key in reader.data:
                check(reader.table(key), part)
        elif not part.optional or key in reader.data:
            plan, items = _plan(part.table), reader.data.get(key)
            if plan is not None and type(items) is list and all(_passes(item, plan) for item in items):
                continue
            for item in reader.tables(key):
                check(item, part.table)


def _plan(table: Table) -> tuple | None:
    """What `_passes` checks an item of `table` against: (the keys known, or None when
    others are accepted; (key, type, required, allowed, minimum) for each), or None for a
    table with more than plain keys (nested tables, lists of numbers): those are walked."""
    if not all(isinstance(part, Key) for part in table.keys.values()):
        return None
    return (None if table.others else frozenset(table.keys),
            tuple((key, k.typ, k.default is ..., k.allowed, k.minimum, k.maximum) for key, k in table.keys.items()))


def _passes(item, plan: tuple) -> bool:
    """`item` is a table that `check` would pass against the plan's table (`_plan`); False
    also for what it might refuse: the readers then decide, and say why."""
    known, keys = plan
    if type(item) is not dict or known is not None and not known.issuperset(item):
        return False
    for key, typ, required, allowed, minimum, maximum in keys:
        if key in item:
            value = item[key]
            if (type(value) is not typ or allowed is not None and value not in allowed
                    or minimum is not None and value < minimum or maximum is not None and value > maximum):
                return False
        elif required:
            return False
    return True


def int_list(reader: Reader, key: str, order: str, maximum: int | None = None) -> tuple:
    """The list of whole numbers >= 0 at `key`, in `order`, each at most `maximum`."""
    values = reader.get(key, list)
    if not values:
        reader.refuse(key, "empty_list")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            reader.refuse(f"{key}[{i}]", "not_whole", value=repr(v))
        if maximum is not None and v > maximum:
            reader.refuse(f"{key}[{i}]", "maximum", value=repr(v), maximum=str(maximum), lo="0")
        if i and (v < values[i - 1] if order == "non-decreasing" else v <= values[i - 1]):
            reader.refuse(f"{key}[{i}]", "order_" + order.replace("-", "_"), value=str(v), before=str(values[i - 1]))
    return tuple(values)


def _default(value, lang: str) -> str:
    """A key's default as the schema says it: in French as the file writes it (false, "")."""
    from engines.core.i18n import text

    if lang == "en":
        return repr(value)
    if value is None:
        return text("schema.none", lang)
    return str(value).lower() if isinstance(value, bool) else json.dumps(value, ensure_ascii=False)


def missing_keys(schema: Table, data, where: str = "") -> list[str]:
    """Every key `schema` requires that the parsed file `data` leaves out, as dotted paths
    (`corbeille box check` lists them all, where `check` stops at the first mistake). A
    required table left out is named by its required keys, or by itself when it has none."""
    data = data if isinstance(data, dict) else {}
    missing = []
    for key, part in schema.keys.items():
        path = f"{where}.{key}" if where else key
        if key not in data:
            if isinstance(part, Table) and not part.optional:
                missing += missing_keys(part, {}, path) or [path]
            elif (isinstance(part, Key) and part.default is ... or isinstance(part, Ints) and part.required
                  or isinstance(part, Tables) and not part.optional):
                missing.append(path)
        elif isinstance(part, Table):
            missing += missing_keys(part, data[key], path)
        elif isinstance(part, Tables) and isinstance(data[key], list):
            for i, item in enumerate(data[key]):
                missing += missing_keys(part.table, item, f"{path}[{i}]")
    return missing


def describe(schema: Table, indent: str = "", lang: str = "en") -> list[str]:
    """The schema in words, one line per key, in `lang` (`corbeille box check --schema`)."""
    from engines.core.i18n import text

    lines = []
    for key, part in schema.keys.items():
        if isinstance(part, Key):
            what = [text("schema." + part.typ.__name__, lang)]
            if part.allowed is not None:
                what[0] += text("schema.allowed", lang, allowed=", ".join(map(str, part.allowed)))
            if part.minimum is not None:
                what.append(text("schema.minimum", lang, minimum=str(part.minimum)))
            if part.maximum is not None:
                what.append(text("schema.maximum", lang, maximum=str(part.maximum)))
            what.append(text("schema.required", lang) if part.default is ...
                        else text("schema.default", lang, default=_default(part.default, lang)))
            lines.append(f"{indent}{key}: " + ", ".join(what))
        elif isinstance(part, Ints):
            what = [text("schema.ints", lang), text("schema." + part.order.replace("-", "_"), lang)]
            if part.maximum is not None:
                what.append(text("schema.maximum", lang, maximum=str(part.maximum)))
            if not part.required:
                what.append(text("schema.optional", lang))
            lines.append(f"{indent}{key}: " + ", ".join(what))
        elif isinstance(part, Table):
            lines.append(f"{indent}[{key}]" + (text("schema.others", lang) if part.others else "")
                         + (text("schema.optional_table", lang) if part.optional else ""))
            lines += describe(part, indent + "  ", lang)
        else:
            lines.append(f"{indent}[[{key}]]" + (text("schema.optional_table", lang) if part.optional else ""))
            lines += describe(part.table, indent + "  ", lang)
    return lines
