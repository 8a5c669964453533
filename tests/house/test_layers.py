"""The screens sit below the controller: firmware/screens/ imports nothing from the
controller or the flows and parts it holds, and touches no private name of another object
or module (`ctl._x`, `from firmware.menus import _x`). A screen reaches the controller
through its public state and its kit (firmware/screen_kit.py), so a part can change inside
without a screen breaking, and a screen can be read without the controller's insides.

The controller's parts are found from its own imports, so a part added later is covered.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "firmware" / "screens"
CONTROLLER = ROOT / "firmware" / "controller.py"
# What the controller imports that the screens share with it rather than sit under.
SHARED = ("firmware.screen", "firmware.screens", "firmware.menus", "firmware.texts", "firmware.games",
          "firmware.session", "firmware.screen_kit")


def imported(tree) -> set[str]:
    """The absolute module names `tree` imports (top level and inside functions), each
    `from a import b` counted as both `a` and `a.b`."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def above_the_screens() -> set[str]:
    """The controller's module, the app and every firmware module the controller imports
    that is not shared with the screens: its flows and parts."""
    own = {name for name in imported(ast.parse(CONTROLLER.read_text(encoding="utf-8")))
           if name.startswith("firmware.") and (ROOT / (name.replace(".", "/") + ".py")).exists()}
    parts = {name for name in own if not any(name == s or name.startswith(s + ".") for s in SHARED)}
    return parts | {"firmware.controller", "firmware.app", "firmware.parts"}


def upward_imports(tree, above) -> list[str]:
    return sorted(f"line {node.lineno}: {name}" for node in ast.walk(tree)
                  if isinstance(node, (ast.Import, ast.ImportFrom))
                  for name in imported(ast.Module(body=[node], type_ignores=[])) if name in above)


def private_reaches(tree) -> list[str]:
    """`x._name` where x is not self or cls, and `from module import _name`: another
    object's or module's insides (dunders are public)."""
    def private(name):
        return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom):
            found += [f"line {node.lineno}: from {node.module} import {a.name}" for a in node.names if private(a.name)]
    return sorted(found)


def screen_modules():
    return sorted(SCREENS.rglob("*.py"))


def test_the_controller_has_parts_the_screens_must_not_import():
    above = above_the_screens()
    assert {"firmware.root_flow", "firmware.setup_flow", "firmware.seat_buttons"} <= above, above


@pytest.mark.parametrize("path", screen_modules(), ids=lambda p: p.name)
def test_a_screen_imports_nothing_from_the_controller_or_its_flows(path):
    found = upward_imports(ast.parse(path.read_text(encoding="utf-8")), above_the_screens())
    assert not found, f"{path.relative_to(ROOT)} imports from above the screens: {found}"


@pytest.mark.parametrize("path", screen_modules(), ids=lambda p: p.name)
def test_a_screen_reaches_no_private_name_of_the_controller_or_another_module(path):
    found = private_reaches(ast.parse(path.read_text(encoding="utf-8")))
    assert not found, f"{path.relative_to(ROOT)} reaches private names; use a public one: {found}"


def test_the_checks_find_an_upward_import_and_a_private_call():
    """A screen written wrong is caught by both checks: they can fail."""
    tree = ast.parse("from firmware.root_flow import RootFlow\n"
                     "def draw(ctl):\n"
                     "    from firmware import seat_buttons\n"
                     "    from firmware.menus import _hidden\n"
                     "    self._mine = 1\n"
                     "    return ctl._pending() + ctl.kit._memo_key\n")
    assert upward_imports(tree, above_the_screens()) == [
        "line 1: firmware.root_flow", "line 3: firmware.seat_buttons"]
    assert private_reaches(tree) == ["line 4: from firmware.menus import _hidden",
                                     "line 6: ctl._pending", "line 6: ctl.kit._memo_key"]
