"""An A Vendre! box written back as a box file (`corbeille box learned`): the board and the
titles with what the table read without a board folded in (engines/avendre/learning.py), in
the schema's order, so `load_box` reads back the same box."""
import json

from engines.avendre.rules import SHOP


def dump(box) -> str:
    lines = ["# A Vendre!: a box file written by Corbeille (check it: corbeille box check FILE)",
             f"verified = {'true' if box.verified else 'false'}"]
    for t in box.titles.values():
        lines += ["", "[[titles]]", f"number = {t.number}", f"name = {json.dumps(t.name, ensure_ascii=False)}",
                  f"kind = {json.dumps(t.kind)}"]
        if t.kind == SHOP:
            lines.append(f"pa = {t.pa}")
        lines.append(f"r = {t.r}")
    for sq in box.squares:
        lines += ["", "[[squares]]", f"colour = {json.dumps(sq.colour)}"]
        if sq.title:
            lines.append(f"title = {sq.title}")
    return "\n".join(lines) + "\n"
