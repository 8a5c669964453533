"""A piece placed on a grid (Interactions.PLACEMENT): the part of the map the decision
sends drawn on the operator screen, the cursor moving only between the legal cells, the
engine's preview of the cell under the cursor beside it, OK places.

Everything comes from the decision: `params["map"]` (the drawn rows: "." a free cell, " "
no cell, any other character a piece), `origin` (the top-left cell's name), `cells` (the
legal cells in reading order, each `{"cell": "B4", ...preview}`), `start` (where the cursor
starts) and the PLACE role (an action with one Cell field). The preview is worded by the
game's adapter (`placement_lines`): this screen knows no rule.
"""
from __future__ import annotations

from dataclasses import dataclass

from engines.core.actions import Cell, read_cell
from engines.core.decision import Fixed
from engines.core.decision import Interactions as I
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.menu import Menu

CURSOR = "*"   # the cell under the cursor, in the drawn rows


@frame_type("placement")
@dataclass
class Placement(Frame):
    """`cell`: the legal cell under the cursor (None: the decision's start)."""
    cell: str | None = None

    def _cells(self, ctl):
        return [c["cell"] for c in ctl.session.decision().interaction.params.get("cells", [])]

    def current(self, ctl) -> str | None:
        cells = self._cells(ctl)
        if self.cell in cells:
            return self.cell
        start = ctl.session.decision().interaction.params.get("start")
        return start if start in cells else (cells[0] if cells else None)

    def key(self, ctl, key):
        cells = self._cells(ctl)
        if not cells:
            if key == "ok":
                ctl.stack.append(Menu())
            return
        at = cells.index(self.current(ctl))
        if key in ("up", "down"):
            self.cell = cells[(at + (1 if key == "down" else -1)) % len(cells)]
        elif key == "ok":
            ctl.apply(self.action(ctl, cells[at]))

    def action(self, ctl, cell: str):
        """The PLACE action on `cell`: its Cell field set, its other fields fixed by the decision."""
        d = ctl.session.decision()
        option = d.role(I.PLACE)
        cls = ctl.session.actions.classes[option.kind]
        values = {name: dom.value for name, dom in option.fields.items() if isinstance(dom, Fixed)}
        for name, typ in cls._types.items():
            if isinstance(typ, type) and issubclass(typ, Cell):
                values[name] = Cell(cell)
        return cls(**values)

    def draw(self, ctl):
        params = ctl.session.decision().interaction.params
        cell = self.current(ctl)
        # The game may draw its pieces in the language's letters (J for a yellow one in French)
        worded = getattr(ctl.ui, "placement_map", None)
        rows = [list(r) for r in (worded(params.get("map", []), ctl.lang) if worded else params.get("map", []))]
        if cell is not None and rows:
            r0, c0 = read_cell(params["origin"])
            r, c = read_cell(cell)
            if 0 <= r - r0 < len(rows) and 0 <= c - c0 < len(rows[r - r0]):
                rows[r - r0][c - c0] = CURSOR
        preview = next((p for p in params.get("cells", []) if p["cell"] == cell), None)
        lines = tuple(ctl.ui.placement_lines(preview, params, ctl.lang)) if preview else ()
        return Screen("grid", ctl.kit.title(), lines, tuple("".join(r) for r in rows), 0, ctl.kit.footer("placement"))
