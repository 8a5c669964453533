"""The code, the tests and the docs say what is so and why, not which issue asked for it:
an issue number means nothing to a reader without the tracker, and the tracker's history
lives in git. The grep of the issue tracker's "done when" line, run over the sources and
extended to the tests and the docs."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PATTERN = r"issues? #?[0-9]"
WHERE = (("*.py", ("engines", "firmware", "drivers", "bench", "tests")), ("*.md", ("docs",)))


def issue_numbers(root: Path = ROOT) -> list[str]:
    """grep -rniE over WHERE: "path:line:text" of each line naming an issue by number."""
    found = []
    for include, folders in WHERE:
        present = [folder for folder in folders if (root / folder).is_dir()]
        done = subprocess.run(["grep", "-rniE", PATTERN, f"--include={include}", *present],
                              cwd=root, capture_output=True, text=True, timeout=60)
        assert done.returncode in (0, 1), done.stderr                # 1: nothing found
        found += done.stdout.splitlines()
    return found


def test_no_issue_number_in_the_code_the_tests_or_the_docs():
    found = issue_numbers()
    assert not found, "say what the code does and why, not the issue:\n" + "\n".join(found)


def test_the_grep_finds_an_issue_number(tmp_path):
    """A comment in a module and a line in a doc naming an issue are both found: the check can fail."""
    (tmp_path / "firmware").mkdir()
    (tmp_path / "docs").mkdir()
    number = " #12"                      # apart, so that this file's own lines do not match
    (tmp_path / "firmware" / "x.py").write_text(f"x = 1  # see Issue{number}\n")
    (tmp_path / "docs" / "x.md").write_text(f"Fixed for issues{number} and 4.\n")
    (tmp_path / "docs" / "y.py").write_text(f"# issue{number}: a .py under docs/ is not a doc\n")
    found = issue_numbers(tmp_path)
    assert [re.sub(r":\d+:.*", "", line) for line in found] == ["firmware/x.py", "docs/x.md"], found
