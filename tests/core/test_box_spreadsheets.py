"""`corbeille box import FILE.csv --game G` for every game: the shipped template is the
shipped box file in rows (the code's columns), imported back to the same game, checked by
`box check`; a bad row is refused naming the file, the row and the column, in the language
asked; the docs name every column."""
from importlib import import_module
from pathlib import Path

import pytest
from cli_helpers import call as cli

from engines.core.errors import BoxFileError
from engines.core.spreadsheet import SheetError, dump_toml
from engines.registry import names

ROOT = Path(__file__).resolve().parents[2]
GAMES = names()


def form(name):
    return import_module(f"engines.{name}.box_csv")


def loader(name):
    return import_module(f"engines.{name}.box")


def game_data(box):
    """What the game plays with: every field of the box but where it was read from and the
    verified flags (an imported file is unverified until the owner checks it)."""
    return {key: value for key, value in vars(box).items() if key not in ("path", "verified", "board_verified")}


@pytest.mark.parametrize("name", GAMES)
def test_the_template_is_the_shipped_box_in_the_codes_columns(name):
    sheet = form(name)
    text = sheet.TEMPLATE.read_text(encoding="utf-8")
    assert text == sheet.to_csv(loader(name).load_box())
    assert text.splitlines()[0] == ",".join(sheet.COLUMNS) and sheet.COLUMNS[0] == "what"
    assert sheet.TEMPLATE.name == f"{name}-template.csv" and sheet.TEMPLATE.parent == Path(loader(name).DEFAULT_BOX).parent
    used = {line.split(",")[0] for line in text.splitlines()[1:]}
    assert used == set(sheet.KINDS)          # the template shows every kind of row


@pytest.mark.parametrize("name", GAMES)
def test_the_docs_name_every_column_and_every_kind_of_row(name):
    doc = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    section = doc[doc.index("box import FILE.csv"):]
    for word in form(name).COLUMNS + form(name).KINDS:
        assert word in section, (name, word)


@pytest.mark.parametrize("name", GAMES)
def test_a_round_trip_gives_the_shipped_game_and_passes_box_check(tmp_path, name):
    out = tmp_path / f"{name}.toml"
    done = cli("box", "import", form(name).TEMPLATE, "--game", name, "--out", out)
    assert done.returncode == 0, done.stderr
    assert game_data(loader(name).load_box(out)) == game_data(loader(name).load_box())
    done = cli("box", "check", out, "--game", name)
    assert done.returncode == 0, done.stderr
    assert "missing for the game to start: nothing" in done.stdout


def test_a_french_spreadsheet_with_semicolons_blank_rows_and_spaced_thousands_imports(tmp_path):
    text = form("avendre").TEMPLATE.read_text(encoding="utf-8")
    rows = [line.replace(",", ";") for line in text.splitlines()]
    rows[1] = rows[1].replace(";550;", ";550;").replace("title;1;Boulangerie;shop;550;70", "title;1;Boulangerie;shop;5 50;70")
    path = tmp_path / "excel.csv"
    path.write_text("\ufeff" + "\n".join(rows[:5] + [";;;;;;;"] + rows[5:]) + "\n", encoding="utf-8")
    imported = tmp_path / "box.toml"
    imported.write_text(form("avendre").from_csv(path), encoding="utf-8")
    assert game_data(loader("avendre").load_box(imported)) == game_data(loader("avendre").load_box())


def mistake(tmp_path, name, old, new):
    """The template with its first row holding `old` changed to `new`: the row's number and
    the refusal of the import."""
    lines = form(name).TEMPLATE.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if old in line)
    lines[index] = lines[index].replace(old, new, 1)
    path = tmp_path / "mine.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(BoxFileError) as refused:
        form(name).from_csv(path)
    return path, index + 1, refused.value


BAD_ROWS = [
    ("maxibourse", "company,BARCLAYS,Barclay's Bank,,,BANQUES,300", "company,BARCLAYS,Barclay's Bank,,,BANQUES,250",
     "nominal", "250 is not allowed; allowed: 100, 200, 300"),
    ("maxibourse", "company,BARCLAYS,Barclay's Bank,,,BANQUES,300", "company,BARCLAYS,Barclay's Bank,,,BANKS,300",
     "sector", "'BANKS' is not in the rows above; allowed: BANQUES"),
    ("maxibourse", "company,CHASE,", "company,BARCLAYS,", "id", "'BARCLAYS' appears twice"),
    ("maxibourse", "shares_per_lot,,,,,,,,1000", "shares_per_lot,,,,,,,,mille", "count", "'mille' is not a whole number"),
    ("maxibourse", "square,,,,,,,ACTION,", "square,,,,,,,DEPART,", "square", "'DEPART' is neither a company id"),
    ("maxibourse", "lots_per_company,,,,,,,,10", "lots_per_company,,,,,,,,0", "count", "0 is below the minimum 1"),
    ("dividends", "zone,,,,,,,black,0,150", "zone,,,,,,,blue,0,150", "die", "'blue' is not allowed; allowed: black, grey, white"),
    ("dividends", "zone,,,,,,,black,0,150", "zone,,,,,,,black,0,175", "to", "175 is not on the track"),
    ("dividends", "track,,,,,0 50 100", "track,,,,,0 50 cent", "values", "'0 50 cent"),
    ("dividends", "per_company,,,,,,,,,,4", "per_company,,,,,,,,,,-4", "count", "-4 is below the minimum 0"),
    ("dividends", "company,CEDARPINES,Cedarpines Sawmills,red,1000", "company,CEDARPINES,Cedarpines Sawmills,red,0",
     "prices", "the cheapest slot must cost more than 0"),
    ("avendre", "title,1,Boulangerie,shop,550,70", "title,1,Boulangerie,shop,,70", "pa", "a shop needs its purchase price"),
    ("avendre", "title,1,Boulangerie,shop,550,70", "title,1,Boulangerie,boutique,550,70", "kind",
     "'boutique' is not allowed; allowed: shop, establishment"),
    ("avendre", "title,1,Boulangerie,shop,550,70", "title,1,Boulangerie,shop,550,soixante-dix", "r",
     "'soixante-dix' is not a whole number"),
    ("avendre", "square,,,,,,yellow,", "square,,,,,,jaune,", "colour", "'jaune' is not allowed"),
    ("shark", "row,111122223333", "row,11112222333X", "cells", "'X' at L1 is not a zone"),
    ("shark", "row,444455556666", "row,44445555666", "cells", "11 cells; every row must have as many as the first"),
    ("shark", "row,111122223333", "rang,111122223333", "what", "'rang' is not allowed; allowed: row"),
    ("richesses", "title,,,,ALUMINIUM,SCANDINAVIE,5,500000", "title,,,,ALUMINIUM,SCANDINAVIE,0,500000", "percent",
     "0 is below the minimum 1"),
    ("richesses", "square,,,,,MEXIQUE,,,,,country,yes,", "square,,,,,MEXIQUE,,,,,country,peut-être,", "plaque",
     "'peut-être': yes or no"),
]


