"""A Richesses du Monde box written back as a box file (`corbeille box learned`, the CSV
import): the owner's file with what the table learned folded in, in the schema's order, so
`load_box` reads back the same box. What is still unknown is left out, as the smallest
file leaves it (docs/rules/richesses.md)."""
import json


def _text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)      # a TOML basic string is a JSON string


def dump(box, keep=("jokers", "productions", "countries", "titles", "squares")) -> str:
    """The box as TOML; `keep` the arrays to write (a test writes the smallest file)."""
    lines = ["# Richesses du Monde: a box file written by Corbeille (check it: corbeille box check FILE)",
             f"verified = {'true' if box.verified else 'false'}"]
    if box.jokers is not None and "jokers" in keep:
        lines.append(f"jokers = {box.jokers}")
    if "productions" in keep:
        for p in box.productions.values():
            lines += ["", "[[productions]]", f"id = {_text(p.id)}", f"name = {_text(p.name)}"]
            if p.bands and "titles" in keep:
                lines += [f"bands = {list(p.bands)}", f"royalties = {list(p.royalties)}"]
    if "countries" in keep:
        for cid, (name, continent) in box.countries.items():
            lines += ["", "[[countries]]", f"id = {_text(cid)}", f"name = {_text(name)}",
                      f"continent = {_text(continent)}"]
    if "titles" in keep:
        for t in box.titles.values():
            lines += ["", "[[titles]]", f"production = {_text(t.production)}", f"country = {_text(t.country)}",
                      f"percent = {t.percent}", f"price = {t.price}"]
    if "squares" in keep:
        for sq in box.squares:
            lines += ["", "[[squares]]", f"kind = {_text(sq.kind)}"]
            if sq.kind == "country":
                lines.append(f"country = {_text(sq.country)}")
            elif sq.continent:
                lines.append(f"continent = {_text(sq.continent)}")
            lines.append(f"plaque = {'true' if sq.plaque else 'false'}")
    return "\n".join(lines) + "\n"
