"""Box files from spreadsheets: `corbeille box import FILE.csv --game G`.

A game's spreadsheet form (engines/<game>/box_csv.py) names its columns (`COLUMNS`, the
first always `what`: the row's kind, one of `KINDS`), writes its box as rows (`to_csv`,
which makes its template, box/<game>-template.csv) and reads the rows back into the box
file's tables (`tables(rows)`: the data and, for each item, the row it came from). This
module does the rest for every game: reading the CSV as a spreadsheet saves it (a comma
or a semicolon between the columns, a byte order mark, blank rows), each cell's value as
a number, a list of numbers or yes/no, the TOML text, and the check of that text as the
game reads it. Every mistake names the file, the row and the column, and what is allowed;
what only the whole file can say (a count of pieces) names the file.
"""
import csv
import io
import json
import re
import tempfile
from pathlib import Path

from engines.core.errors import BoxFileError, BoxKeyError
from engines.core.files import read_text

YES, NO = ("yes", "oui"), ("no", "non")


class SheetError(BoxFileError):
    """A mistake in a spreadsheet: the file, the row and the column when known (without a
    row, `column` is the box file's key the mistake is about, when there is one), and what
    is wrong in the catalog's words (`sheet.<what>` or `box.<what>`), or in the words of the
    game's box file reading (`worded`), in the language `message` is asked in."""

    def __init__(self, path, row, column, what, /, worded=None, **params):
        self.path, self.row, self.column, self.what, self.worded, self.params = path, row, column, what, worded, params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        from engines.core.i18n import text

        what = self.worded if self.worded is not None else text(self.what, lang, **self.params)
        if self.row is None:
            if self.column:
                return text("sheet.key", lang, path=str(self.path), key=self.column, what=what)
            return text("sheet.file", lang, path=str(self.path), what=what)
        if self.column is None:
            return text("sheet.row", lang, path=str(self.path), row=self.row, what=what)
        return text("sheet.cell", lang, path=str(self.path), row=self.row, column=self.column, what=what)


class Row:
    """One row of the spreadsheet: its `line` (the header is row 1) and its cells by column."""

    def __init__(self, path, line: int, cells: dict):
        self.path, self.line, self.cells = path, line, cells

    def fail(self, column, what, **params):
        raise SheetError(self.path, self.line, column, what, **params)

    def text(self, column) -> str:
        return self.cells.get(column, "")

    def number(self, column, blank=...) -> int:
        """A whole number; spaces, narrow spaces and underscores between digits are read as a
        spreadsheet writes thousands. A blank cell is `blank` when given."""
        value = re.sub(r"[\s\u202f_]", "", self.text(column))
        if not value and blank is not ...:
            return blank
        if not re.fullmatch(r"-?\d+", value):
            self.fail(column, "sheet.number", value=repr(self.text(column)))
        return int(value)

    def numbers(self, column) -> list:
        """Whole numbers separated by spaces (none for a blank cell)."""
        words = self.text(column).split()
        if not all(re.fullmatch(r"\d+", word) for word in words):
            self.fail(column, "sheet.numbers", value=repr(self.text(column)))
        return [int(word) for word in words]

    def yes_no(self, column) -> bool:
        value = self.text(column).lower()
        if value not in YES + NO:
            self.fail(column, "sheet.yes_no", value=repr(self.text(column)))
        return value in YES


def read_rows(path: Path, columns: tuple, kinds: tuple) -> list:
    """The spreadsheet's rows that hold something, each with a `what` among `kinds`."""
    text = read_text(path, "spreadsheet", BoxFileError)
    header = text.partition("\n")[0]
    reader = csv.DictReader(io.StringIO(text), delimiter=";" if header.count(";") > header.count(",") else ",")
    names = [name.strip() for name in reader.fieldnames or () if name]
    if "what" not in names:
        raise SheetError(path, 1, None, "sheet.no_what", columns=", ".join(columns))
    unknown = [name for name in names if name not in columns]
    if unknown:
        raise SheetError(path, 1, unknown[0], "sheet.unknown_column", columns=", ".join(columns))
    rows = []
    for number, cells in enumerate(reader, 2):
        cells = {key.strip(): (value or "").strip() for key, value in cells.items() if key and isinstance(value, str)}
        if any(cells.values()):
            row = Row(path, number, cells)
            if row.text("what") not in kinds:
                row.fail("what", "box.allowed", value=repr(row.text("what")), allowed=", ".join(kinds))
            rows.append(row)
    if not rows:
        raise SheetError(path, None, None, "sheet.empty", kinds=", ".join(kinds))
    return rows


def write_rows(columns: tuple, rows: list) -> str:
    """The rows (dicts by column) as CSV text, the header first: a template's form."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def import_sheet(path, form) -> str:
    """The box file (TOML text) the spreadsheet at `path` describes in the game's `form`
    (its box_csv module), checked as the game reads it: a mistake the reading finds in an
    item is said of the row it came from, and of its column."""
    path = Path(path)
    data, origin = form.tables(read_rows(path, form.COLUMNS, form.KINDS))
    text = dump_toml(data, form.TITLE)
    with tempfile.TemporaryDirectory() as folder:
        trial = Path(folder) / "box.toml"
        trial.write_text(text, encoding="utf-8")
        try:
            form.load_box(trial)
        except BoxFileError as error:
            raise _said_of_the_sheet(error, str(trial), path, origin, form) from None
    return text


def _said_of_the_sheet(error, trial: str, path: Path, origin: dict, form) -> SheetError:
    """A box file reading's mistake on the TOML made from the rows, said of the spreadsheet:
    the row the item came from (the longest path of `origin` the key starts with) and the
    column its key is read from."""
    if isinstance(error, BoxKeyError):
        key, worded, what, params = error.key, None, "box." + error.what, error.params
    else:
        found = re.match(re.escape(trial) + r": (\S+): (.*)$", str(error), re.S)
        key, worded = (found.group(1), found.group(2)) if found else ("", str(error))
        worded, what, params = worded.replace(trial, str(path)), "", {}
    items = [item for item in origin if key == item or key.startswith(item + ".") or key.startswith(item + "[")]
    if not items:
        return SheetError(path, None, key or None, what, worded=worded, **params)
    item = max(items, key=len)
    row, column = origin[item]
    if column is None:
        leaf = re.sub(r"\[\d+\]", "", key[len(item):]).rpartition(".")[2]
        column = form.RENAMED.get(leaf, leaf)
        column = column if column in form.COLUMNS else None
    return SheetError(path, row, column, what, worded=worded, **params)


def dump_toml(data: dict, title: str) -> str:
    """`data` as a box file's TOML text under a comment line `title`: plain values first,
    then each table, then each array of tables, item by item."""
    def tabular(value):
        return isinstance(value, list) and value and all(isinstance(item, dict) for item in value)

    lines = [f"# {title}"]
    lines += [f"{key} = {_value(value)}" for key, value in data.items()
              if not isinstance(value, dict) and not tabular(value)]
    for key, value in data.items():
        if isinstance(value, dict):
            lines += ["", f"[{key}]"] + [f"{k} = {_value(v)}" for k, v in value.items()]
    for key, value in data.items():
        if tabular(value):
            for item in value:
                lines += ["", f"[[{key}]]"] + [f"{k} = {_value(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)     # its escapes are TOML's
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    return "[" + ", ".join(_value(item) for item in value) + "]"
