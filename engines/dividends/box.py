"""The Dividends box file: the stock-market chart, the dividend track and its zones, the
companies and the influence cards (ruling DV1). Every schema error names the key."""
from dataclasses import dataclass
from pathlib import Path

from engines.core.boxfile import Reader, load_toml

DEFAULT_BOX = Path(__file__).parent / "box" / "dividends.toml"
DICE = {  # the three dice of the rulebook: steps up (+) or down (-) per face
    "black": (1, 1, 2, 2, 3, 3),
    "grey": (1, -1, 2, -2, 3, -3),
    "white": (-1, -1, -2, -2, -3, -3),
}
MIN_COMPANIES = 5  # 4 to 12 players play with five companies (DV2)


@dataclass(frozen=True)
class Company:
    id: str
    name: str
    colour: str
    prices: tuple  # price next to each slot, cheapest first


@dataclass(frozen=True)
class Zone:
    die: str
    lo: int
    hi: int


@dataclass(frozen=True)
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


def _int_list(reader: Reader, key: str, ascending: str) -> tuple:
    values = reader.get(key, list)
    if not values:
        reader.fail(key, "must list at least one value")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            reader.fail(f"{key}[{i}]", f"{v!r} is not a whole number >= 0")
        if i and (v < values[i - 1] if ascending == "non-decreasing" else v <= values[i - 1]):
            reader.fail(f"{key}[{i}]", f"{v} after {values[i - 1]}: the values must be {ascending}")
    return tuple(values)


def load_box(path: Path | str | None = None) -> Box:
    path = Path(path or DEFAULT_BOX)
    top = Reader(path, load_toml(path))
    top.refuse_unknown({"verified", "prices", "influence", "track", "companies"})
    default_prices = _int_list(top, "prices", "non-decreasing") if "prices" in top.data else None

    influence = top.table("influence")
    influence.refuse_unknown({"per_company", "any_company"})
    per_company = influence.get("per_company", int, minimum=0)
    any_company = influence.get("any_company", int, minimum=0)

    track = top.table("track")
    track.refuse_unknown({"values", "start", "zones"})
    values = _int_list(track, "values", "increasing")
    start = track.get("start", int)
    if start not in values:
        track.fail("start", f"{start} is not on the track; values: {', '.join(map(str, values))}")
    zones = []
    for z in track.tables("zones"):
        z.refuse_unknown({"die", "from", "to"})
        die = z.get("die", str, allowed=tuple(DICE))
        lo, hi = z.get("from", int), z.get("to", int)
        for key, v in (("from", lo), ("to", hi)):
            if v not in values:
                z.fail(key, f"{v} is not on the track")
        if lo > hi:
            z.fail("to", f"{hi} is below from = {lo}")
        zones.append(Zone(die, lo, hi))
    zones.sort(key=lambda zone: zone.lo)
    for v in values:
        covering = [zone for zone in zones if zone.lo <= v <= zone.hi]
        if len(covering) != 1:
            what = "no zone" if not covering else f"{len(covering)} zones"
            track.fail("zones", f"track value {v} is in {what}; each value must be in exactly one zone")

    companies = {}
    for comp in top.tables("companies"):
        comp.refuse_unknown({"id", "name", "colour", "prices"})
        cid = comp.get("id", str)
        if cid in companies:
            comp.fail("id", f"{cid!r} appears twice; company ids must be unique")
        if not cid or cid != cid.upper() or " " in cid or "," in cid:
            comp.fail("id", f"{cid!r} must be upper case without spaces or commas (it is typed in scripts)")
        prices = _int_list(comp, "prices", "non-decreasing") if "prices" in comp.data else default_prices
        if prices is None:
            comp.fail("prices", "missing, and no top-level prices to fall back on")
        if companies and len(prices) != len(next(iter(companies.values())).prices):
            comp.fail("prices", f"{len(prices)} slots; every company column must have as many slots as the first")
        if prices[0] <= 0:
            comp.fail("prices", "the cheapest slot must cost more than 0")
        companies[cid] = Company(cid, comp.get("name", str), comp.get("colour", str), prices)
    if len(companies) < MIN_COMPANIES:
        top.fail("companies", f"{len(companies)} defined; the game needs {MIN_COMPANIES} (4 to 12 players)")
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
