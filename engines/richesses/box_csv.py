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
(24 productions, the board's counts) names the row of the piece it is about.
"""
import csv
import io
import re
import tempfile
from pathlib import Path

from engines.core.errors import BoxFileError
from engines.richesses.box import load_box

COLUMNS = ("what", "id", "name", "continent", "production", "country", "percent", "price", "bands", "royalties",
           "square", "plaque", "count")
KINDS = ("production", "country", "title", "square", "jokers")
TEMPLATE = Path(__file__).parent / "box" / "richesses-template.csv"


def to_csv(box) -> str:
    """The box as the spreadsheet's rows (the template is the shipped box written so)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    for p in box.productions.values():
        writer.writerow({"what": "production", "id": p.id, "name": p.name, "bands": " ".join(map(str, p.bands)),
                         "royalties": " ".join(map(str, p.royalties))})
    for cid, (name, continent) in box.countries.items():
        writer.writerow({"what": "country", "id": cid, "name": name, "continent": continent})
    for t in box.titles.values():
        writer.writerow({"what": "title", "production": t.production, "country": t.country, "percent": t.percent,
                         "price": t.price})
    for sq in box.squares:
        writer.writerow({"what": "square", "square": sq.kind, "country": sq.country if sq.kind == "country" else "",
                         "continent": "" if sq.kind == "country" else sq.continent,
                         "plaque": "yes" if sq.plaque else "no"})
    if box.jokers is not None:
        writer.writerow({"what": "jokers", "count": box.jokers})
    return out.getvalue()


class _Rows:
    """The spreadsheet's rows with their numbers, and errors naming them."""

    def __init__(self, path: Path, text: str):
        self.path = path
        dialect = ";" if text.partition("\n")[0].count(";") > text.partition("\n")[0].count(",") else ","
        reader = csv.DictReader(io.StringIO(text), delimiter=dialect)
        if reader.fieldnames is None or "what" not in [f.strip() for f in reader.fieldnames]:
            raise BoxFileError(f"{path}: row 1: no 'what' column; the columns are {', '.join(COLUMNS)}")
        unknown = [f for f in reader.fieldnames if f and f.strip() not in COLUMNS]
        if unknown:
            raise BoxFileError(f"{path}: row 1: unknown column {unknown[0]!r}; the columns are {', '.join(COLUMNS)}")
        self.rows = [(n, {k.strip(): (v or "").strip() for k, v in row.items() if k})
                     for n, row in enumerate(reader, 2) if any((v or "").strip() for v in row.values() if v)]

    def fail(self, number, column, what):
        raise BoxFileError(f"{self.path}: row {number}, column {column}: {what}")

    def number(self, number, row, column):
        value = row.get(column, "").replace(" ", "").replace("\u202f", "").replace("_", "")
        if not re.fullmatch(r"-?\d+", value):
            self.fail(number, column, f"{row.get(column, '')!r} is not a whole number")
        return int(value)

    def numbers(self, number, row, column):
        words = row.get(column, "").split()
        if not all(re.fullmatch(r"\d+", w) for w in words):
            self.fail(number, column, f"{row.get(column, '')!r}: whole numbers separated by spaces")
        return [int(w) for w in words]


def from_csv(path: Path | str) -> str:
    """The box file (TOML text) the spreadsheet at `path` describes, checked as `load_box`
    reads it; a BoxFileError names the row and column of a mistake."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise BoxFileError(f"{path}: cannot be read as a UTF-8 CSV file ({error})") from None
    rows = _Rows(path, text)
    tables, origin = {k: [] for k in ("productions", "countries", "titles", "squares")}, {}
    jokers = None
    for number, row in rows.rows:
        what = row.get("what", "")
        if what not in KINDS:
            rows.fail(number, "what", f"{what!r} is not allowed; allowed: {', '.join(KINDS)}")
        if what == "jokers":
            jokers = rows.number(number, row, "count")
            continue
        key, item = _item(rows, number, row, what)
        origin[(key, len(tables[key]))] = number
        tables[key].append(item)
    toml = _toml(jokers, tables)
    with tempfile.TemporaryDirectory() as folder:       # read back as the game reads it
        trial = Path(folder) / "box.toml"
        trial.write_text(toml, encoding="utf-8")
        try:
            load_box(trial)
        except BoxFileError as error:
            raise BoxFileError(_where(str(error), str(trial), path, origin)) from None
    return toml


def _item(rows, number, row, what):
    if what == "production":
        item = {"id": row.get("id", ""), "name": row.get("name", "")}
        bands, royalties = rows.numbers(number, row, "bands"), rows.numbers(number, row, "royalties")
        if bands or royalties:
            item |= {"bands": bands, "royalties": royalties}
        return "productions", item
    if what == "country":
        return "countries", {"id": row.get("id", ""), "name": row.get("name", ""),
                             "continent": row.get("continent", "")}
    if what == "title":
        return "titles", {"production": row.get("production", ""), "country": row.get("country", ""),
                          "percent": rows.number(number, row, "percent"), "price": rows.number(number, row, "price")}
    plaque = row.get("plaque", "").lower()
    if plaque not in ("yes", "no", "oui", "non"):
        rows.fail(number, "plaque", f"{row.get('plaque', '')!r}: yes or no")
    item = {"kind": row.get("square", ""), "plaque": plaque in ("yes", "oui")}
    if row.get("country"):
        item["country"] = row["country"]
    if row.get("continent"):
        item["continent"] = row["continent"]
    return "squares", item


def _toml(jokers, tables) -> str:
    import json
    lines = ["# Richesses du Monde: a box file imported from a spreadsheet (corbeille box import)",
             "verified = false"] + ([f"jokers = {jokers}"] if jokers is not None else [])
    for key, items in tables.items():
        for item in items:
            lines += ["", f"[[{key}]]"] + [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


def _where(message, trial, path, origin):
    """A load error on the TOML made from the rows, said of the spreadsheet: its row."""
    message = message.replace(trial, str(path))
    found = re.search(r": (productions|countries|titles|squares)\[(\d+)\]\.(\w+): ", message)
    if found and (found.group(1), int(found.group(2))) in origin:
        row = origin[(found.group(1), int(found.group(2)))]
        column = {"kind": "square"}.get(found.group(3), found.group(3))
        return message.replace(found.group(0), f": row {row}, column {column}: ")
    return message
