"""docs/protocol.md's action tables, made from the games' action declarations.

Each game's actions are declared once (engines/<game>/actions.py, `@action`): the kind, its
fields (the text form, `ActionSet.usage`), when it is offered and what it does (the class's
docstring), and an example line (`example=`, naming the players of EXAMPLE_PLAYERS). The
page holds, for each registered game, two tables made from them between marker comments:
its actions, and its operator corrections (the kinds flagged CORRECTION). Everything else on
the page (headers, settings, worked scripts, the state printed) is written by hand.
tests/core/test_protocol_tables.py fails when the page and the declarations disagree; then run

    .venv/bin/python -m tests.protocol_tables      # rewrites the tables in docs/protocol.md
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "protocol.md"
PARTS = ("actions", "corrections")
BLOCK = re.compile(r"<!-- (actions|corrections) of (\w+): made from engines/\w+/actions\.py by tests/protocol_tables\.py -->\n"
                   r"(.*?)<!-- end of \1 of \2 -->", re.S)


def kinds(game_name: str, part: str) -> list[str]:
    """The kinds of `part` (the game's own actions, or its corrections), in declaration order."""
    from engines import game_class
    from engines.core.actions import CORRECTION

    actions = game_class(game_name).ACTIONS
    return [k for k in actions.kinds() if actions.has(k, CORRECTION) == (part == "corrections")]


def cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def row(actions, kind: str) -> str:
    """One action's row: its text form, when (its docstring), its example in text and JSON."""
    from engines.core.actions import EXAMPLE_PLAYERS

    cls = actions.classes[kind]
    example = actions.parse(cls.example, list(EXAMPLE_PLAYERS))
    data = json.dumps(example.to_json(), ensure_ascii=False)
    return f"| `{actions.usage(kind)}` | {cell(cls.__doc__ or '')} | `{cls.example}` | `{data}` |"


def table(game_name: str, part: str) -> str:
    from engines import game_class

    actions = game_class(game_name).ACTIONS
    lines = ["| action | when | example | JSON |", "|---|---|---|---|"]
    lines += [row(actions, kind) for kind in kinds(game_name, part)]
    return "\n".join(lines) + "\n"


def marker(part: str, game_name: str) -> str:
    return f"<!-- {part} of {game_name}: made from engines/{game_name}/actions.py by tests/protocol_tables.py -->\n"


def blocks(page: str) -> dict[tuple[str, str], str]:
    """(part, game) -> the table the page holds between its markers."""
    return {(m.group(1), m.group(2)): m.group(3) for m in BLOCK.finditer(page)}


def rewritten(page: str) -> str:
    """The page with every table made again from the declarations."""
    return BLOCK.sub(lambda m: marker(m.group(1), m.group(2)) + table(m.group(2), m.group(1))
                     + f"<!-- end of {m.group(1)} of {m.group(2)} -->", page)


if __name__ == "__main__":
    PAGE.write_text(rewritten(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"{PAGE}: {len(blocks(PAGE.read_text(encoding='utf-8')))} tables made from the declarations")
