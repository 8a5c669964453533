"""The Shark box file: the world map's grid as rows of zone digits (ruling SH11).

The rulebook gives the map's size only (6 zones of 20 cells), so the shipped grid is a
template marked unverified; an owner copies the board's cells into a file of their own
and checks it with `corbeille box check FILE --game shark`. Every error names the file
and the key."""
from pathlib import Path

from engines.core.actions import cell_text
from engines.core.boxfile import Key, Reader, Table, check, load_toml
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

    @property
    def holes(self) -> frozenset:
        return frozenset((r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == OFF_MAP)

    def cells_of(self, zone: int) -> list:
        """The cells of `zone`, by row then column."""
        return sorted(cell for cell, z in self.zones.items() if z == zone)


def load_box(path: Path | str | None = None) -> Box:
    path = Path(path or DEFAULT_BOX)
    top = Reader(path, load_toml(path))
    check(top, SCHEMA)
    grid = top.table("grid")
    rows = grid.get("rows", list)
    allowed = "".join(map(str, ZONES)) + OFF_MAP
    if not rows:
        grid.fail("rows", "must list the map's rows, top first")
    if len(rows) > MAX_ROWS:
        grid.fail("rows", f"{len(rows)} rows; at most {MAX_ROWS} (a cell's row is written with two digits)")
    for i, row in enumerate(rows):
        if not isinstance(row, str):
            grid.fail(f"rows[{i}]", f"{row!r} is not a string of zone digits")
        if len(row) != len(rows[0]):
            grid.fail(f"rows[{i}]", f"{len(row)} cells; every row must have as many as the first ({len(rows[0])})")
        if not 1 <= len(row) <= MAX_COLUMNS:
            grid.fail(f"rows[{i}]", f"{len(row)} cells; a row has 1 to {MAX_COLUMNS} (columns A to Z)")
        for j, ch in enumerate(row):
            if ch not in allowed:
                grid.fail(f"rows[{i}]", f"{ch!r} at {cell_text((i, j))} is not a zone; allowed: 1 to 6, "
                                        f"or {OFF_MAP!r} for a square that is not a cell")
    zones = {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != OFF_MAP}
    for zone in ZONES:
        count = sum(1 for z in zones.values() if z == zone)
        if count != CELLS_PER_ZONE:
            grid.fail("rows", f"zone {zone} has {count} cells; the rulebook's zones have {CELLS_PER_ZONE} each")
    return Box(path=str(path), verified=top.get("verified", bool, default=False), rows=tuple(rows), zones=zones)


def counts(box: Box) -> tuple[list, list]:
    """What the file holds and what the table will learn (nothing), as (catalog key, count)
    pairs (`corbeille box check`)."""
    return [("box.sh.cells", len(box.zones)), ("box.sh.zones", len(set(box.zones.values())))], []


def holdings(box: Box, lang: str = "en") -> list[str]:
    """What the box file holds, in words (`corbeille box check`)."""
    rows, cols = box.size
    lines = [f"world map of {rows} rows x {cols} columns (A1 top left), {len(box.zones)} cells in 6 zones:"]
    lines += [f"  {r + 1:2d} {row}" for r, row in enumerate(box.rows)]
    return lines
