"""docs/performance.md: each benchmark owns one "## ..." section and rewrites only that."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
PREAMBLE = "# Performance\n\nRun on demand (`make bench`), never as timed tests.\n\n"


def write_section(title: str, text: str, path: Path = DOC) -> None:
    """Replace the section headed `title` (a "## ..." line) with `text`, keeping the others."""
    doc = path.read_text(encoding="utf-8") if path.exists() else PREAMBLE
    start = doc.find(title + "\n")
    if start < 0:
        doc = doc.rstrip("\n") + "\n\n" + text
    else:
        end = doc.find("\n## ", start + len(title))
        doc = doc[:start] + text.rstrip("\n") + "\n" + ("\n" + doc[end + 1:] if end >= 0 else "")
    path.write_text(doc.rstrip("\n") + "\n", encoding="utf-8")
