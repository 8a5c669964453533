"""Helper module (no tests): whether a text on a screen or board comes from the catalogs.

`Catalogs(lang, printed, names)` reads every registered catalog of one language as
templates and says whether a shown text is one of them, its fields filled with texts that
are themselves catalog texts, or with words no catalog needs: numbers and amounts, the
`printed` names (what the game prints: tests/box_play.py `PRINTED` declares them per game,
nothing else is exempt) and the players' `names`. The firmware's own marks are no words
either: a list's numbering ("12. "), a checklist's box ("[x]"), a sign beside a text
("Ana ✓", "Passe…"), a grid's cell ("E6"), a file's path. A text the box wrote itself (an
English word on a French screen, a protocol id, a key the catalog lacks) matches nothing and
is returned by `Catalogs.foreign`.

`raw(text)` finds what must never be shown in any language: a catalog key written as it is
(`ui.q.amount_set_pawn {'player': 'Rouge'}`, the fallback of engines/core/i18n.py), a
field left unformatted (`{player}`), a snake_case or colon protocol id (`forced_sale`,
`29:RIZ`).
"""
from __future__ import annotations

import re
import string
from functools import lru_cache

from engines.core.i18n import catalog

RAW_KEY = re.compile(r"\b(?:ui|prompt|event|error|reason|correction)\.[a-z][\w.]*|\{'|\{\w*\}")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")          # forced_sale, card_pay_each
COLON = re.compile(r"\b\w+:\w+\b")                                 # 29:RIZ
# What the firmware draws beside texts that has letters but is no word: a checklist's boxes,
# and a grid's cell named as the map names it (column letter, row number: "E6").
MARKS = frozenset({"[x]", "[ ]"})
CELL = re.compile(r"[A-Z][1-9][0-9]?")
PATH = re.compile(r"/\S+")                 # a file's path (where the report was written)
SEPARATORS = re.compile(r", | · | / | |\t|,")
MARKED = re.compile(r"^[^\w(«\[]+ |(?<=\w) ?[^\w\s.,;:!?)»%\]]+$")   # a sign before or after a text ("Passe…")
ELIDED = re.compile(r"(?:^|(?<=[\s(«']))de $")     # French writes "d'Ana" for "de {player}"
NAME_WORDS = 8                        # the most words a printed name has
NUMBERED = re.compile(r"\d+\. ")      # a line of a numbered list (the history, a ranking)


@lru_cache(maxsize=None)
def raw(shown: str) -> tuple[str, ...]:
    """Catalog keys, unformatted fields and protocol ids in `shown` (a file's path is data);
    kept per text, as a screen's texts come again on frame after frame."""
    shown = PATH.sub("", shown)
    return tuple(RAW_KEY.findall(shown) + SNAKE.findall(shown) + COLON.findall(shown))


def _parts(template: str):
    """A template as (literal, field spec or None) parts; None for a template whose fields
    the catalog's formatter does not write plainly."""
    out = []
    try:
        for literal, name, spec, conversion in string.Formatter().parse(template):
            if name is not None and (conversion or not name.isidentifier()):
                return None
            out.append((literal, None if name is None else (spec or "")))
    except ValueError:
        return None
    return tuple(out)


def catalogs(lang: str, printed: frozenset, names: frozenset) -> Catalogs:
    """The `Catalogs` of these names, one for all who ask while the language's catalogs are
    the same (a game's catalog is registered when it is first loaded): its verdicts depend
    on nothing else."""
    return _catalogs(lang, printed, names, len(catalog(lang)))


@lru_cache(maxsize=None)
def _catalogs(lang, printed, names, _keys):
    return Catalogs(lang, printed, names)


