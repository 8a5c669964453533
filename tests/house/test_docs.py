"""The rules digests point to the tests that pin each ruling: every test they name exists.

A digest says, near its top, which file each prefix stands for ("Tests named `examples::`
are in `tests/<area>/test_x.py`"); a name may end with `*` for a family of tests."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = sorted((ROOT / "docs" / "rules").glob("*.md"))


def defined_tests(path: Path) -> set[str]:
    return set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))


@pytest.mark.parametrize("digest", DIGESTS, ids=lambda p: p.name)
def test_every_test_a_digest_names_exists(digest):
    text = digest.read_text(encoding="utf-8")
    prefixes = dict(re.findall(r"`(\w+)::`[^`]*`(tests/(?:[\w/]+/)?test_\w+\.py)`", text.replace("\n", " ")))
    assert prefixes, f"{digest.name}: no 'Tests named `x::` are in `tests/...`' legend"
    named = re.findall(r"\b(\w+)::(test_[\w*]+)", text)
    named += [(path, name) for path, name in re.findall(r"(tests/(?:[\w/]+/)?test_\w+\.py)::(test_\w+)", text)]
    assert named, f"{digest.name} names no test"
    missing = []
    for where, name in named:
        path = ROOT / (prefixes.get(where) or where)
        if where not in prefixes and not where.startswith("tests/"):
            continue  # a Python path like engines.core::x, not a test reference
        functions = defined_tests(path)
        pattern = re.compile("^" + re.escape(name).replace(r"\*", ".*") + "$")
        if not any(pattern.match(f) for f in functions):
            missing.append(f"{where}::{name}")
    assert not missing, f"{digest.name} names tests that do not exist: {missing}"
