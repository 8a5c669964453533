"""A Shark box file from a spreadsheet (`corbeille box import FILE.csv --game shark`).

One row per row of the world map, top first, its kind in the `what` column:

| what | columns |
|---|---|
| row | cells: one character per cell, left first: the zone's digit 1-6, or "." for a square that is not a cell |

The template beside the box file (box/shark-template.csv) is the shipped file in this form
(engines/core/spreadsheet.py reads it and names the row and column of a mistake).
"""
import sys
from pathlib import Path

from engines.core.spreadsheet import import_sheet, write_rows
from engines.shark.box import load_box  # noqa: F401 (the form's reading, engines.core.spreadsheet)

COLUMNS = ("what", "cells")
KINDS = ("row",)
RENAMED = {}
TITLE = "Shark: a box file imported from a spreadsheet (corbeille box import)"
TEMPLATE = Path(__file__).parent / "box" / "shark-template.csv"


def to_csv(box) -> str:
    """The box as the spreadsheet's rows (the template is the shipped box written so)."""
    return write_rows(COLUMNS, [{"what": "row", "cells": row} for row in box.rows])


def from_csv(path: Path | str) -> str:
    """The box file (TOML text) the spreadsheet at `path` describes, checked as `load_box`
    reads it; a BoxFileError names the row and column of a mistake."""
    return import_sheet(path, sys.modules[__name__])


def tables(rows) -> tuple[dict, dict]:
    """The box file's data from the rows, and the row each item came from."""
    origin = {f"grid.rows[{i}]": (row.line, "cells") for i, row in enumerate(rows)}
    return {"verified": False, "grid": {"rows": [row.text("cells") for row in rows]}}, origin