class Catalogs:
    """The templates of one language, to tell a shown text made of them from one that is not."""

    def __init__(self, lang: str, printed=frozenset(), names=frozenset()):
        self.lang = lang
        self.names = frozenset(printed) | frozenset(names)
        # by the first character of their head and the last of their tail: a text is tried on
        # those that can start and end as it does
        self.templates = {}
        for template in set(catalog(lang).values()):
            parts = _parts(template)
            if parts is None or not any(spec is not None for _, spec in parts):
                continue                      # a plain text: looked up in `plain` below
            # what of each literal every text it writes holds: French elides "de " before a field
            literals = tuple(ELIDED.sub("", lit) for lit, _ in parts if lit.strip())
            if not any(lit.strip() for lit in literals) and sum(spec is not None for _, spec in parts) < 2:
                continue                      # "{x}": says nothing of its value
            head = ELIDED.sub("", parts[0][0])
            tail = parts[-1][0] if parts[-1][1] is None else ""
            # a template of fields apart by spaces only ("{company} {move}") joins words, not texts
            # its longest literal first: most texts tried on a template lack it
            template = (parts, max(literals, key=len, default=""), literals, head, tail,
                        not any(lit.strip() for lit in literals))
            self.templates.setdefault((head[:1], tail[-1:]), []).append(template)
        self.plain = frozenset(v for v in catalog(lang).values() if _parts(v) and all(s is None for _, s in _parts(v)))
        self._ok = lru_cache(maxsize=None)(self._made_of_catalogs)
        self._word = lru_cache(maxsize=None)(self._word)     # pure: the same pieces are tried by every template

    def foreign(self, shown: str) -> list[str]:
        """The columns of `shown` (a screen's line, split at its tab) no catalog writes."""
        columns = [NUMBERED.sub("", column, count=1).strip() for column in shown.split("\t")]
        return [column for column in columns if not self._ok(column)]

    # ------------------------------------------------------------------ matching
    def _word(self, s: str) -> bool:
        """A text that needs no template: a name, a plain catalog text, a mark, a cell, or no
        letters at all (numbers, amounts, signs)."""
        return (s in self.names or s in self.plain or s in MARKS or bool(CELL.fullmatch(s) or PATH.fullmatch(s))
                or not any(ch.isalpha() for ch in s))

    def _made_of_catalogs(self, s: str) -> bool:
        if self._word(s) or self._names_only(s):
            return True
        ends = {(s[:1], s[-1:]), (s[:1], ""), ("", s[-1:]), ("", "")}
        for parts, longest, literals, head, tail, loose in (t for key in ends for t in self.templates.get(key, ())):
            if longest in s and s.startswith(head) and s.endswith(tail) and all(lit in s for lit in literals) \
                    and self._match_from(parts, 0, s, 0, loose):
                return True
        bare = MARKED.sub("", s)          # a catalog text with the firmware's marks ("1 lot ●", "Ana ✓")
        return bare != s and self._ok(bare)

    def _names_only(self, s: str) -> bool:
        """`s` is names, numbers, amounts and marks only, separated by spaces, commas or dots
        (a summary's players "Ana Ben Cid", a checklist's "[x] SONY", the history's "Ana +100 $
        Ben -100 $"); a name has a few words at most ("Hong Kong")."""
        words = [w for w in SEPARATORS.split(s) if w]
        if len(words) < 2:
            return False
        ends = {0}
        for i in range(len(words)):
            if i not in ends:
                continue
            for j in range(i + 1, min(len(words), i + NAME_WORDS) + 1):
                piece = " ".join(words[i:j])
                # a name, or an amount in its money ("+29 000 FT": a catalog text with a number)
                if self._word(piece) or (piece != s and any(ch.isdigit() for ch in piece) and self._ok(piece)):
                    ends.add(j)
        return len(words) in ends

    def _match_from(self, parts, i: int, s: str, pos: int, loose: bool) -> bool:
        if i == len(parts):
            return pos == len(s)
        literal, spec = parts[i]
        for lit in self._forms(literal, spec):
            if not s.startswith(lit, pos):
                continue
            at = pos + len(lit)
            if spec is None:
                if self._match_from(parts, i + 1, s, at, loose):
                    return True
                continue
            nxt = parts[i + 1][0] if i + 1 < len(parts) else None
            for end in self._ends(s, at, nxt):
                if self._field(spec, s[at:end], loose) and self._match_from(parts, i + 1, s, end, loose):
                    return True
        return False

    def _forms(self, literal, spec):
        """The literal as written, and in French "de " elided before a field ("d'Ana")."""
        yield literal
        if self.lang == "fr" and spec is not None and ELIDED.search(literal):
            yield literal[:-3] + "d'"

    @staticmethod
    def _ends(s, at, nxt):
        """Where a field starting at `at` may end: before each place the next literal starts
        (at the end of `s` for the last field); a field is never empty."""
        if nxt is None:
            return [len(s)] if len(s) > at else []
        if not nxt:
            return range(at + 1, len(s) + 1)
        ends, k = [], s.find(nxt, at + 1)
        while k != -1:
            ends.append(k)
            k = s.find(nxt, k + 1)
        return ends

    def _field(self, spec: str, value: str, loose: bool) -> bool:
        if "|" in spec and not spec.startswith("@"):
            return value in spec.split("|", 1)
        if loose:
            return self._word(value)
        # a list field is joined ("Dés : 3, -2, 1"): each item a catalog text
        if ", " in value and all(self._ok(item) for item in value.split(", ")):
            return True
        return self._ok(value)
