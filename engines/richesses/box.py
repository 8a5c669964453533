"""The Richesses du Monde box file: the 24 productions with their royalty tables, the 144
titles (production, country, percent, price), the countries and their continents, the
squares in board order with which carry a plaque, and the joker count (RM1, RM7, RM13).

The squares may be left out (RM8): an owner who has not copied his board's order still
plays, the operator saying where each pawn lands (`land`) and, once per player, when it
has passed the start arrow. Everything else is checked the same in both modes.

The schema (engines.core.boxfile) checks types and keys; `load_box` then checks what a
schema cannot say, against the rulebook's counts: 24 productions of 6 titles, 48 plaque
squares, the special squares and their continents. Every error names the file and the key.
"""
from pathlib import Path

from engines.core.boxfile import Ints, Key, Reader, Table, Tables, check, int_list, load_toml
from engines.core.i18n import Worded, money, text
from engines.core.records import record
from engines.richesses.rules import (CONTINENTAL, CONTINENTS, MAX_AMOUNT, MAX_JOKERS, PLAQUES, PRODUCTIONS,
                                     ROYALTY_MIN, SQUARES, TITLES_PER_PRODUCTION)

DEFAULT_BOX = Path(__file__).parent / "box" / "richesses.toml"
KINDS = ("country",) + tuple(SQUARES)
PLAQUE_KINDS = ("country", "continental", "bonus")   # RM7: these squares can carry a plaque
# Without the square order, a landing names its square in one word: a country id, or one
# of these (a continental choice with its continent: CONTINENTAL-EUROPE). A country id may
# not be one of them.
SPECIAL_WORDS = {"BONUS": "bonus", "NEWS": "news", "JOKER": "joker", "AUCTION": "auction", "WORLD": "world"}
CONTINENTAL_WORD = "CONTINENTAL-"
_WORD_OF_KIND = {kind: word for word, kind in SPECIAL_WORDS.items()}

SCHEMA = Table({
    "verified": Key(bool, False),
    # what the file leaves out is learned at the table (RM13 as amended): the joker count,
    # a production's royalty table, its titles. Bounds: what the table may learn (learning.py),
    # a band or a title's share a percent, a royalty or a price at most all the game's money.
    "jokers": Key(int, None, minimum=0, maximum=MAX_JOKERS),
    "productions": Tables(Table({"id": Key(str), "name": Key(str),
                                 "bands": Ints("increasing", required=False, maximum=100),
                                 "royalties": Ints("non-decreasing", required=False, maximum=MAX_AMOUNT)})),
    "countries": Tables(Table({"id": Key(str), "name": Key(str), "continent": Key(str, allowed=CONTINENTS)})),
    "titles": Tables(Table({"production": Key(str), "country": Key(str), "percent": Key(int, minimum=1, maximum=100),
                            "price": Key(int, minimum=1, maximum=MAX_AMOUNT)}), optional=True),
    # optional (RM8): without it the operator says where each pawn lands
    "squares": Tables(Table({"kind": Key(str, allowed=KINDS), "country": Key(str, ""),
                             "continent": Key(str, "", allowed=("",) + CONTINENTS), "plaque": Key(bool)}),
                      optional=True),
})


@record(frozen=True)
class Production:
    id: str
    name: str
    bands: tuple         # the percent each band starts at, lowest first
    royalties: tuple     # what each band pays

    def royalty(self, share: int, edge: str = "lower") -> int:
        """RM6: the band `share` falls in; 0 below the first band (30 % qualifies: "un minimum
        de 30 %"). A share on the edge of two bands is paid the band that starts there with
        `edge = "lower"` (50 % pays the 50-70 band), the band that ends there with "upper"
        (50 % pays the 30-50 band)."""
        paid = 0
        for i, (start, amount) in enumerate(zip(self.bands, self.royalties)):
            if share > start or share == start and (edge == "lower" or i == 0):
                paid = amount
        return paid


@record(frozen=True)
class Title:
    id: str              # PRODUCTION-COUNTRY, as scripts write it
    production: str
    country: str
    continent: str
    percent: int
    price: int


@record(frozen=True)
class Square:
    number: int          # 1.. in board order
    kind: str            # country, continental, world, auction, joker, news, bonus
    country: str         # a country square's country
    continent: str       # a country's or a continental choice's continent
    plaque: bool


