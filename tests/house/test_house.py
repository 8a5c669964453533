"""The house in order: each shared mechanic written once, small classes and functions.

What is the same for all games (a transfer, the seat order, a ranking, an envelope) stands
once, in engines/core and firmware/games/base.py, and these tests keep it so with the next
game:

- no block of six lines or more stands twice in the engines (the game packages and core)
  or the adapters: pylint's duplicate-code check (comments, docstrings, imports and
  signatures left out, as pylint does by default), whose `min-similarity-lines` reports
  a block of more lines than it says: 5, for blocks of six and more;
- no class in engines/, firmware/ or drivers/ is over 300 lines, no function over 60.
"""
import ast
import functools
import re
from pathlib import Path

import pytest

from statements import statements

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("engines", "firmware/games")
SIZED = ("engines", "firmware", "drivers")
MOST_CLASS_LINES = 300
MOST_FUNCTION_LINES = 60


def repeated_blocks(*paths) -> str:
    """pylint's duplicate-code report over `paths` ("" when nothing is repeated): pylint's
    own similarity checker, with these options, over the modules pylint would check, each
    block said as pylint says it (R0801). Only that checker runs, in this process: pylint
    itself would first infer a whole tree of every module for checks that are all off.
    pylint is imported here, by the worker that runs these tests alone, not at collection."""
    from pylint.checkers.symilar import Symilar
    from pylint.lint.expand_modules import expand_modules

    modules, errors = expand_modules([str(path) for path in paths], [], ["CVS"], [re.compile(r"^\.#")], [])
    assert not errors, errors
    similar = Symilar(min_lines=5, ignore_comments=True, ignore_docstrings=True, ignore_imports=True,
                      ignore_signatures=True)
    for module in modules.values():
        with open(module["path"], "rb") as stream:
            similar.append_stream(module["name"], stream, "utf-8", tree=_syntax_tree(module["path"], module["name"]))
    reports = []
    for _, couples in similar._compute_sims():            # what pylint's checker reports from
        where = sorted(f"=={lineset.name}:[{start}:{end}]" for lineset, start, end in couples)
        lineset, start, end = next(iter(couples))
        lines = [line.rstrip() for line in lineset.real_lines[start:end]]
        reports.append("\n".join([f"Similar lines in {len(couples)} files", *where, *lines]))
    return "\n".join(reports)


def _syntax_tree(path, name):
    """A module's astroid tree as it is written, all the checker reads of it (where the
    imports and the signatures stand): without the inference astroid.parse goes on to,
    which imports and builds every module the module imports."""
    from astroid.builder import AstroidBuilder
    from astroid.manager import AstroidManager

    builder = AstroidBuilder(AstroidManager(), apply_transforms=False)
    return builder._data_build(Path(path).read_text(encoding="utf-8"), name, path)[0]


def test_no_block_of_six_lines_is_repeated_in_the_engines_or_the_adapters():
    report = repeated_blocks(*CHECKED)
    assert report == "", f"the same lines stand twice; put them in one place (engines/core, firmware/games/base.py):\n{report}"


def test_the_check_finds_a_block_written_again(tmp_path):
    """A block copied from one game package into another is reported: the check can fail."""
    source = (ROOT / "engines" / "core" / "check.py").read_text(encoding="utf-8")
    start = source.index("def first_refused(")
    block = source[start:source.index("\n\n\n", start)]
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("")
        (tmp_path / name / "copy.py").write_text(f"from engines.core.decision import Items\n\n\n{block}\n")
    assert "Similar lines in 2 files" in repeated_blocks(tmp_path / "one", tmp_path / "two")


def sizes(root=ROOT, folders=SIZED):
    """(kind, where, name, lines) of every class and every function under `folders`: module
    functions, methods and functions nested in either (every statement, at any depth)."""
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            for node in statements(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    kind = "class" if isinstance(node, ast.ClassDef) else "function"
                    yield kind, f"{path.relative_to(root)}:{node.lineno}", node.name, node.end_lineno - node.lineno + 1


@functools.cache
def shipped_sizes() -> tuple:
    """sizes() of the shipped code, read once for the class check and the function check."""
    return tuple(sizes())


def oversized(found, kind, most) -> list[str]:
    return [f"{where} {name}: {lines} lines" for k, where, name, lines in found if k == kind and lines > most]


@pytest.mark.parametrize("kind,most", [("class", MOST_CLASS_LINES), ("function", MOST_FUNCTION_LINES)])
def test_no_class_over_300_lines_and_no_function_over_60(kind, most):
    found = list(shipped_sizes())
    assert any(k == kind for k, *_ in found)
    longer = oversized(found, kind, most)
    assert not longer, f"{kind}es and functions stay small (at most {most} lines for a {kind}): " + "; ".join(longer)


def test_the_size_check_finds_an_oversized_method_a_nested_function_and_a_class(tmp_path):
    """A method, a function nested in a method and a class one line over their limits are
    each reported, and the same shapes at their limits are not: the check can fail."""
    def function(name, lines, indent):
        body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 2))
        return f"{indent}def {name}(self):\n{body}{indent}    return 0\n"

    nested = "    def outer(self):\n" + function("inner", MOST_FUNCTION_LINES + 1, "        ") + "        return inner\n"
    big = "class Big:\n" + function("method", MOST_FUNCTION_LINES + 1, "    ") + nested
    big += "".join(f"    y{i} = {i}\n" for i in range(MOST_CLASS_LINES + 1 - big.count("\n")))
    small = "class Small:\n" + function("method", MOST_FUNCTION_LINES, "    ")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "shapes.py").write_text(big + "\n\n" + small)
    found = list(sizes(tmp_path, ("pkg",)))
    named = {kind: [entry.split()[1].rstrip(":") for entry in oversized(found, kind, most)]
             for kind, most in (("function", MOST_FUNCTION_LINES), ("class", MOST_CLASS_LINES))}
    assert named == {"function": ["method", "outer", "inner"], "class": ["Big"]}, named
    assert ("class", "pkg/shapes.py:1", "Big", MOST_CLASS_LINES + 1) in found


AREAS = {"core", "engines", "firmware", "journal", "drivers", "house"}
GAMES = {path.name for path in (ROOT / "engines").iterdir() if (path / "game.py").exists()}


def misplaced_tests(tests: Path) -> list[str]:
    """Test files outside the area folders: at the top of tests/, in a folder that is no
    area, or under tests/engines/ outside a folder named after a game."""
    wrong = []
    for path in sorted(tests.rglob("test_*.py")):
        parts = path.relative_to(tests).parts
        if len(parts) < 2 or parts[0] not in AREAS or (parts[0] == "engines" and (len(parts) < 3 or parts[1] not in GAMES)):
            wrong.append(path.relative_to(tests).as_posix())
    return wrong


def test_tests_sit_in_folders_by_area_and_by_game():
    assert not misplaced_tests(ROOT / "tests"), misplaced_tests(ROOT / "tests")


def test_the_area_check_finds_a_test_out_of_place(tmp_path):
    for where in ("test_loose.py", "misc/test_x.py", "engines/test_y.py", "engines/monopoly/test_z.py",
                  "engines/shark/test_ok.py", "journal/test_ok.py"):
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_text("")
    assert misplaced_tests(tmp_path) == ["engines/monopoly/test_z.py", "engines/test_y.py", "misc/test_x.py",
                                         "test_loose.py"]
