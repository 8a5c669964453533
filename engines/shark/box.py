"""The Shark box file: the world map's grid as rows of zone digits (ruling SH11).

The rulebook gives the map's size only (6 zones of 20 cells), so the shipped grid is a
template marked unverified; an owner copies the board's cells into a file of their own
and checks it with `corbeille box check FILE --game shark`. Every error names the file
and the key."""
import functools
from pathlib import Path

from engines.core.actions import cell_text
from engines.core.boxfile import Key, Reader, Table, check, load_toml
from engines.core.i18n import text
from engines.core.records import record
from engines.shark.rules import CELLS_PER_ZONE, ZONES

DEFAULT_BOX = Path(__file__).parent / "box" / "shark.toml"
OFF_MAP = "."        # a square of the rectangle that is not a cell of the map
MAX_COLUMNS = 26     # a cell's column is one letter A-Z (engines.core.actions.Cell)
MAX_ROWS = 99        # and its row at most two digits

SCHEMA = Table({
    "verified": Key(bool, False),
    "grid": Table({"rows": Key(list)}),
})


@record(frozen=True)
class Box:
    path: str
    verified: bool
    rows: tuple          # the grid's rows of zone digits, top first
    zones: dict          # (row, column) -> zone number, every cell of the map

    @property
    def size(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0])

    @functools.cached_property
    def holes(self) -> frozenset:
        """The rectangle's cells off the map: read by every look at the map, made once (a box
        never changes)."""
        return frozenset((r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == OFF_MAP)

    def cells_of(self, zone: int) -> list:
        """The cells of `zone`, by row then column."""
        return list(self._zone_cells.get(zone, ()))

    @functools.cached_property
    def _zone_cells(self) -> dict:
        """Zone -> its cells, by row then column (`cells_of`, asked of every zone after each roll)."""
        cells: dict = {}
        for cell in sorted(self.zones):
            cells.setdefault(self.zones[cell], []).append(cell)
        return {zone: tuple(found) for zone, found in cells.items()}


def load_box(path: Path | str | None = None) -> Box:
    path = Path(path or DEFAULT_BOX)
    top = Reader(path, load_toml(path))
    check(top, SCHEMA)
    grid = top.table("grid")
    rows = grid.get("rows", list)
    allowed = "".join(map(str, ZONES)) + OFF_MAP
    if not rows:
        grid.refuse("rows", "sh.no_rows")
    if len(rows) > MAX_ROWS:
        grid.refuse("rows", "sh.rows", count=str(len(rows)), most=str(MAX_ROWS))
    for i, row in enumerate(rows):
        if not isinstance(row, str):
            grid.refuse(f"rows[{i}]", "sh.not_text", row=repr(row))
        if len(row) != len(rows[0]):
            grid.refuse(f"rows[{i}]", "sh.row_length", count=str(len(row)), first=str(len(rows[0])))
        if not 1 <= len(row) <= MAX_COLUMNS:
            grid.refuse(f"rows[{i}]", "sh.columns", count=str(len(row)), most=str(MAX_COLUMNS))
        for j, ch in enumerate(row):
            if ch not in allowed:
                grid.refuse(f"rows[{i}]", "sh.zone", char=repr(ch), cell=cell_text((i, j)), off=repr(OFF_MAP))
    zones = {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != OFF_MAP}
    for zone in ZONES:
        count = sum(1 for z in zones.values() if z == zone)
        if count != CELLS_PER_ZONE:
            grid.refuse("rows", "sh.cells", zone=str(zone), count=str(count), cells=str(CELLS_PER_ZONE))
    return Box(path=str(path), verified=top.get("verified", bool, default=False), rows=tuple(rows), zones=zones)


def counts(box: Box) -> tuple[list, list]:
    """What the file holds and what the table will learn (nothing), as (catalog key, count)
    pairs (`corbeille box check`)."""
    return [("box.sh.count.cells", len(box.zones)), ("box.sh.count.zones", len(set(box.zones.values())))], []


def holdings(box: Box, lang: str = "en") -> list[str]:
    """What the box file holds, in words (`corbeille box check`)."""
    rows, cols = box.size
    lines = [text("box.sh.holds", lang, rows=str(rows), columns=str(cols), cells=str(len(box.zones)))]
    lines += [f"  {r + 1:2d} {row}" for r, row in enumerate(box.rows)]
    return lines