@pytest.mark.parametrize("name, old, new, column, said", BAD_ROWS)
def test_a_bad_row_is_refused_naming_its_row_and_column(tmp_path, name, old, new, column, said):
    path, row, refused = mistake(tmp_path, name, old, new)
    assert isinstance(refused, SheetError) and (refused.row, refused.column) == (row, column), str(refused)
    assert str(refused).startswith(f"{path}: row {row}, column {column}: ") and said in str(refused), str(refused)


def test_a_bad_row_is_said_in_french_and_nothing_is_written(tmp_path):
    path, row, _ = mistake(tmp_path, "dividends", "zone,,,,,,,black,0,150", "zone,,,,,,,blue,0,150")
    out = tmp_path / "out.toml"
    done = cli("--lang", "fr", "box", "import", path, "--game", "dividends", "--out", out)
    assert done.returncode == 1 and not out.exists() and done.stdout == ""
    assert done.stderr == (f"corbeille: {path} : ligne {row}, colonne die : 'blue' refusé ; possible : black, grey, "
                           "white\n")


@pytest.mark.parametrize("text, said", [
    ("", "row 1: no what column"),
    ("id,name\nA,B\n", "row 1: no what column; the columns are what, "),
    ("what,colour,shade\n", "row 1, column shade: unknown column; the columns are what, "),
    ("what,number\n\n,\n", "no row under the header; a row is one of title, square"),
    ("what,number,name,kind,pa,r\ntitle,1,Boulangerie,shop,550,70\n", "titles: 1 defined; the game has 43 titles"),
])
def test_a_sheet_that_is_no_box_file_is_refused_saying_why(tmp_path, text, said):
    path = tmp_path / "sheet.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SheetError) as refused:
        form("avendre").from_csv(path)
    assert str(refused.value).startswith(f"{path}: ") and said in str(refused.value), str(refused.value)


def test_a_file_that_is_not_utf8_a_folder_or_a_device_is_refused_without_reading_it(tmp_path):
    """Read as every file of the box is read (engines/core/files.py): the bad byte's line and
    column named, a folder or a device (/dev/zero never ends) refused before any reading."""
    path = tmp_path / "sheet.csv"
    path.write_bytes("what,cells\nrow,\xe9\n".encode("latin-1"))
    with pytest.raises(BoxFileError, match=r"sheet.csv:2: byte 0xE9 \(column 5\) is not UTF-8 text: a spreadsheet"):
        form("shark").from_csv(path)
    with pytest.raises(BoxFileError, match="is a folder, not a spreadsheet"):
        form("shark").from_csv(tmp_path)
    with pytest.raises(BoxFileError, match="is a device or a pipe, not a spreadsheet"):
        form("shark").from_csv(Path("/dev/zero"))


def test_the_toml_keeps_quotes_backslashes_and_line_breaks_in_names(tmp_path):
    import tomllib
    data = {"verified": False, "name": 'L\'"Or\\\n', "board": {"squares": ["A"]},
            "items": [{"id": "A", "name": {"fr": "é", "en": "e"}, "list": [1, 2]}]}
    assert tomllib.loads(dump_toml(data, "test")) == data


def test_an_import_is_said_in_french_and_a_game_without_a_form_is_refused(tmp_path, capsys):
    from argparse import Namespace

    from firmware.box_files import cmd_box_import

    out = tmp_path / "shark.toml"
    done = cli("--lang", "fr", "box", "import", form("shark").TEMPLATE, "--game", "shark", "--out", out)
    assert done.returncode == 0 and out.exists()
    assert done.stderr == (f"{out} : écrit depuis {form('shark').TEMPLATE} ; vérifiez-le avec « corbeille box check "
                           f"{out} --game shark »\n")
    assert cmd_box_import(Namespace(game="nosuch", file=str(out), out=None, lang="fr")) == 1
    assert capsys.readouterr().err == ("corbeille: box import : nosuch n'a pas encore de forme tableur ; écrivez son "
                                       "fichier de boîte (« corbeille box check --schema --game nosuch »)\n")
