"""The example scripts shipped in examples/ run and give the rulebook's figures, read
through the same path as `corbeille script` (engines.core.files)."""
from pathlib import Path

import pytest

from engines.core.errors import CorbeilleError
from engines.core.files import read_text

from firmware.script import run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(name):
    return run_script(read_text(EXAMPLES / name, "script", CorbeilleError), name).snapshot()


def test_sony_example_script():
    s = run("sony.txt")
    assert s["companies"]["SONY"]["price"] == 400
    assert [p["cash"] for p in s["players"]] == [4_600_000, 4_600_000, 4_200_000, 4_600_000]


def test_twa_example_script():
    s = run("twa.txt")
    assert s["companies"]["TWA"]["price"] == 540
    assert [p["cash"] for p in s["players"]] == [5_000_000, 4_460_000, 4_460_000, 5_000_000]


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.txt")))
def test_an_example_saved_in_latin1_is_refused_at_the_line_of_the_first_accent(tmp_path, name):
    """An example whose comment gained an accent, saved by an editor set to Latin-1."""
    lines = (EXAMPLES / name).read_text(encoding="utf-8").split("\n")
    lines.insert(2, "# à la corbeille")
    path = tmp_path / name
    path.write_bytes("\n".join(lines).encode("latin-1"))
    with pytest.raises(CorbeilleError) as refused:
        read_text(path, "script", CorbeilleError)
    assert str(refused.value).startswith(f"{path}:3: byte 0xE0 (column 3) is not UTF-8 text")
    path.write_text("\n".join(lines), encoding="utf-8")           # saved as UTF-8 it runs
    assert run_script(read_text(path, "script", CorbeilleError)).snapshot() == run_script(
        read_text(EXAMPLES / name, "script", CorbeilleError), name).snapshot()


def test_shark_under_way_example_script():
    """A game under way entered by corrections (the map, cash, shares, whose turn), then played on."""
    s = run("shark-under-way.txt")
    assert s["turn"] == "Cid" and s["phase"] == "before"
    assert {c: (v["value"], v["used"], v["on_board"]) for c, v in s["companies"].items()} == {
        "RED": (3, 3, 3), "YELLOW": (1, 1, 1), "GREEN": (1, 1, 1), "BLUE": (2, 2, 2)}
    assert [(p["cash"], p["shares"]) for p in s["players"]] == [
        (14_000, {"RED": 3}), (9_000, {"BLUE": 5}), (21_000 - 2 * 3_000, {"RED": 2, "YELLOW": 1, "GREEN": 1})]
