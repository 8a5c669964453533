"""Richesses du Monde's box file from a spreadsheet (`corbeille box import FILE.csv`): the
shipped template is the shipped box file in rows, imported back to the same box, and a
mistake names the file, the row and the column."""
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import call

from engines.core.errors import BoxFileError
from engines.richesses.box import load_box
from engines.richesses.box_csv import TEMPLATE, from_csv, to_csv

ROOT = Path(__file__).resolve().parents[3]


def test_the_template_is_the_shipped_box_in_rows():
    assert TEMPLATE.read_text(encoding="utf-8") == to_csv(load_box())


def test_the_template_imports_back_to_the_shipped_box_and_box_check_passes(tmp_path):
    out = tmp_path / "mine.toml"
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "box", "import", str(TEMPLATE), "--game",
                           "richesses", "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    box, shipped = load_box(out), load_box()
    assert (box.productions, box.countries, box.titles, box.squares, box.jokers) == \
        (shipped.productions, shipped.countries, shipped.titles, shipped.squares, shipped.jokers)
    done = call("box", "check", out, "--game", "richesses")
    assert done.returncode == 0 and "learned at the table: nothing" in done.stdout, done.stderr


def test_a_spreadsheet_with_semicolons_and_only_the_smallest_rows_imports(tmp_path):
    rows = [line for line in to_csv(load_box()).splitlines() if line.split(",")[0] in ("what", "production", "country")]
    rows = [",".join(cell if i != 8 and i != 9 else "" for i, cell in enumerate(line.split(","))) if i else line
            for i, line in enumerate(rows)]
    path = tmp_path / "excel.csv"
    path.write_text("\ufeff" + "\n".join(r.replace(",", ";") for r in rows) + "\n", encoding="utf-8")
    box = load_box(_written(tmp_path, from_csv(path)))
    assert len(box.productions) == 24 and not box.titles and box.jokers is None


def _written(tmp_path, text):
    path = tmp_path / "box.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, said", [
    ("title,,,,ALUMINIUM,SCANDINAVIE,5,500000,,,,,", "title,,,,ALUMINIUM,SCANDINAVIE,cinq,500000,,,,,",
     "row {row}, column percent: 'cinq' is not a whole number"),
    ("title,,,,ALUMINIUM,SCANDINAVIE,5,500000,,,,,", "title,,,,ALUMINIUM,SCANDINAVIE,5,0,,,,,",
     "row {row}, column price: 0 is below the minimum 1"),
    ("title,,,,ALUMINIUM,SCANDINAVIE,5,500000,,,,,", "titre,,,,ALUMINIUM,SCANDINAVIE,5,500000,,,,,",
     "row {row}, column what: 'titre' is not allowed; allowed: production, country, title, square, jokers"),
    ("title,,,,ALUMINIUM,SCANDINAVIE,5,500000,,,,,", "title,,,,ALUMINIUM,ATLANTIDE,5,500000,,,,,",
     "row {row}, column country: 'ATLANTIDE' is no country"),
])
def test_a_mistake_names_the_row_and_the_column(tmp_path, old, new, said):
    text = TEMPLATE.read_text(encoding="utf-8")
    row = text.splitlines().index(old) + 1
    path = tmp_path / "mine.csv"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(BoxFileError) as refused:
        from_csv(path)
    assert str(refused.value).startswith(f"{path}: ") and said.format(row=row) in str(refused.value)
