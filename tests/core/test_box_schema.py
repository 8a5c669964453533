"""Each game's box file has a declared schema (engines/<game>/box.py SCHEMA), checked by the
game's loader and by `corbeille box check FILE --game G`, which then says what the file holds.

Errors name the file and the key as a dotted path; the shipped box files are reconstructions
of the owner's copy, so they ship with `verified = false` (the box asks the table at setup).
"""
from importlib import import_module
from pathlib import Path

import pytest
from cli_helpers import call

from engines.core.boxfile import Ints, Key, Reader, Table, Tables, _plan, check, describe, load_toml
from engines.core.errors import BoxFileError
from engines.registry import games

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(games())


def box_check(*args):
    return call("box", "check", *args)


def shipped(name):
    return ROOT / "engines" / name / "box" / f"{name}.toml"


# ------------------------------------------------------------------ the schema checker
SCHEMA = Table({
    "verified": Key(bool, False),
    "size": Key(int, minimum=1),
    "rows": Tables(Table({"id": Key(str), "dice": Key(str, allowed=("black", "white")),
                          "marks": Ints("increasing", required=False)})),
    "names": Table({"fr": Key(str)}, others=True),
})


@pytest.mark.parametrize("data, where, words", [
    ({"size": 2, "rows": [], "names": {"fr": "x"}, "colour": "red"}, "colour", "unknown key; known keys: names, rows, size, verified"),
    ({"rows": [], "names": {"fr": "x"}}, "size", "missing; expected int"),
    ({"size": 0, "rows": [], "names": {"fr": "x"}}, "size", "0 is below the minimum 1"),
    ({"size": True, "rows": [], "names": {"fr": "x"}}, "size", "True is not an int"),
    ({"size": 2, "rows": [{"id": "A", "dice": "grey"}], "names": {"fr": "x"}}, "rows[0].dice",
     "'grey' is not allowed; allowed: black, white"),
    ({"size": 2, "rows": [{"id": "A", "dice": "black", "marks": [3, 3]}], "names": {"fr": "x"}},
     "rows[0].marks[1]", "3 after 3: the values must be increasing"),
    ({"size": 2, "rows": [{"id": "A", "dice": "black", "hue": 1}], "names": {"fr": "x"}}, "rows[0].hue", "unknown key"),
    ({"size": 2, "rows": [], "names": {"en": "x"}}, "names.fr", "missing; expected str"),
])
def test_the_schema_check_names_the_file_and_the_dotted_key(data, where, words):
    with pytest.raises(BoxFileError) as refused:
        check(Reader("mybox.toml", data), SCHEMA)
    assert str(refused.value).startswith(f"mybox.toml: {where}: ") and words in str(refused.value)


def test_the_schema_check_accepts_what_the_schema_allows():
    check(Reader("mybox.toml", {"size": 2, "rows": [{"id": "A", "dice": "white", "marks": [1, 2]}],
                                "names": {"fr": "x", "de": "y"}}), SCHEMA)
    assert describe(SCHEMA)[:2] == ["verified: bool, default False", "size: int, at least 1, required"]


# An array of plain tables is checked in one pass over its dicts (boxfile._passes) and walked
# by readers only when an item does not pass: the same verdicts, the same errors.
PLAIN = Table({"rows": Tables(Table({"id": Key(str), "dice": Key(str, allowed=("black", "white")),
                                     "size": Key(int, 1, minimum=1), "open": Key(bool, False)}))})
VALUES = [None, 0, 1, 2, -1, True, False, 1.0, "", "A", "black", "grey", [], {}]


@pytest.mark.parametrize("key", ["id", "dice", "size", "open", "hue"])
def test_the_one_pass_check_of_plain_tables_passes_and_refuses_as_the_readers_do(key):
    for value in VALUES:
        row = {"id": "A", "dice": "white", "size": 2, "open": True}
        if value is None:
            row.pop(key, None)
        else:
            row[key] = value
        for rows in ([row], [{"id": "B", "dice": "black"}, row], [row, "not a table"]):
            walked = None
            try:
                for item in Reader("mybox.toml", {"rows": rows}).tables("rows"):
                    check(item, PLAIN.keys["rows"].table)     # what the readers alone say
            except BoxFileError as refused:
                walked = str(refused)
            try:
                check(Reader("mybox.toml", {"rows": rows}), PLAIN)
                said = None
            except BoxFileError as refused:
                said = str(refused)
            assert said == walked, (key, value, rows)


