"""The box's core screens pick what to show from the decision, never from the game.

docs/firmware.md: the controller, the menus and the flows read the pending decision (its
interaction, roles and params), the actions' flags and the snapshot; what only one game
needs lives in its adapter (firmware/games/). This file keeps it so: it reads those files
and refuses a registered game's name, a read of the engine's internals (`game.s`,
`game.top`, a company's `zone()`, a player's `cash()`), and an action kind named where a
kind is chosen (`act.kind == "sell"`, `d.option("bid")`, `classes["raise"]`...).
"""
import ast
import re
from pathlib import Path

import pytest

from engines import game_class
from engines.registry import names
from firmware.games import PLAYABLE, adapter

ROOT = Path(__file__).resolve().parents[2]
PARTS = ("root_flow", "screen_kit", "seat_buttons", "seat_clock", "speaking_round", "setup_flow", "console_lines", "tag_book", "saved_screen",
         "card_faults", "board_pages")
CORE = [ROOT / "firmware" / "controller.py", ROOT / "firmware" / "menus.py",
        *(ROOT / "firmware" / f"{part}.py" for part in PARTS),
        *sorted((ROOT / "firmware" / "screens").glob("*.py"))]
INTERNALS = re.compile(r"\bgame\.(s|top)\b|\.zone\(|\bgame\.cash\(|\bgame\.in_game\(")


def kinds():
    out = set()
    for name in names():
        out |= set(game_class(name).ACTIONS.kinds())
    return out


def _is_kind_expr(node) -> bool:
    """`kind`, `x.kind`, `frame["kind"]`, `main[0]`-like names holding a kind."""
    if isinstance(node, ast.Name):
        return "kind" in node.id or node.id in ("main",)
    if isinstance(node, ast.Attribute):
        return node.attr == "kind"
    if isinstance(node, ast.Subscript):
        key = node.slice
        return (isinstance(key, ast.Constant) and key.value == "kind") or _is_kind_expr(node.value)
    return False


def _constants(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for item in node.elts:
            yield from _constants(item)


def kind_names_chosen(source: str, known: set) -> list[tuple[int, str]]:
    """(line, kind) wherever `source` chooses by an action kind's name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_kind_expr(side) for side in sides):
                found += [(c.lineno, c.value) for side in sides for c in _constants(side) if c.value in known]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("option", "start_entry", "has"):
            found += [(c.lineno, c.value) for arg in node.args[:1] for c in _constants(arg) if c.value in known]
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "classes":
            found += [(c.lineno, c.value) for c in _constants(node.slice) if c.value in known]
    return found


def test_the_check_finds_kinds_chosen_by_name():
    planted = '''
if act.kind == "sell": pass
if "deal" in main or frame["kind"] in ("declare", "x"): pass
d.option("bid"); self.start_entry("reveal"); self.session.actions.classes["raise"]()
t("menu.close"); Screen("payday"); frame["t"] == "settle"
'''
    assert sorted(kind for _, kind in kind_names_chosen(planted, kinds())) == \
        ["bid", "deal", "declare", "raise", "reveal", "sell"]


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_the_core_screens_name_no_game_no_kind_and_read_no_engine_internals(path):
    source = path.read_text(encoding="utf-8")
    for name in names():
        assert name not in source.lower(), f"{path.name} names the game {name!r}"
    lines = [f"{n}: {line.strip()}" for n, line in enumerate(source.splitlines(), 1) if INTERNALS.search(line)]
    assert not lines, f"{path.name} reads the engine's internals:\n" + "\n".join(lines)
    chosen = kind_names_chosen(source, kinds())
    assert not chosen, f"{path.name} chooses by action kind names: {chosen}"
    # a game's own texts (its adapter's prefix, "dv.") are worded by its adapter
    prefixes = [adapter(name).prefix for name in PLAYABLE if adapter(name).prefix]
    own = [(c.lineno, c.value) for c in ast.walk(ast.parse(source)) if isinstance(c, ast.Constant)
           and isinstance(c.value, str) and any(c.value.startswith(p) or "." + p in c.value for p in prefixes)]
    assert not own, f"{path.name} words a game's own texts: {own}"
