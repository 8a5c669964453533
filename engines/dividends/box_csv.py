"""A Dividends box file from a spreadsheet (`corbeille box import FILE.csv --game dividends`).

One row per piece, its kind in the `what` column; the other columns are read by kind:

| what | columns |
|---|---|
| company | id, name, colour, prices (the price next to each slot of its column, cheapest first, separated by spaces) |
| track | values (the dividend track, lowest first, separated by spaces), start |
| zone | die (black, grey or white), from, to |
| per_company, any_company | count (the influence cards naming each company, for any company) |

Companies are in the order of the chart. The template beside the box file
(box/dividends-template.csv) is the shipped file in this form (engines/core/spreadsheet.py
reads it and names the row and column of a mistake).
"""
import sys
from pathlib import Path

from engines.core.spreadsheet import import_sheet, write_rows
from engines.dividends.box import load_box  # noqa: F401 (the form's reading, engines.core.spreadsheet)

COLUMNS = ("what", "id", "name", "colour", "prices", "values", "start", "die", "from", "to", "count")
KINDS = ("company", "track", "zone", "per_company", "any_company")
RENAMED = {}
TITLE = "Dividends: a box file imported from a spreadsheet (corbeille box import)"
TEMPLATE = Path(__file__).parent / "box" / "dividends-template.csv"


def to_csv(box) -> str:
    """The box as the spreadsheet's rows (the template is the shipped box written so)."""
    rows = [{"what": "company", "id": c.id, "name": c.name, "colour": c.colour, "prices": " ".join(map(str, c.prices))}
            for c in box.companies.values()]
    rows.append({"what": "track", "values": " ".join(map(str, box.track)), "start": box.start})
    rows += [{"what": "zone", "die": zone.die, "from": zone.lo, "to": zone.hi} for zone in box.zones]
    rows += [{"what": "per_company", "count": box.per_company_cards},
             {"what": "any_company", "count": box.any_company_cards}]
    return write_rows(COLUMNS, rows)


def from_csv(path: Path | str) -> str:
    """The box file (TOML text) the spreadsheet at `path` describes, checked as `load_box`
    reads it; a BoxFileError names the row and column of a mistake."""
    return import_sheet(path, sys.modules[__name__])


def tables(rows) -> tuple[dict, dict]:
    """The box file's data from the rows, and the row each item came from."""
    track, influence, companies, origin = {}, {}, [], {}
    for row in rows:
        what = row.text("what")
        if what == "company":
            origin[f"companies[{len(companies)}]"] = (row.line, None)
            companies.append({"id": row.text("id"), "name": row.text("name"), "colour": row.text("colour"),
                              "prices": row.numbers("prices")})
        elif what == "track":
            origin["track"] = (row.line, None)
            track |= {"values": row.numbers("values"), "start": row.number("start")}
        elif what == "zone":
            zones = track.setdefault("zones", [])
            origin[f"track.zones[{len(zones)}]"] = (row.line, None)
            zones.append({"die": row.text("die"), "from": row.number("from"), "to": row.number("to")})
        else:
            origin[f"influence.{what}"] = (row.line, "count")
            influence[what] = row.number("count")
    return {"verified": False, "influence": influence, "track": track, "companies": companies}, origin