@pytest.mark.parametrize("name", GAMES)
def test_a_shipped_box_file_has_its_plain_tables_checked_in_one_pass(name, monkeypatch):
    """Only the arrays of tables with more than plain keys (lists of numbers, nested tables)
    are walked reader by reader when the shipped file is checked."""
    module = import_module(f"engines.{name}.box")
    data = load_toml(module.DEFAULT_BOX)
    walked, tables = [], Reader.tables
    monkeypatch.setattr(Reader, "tables", lambda reader, key: walked.append(key) or tables(reader, key))
    check(Reader(module.DEFAULT_BOX, data), module.SCHEMA)
    plain = set(plain_arrays(module.SCHEMA))
    assert plain or name == "shark"                 # Shark's file is one grid, no array of tables
    assert not set(walked) & plain


def plain_arrays(table):
    """The keys of the arrays of plain tables in `table`, at any depth."""
    for key, part in table.keys.items():
        if isinstance(part, Tables) and _plan(part.table):
            yield key
        elif isinstance(part, (Table, Tables)):
            yield from plain_arrays(part if isinstance(part, Table) else part.table)


# -------------------------------------------------------------------- every game's box
@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_its_box_file_and_ships_it_unverified(name):
    loader = import_module(games()[name].box)
    assert isinstance(loader.SCHEMA, Table)
    box = loader.load_box(None)
    assert Path(box.path) == shipped(name)
    # the shipped files are reconstructions (RULINGS MB1 and DV1): the owner confirms them
    assert box.verified is False
    assert loader.holdings(box, "en")


@pytest.mark.parametrize("name", GAMES)
def test_a_key_the_schema_does_not_know_is_refused_naming_file_and_key(name, tmp_path):
    path = tmp_path / "mybox.toml"
    path.write_text("colour_of_the_lid = \"green\"\n" + shipped(name).read_text(encoding="utf-8"), encoding="utf-8")
    done = box_check(path, "--game", name)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"corbeille: {path}: colour_of_the_lid: unknown key; known keys: "), done.stderr


def test_box_check_validates_a_dividends_file_against_its_schema(tmp_path):
    path = tmp_path / "mybox.toml"
    path.write_text(shipped("dividends").read_text(encoding="utf-8").replace('die = "grey"', 'die = "pink"'),
                    encoding="utf-8")
    done = box_check(path, "--game", "dividends")
    assert done.returncode == 1
    assert done.stderr.startswith(f"corbeille: {path}: track.zones[1].die: 'pink' is not allowed; "
                                  "allowed: black, grey, white"), done.stderr


def test_box_check_says_what_each_shipped_file_holds():
    done = box_check(shipped("maxibourse"), "--lang", "fr")
    lines = done.stdout.splitlines()
    assert done.returncode == 0
    assert lines[1:4] == ["connu : 10 secteurs, 40 sociétés, 40 prix nominaux, 47 cases du plateau",
                          "appris à la table : rien", "manque pour commencer la partie : rien"]
    assert lines[4] == "40 sociétés en 10 secteurs, 10 lots de 1000 actions chacune ; prix nominal de chaque société :"
    assert lines[5] == "  Banques: BARCLAYS 300 $, CHASE 300 $, DEUTSCHE 300 $, UBS 200 $"
    assert lines[-1].startswith("verified = false : pas encore vérifié sur la boîte de jeu")
    done = box_check(shipped("dividends"), "--game", "dividends")
    assert done.returncode == 0
    prices = " ".join(f"${price:,}" for price in range(1000, 3000, 200))        # in dollars, grouped
    assert f"  CEDARPINES (Cedarpines Sawmills, red): {prices}" in done.stdout
    assert ("dividend track 0 50 100 150 200 250 300 350 400 450 500, start 200; "
            "zones: black 0-150, grey 200-300, white 350-500") in done.stdout


def test_box_check_prints_a_games_schema_and_refuses_an_unknown_game():
    done = box_check("--schema", "--game", "dividends")
    assert done.returncode == 0 and "      die: str in black, grey, white, required" in done.stdout.splitlines()
    done = box_check(shipped("maxibourse"), "--game", "monopoly")
    assert done.returncode == 2 and "invalid choice: 'monopoly'" in done.stderr and "dividends" in done.stderr


