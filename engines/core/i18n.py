"""Message catalogs: every text shown to people comes from here, in French or English.

Each engine package may ship `locale/fr.json` and `locale/en.json`; `register_catalog`
merges them into one table per language. Each game's keys carry the game's prefix
(`error.dv.*`, `prompt.mb.*`, the box's `ui.kind.dv.*`: engines/registry.py declares it), and a key two
catalogs both define is refused when the second is registered, naming both files: merged
silently, whichever came last would win and the other game's text would be lost.

A number's word agrees with it where the template says so: `{lots} {lots:lot|lots}` writes
"1 lot", "0 lot" in French (CLDR: 0 and 1 are singular there) and "0 lots" in English, so no
text writes "lot(s)". Two languages with one singular each need no gettext toolchain: the
rule is `singular` below, and the forms stay beside the sentence in the JSON catalog.

French elides "de" before a value that starts with a vowel: "victoire de {winners}" writes
"victoire d'Ana", "Combien de {company} ?" writes "Combien d'ELF ?", and "victoire de Ben"
as written; so a template never needs to know whom or what it will name.

An amount of money is written by one formatter (`money`): `{price:$}` in a game's template
writes "1 200 $", A Vendre!'s "1 200.—", Shark's "1 000 FT" (the game's `money.<prefix>`,
found from the template's key), grouped as the language groups thousands.

A value the protocol spells as a word is shown by its catalog name: `{tile:@dv.tile_name}`
writes the catalog's `dv.tile_name.FORCE-SELL` ("Force Sell", as printed on the tile).

A key missing from a catalog is a bug, so `text` falls back to the key itself with its
parameters rather than raising: a missing translation must never stop a game.
"""
import functools
import json
import re
import string
from pathlib import Path

LANGUAGES = ("fr", "en")
_catalogs: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
_origins: dict[str, dict[str, Path]] = {lang: {} for lang in LANGUAGES}  # key -> the file defining it
_registered: set[Path] = set()


class CatalogClash(ValueError):
    """Two catalogs define the same key."""


def register_catalog(folder: Path) -> None:
    """Add the catalogs of `folder` (`fr.json`, `en.json`), all or nothing: a key another
    registered catalog already defines is refused, naming both files."""
    folder = Path(folder).resolve()
    if folder in _registered:
        return
    loaded = {}
    for lang in LANGUAGES:
        path = folder / f"{lang}.json"
        if path.exists():
            loaded[lang] = (path, json.loads(path.read_text(encoding="utf-8")))
    for lang, (path, entries) in loaded.items():
        clashes: dict[Path, list[str]] = {}
        for key in sorted(entries):
            if key in _origins[lang]:
                clashes.setdefault(_origins[lang][key], []).append(key)
        if clashes:
            raise CatalogClash("; ".join(f"{path} and {other} both define {', '.join(keys)}"
                                         for other, keys in clashes.items())
                               + ": each catalog keeps its own keys (a game's under its prefix)")
    for lang, (path, entries) in loaded.items():
        _catalogs[lang].update(entries)
        _origins[lang].update(dict.fromkeys(entries, path))
    _registered.add(folder)


def catalog(lang: str) -> dict[str, str]:
    return _catalogs[lang]


def format_amount(amount: int, lang: str = "fr", sign: bool = False) -> str:
    """An amount as `lang` groups its thousands: 1234567 -> '1 234 567' (French) or
    '1,234,567'; with `sign`, a change written with its sign ('+1 000', '-50', '0')."""
    sep = " " if lang == "fr" else ","
    mark = "-" if amount < 0 else "+" if sign and amount > 0 else ""
    return mark + f"{abs(amount):,}".replace(",", sep)


def money(amount: int, lang: str = "fr", prefix: str = "", sign: bool = False) -> str:
    """An amount of a game's money, the one way the box and the command line write it: its
    thousands grouped as `lang` writes them (`format_amount`, with `sign` a change: "+1 000"),
    in the money of the game whose catalog prefix is `prefix` ("av" or "av.") as its rulebook
    writes it: the game's `money.<prefix>` (A Vendre!'s "1 200.—", Shark's "1 000 FT",
    Richesses du Monde's "1 000 000 F"), else core's `money` ("1 200 $")."""
    key = "money." + prefix.rstrip(".") if prefix else "money"
    return text(key if key in _catalogs[lang] else "money", lang, amount=format_amount(amount, lang, sign))


def text(key: str, lang: str = "fr", /, *, money_of: str = "", **params) -> str:
    """The catalog's `key` in `lang` with `params`; `money_of`: the prefix of the game whose
    money a template of core's writes its `{amount:$}` in (a game's own keys say it)."""
    template = _catalogs.get(lang, {}).get(key)
    if template is None:
        template = _catalogs["en"].get(key)
    if template is None:
        return key + (" " + repr(params) if params else "")
    if money_of:
        key = f"{key}.{money_of}"      # read by _game_of: the game whose money it is
    try:
        parts = _compiled(template)
        if parts is None:
            return _Formatter(lang, key).vformat(template, (), params)
        if len(parts) == 1 and parts[0][1] is None:
            return parts[0][0]              # no field ("{{" already read as "{")
        elide = lang == "fr"
        out = []
        for literal, name, spec in parts:
            out.append(literal)
            if name is not None:
                shown = _format_field(params[name], spec, lang, key)
                if elide and literal and shown[:1] in _VOWELS and _DE.search(literal):
                    out[-1] = literal[:-3] + "d'"       # as _Formatter does: "d'Ana"
                out.append(shown)
        return "".join(out)
    except (KeyError, IndexError, ValueError):
        return template


