"""A board as tables of text: what a game's adapter gives the web view (`web_tables`),
drawn by one template (firmware/web/templates/board.html) for every game."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Cell:
    """A cell with a style: "up" / "down" (a price's last change), "dim", "num" (a figure,
    right-aligned), "mark" (a piece on a map: `tone` names its company's colour)."""
    text: str
    style: str = ""
    tone: str = ""


@dataclass
class Table:
    title: str
    head: tuple = ()
    rows: list = field(default_factory=list)      # tuples of str or Cell
    grid: bool = False                             # a map: square cells, no header row

    def row(self, *cells) -> None:
        self.rows.append(tuple(cells))


def num(value: str) -> Cell:
    return Cell(value, "num")


def change(value: int, text: str) -> Cell:
    """A figure with its last change marked: ▲ up, ▼ down."""
    if value > 0:
        return Cell("▲ " + text, "num up")
    if value < 0:
        return Cell("▼ " + text, "num down")
    return Cell(text, "num")
