"""The Maxi Bourse box file: sectors, companies and their nominal prices (MB1)."""
from pathlib import Path

from engines.core.boxfile import Key, Reader, Table, Tables, check, load_toml
from engines.core.i18n import money, text
from engines.core.records import record

DEFAULT_BOX = Path(__file__).parent / "box" / "maxibourse.toml"
NOMINALS = (100, 200, 300)  # MB1 (RULINGS.md): "100, 200 or 300 $ per company, from the box file"
# The squares of the board that are not a company's Titre square: the start ("Action !",
# rule 8: "le placez sur la case Action !"), the two Bourse squares, the two Politique
# squares, Rumeurs and "Strictement personnel" (the rulebook's list of squares).
START = "ACTION"
SQUARE_KINDS = (START, "BOURSE", "POLITIQUE-INTERIEURE", "POLITIQUE-INTERNATIONALE", "RUMEURS", "PERSONNEL")

# The bounds of a copy's counts: ten times the rulebook's (10 lots of 1 000 shares, MB1),
# far above any printed copy, and small enough that every amount the game computes from
# them stays an exact whole number the journal and the screens hold.
MAX_LOTS = 100
MAX_SHARES_PER_LOT = 10_000

# The file's schema; load_box then checks what a schema cannot say (ids unique, upper case).
SCHEMA = Table({
    "verified": Key(bool, False),
    "lots_per_company": Key(int, 10, minimum=1, maximum=MAX_LOTS),
    "shares_per_lot": Key(int, 1000, minimum=1, maximum=MAX_SHARES_PER_LOT),
    "sectors": Tables(Table({
        "id": Key(str),
        "name": Table({"fr": Key(str), "en": Key(str)}, others=True),
        "companies": Tables(Table({"id": Key(str), "name": Key(str), "nominal": Key(int, 0, allowed=NOMINALS)})),   # left out: asked before the deal
    })),
    # Optional: the board's squares in the order the pawns go round, from "Action !". With
    # it the box moves the pawn by the dice and knows the square (the operator confirms or
    # corrects it); without it the box asks the square.
    "board": Table({"verified": Key(bool, False), "squares": Key(list)}, optional=True),
})


@record(frozen=True)
class Company:
    id: str
    name: str
    nominal: int         # 0: not in the file, learned at the table (engines/maxibourse/learning.py)
    sector: str


@record(frozen=True)
class Sector:
    id: str
    name: dict  # language -> name
    companies: tuple  # company ids


@record(frozen=True)
class Box:
    path: str
    verified: bool
    lots_per_company: int
    shares_per_lot: int
    sectors: tuple
    companies: dict  # id -> Company, in rulebook order
    board: tuple = ()  # the squares from "Action !" (company ids or SQUARE_KINDS); () without a board
    board_verified: bool = False

    def sector_of(self, company: str) -> str:
        return self.companies[company].sector


def load_box(path: Path | str | None = None) -> Box:
    path = Path(path or DEFAULT_BOX)
    top = Reader(path, load_toml(path))
    check(top, SCHEMA)
    sectors, companies = [], {}
    for sector in top.tables("sectors"):
        sid = sector.get("id", str)
        names = sector.table("name")
        name = {lang: names.get(lang, str) for lang in ("fr", "en")}
        ids = []
        for comp in sector.tables("companies"):
            cid = comp.get("id", str)
            if cid in companies:
                comp.refuse("id", "mb.twice", id=repr(cid))
            if cid != cid.upper() or " " in cid:
                comp.refuse("id", "mb.upper", id=repr(cid))
            nominal = comp.get("nominal", int, 0)
            companies[cid] = Company(cid, comp.get("name", str), nominal, sid)
            ids.append(cid)
        sectors.append(Sector(sid, name, tuple(ids)))
    if not companies:
        top.refuse("sectors", "mb.no_company")
    board, board_verified = (), False
    if "board" in top.data:
        table = top.table("board")
        board = read_board(table, companies)
        board_verified = table.get("verified", bool, default=False)
    return Box(
        path=str(path),
        verified=top.get("verified", bool, default=False),
        lots_per_company=top.get("lots_per_company", int, default=10),
        shares_per_lot=top.get("shares_per_lot", int, default=1000),
        sectors=tuple(sectors),
        companies=companies,
        board=board,
        board_verified=board_verified,
    )


def read_board(table: Reader, companies: dict) -> tuple:
    """The board's squares: each a company id of the file or one of SQUARE_KINDS, the start
    first (the pawns start there), at least one Titre square."""
    squares = table.get("squares", list)
    for i, square in enumerate(squares):
        if not isinstance(square, str) or (square not in companies and square not in SQUARE_KINDS):
            table.refuse(f"squares[{i}]", "mb.square", square=repr(square), kinds=", ".join(SQUARE_KINDS))
    if not squares or squares[0] != START:
        table.refuse("squares", "mb.start", start=repr(START))
    if squares.count(START) != 1:
        table.refuse("squares", "mb.start_once", start=repr(START))
    if not any(square in companies for square in squares):
        table.refuse("squares", "mb.no_titre")
    return tuple(squares)


def counts(box: Box) -> tuple[list, list]:
    """What the file holds and what the table will learn, as (catalog key, count) pairs
    (`corbeille box check`): a nominal price left out is asked before the deal."""
    unknown = sum(1 for company in box.companies.values() if not company.nominal)
    known = [("box.mb.count.sectors", len(box.sectors)), ("box.mb.count.companies", len(box.companies)),
             ("box.mb.count.nominals", len(box.companies) - unknown), ("box.mb.count.squares", len(box.board))]
    return known, [("box.mb.count.nominals", unknown)]


def holdings(box: Box, lang: str = "en") -> list[str]:
    """What the box file holds, in words (`corbeille box check`)."""
    lines = [text("box.mb.holds", lang, companies=str(len(box.companies)), sectors=str(len(box.sectors)),
                  lots=str(box.lots_per_company), shares=str(box.shares_per_lot))]
    for sector in box.sectors:
        lines.append(f"  {sector.name.get(lang, sector.id)}: "
                     + ", ".join(f"{c} {money(box.companies[c].nominal, lang, 'mb') if box.companies[c].nominal else '?'}"
                                 for c in sector.companies))
    if box.board:
        lines.append(text("box.mb.holds_board" if box.board_verified else "box.mb.holds_board_unverified", lang,
                          squares=str(len(box.board)), start=START))
        lines += [f"  {i:2}. {square}" for i, square in enumerate(box.board)]
    else:
        lines.append(text("box.mb.holds_no_board", lang))
    return lines
