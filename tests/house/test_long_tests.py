"""The `long` mark (tests/conftest.py): every test LONG names exists, and the marked tests
are collected first, so `make test`'s workers start on them."""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def long_list() -> tuple:
    """conftest's LONG, read from its file (which module `conftest` names depends on how
    pytest was started)."""
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    found = [node.value for node in tree.body if isinstance(node, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == "LONG" for t in node.targets)]
    assert len(found) == 1, "tests/conftest.py defines LONG once"
    return ast.literal_eval(found[0])


# Both collections in one process, one after the other: pytest started and the test modules
# imported once. `-m long` selects on the marks as any run does.
COLLECT = """
import sys
import pytest

options = ["--collect-only", "-p", "no:cacheprovider"]
every = pytest.main([*options, *sys.argv[1:]])
print("== long")
sys.exit(every or pytest.main([*options, "-m", "long", *sys.argv[1:]]))
"""


def collected(*files) -> tuple[list[str], list[str]]:
    """The tests of `files` as pytest collects them, in order, and those `-m long` selects."""
    done = subprocess.run([sys.executable, "-c", COLLECT, *files], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    every, _, long = done.stdout.partition("\n== long\n")
    return [line for line in every.splitlines() if "::" in line], [line for line in long.splitlines() if "::" in line]


def test_every_long_test_exists_and_the_long_ones_are_collected_first():
    listed = long_list()
    files = sorted({f"tests/{entry.split('::')[0]}" for entry in listed})
    missing = [f for f in files if not (ROOT / f).exists()]
    assert not missing, f"LONG names files that do not exist: {missing}"
    order, long = collected(*files)
    named = {f"{line.split('::')[0].removeprefix('tests/')}::{line.split('::')[1].split('[')[0]}" for line in long}
    assert named == set(listed), f"LONG names tests that are not collected: {set(listed) - named}"
    assert order[:len(long)] == long and len(order) > len(long)        # the long ones first, the others after