@record(frozen=True)
class Box:
    path: str
    verified: bool
    jokers: int | None   # None: counted at the table at the first joker square
    productions: dict    # id -> Production, in the file's order (bands () when learned at the table)
    countries: dict      # id -> (name, continent)
    titles: dict         # id -> Title, in the file's order
    squares: tuple       # Square, board order; () when the file leaves the order out (RM8)

    @property
    def ordered(self) -> bool:
        """The file lists the squares in board order: the box moves the pawns and counts
        world tours itself; else the operator says where each pawn lands (RM8)."""
        return bool(self.squares)

    def plaque_squares(self) -> tuple:
        return tuple(sq.number for sq in self.squares if sq.plaque)

    def square(self, number: int) -> Square:
        return self.squares[number - 1]

    def places(self) -> tuple:
        """Every word a landing may name without the square order: the countries in the
        file's order, the continental choices by continent, then the other squares."""
        return (tuple(self.countries) + tuple(CONTINENTAL_WORD + c for c in CONTINENTAL)
                + tuple(SPECIAL_WORDS))

    def place(self, word: str) -> Square | None:
        """The square a landing names (number 0: its place on the board is not known), or
        None for a word that names none."""
        if word in self.countries:
            return Square(0, "country", word, self.countries[word][1], True)
        if word.startswith(CONTINENTAL_WORD) and word[len(CONTINENTAL_WORD):] in CONTINENTAL:
            return Square(0, "continental", "", word[len(CONTINENTAL_WORD):], True)
        if word in SPECIAL_WORDS:
            kind = SPECIAL_WORDS[word]
            return Square(0, kind, "", "", kind in PLAQUE_KINDS)
        return None

    def production_name(self, production: str) -> str:
        """A production as its plaque prints it ("Argent"): texts never show the file's id."""
        return self.productions[production].name

    def title_name(self, title: str) -> str:
        """A title as its card prints it, its production and its country: "Argent (Canada)"."""
        info = self.titles[title]
        return f"{self.production_name(info.production)} ({self.countries[info.country][0]})"

    def word(self, square: Square) -> str:
        """The word a landing names `square` with: `place`'s inverse."""
        if square.kind == "country":
            return square.country
        if square.kind == "continental":
            return CONTINENTAL_WORD + square.continent
        return _WORD_OF_KIND[square.kind]


def _ident(reader: Reader, key: str, value: str) -> str:
    if not value or value != value.upper() or any(ch in value for ch in " ,#'\""):
        reader.refuse(key, "rm.upper", id=repr(value))
    return value


def load_box(path: Path | str | None = None) -> Box:
    """The box file at `path` (the shipped one by default), checked. A file read before and
    unchanged since (same size and modification time) is not parsed again: every game, replay
    and script of a session reads the same box, and parsing and checking it is not free."""
    path = Path(path or DEFAULT_BOX)
    try:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None                      # missing or unreadable: _load says so, naming the file
    if key is not None and key in _LOADED:
        return _LOADED[key]
    box = _load(path)
    if key is not None:
        _LOADED.clear()                 # keep one: the box of the games being played
        _LOADED[key] = box
    return box


_LOADED: dict = {}


def _load(path: Path) -> Box:
    top = Reader(path, load_toml(path))
    check(top, SCHEMA)

    productions = {}
    for item in top.tables("productions"):
        pid = _ident(item, "id", item.get("id", str))
        if pid in productions:
            item.refuse("id", "rm.production_twice", id=repr(pid))
        productions[pid] = Production(pid, item.get("name", str), *_royalty_table(item))
    if len(productions) != PRODUCTIONS:
        top.refuse("productions", "rm.productions", count=str(len(productions)), productions=str(PRODUCTIONS))

    countries = {}
    for item in top.tables("countries"):
        cid = _ident(item, "id", item.get("id", str))
        if cid in countries:
            item.refuse("id", "rm.country_twice", id=repr(cid))
        if cid in SPECIAL_WORDS or cid.startswith(CONTINENTAL_WORD):
            item.refuse("id", "rm.special", id=repr(cid))
        countries[cid] = (item.get("name", str), item.get("continent", str))

    titles, per_production = {}, {p: [] for p in productions}
    for item in top.tables("titles") if "titles" in top.data else ():
        production, country = item.get("production", str), item.get("country", str)
        if production not in productions:
            item.refuse("production", "rm.no_production", production=repr(production), known=", ".join(productions))
        if country not in countries:
            item.refuse("country", "rm.no_country", country=repr(country))
        tid = f"{production}-{country}"
        if tid in titles:
            item.refuse("country", "rm.title_twice", production=production, country=country)
        title = Title(tid, production, country, countries[country][1], item.get("percent", int), item.get("price", int))
        titles[tid] = title
        per_production[production].append(title)
    for pid, held in per_production.items():
        if len(held) > TITLES_PER_PRODUCTION:     # fewer: the others are learned at the table
            top.refuse("titles", "rm.trust", production=pid, count=str(len(held)), trust=str(TITLES_PER_PRODUCTION))
        if sum(t.percent for t in held) > 100:
            top.refuse("titles", "rm.percents", production=pid, total=str(sum(t.percent for t in held)))

    squares = _squares(top, countries) if "squares" in top.data else ()
    return Box(str(path), top.get("verified", bool, False), top.get("jokers", int, None), productions, countries,
               titles, tuple(squares))


