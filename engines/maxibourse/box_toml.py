"""A Maxi Bourse box written back as a box file (`corbeille box learned`): the owner's file
with the nominal prices the table gave (`learn_nominal`, `set_nominal`) folded in, in the
schema's order, so `load_box` reads back the same box. A nominal still unknown is left out,
as the owner's file left it (asked before the deal)."""
import json


def _text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)      # a TOML basic string is a JSON string


def _flag(value: bool) -> str:
    return "true" if value else "false"


def dump(box) -> str:
    lines = ["# Maxi Bourse: a box file written by Corbeille (check it: corbeille box check FILE)",
             f"verified = {_flag(box.verified)}",
             f"lots_per_company = {box.lots_per_company}",
             f"shares_per_lot = {box.shares_per_lot}"]
    for sector in box.sectors:
        names = ", ".join(f"{lang} = {_text(name)}" for lang, name in sector.name.items())
        lines += ["", "[[sectors]]", f"id = {_text(sector.id)}", f"name = {{ {names} }}", "companies = ["]
        for cid in sector.companies:
            company = box.companies[cid]
            nominal = f", nominal = {company.nominal}" if company.nominal else ""
            lines.append(f"  {{ id = {_text(cid)}, name = {_text(company.name)}{nominal} }},")
        lines.append("]")
    if box.board:
        lines += ["", "[board]", f"verified = {_flag(box.board_verified)}",
                  "squares = [" + ", ".join(_text(square) for square in box.board) + "]"]
    return "\n".join(lines) + "\n"
