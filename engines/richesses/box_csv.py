"""A Richesses du Monde box file from a spreadsheet (`corbeille box import FILE.csv`).

One row per piece, its kind in the `what` column; the other columns are read by kind:

| what | columns |
|---|---|
| production | id, name; bands and royalties (numbers separated by spaces), both or neither |
| country | id, name, continent |
| title | production, country, percent, price |
| square | square (country, continental, world, auction, joker, news, bonus), country or continent, plaque (yes/no) |
| jokers | count |

Rows are in board order for the squares; blank rows are skipped; a comma or a semicolon
separates the columns (what a French spreadsheet writes). The template shipped beside
the box file (box/richesses-template.csv) is the shipped file in this form. A mistake names
the file, the row and the column, and what is allowed; what only the whole file can say
(24 productions, the board's counts) names the file and the key
(engines/core/spreadsheet.py reads the rows for every game).
"""
import sys
from pathlib import Path

from engines.core.spreadsheet import import_sheet, write_rows
from engines.richesses.box import load_box  # noqa: F401 (the form's reading, engines.core.spreadsheet)

COLUMNS = ("what", "id", "name", "continent", "production", "country", "percent", "price", "bands", "royalties",
           "square", "plaque", "count")
KINDS = ("production", "country", "title", "square", "jokers")
RENAMED = {"kind": "square"}        # a box file key read from a column of another name
TITLE = "Richesses du Monde: a box file imported from a spreadsheet (corbeille box import)"
TEMPLATE = Path(__file__).parent / "box" / "richesses-template.csv"


def to_csv(box) -> str:
    """The box as the spreadsheet's rows (the template is the shipped box written so)."""
    rows = [{"what": "production", "id": p.id, "name": p.name, "bands": " ".join(map(str, p.bands)),
             "royalties": " ".join(map(str, p.royalties))} for p in box.productions.values()]
    rows += [{"what": "country", "id": cid, "name": name, "continent": continent}
             for cid, (name, continent) in box.countries.items()]
    rows += [{"what": "title", "production": t.production, "country": t.country, "percent": t.percent,
              "price": t.price} for t in box.titles.values()]
    rows += [{"what": "square", "square": sq.kind, "country": sq.country if sq.kind == "country" else "",
              "continent": "" if sq.kind == "country" else sq.continent, "plaque": "yes" if sq.plaque else "no"}
             for sq in box.squares]
    if box.jokers is not None:
        rows.append({"what": "jokers", "count": box.jokers})
    return write_rows(COLUMNS, rows)


def from_csv(path: Path | str) -> str:
    """The box file (TOML text) the spreadsheet at `path` describes, checked as `load_box`
    reads it; a BoxFileError names the row and column of a mistake."""
    return import_sheet(path, sys.modules[__name__])


def tables(rows) -> tuple[dict, dict]:
    """The box file's data from the rows, and the row each item came from."""
    data, origin = {"verified": False}, {}
    tables = {key: [] for key in ("productions", "countries", "titles", "squares")}
    for row in rows:
        what = row.text("what")
        if what == "jokers":
            data["jokers"] = row.number("count")
            origin["jokers"] = (row.line, "count")
            continue
        key, item = _item(row, what)
        origin[f"{key}[{len(tables[key])}]"] = (row.line, None)
        tables[key].append(item)
    return data | {key: items for key, items in tables.items() if items}, origin


def _item(row, what):
    if what == "production":
        item = {"id": row.text("id"), "name": row.text("name")}
        bands, royalties = row.numbers("bands"), row.numbers("royalties")
        if bands or royalties:
            item |= {"bands": bands, "royalties": royalties}
        return "productions", item
    if what == "country":
        return "countries", {"id": row.text("id"), "name": row.text("name"), "continent": row.text("continent")}
    if what == "title":
        return "titles", {"production": row.text("production"), "country": row.text("country"),
                          "percent": row.number("percent"), "price": row.number("price")}
    item = {"kind": row.text("square"), "plaque": row.yes_no("plaque")}
    if row.text("country"):
        item["country"] = row.text("country")
    if row.text("continent"):
        item["continent"] = row.text("continent")
    return "squares", item