@functools.lru_cache(maxsize=4096)
def _compiled(template: str):
    """A template cut once into (literal, field name or None, spec) parts, when each of its
    fields is a plain name (`{amount}`, `{n:lot|lots}`): `text` then writes it without
    string.Formatter parsing it again on every call (texts are written on every press). None for
    anything else (`{0}`, `{a.b}`, `{x!r}`, a field in a spec), which Formatter writes."""
    parts = []
    try:
        for literal, name, spec, conversion in _PARSER.parse(template):
            if name is not None and (conversion or not name.isidentifier() or "{" in spec):
                return None
            parts.append((literal, name, spec))
    except ValueError:           # a malformed template: Formatter raises it, `text` falls back
        return None
    return tuple(parts)


_PARSER = string.Formatter()


def singular(count: int, lang: str) -> bool:
    """Whether `count` takes the singular word (CLDR plural rules: French "one" is 0 and 1,
    English "one" is 1 only)."""
    count = abs(count)
    return count <= 1 if lang == "fr" else count == 1


# "de " ending the template's text before a field, as a word of its own ("de", not "pde").
_DE = re.compile(r"(?:^|(?<=[\s(«']))de $")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")


class _Formatter(string.Formatter):
    """str.format with the catalog's conventions: integers grouped by language, lists
    joined, a `{n:singular|plural}` field choosing the word that agrees with n, and in
    French "de" elided before a value that starts with a vowel ("d'Ana", "d'ELF")."""

    def __init__(self, lang, key=""):
        self.lang, self.key = lang, key

    def vformat(self, format_string, args, kwargs):
        if self.lang != "fr":
            return super().vformat(format_string, args, kwargs)
        # The catalog's templates are flat (no nested fields): each literal, then its field.
        out = []
        for literal, field, spec, conversion in self.parse(format_string):
            out.append(literal)
            if field is None:
                continue
            value, _ = self.get_field(field, args, kwargs)
            shown = self.format_field(self.convert_field(value, conversion), spec or "")
            before = out[-1] if literal else ""
            if shown[:1] in _VOWELS and _DE.search(before):
                out[-1] = before[:-3] + "d'"
            out.append(shown)
        return "".join(out)

    def format_field(self, value, spec):
        return _format_field(value, spec, self.lang, self.key)


def _format_field(value, spec: str, lang: str, key: str = "") -> str:
    """One field of a template, by the catalog's conventions (see _Formatter); `key` is the
    template's, whose game says the money of a `{amount:$}` field."""
    if spec == "$":             # an amount of money; anything else (a text already written) as it is
        if isinstance(value, int) and not isinstance(value, bool):
            return money(value, lang, _game_of(key, lang))
        return str(_show(value, lang))
    if spec.startswith("@"):
        # A value the catalog names: `{tile:@dv.tile_name}` writes "dv.tile_name.<value>"
        # (the tile's printed name, "Force Sell"), not the protocol's word ("FORCE-SELL");
        # a list, each of its values.
        if isinstance(value, (list, tuple)):
            return ", ".join(_format_field(item, spec, lang) for item in value)
        key = f"{spec[1:]}.{value}"
        return _catalogs.get(lang, {}).get(key) or _catalogs["en"].get(key) or str(value)
    if "|" in spec:
        one, _, other = spec.partition("|")
        count = len(value) if isinstance(value, (list, tuple)) else value
        return one if singular(int(count), lang) else other
    return format(_show(value, lang), spec)


class Worded:
    """A value that is a text of its own (`key` with `params`), written in the language of the
    text that shows it: a refusal's "1 000 to 2 000 000 in steps of 1 000" in French when the
    refusal is read in French, its amounts grouped as every amount is. `str` is the English."""

    def __init__(self, key: str, /, **params):
        self.key, self.params = key, params

    def text(self, lang: str) -> str:
        return text(self.key, lang, **self.params)

    def __str__(self):
        return self.text("en")

    def __eq__(self, other):
        return isinstance(other, Worded) and (self.key, self.params) == (other.key, other.params)

    def __hash__(self):
        return hash(self.key)


class Joined(Worded):
    """Values written one after the other with `sep` between them, each in the language of
    the text that shows it (a list field's allowed values, item by item)."""

    def __init__(self, sep: str, items):
        super().__init__("", sep=sep)
        self.sep, self.items = sep, tuple(items)

    def text(self, lang: str) -> str:
        return self.sep.join(str(_show(item, lang)) for item in self.items)

    def __eq__(self, other):
        return isinstance(other, Joined) and (self.sep, self.items) == (other.sep, other.items)

    def __hash__(self):
        return hash(self.items)


def _game_of(key: str, lang: str) -> str:
    """The prefix of the game a template's key belongs to ("event.rm.sale": "rm") when that
    game counts in a money of its own (`money.<prefix>`), else "" (core's money)."""
    for part in key.split(".")[1:]:
        if "money." + part in _catalogs[lang]:
            return part
    return ""


def _show(value, lang):
    if isinstance(value, Worded):
        return value.text(lang)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return format_amount(value, lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_show(v, lang)) for v in value)
    return value


register_catalog(Path(__file__).parent / "locale")
