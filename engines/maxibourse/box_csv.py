"""A Maxi Bourse box file from a spreadsheet (`corbeille box import FILE.csv --game maxibourse`).

One row per piece, its kind in the `what` column; the other columns are read by kind:

| what | columns |
|---|---|
| lots_per_company, shares_per_lot | count |
| sector | id, name_fr, name_en |
| company | id, name, sector (a sector of a row above), nominal (100, 200 or 300; blank: asked at the table) |
| square | square (a company id or a square kind), in the order the pawns go round from ACTION |

Without square rows the game has no board: the box asks the square the pawn lands on. The
template beside the box file (box/maxibourse-template.csv) is the shipped file in this form
(engines/core/spreadsheet.py reads it and names the row and column of a mistake).
"""
import sys
from pathlib import Path

from engines.core.spreadsheet import import_sheet, write_rows
from engines.maxibourse.box import load_box  # noqa: F401 (the form's reading, engines.core.spreadsheet)

COLUMNS = ("what", "id", "name", "name_fr", "name_en", "sector", "nominal", "square", "count")
KINDS = ("lots_per_company", "shares_per_lot", "sector", "company", "square")
RENAMED = {"fr": "name_fr", "en": "name_en"}
TITLE = "Maxi Bourse: a box file imported from a spreadsheet (corbeille box import)"
TEMPLATE = Path(__file__).parent / "box" / "maxibourse-template.csv"


def to_csv(box) -> str:
    """The box as the spreadsheet's rows (the template is the shipped box written so)."""
    rows = [{"what": "lots_per_company", "count": box.lots_per_company},
            {"what": "shares_per_lot", "count": box.shares_per_lot}]
    for sector in box.sectors:
        rows.append({"what": "sector", "id": sector.id, "name_fr": sector.name["fr"], "name_en": sector.name["en"]})
        rows += [{"what": "company", "id": c, "name": box.companies[c].name, "sector": sector.id,
                  "nominal": box.companies[c].nominal or ""} for c in sector.companies]
    rows += [{"what": "square", "square": square} for square in box.board]
    return write_rows(COLUMNS, rows)


def from_csv(path: Path | str) -> str:
    """The box file (TOML text) the spreadsheet at `path` describes, checked as `load_box`
    reads it; a BoxFileError names the row and column of a mistake."""
    return import_sheet(path, sys.modules[__name__])


def tables(rows) -> tuple[dict, dict]:
    """The box file's data from the rows, and the row each item came from."""
    data, origin, sectors, squares = {"verified": False}, {}, {}, []
    for row in rows:
        what = row.text("what")
        if what in ("lots_per_company", "shares_per_lot"):
            data[what] = row.number("count")
            origin[what] = (row.line, "count")
        elif what == "sector":
            origin[f"sectors[{len(sectors)}]"] = (row.line, None)
            sectors[row.text("id")] = {"id": row.text("id"), "name": {"fr": row.text("name_fr"),
                                                                      "en": row.text("name_en")}, "companies": []}
        elif what == "company":
            sector = row.text("sector")
            if sector not in sectors:
                row.fail("sector", "sheet.unknown", value=repr(sector), allowed=", ".join(sectors) or "-")
            index = list(sectors).index(sector)
            company = {"id": row.text("id"), "name": row.text("name")}
            nominal = row.number("nominal", blank=None)
            if nominal is not None:
                company["nominal"] = nominal
            origin[f"sectors[{index}].companies[{len(sectors[sector]['companies'])}]"] = (row.line, None)
            sectors[sector]["companies"].append(company)
        else:
            origin[f"board.squares[{len(squares)}]"] = (row.line, "square")
            squares.append(row.text("square"))
    data["sectors"] = list(sectors.values())
    if squares:
        data["board"] = {"squares": squares}
    return data, origin
