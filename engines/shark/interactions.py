"""How each Shark decision is answered at the table (engines.core.decision.Interaction).

PROMPTS: prompt -> (interaction, {role: action kind}); `params` computes what the screens
of that interaction show, from the game (the firmware reads no engine internals). The
placement's params carry the zone's part of the map and, for every legal cell, the
engine's preview of what placing there does (SH11): the success bonus and each value that
changes, so the operator sees the rises and falls before OK.
"""
from engines.core.actions import cell_text
from engines.core.decision import Interactions as I
from engines.shark.box import OFF_MAP
from engines.shark.rules import COMPANIES, LETTERS

PROMPTS = {
    "prompt.sh.deal": (I.CHANCE, {I.DRAW: "deal"}),
    "prompt.sh.first": (I.CHOICE, {}),
    "prompt.sh.before": (I.CHOICE, {}),
    "prompt.sh.colour": (I.CHOICE, {}),
    "prompt.sh.place": (I.PLACEMENT, {I.PLACE: "place"}),
    "prompt.sh.built": (I.CHOICE, {}),
    "prompt.sh.after": (I.CHOICE, {}),
    "prompt.sh.debt": (I.CHOICE, {}),
    "prompt.sh.over": (I.OVER, {}),
}



# where the square menu starts: a turn without trading is OK, OK, OK, OK
DEFAULTS = {"prompt.sh.before": "roll", "prompt.sh.after": "done"}


def params(game, decision, kind) -> dict:
    if kind == I.PLACEMENT:
        return placement(game, decision)
    if decision.prompt == "prompt.sh.deal":
        return {"device": True}   # SH8: the device deals the starting shares, whatever the dice

    if decision.prompt in DEFAULTS:
        return {"default": DEFAULTS[decision.prompt]}
    return {}


def placement(game, decision) -> dict:
    """The zone's rectangle of the map (`map`: a row per string, '.' a free cell, ' ' a
    cell of another zone or none, a building's letter), its top-left cell (`origin`), the
    legal cells in reading order each with its preview, and the cell the cursor starts
    on: the largest success bonus, ties by row then column (SH11)."""
    zone, company = decision.params["zone"], decision.params["company"]
    cells = decision.option("place").fields["cell"].values
    zone_cells = game.box.cells_of(zone)
    top, bottom = min(r for r, _ in zone_cells), max(r for r, _ in zone_cells)
    left, right = min(c for _, c in zone_cells), max(c for _, c in zone_cells)
    rows = []
    for r in range(top, bottom + 1):
        line = ""
        for c in range(left, right + 1):
            piece = game.s.pieces.get((r, c))
            if piece is not None:
                line += LETTERS[piece]
            elif game.box.zones.get((r, c)) == zone:
                line += OFF_MAP
            else:
                line += " "
        rows.append(line)
    previews = []
    for cell in cells:
        result = game.outcome(company, cell)
        old = game.s.values
        bonus = game.bonus(company, old[company], result.values[company], result.chain)
        changes = {c: [old[c], result.values[c]] for c in COMPANIES if result.values[c] != old[c]}
        previews.append({"cell": cell_text(cell), "bonus": bonus, "changes": changes,
                         "removed": sum(len(v) for v in result.removed.values()),
                         "payments": payments(game, decision.actor, changes)})
    start = max(previews, key=lambda p: p["bonus"])["cell"] if previews else None   # max keeps the first of equals
    return {"map": rows, "origin": cell_text((top, left)), "cells": previews, "start": start,
            "letter": LETTERS[company]}


def payments(game, active, changes) -> dict:
    """What each player would receive (+) for the rises and pay (-) for the falls (SH3: the
    active player pays none), by name; players with nothing to gain or pay left out."""
    out = {}
    for company, (old, new) in changes.items():
        for seat in range(len(game.players)):
            shares = game.shares(company, seat)
            if not shares or (new < old and seat == active):
                continue
            out[game.players[seat]] = out.get(game.players[seat], 0) + (new - old) * 1000 * shares
    return {name: amount for name, amount in out.items() if amount}