def _royalty_table(item: Reader) -> tuple:
    """A production's bands and royalties, both left out when the table is learned at the
    table (two empty tuples)."""
    if "bands" not in item.data and "royalties" not in item.data:
        return (), ()
    bands, royalties = int_list(item, "bands", "increasing"), int_list(item, "royalties", "non-decreasing")
    if len(bands) != len(royalties):
        item.refuse("royalties", "rm.amounts", count=str(len(royalties)), bands=str(len(bands)))
    if bands[0] != ROYALTY_MIN or bands[-1] > 100:
        item.refuse("bands", "rm.bands", bands=str(list(bands)), first=str(ROYALTY_MIN))
    return bands, royalties


def _squares(top: Reader, countries: dict) -> list:
    """The squares in board order, checked against the rulebook's counts; a mistake says
    the list may also be left out (RM8)."""
    squares, counts, continental = [], {}, {}
    for number, item in enumerate(top.tables("squares"), 1):
        kind, plaque = item.get("kind", str), item.get("plaque", bool)
        country, continent = item.get("country", str, ""), item.get("continent", str, "")
        if kind == "country":
            if country not in countries:
                item.refuse("country", "rm.square_country", country=repr(country))
            continent = countries[country][1]
        elif country:
            item.refuse("country", "rm.not_country_square", kind=kind)
        if kind == "continental":
            if continent not in CONTINENTAL:
                item.refuse("continent", "rm.continental", continent=repr(continent), allowed=", ".join(CONTINENTAL))
            continental[continent] = continental.get(continent, 0) + 1
        elif kind != "country" and continent:
            item.refuse("continent", "rm.no_continent", kind=kind)
        if plaque and kind not in PLAQUE_KINDS:
            item.refuse("plaque", "rm.plaque", kind=kind, allowed=", ".join(PLAQUE_KINDS))
        counts[kind] = counts.get(kind, 0) + 1
        squares.append(Square(number, kind, country, continent, plaque))
    for kind, wanted in SQUARES.items():
        if counts.get(kind, 0) != wanted:
            top.refuse("squares", "rm.square_count", count=counts.get(kind, 0), kind=kind, wanted=str(wanted))
    if continental != CONTINENTAL:
        top.refuse("squares", "rm.continentals", counted=str(continental), wanted=str(CONTINENTAL))
    plaques = sum(sq.plaque for sq in squares)
    if plaques != PLAQUES:
        top.refuse("squares", "rm.plaques", count=str(plaques), wanted=str(PLAQUES))
    on_board = {sq.country for sq in squares}
    missing = [c for c in countries if c not in on_board]
    if missing:
        top.refuse("squares", "rm.unreached", country=missing[0])
    return squares


def holdings(box: Box, lang: str = "en") -> list[str]:
    """What the box file holds, in words (`corbeille box check`), beside the counts of what
    is known and what will be learned at the table (`counts`)."""
    lines = []
    for p in box.productions.values():
        bands = ", ".join(f"{b} %: {money(r, lang, 'rm')}" for b, r in zip(p.bands, p.royalties))
        titles = ", ".join(f"{t.country} {t.percent}% {money(t.price, lang, 'rm')}" for t in box.titles.values()
                           if t.production == p.id)
        lines.append(text("box.rm.holds_production", lang, id=p.id, name=p.name,
                          bands=bands or Worded("box.rm.unknown"), titles=titles or Worded("box.rm.none")))
    if box.ordered:
        lines.append(text("box.rm.holds_board", lang) + " ".join(sq.country or (f"{sq.kind}:{sq.continent}" if sq.continent else sq.kind)
                                          for sq in box.squares))
    else:
        lines.append(text("box.rm.holds_no_board", lang))
    return lines


def counts(box: Box) -> tuple[list, list]:
    """What the file holds and what the table will read off the cards when play meets it
    (RM13 as amended, engines/richesses/learning.py), as (catalog key, count) pairs
    (`corbeille box check`). What a game cannot start without (the productions, the
    countries) is refused by `load_box`, naming the file and key."""
    tables = sum(bool(p.bands) for p in box.productions.values())
    known = [("box.rm.count.productions", len(box.productions)), ("box.rm.count.countries", len(box.countries)),
             ("box.rm.count.titles", len(box.titles)), ("box.rm.count.royalties", tables),
             ("box.rm.count.squares", len(box.squares)), ("box.rm.count.jokers", box.jokers or 0)]
    learned = [("box.rm.count.titles", PRODUCTIONS * TITLES_PER_PRODUCTION - len(box.titles)),
               ("box.rm.count.royalties", len(box.productions) - tables),
               ("box.rm.count.joker_count", int(box.jokers is None))]
    return known, learned
