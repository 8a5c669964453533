"""An A Vendre! box file from a spreadsheet (`corbeille box import FILE.csv --game avendre`).

One row per piece, its kind in the `what` column; the other columns are read by kind:

| what | columns |
|---|---|
| title | number (1 to 43, as on the card), name, kind (shop or establishment), pa (a shop's purchase price; blank for an establishment), r (its income) |
| square | colour (yellow, green, blue, red; goal for the last), title (the number of the title on a blue or red square, blank otherwise), square 1 first |

The template beside the box file (box/avendre-template.csv) is the shipped file in this
form (engines/core/spreadsheet.py reads it and names the row and column of a mistake).
"""
import sys
from pathlib import Path

from engines.avendre.box import load_box  # noqa: F401 (the form's reading, engines.core.spreadsheet)
from engines.core.spreadsheet import import_sheet, write_rows

COLUMNS = ("what", "number", "name", "kind", "pa", "r", "colour", "title")
KINDS = ("title", "square")
RENAMED = {}
TITLE = "A Vendre!: a box file imported from a spreadsheet (corbeille box import)"
TEMPLATE = Path(__file__).parent / "box" / "avendre-template.csv"


def to_csv(box) -> str:
    """The box as the spreadsheet's rows (the template is the shipped box written so)."""
    rows = [{"what": "title", "number": t.number, "name": t.name, "kind": t.kind, "pa": t.pa or "", "r": t.r}
            for t in box.titles.values()]
    rows += [{"what": "square", "colour": sq.colour, "title": sq.title or ""} for sq in box.squares]
    return write_rows(COLUMNS, rows)


def from_csv(path: Path | str) -> str:
    """The box file (TOML text) the spreadsheet at `path` describes, checked as `load_box`
    reads it; a BoxFileError names the row and column of a mistake."""
    return import_sheet(path, sys.modules[__name__])


def tables(rows) -> tuple[dict, dict]:
    """The box file's data from the rows, and the row each item came from."""
    data, origin = {"verified": False, "titles": [], "squares": []}, {}
    for row in rows:
        if row.text("what") == "title":
            item = {"number": row.number("number"), "name": row.text("name"), "kind": row.text("kind"),
                    "r": row.number("r")}
            pa = row.number("pa", blank=None)
            if pa is not None:
                item["pa"] = pa
            key = "titles"
        else:
            item, key = {"colour": row.text("colour")}, "squares"
            title = row.number("title", blank=None)
            if title is not None:
                item["title"] = title
        origin[f"{key}[{len(data[key])}]"] = (row.line, None)
        data[key].append(item)
    return data, origin
