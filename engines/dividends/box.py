"""The Dividends box file: the stock-market chart, the dividend track and its zones, the
companies and the influence cards (ruling DV1). Every schema error names the key."""
from pathlib import Path

from engines.core.boxfile import Ints, Key, Reader, Table, Tables, check, int_list, load_toml
from engines.core.i18n import money, text
from engines.core.records import record
from engines.dividends.rules import MAX_BID, MAX_INFLUENCE_CARDS

DEFAULT_BOX = Path(__file__).parent / "box" / "dividends.toml"
DICE = {  # the three dice of the rulebook: steps up (+) or down (-) per face
    "black": (1, 1, 2, 2, 3, 3),
    "grey": (1, -1, 2, -2, 3, -3),
    "white": (-1, -1, -2, -2, -3, -3),
}
MIN_COMPANIES = 5  # 4 to 12 players play with five companies (DV2)

# The file's schema; load_box then checks what a schema cannot say (ids unique, every
# track value in one zone, as many slots in every column, the start on the track).
# Bounds: a chart price or a track value is an amount the box's entries reach (MAX_BID, the
# top of a bid), far above the rulebook's (3 000 $ a certificate, 500 $ a dividend); the
# start and the zones' ends are track values; the influence cards MAX_INFLUENCE_CARDS each.
SCHEMA = Table({
    "verified": Key(bool, False),
    "prices": Ints("non-decreasing", required=False, maximum=MAX_BID),
    "influence": Table({"per_company": Key(int, minimum=0, maximum=MAX_INFLUENCE_CARDS),
                        "any_company": Key(int, minimum=0, maximum=MAX_INFLUENCE_CARDS)}),
    "track": Table({
        "values": Ints("increasing", maximum=MAX_BID),
        "start": Key(int, minimum=0, maximum=MAX_BID),
        "zones": Tables(Table({"die": Key(str, allowed=tuple(DICE)), "from": Key(int, minimum=0, maximum=MAX_BID),
                               "to": Key(int, minimum=0, maximum=MAX_BID)})),
    }),
    "companies": Tables(Table({"id": Key(str), "name": Key(str), "colour": Key(str),
                               "prices": Ints("non-decreasing", required=False, maximum=MAX_BID)})),
})


@record(frozen=True)
class Company:
    id: str
    name: str
    colour: str
    prices: tuple  # price next to each slot, cheapest first


@record(frozen=True)
class Zone:
    die: str
    lo: int
    hi: int


@record(frozen=True)
class Box:
    path: str
    verified: bool
    companies: dict      # id -> Company, in chart order
    track: tuple         # marker values, lowest first
    start: int           # start value of every marker
    zones: tuple         # Zone, lowest first
    per_company_cards: int
    any_company_cards: int

    @property
    def slots(self) -> int:
        return len(next(iter(self.companies.values())).prices)

    def zone_of(self, value: int) -> Zone:
        for zone in self.zones:
            if zone.lo <= value <= zone.hi:
                return zone
        raise AssertionError(f"{value} is on no zone")  # the schema check makes this impossible

    def influence_cards(self, companies: int) -> int:
        return self.any_company_cards + self.per_company_cards * companies


def load_box(path: Path | str | None = None) -> Box:
    path = Path(path or DEFAULT_BOX)
    top = Reader(path, load_toml(path))
    check(top, SCHEMA)
    default_prices = int_list(top, "prices", "non-decreasing") if "prices" in top.data else None

    influence = top.table("influence")
    per_company = influence.get("per_company", int, minimum=0)
    any_company = influence.get("any_company", int, minimum=0)

    track = top.table("track")
    values = int_list(track, "values", "increasing")
    start = track.get("start", int)
    if start not in values:
        track.refuse("start", "dv.start", start=str(start), values=", ".join(map(str, values)))
    zones = []
    for z in track.tables("zones"):
        die = z.get("die", str, allowed=tuple(DICE))
        lo, hi = z.get("from", int), z.get("to", int)
        for key, v in (("from", lo), ("to", hi)):
            if v not in values:
                z.refuse(key, "dv.off_track", value=str(v))
        if lo > hi:
            z.refuse("to", "dv.below", hi=str(hi), lo=str(lo))
        zones.append(Zone(die, lo, hi))
    zones.sort(key=lambda zone: zone.lo)
    for v in values:
        covering = [zone for zone in zones if zone.lo <= v <= zone.hi]
        if len(covering) != 1:
            track.refuse("zones", "dv.zones" if covering else "dv.no_zone", value=str(v), count=str(len(covering)))

    companies = {}
    for comp in top.tables("companies"):
        cid = comp.get("id", str)
        if cid in companies:
            comp.refuse("id", "dv.twice", id=repr(cid))
        if not cid or cid != cid.upper() or " " in cid or "," in cid:
            comp.refuse("id", "dv.upper", id=repr(cid))
        prices = int_list(comp, "prices", "non-decreasing") if "prices" in comp.data else default_prices
        if prices is None:
            comp.refuse("prices", "dv.no_prices")
        if companies and len(prices) != len(next(iter(companies.values())).prices):
            comp.refuse("prices", "dv.slots", count=str(len(prices)))
        if prices[0] <= 0:
            comp.refuse("prices", "dv.cheapest")
        companies[cid] = Company(cid, comp.get("name", str), comp.get("colour", str), prices)
    if len(companies) < MIN_COMPANIES:
        top.refuse("companies", "dv.companies", count=str(len(companies)), needed=str(MIN_COMPANIES))
    return Box(
        path=str(path),
        verified=top.get("verified", bool, default=False),
        companies=companies,
        track=values,
        start=start,
        zones=tuple(zones),
        per_company_cards=per_company,
        any_company_cards=any_company,
    )


def counts(box: Box) -> tuple[list, list]:
    """What the file holds and what the table will learn (nothing), as (catalog key, count)
    pairs (`corbeille box check`)."""
    return [("box.dv.count.companies", len(box.companies)), ("box.dv.count.slots", box.slots),
            ("box.dv.count.track", len(box.track)), ("box.dv.count.zones", len(box.zones)),
            ("box.dv.count.cards", box.influence_cards(len(box.companies)))], []


def holdings(box: Box, lang: str = "en") -> list[str]:
    """What the box file holds, in words (`corbeille box check`)."""
    lines = [text("box.dv.holds", lang, companies=str(len(box.companies)), slots=str(box.slots))]
    for company in box.companies.values():
        lines.append(f"  {company.id} ({company.name}, {company.colour}): "
                     + " ".join(money(price, lang, "dv") for price in company.prices))
    lines.append(text("box.dv.holds_track", lang, track=" ".join(map(str, box.track)), start=str(box.start),
                      zones=", ".join(f"{zone.die} {zone.lo}-{zone.hi}" for zone in box.zones)))
    lines.append(text("box.dv.holds_cards", lang, per_company=str(box.per_company_cards),
                      any_company=str(box.any_company_cards)))
    return lines
