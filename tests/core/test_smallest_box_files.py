"""The smallest box file that works, per game, as docs/rules/<game>.md states it: the file
is written from the doc's own TOML block (the keys it shows, the shipped file's values for
the pieces its "..." leaves out), so the doc cannot drift; it passes `box check` and plays
a random game to its end. A Vendre! and Shark need no file at all with their board or grid
option "none"."""
import random
import re
import tomllib
from pathlib import Path

import pytest

from cli_helpers import call, run

from engines import game_class
from engines.core.random_play import play_randomly
from engines.core.spreadsheet import dump_toml
from engines.registry import names
from test_game_contract import Drawer, header, state_key

ROOT = Path(__file__).resolve().parents[2]


def doc_block(name) -> dict:
    """The TOML block of the doc's "The smallest box file" section, parsed."""
    doc = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    section = doc[doc.index("\n## The smallest box file"):]
    return tomllib.loads(re.search(r"```toml\n(.*?)```", section, re.S).group(1))


def shape(data, prefix="") -> set:
    """The dotted paths of every key `data` holds, an array's items merged."""
    paths = set()
    for key, value in data.items():
        path = prefix + key
        paths.add(path)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                paths |= shape(item, path + ".")
    return paths


def kept(data, paths, prefix=""):
    """`data` with only the keys whose paths are in `paths`."""
    out = {}
    for key, value in data.items():
        path = prefix + key
        if path not in paths:
            continue
        if isinstance(value, dict):
            value = kept(value, paths, path + ".")
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            value = [kept(item, paths, path + ".") for item in value]
        out[key] = value
    return out


def shown_in(excerpt, whole) -> bool:
    """Every value the doc's excerpt shows is the shipped file's: a table key by key, each
    item of an array among the file's (the doc shows a few of them)."""
    if isinstance(excerpt, dict):
        return isinstance(whole, dict) and all(key in whole and shown_in(v, whole[key]) for key, v in excerpt.items())
    if isinstance(excerpt, list) and isinstance(whole, list) and any(isinstance(x, (dict, list)) for x in excerpt):
        return all(any(shown_in(item, other) for other in whole) for item in excerpt)
    return excerpt == whole


def smallest_file(tmp_path, name) -> Path:
    block = doc_block(name)
    shipped = tomllib.loads((ROOT / "engines" / name / "box" / f"{name}.toml").read_text(encoding="utf-8"))
    smallest = kept(shipped, shape(block))
    assert shown_in(block, smallest), f"docs/rules/{name}.md's block shows values the shipped file does not hold"
    path = tmp_path / f"{name}-smallest.toml"
    path.write_text(dump_toml(smallest, f"{name}: the smallest box file of docs/rules/{name}.md"), encoding="utf-8")
    return path


def played_to_its_end(name, box=None, **settings):
    head = header(name, 3, 7) | {"settings": settings}
    if box is not None:
        head["box"] = str(box)
    game = game_class(name)(head)
    play_randomly(game, Drawer(random.Random(f"smallest-{name}")), max_actions=6000, state_key=state_key,
                  finished=lambda g: g.over, max_refusals=3000)
    return game


SMALLEST = {"maxibourse": {"sectors", "sectors.id", "sectors.name", "sectors.name.fr", "sectors.name.en",
                           "sectors.companies", "sectors.companies.id", "sectors.companies.name"},
            "richesses": {"productions", "productions.id", "productions.name", "countries", "countries.id",
                          "countries.name", "countries.continent"}}


@pytest.mark.parametrize("name", names())
def test_the_docs_smallest_file_passes_box_check_and_plays_a_game_to_its_end(tmp_path, name):
    path = smallest_file(tmp_path, name)
    if name in SMALLEST:           # what the table learns is left out of the file
        assert shape(tomllib.loads(path.read_text(encoding="utf-8"))) == SMALLEST[name]
    box_check = run if name == "maxibourse" else call   # as the owner runs it (its own process) for one game
    done = box_check("box", "check", path, "--game", name)
    assert done.returncode == 0, done.stderr
    assert "missing for the game to start: nothing" in done.stdout
    learned = re.search(r"^learned at the table: (.*)$", done.stdout, re.M).group(1)
    assert (learned == "nothing") == (name not in SMALLEST), learned
    game = played_to_its_end(name, path)
    assert game.over, f"{name}: not over after {len(game.log)} actions"


@pytest.mark.parametrize("name, settings", [("avendre", {"board": "none"}), ("shark", {"grid": "none"})])
def test_without_a_board_no_file_is_needed(name, settings):
    game = played_to_its_end(name, **settings)
    assert game.box is None and game.over, f"{name}: not over after {len(game.log)} actions"


def test_a_block_that_drifts_from_the_shipped_file_is_caught():
    block = {"sectors": [{"id": "BANQUES", "companies": [{"id": "BARCLAYS", "name": "Barclays"}]}]}
    shipped = tomllib.loads((ROOT / "engines" / "maxibourse" / "box" / "maxibourse.toml").read_text(encoding="utf-8"))
    assert not shown_in(block, kept(shipped, shape(block)))
    assert shown_in({"sectors": [{"id": "BANQUES"}]}, kept(shipped, {"sectors", "sectors.id"}))
