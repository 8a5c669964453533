"""docs/protocol.md's action tables are the games' action declarations (tests/protocol_tables.py).

A table on the page that says something other than the declarations (a kind added, renamed
or removed, a field, a docstring or an example changed) fails here, with the command that
makes it again; an action declared without a docstring or an example that reads back to it
fails too.
"""
import json

import pytest

from engines import game_class
from engines.core.actions import EXAMPLE_PLAYERS
from engines.registry import names
from tests.protocol_tables import PAGE, PARTS, blocks, kinds, marker, rewritten, table

GAMES = names()


@pytest.fixture(scope="module")
def page():
    return PAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("part", PARTS)
def test_the_page_holds_each_games_tables_as_its_declarations_make_them(page, name, part):
    held = blocks(page)
    assert (part, name) in held, f"docs/protocol.md has no {marker(part, name).strip()} block"
    assert held[(part, name)] == table(name, part), (
        f"docs/protocol.md's {part} of {name} differ from engines/{name}/actions.py: "
        f"run `.venv/bin/python -m tests.protocol_tables`")


def test_the_page_has_no_table_of_a_game_not_registered(page):
    assert {game for _, game in blocks(page)} == set(GAMES)
    assert rewritten(page) == page


@pytest.mark.parametrize("name", GAMES)
def test_every_action_is_in_one_table_with_what_it_does_and_an_example_that_reads_back(name):
    actions = game_class(name).ACTIONS
    players = list(EXAMPLE_PLAYERS)
    assert sorted(kinds(name, "actions") + kinds(name, "corrections")) == sorted(actions.kinds())
    for kind in actions.kinds():
        cls = actions.classes[kind]
        assert (cls.__doc__ or "").strip() and cls.example, f"{name}: {kind} declares no docstring or no example"
        example = actions.parse(cls.example, players)
        assert example.kind == kind, f"{name}: the example of {kind} reads as {example.kind}"
        assert actions.parse(actions.format(example, players), players) == example
        assert actions.from_json(json.loads(json.dumps(example.to_json()))) == example


def test_a_table_that_differs_from_the_declarations_is_found():
    """The check compares the page with what the declarations make, so an action whose
    docstring changed makes its game's table differ until the page is made again."""
    cls = game_class("shark").ACTIONS.classes["skip"]
    page = PAGE.read_text(encoding="utf-8")
    before = cls.__doc__
    try:
        cls.__doc__ = "Without the grid: a new sentence."
        assert blocks(page)[("actions", "shark")] != table("shark", "actions")
        assert "a new sentence" in blocks(rewritten(page))[("actions", "shark")]
    finally:
        cls.__doc__ = before
