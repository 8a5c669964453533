"""`corbeille box check FILE` says of a file what is known, what will be learned at the
table (counted) and what is missing for the game to start (every missing key listed), in
the language asked."""
from pathlib import Path

import pytest
from cli_helpers import call as box_check

from engines.core.boxfile import Ints, Key, Table, Tables, missing_keys
from engines.registry import names

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name, known", [
    ("maxibourse", "known: 10 sectors, 40 companies, 40 nominal prices, 47 board squares"),
    ("dividends", "known: 5 companies, 10 chart slots per company, 11 dividend track values, 3 track zones, "
                  "24 influence cards"),
    ("avendre", "known: 43 titles, 60 squares"),
    ("shark", "known: 120 map cells, 6 zones"),
    ("richesses", "known: 24 productions, 34 countries, 144 titles, 24 royalty tables, 63 squares, 10 jokers"),
])
def test_a_shipped_file_is_known_whole_and_misses_nothing(name, known):
    done = box_check("box", "check", ROOT / "engines" / name / "box" / f"{name}.toml", "--game", name)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:4] == [known, "learned at the table: nothing",
                                             "missing for the game to start: nothing"]


def test_what_the_table_will_learn_is_counted_in_french(tmp_path):
    path = tmp_path / "maxi.toml"
    shipped = (ROOT / "engines" / "maxibourse" / "box" / "maxibourse.toml").read_text(encoding="utf-8")
    path.write_text(shipped.replace(', nominal = 300 }', ' }'), encoding="utf-8")
    done = box_check("--lang", "fr", "box", "check", path, "--game", "maxibourse")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:4] == [
        "connu : 10 secteurs, 40 sociétés, 28 prix nominaux, 47 cases du plateau",
        "appris à la table : 12 prix nominaux", "manque pour commencer la partie : rien"]


def test_every_missing_key_is_listed_and_the_file_refused(tmp_path):
    path = tmp_path / "dividends.toml"
    path.write_text('[track]\nstart = 200\n\n[[companies]]\nid = "RED"\n', encoding="utf-8")
    done = box_check("box", "check", path, "--game", "dividends")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"corbeille: {path}: influence: missing; expected dict",
        "missing for the game to start: influence.per_company, influence.any_company, track.values, track.zones, "
        "companies[0].name, companies[0].colour"]
    done = box_check("--lang", "fr", "box", "check", path, "--game", "dividends")
    assert done.stderr.splitlines()[-1].startswith("manque pour commencer la partie : influence.per_company, ")


def test_a_file_that_is_not_toml_says_what_is_wrong_and_lists_nothing(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[[sectors\n", encoding="utf-8")
    done = box_check("box", "check", path, "--game", "maxibourse")
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1 and "missing for" not in done.stderr


SCHEMA = Table({
    "verified": Key(bool, False),
    "count": Key(int),
    "values": Ints("increasing"),
    "extra": Ints("increasing", required=False),
    "table": Table({"a": Key(str), "b": Key(str, "")}),
    "flags": Table({"on": Key(bool, False)}),
    "loose": Table({"x": Key(int)}, optional=True),
    "items": Tables(Table({"id": Key(str), "name": Key(str)})),
    "more": Tables(Table({"id": Key(str)}), optional=True),
})


@pytest.mark.parametrize("data, missing", [
    ({}, ["count", "values", "table.a", "flags", "items"]),
    ({"count": 1, "values": [1], "table": {"a": "x"}, "flags": {}, "items": []}, []),
    ({"count": 1, "values": [1], "table": {}, "flags": {}, "items": [{"id": "A"}, {"name": "B"}],
      "loose": {}, "more": [{}]}, ["table.a", "loose.x", "items[0].name", "items[1].id", "more[0].id"]),
])
def test_missing_keys_walks_the_schema(data, missing):
    assert missing_keys(SCHEMA, data) == missing


def test_every_game_counts_what_it_knows_and_what_it_learns():
    from importlib import import_module

    from engines.core.i18n import catalog
    from engines.registry import spec

    for name in names():
        loader = import_module(spec(name).box)
        known, learned = loader.counts(loader.load_box())
        assert known and all(count >= 0 for _, count in known + learned)
        for key, _ in known + learned:
            assert key in catalog("fr") and key in catalog("en"), key
