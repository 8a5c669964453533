"""The Maxi Bourse box file: sectors, companies and their nominal prices (MB1)."""
from dataclasses import dataclass
from pathlib import Path

from engines.core.boxfile import Key, Reader, Table, Tables, check, load_toml

DEFAULT_BOX = Path(__file__).parent / "box" / "maxibourse.toml"
NOMINALS = (100, 200, 300)  # MB1 (RULINGS.md): "100, 200 or 300 $ per company, from the box file"

# The file's schema; load_box then checks what a schema cannot say (ids unique, upper case).
SCHEMA = Table({
    "verified": Key(bool, False),
    "lots_per_company": Key(int, 10, minimum=1),
    "shares_per_lot": Key(int, 1000, minimum=1),
    "sectors": Tables(Table({
        "id": Key(str),
        "name": Table({"fr": Key(str), "en": Key(str)}, others=True),
        "companies": Tables(Table({"id": Key(str), "name": Key(str), "nominal": Key(int, allowed=NOMINALS)})),
    })),
})


@dataclass(frozen=True)
class Company:
    id: str
    name: str
    nominal: int
    sector: str


@dataclass(frozen=True)
class Sector:
    id: str
    name: dict  # language -> name
    companies: tuple  # company ids


@dataclass(frozen=True)
class Box:
    path: str
    verified: bool
    lots_per_company: int
    shares_per_lot: int
    sectors: tuple
    companies: dict  # id -> Company, in rulebook order

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
                comp.fail("id", f"{cid!r} appears twice; company ids must be unique")
            if cid != cid.upper() or " " in cid:
                comp.fail("id", f"{cid!r} must be upper case without spaces (it is typed in scripts)")
            nominal = comp.get("nominal", int)
            companies[cid] = Company(cid, comp.get("name", str), nominal, sid)
            ids.append(cid)
        sectors.append(Sector(sid, name, tuple(ids)))
    if not companies:
        top.fail("sectors", "no company defined")
    return Box(
        path=str(path),
        verified=top.get("verified", bool, default=False),
        lots_per_company=top.get("lots_per_company", int, default=10),
        shares_per_lot=top.get("shares_per_lot", int, default=1000),
        sectors=tuple(sectors),
        companies=companies,
    )


def holdings(box: Box, lang: str = "en") -> list[str]:
    """What the box file holds, in words (`corbeille box check`)."""
    lines = [f"{len(box.companies)} companies in {len(box.sectors)} sectors, {box.lots_per_company} lots "
             f"of {box.shares_per_lot} shares each; nominal price of each company:"]
    for sector in box.sectors:
        lines.append(f"  {sector.name.get(lang, sector.id)}: "
                     + ", ".join(f"{c} {box.companies[c].nominal} $" for c in sector.companies))
    return lines