@pytest.mark.parametrize("name, old, new, error", [
    ("maxibourse", "lots_per_company = 10", f"lots_per_company = {2 ** 70}",
     f"lots_per_company: {2 ** 70} is above the maximum 100, what the game can hold; allowed: 1 to 100"),
    ("avendre", "pa = ", f"pa = {2 ** 40} # ", "titles[0].pa: 1099511627776 is above the maximum 1000000"),
    ("dividends", "450, 500]", f"450, {2 ** 40}]", "track.values[10]: 1099511627776 is above the maximum 1000000"),
])
def test_a_number_larger_than_the_game_can_hold_is_refused_with_its_bound(name, old, new, error, tmp_path):
    """A box file's numbers are bounded by what the game can hold, the bound in the schema
    (`--schema` prints it) and in the error."""
    text = shipped(name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "mybox.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    done = box_check(path, "--game", name)
    assert done.returncode == 1 and done.stderr.startswith(f"corbeille: {path}: {error}"), done.stderr
    assert "at most" in box_check("--schema", "--game", name).stdout


# ------------------------------------------------- every number bounded by what the game holds
def numeric_fields(table, where=()):
    """(path in the file's data, the schema's part) of every number a box file may hold: a
    path step is a key, or 0 for the first table of an array of tables."""
    for key, part in table.keys.items():
        if isinstance(part, Key) and part.typ is int or isinstance(part, Ints):
            yield where + (key,), part
        elif isinstance(part, Table):
            yield from numeric_fields(part, where + (key,))
        elif isinstance(part, Tables):
            yield from numeric_fields(part.table, where + (key, 0))


FIELDS = [(name, path, part) for name in GAMES
          for path, part in numeric_fields(import_module(games()[name].box).SCHEMA)]


def dotted(path) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")


def test_every_game_with_numbers_in_its_box_file_is_walked():
    assert {name for name, _, _ in FIELDS} == set(GAMES) - {"shark"}     # Shark's grid is text only


@pytest.mark.parametrize("name, path, part", FIELDS, ids=[f"{n}:{dotted(p)}" for n, p, _ in FIELDS])
def test_every_number_of_a_box_file_is_bounded_and_the_schema_says_the_bound(name, path, part):
    bound = part.maximum if part.maximum is not None else max(getattr(part, "allowed", None) or (None,))
    assert bound is not None, f"{name}: {dotted(path)} has no bound"
    lines = describe(Table({path[-1]: part}))
    said = f"at most {part.maximum}" if part.maximum is not None else f"in {', '.join(map(str, part.allowed))}"
    assert said in lines[0]
    assert lines[0] in {line.strip() for line in describe(import_module(games()[name].box).SCHEMA)}


def over_the_bound(data: dict, path: tuple, part) -> tuple[str, str]:
    """Put one value above `part`'s bound at `path` in `data` (the shipped file's); (the key
    the error names, the value put)."""
    here = data
    for step, following in zip(path, path[1:]):
        if isinstance(step, int):
            here = here[step]
        else:
            here = here.setdefault(step, [{}] if isinstance(following, int) else {})
    key = path[-1]
    bound = part.maximum if part.maximum is not None else max(part.allowed)
    if isinstance(part, Ints):
        values = list(here.get(key) or [0])
        values[-1] = bound + 1
        here[key] = values
        return f"{dotted(path)}[{len(values) - 1}]", bound + 1
    here[key] = bound + 1
    return dotted(path), bound + 1


@pytest.mark.parametrize("name, path, part", FIELDS, ids=[f"{n}:{dotted(p)}" for n, p, _ in FIELDS])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_number_above_its_bound_is_refused_naming_file_key_and_bound(name, path, part, lang, monkeypatch):
    loader = import_module(games()[name].box)
    data = load_toml(loader.DEFAULT_BOX)
    key, value = over_the_bound(data, path, part)
    monkeypatch.setattr(loader, "load_toml", lambda _: data)
    with pytest.raises(BoxFileError) as refused:
        loader.load_box("mybox.toml")
    said = refused.value.message(lang)
    if part.maximum is not None:
        lo = "0" if isinstance(part, Ints) else str(1 if part.minimum is None else part.minimum)
        expected = {"en": f"{value} is above the maximum {part.maximum}, what the game can hold; "
                          f"allowed: {lo} to {part.maximum}",
                    "fr": f"{value} dépasse le maximum {part.maximum}, ce que le jeu peut contenir ; "
                          f"possible : de {lo} à {part.maximum}"}[lang]
    else:
        expected = {"en": f"{value} is not allowed; allowed: ", "fr": f"{value} refusé ; possible : "}[lang] \
            + ", ".join(map(str, part.allowed))
    assert said == f"mybox.toml: {key}: {expected}"


@pytest.mark.parametrize("text, line, words", [
    ("verified = false\nlots_per_company = 1" + "0" * 5000 + "\n", 2, "a number of 5001 digits"),
    ("verified = false\n\nname = \"[[[\"\nlots_per_company = " + "[" * 3000 + "\n", 4, "nested too deeply"),
    ("verified = false\nlots_per_company = \n", 2, "Invalid value (column 20)"),
    ("verified = false\nsectors = [\n\n", 2, "Invalid value (at the end of the file)"),
])
def test_a_toml_mistake_is_said_with_file_and_line(text, line, words, tmp_path):
    path = tmp_path / "mybox.toml"
    path.write_text(text, encoding="utf-8")
    done = box_check(path, "--game", "maxibourse")
    assert done.returncode == 1 and done.stderr.startswith(f"corbeille: {path}:{line}: not valid TOML: "), done.stderr
    assert words in done.stderr and "sys.set_int_max_str_digits" not in done.stderr
