"""The Maxi Bourse quotation board: every price, grouped by sector, drawn for a public display.

The board is public, so ``render_board`` reads only the public part of a snapshot: the
round, whose turn it is, the phase, and per company its price, bank lots and last change.
It never looks at ``players`` (cash, holdings, wealth), ``pending`` (a sale's choices
list the seller's holdings) or ``last_payday`` (a breakdown reveals a portfolio).

Layouts, chosen from the display size alone (so ``board_pages`` needs no game):
* "everything at once" when all sectors fit (800x480 e-ink: 3 columns, font 2x; 400x300:
  font 1x): a title line (round, turn, legend), then sector blocks in columns;
* "paged" otherwise (128x64, 256x64): panes 128 pixels wide side by side, each a sector
  (or part of one) under its name; ``page`` chooses which panes are shown, and the last
  pane's header says "page/pages". The firmware cycles pages on a public OLED.

A company row reads ``NAME  price ▲chg ┊ lots``: the price's last move (none yet: no
arrow), then after a dotted rule the lots the bank has left (grey where the display has
greys). Names longer than their field are cut plainly, like tickers ("MOET-VUITT").

Its few labels are "ui.mb.board.*" texts of engines/maxibourse/locale.

``payday_lines`` gives the body lines of the payday Screen, in the two-column form
``render_screen`` aligns.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engines.core.i18n import format_amount
from firmware.texts import t
from firmware.fonts import FONT
from firmware.render import Canvas, dotted

PANE_WIDTH = 128        # a paged board is panes of the operator screen's width
PANE_GAP = 3            # pixels between panes, so their header bars do not merge
ROW_CHARS = 21          # a company row needs 9 (name) + 4 + 4 + 2 characters and gaps



def _t(lang, key, **params):
    return t("mb.board." + key, lang, **params)


# ---------------------------------------------------------------------------- layout
@dataclass(frozen=True)
class Layout:
    scale: int
    paged: bool
    col_width: int          # pixels
    per_page: int           # columns (panes) on one page
    columns: tuple          # each: tuple of ("sector", id, continued) / ("company", id)
    pitch: int              # pixels from one row to the next

    @property
    def pages(self):
        return max(1, -(-len(self.columns) // self.per_page))


def _layout(box, size) -> Layout:
    # The layout depends only on the sectors' companies and the size: computed once.
    return _layout_of(tuple((s.id, tuple(s.companies)) for s in box.sectors), tuple(size))


@lru_cache(maxsize=16)
def _layout_of(sectors, size) -> Layout:
    """The largest font scale at which every sector fits at once, else pages."""
    width, height = size
    for scale in range(max(1, min(width // PANE_WIDTH, height // 64, 3)), 0, -1):
        cw, lh = FONT.width * scale, FONT.height * scale
        ncols = (width + cw) // ((ROW_CHARS + 1) * cw)      # a character between columns
        room = height - 2 * lh                               # under the title line
        if ncols < 1 or _pack(sectors, ncols, room, lh) is None:
            continue
        # Balance the columns (the least height they fit in), then spread the rows over
        # the room left, up to 1.5 lines apart: easier to read from across the table.
        lo, hi = lh, room
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if _pack(sectors, ncols, mid, lh) is not None else (mid + 1, hi)
        pitch = max(lh, min(lh * 3 // 2, lh * room // lo))
        while _pack(sectors, ncols, room, pitch) is None:
            pitch -= 1
        columns = _pack(sectors, ncols, lo, lh)
        return Layout(scale, False, width // ncols, ncols, columns, pitch)
    return _paged(sectors, size)


def _pack(sectors, ncols, room, pitch):
    """Whole sector blocks (header + rows, half a row between blocks) in at most ``ncols``
    columns of ``room`` pixels, in box order; None when they do not fit."""
    columns, column, used = [], [], 0
    for sid, ids in sectors:
        block = [("sector", sid, False)] + [("company", c) for c in ids]
        need = len(block) * pitch + (pitch // 2 if column else 0)
        if column and used + need > room:
            columns.append(tuple(column))
            column, used = [], 0
            need = len(block) * pitch
        if need > room:
            return None
        column += block
        used += need
    columns.append(tuple(column))
    return tuple(columns) if len(columns) <= ncols else None


def _paged(sectors, size):
    """Panes of one sector each (split when longer than a pane), ``width // 128`` a page."""
    rows = (size[1] - 1) // FONT.height - 1          # company rows under the header bar
    panes = []
    for sid, ids in sectors:
        for i in range(0, max(1, len(ids)), max(1, rows)):
            panes.append((("sector", sid, i > 0),) + tuple(("company", c) for c in ids[i:i + rows]))
    per_page = max(1, size[0] // PANE_WIDTH)
    return Layout(1, True, size[0] // per_page, per_page, tuple(panes), FONT.height)


def board_pages(box, size) -> int:
    """How many pages ``render_board`` needs at ``size`` (1 when everything fits)."""
    return _layout(box, tuple(size)).pages


# ---------------------------------------------------------------------------- drawing
def render_board(snapshot: dict, box, size=(800, 480), mode="1", lang="fr", page=0, *, paper=None):
    """The quotation board for ``snapshot`` (``engines.maxibourse.game.snapshot``)."""
    size = (int(size[0]), int(size[1]))
    layout = _layout(box, size)
    c = Canvas.new(size, mode, paper, scale=layout.scale)
    companies = snapshot["companies"]
    sectors = {s.id: s.name.get(lang, s.name.get("fr", s.id)) for s in box.sectors}
    page %= layout.pages
    top = 0
    if not layout.paged:
        _title(c, snapshot, lang)
        top = c.lh + c.lh // 2
    shown = layout.columns[page * layout.per_page:(page + 1) * layout.per_page]
    for n, column in enumerate(shown):
        x0 = n * layout.col_width
        last = n == len(shown) - 1
        x1 = x0 + layout.col_width - 1 - (0 if last else c.cw if not layout.paged else PANE_GAP)
        y, pitch = top, layout.pitch
        inset = (pitch - c.lh) // 2               # text centred in its row
        for entry in column:
            if entry[0] == "sector":
                if y > top:
                    y += pitch // 2
                name = sectors[entry[1]]
                if entry[2]:
                    name = _t(lang, "continued", sector=name)
                corner = f"{page + 1}/{layout.pages}" if layout.paged and layout.pages > 1 and last else ""
                _sector_bar(c, x0, x1, y, pitch, name, corner)
                y += pitch + (c.scale if layout.paged else 0)
            else:
                # A company the snapshot lacks (box and game out of step) shows its name
                # alone: a board with a gap beats a board that stops the game loop.
                data = companies.get(entry[1]) or {}
                _company_row(c, x0, x1, y + inset, entry[1], data, lang)
                y += pitch
    return c.image


def _title(c, snapshot, lang):
    # Read only public keys: round, turn, phase.
    if snapshot.get("phase") == "Over":
        left = _t(lang, "over")
    else:
        left = _t(lang, "round", round=snapshot.get("round", ""))
        if snapshot.get("turn"):
            left += " · " + _t(lang, "turn", player=snapshot["turn"])
    legend = _t(lang, "legend")
    room = c.width - 2 * c.scale
    if FONT.measure(left, c.scale) + FONT.measure(legend, c.scale) + 2 * c.cw > room:
        legend = ""
    c.text(c.scale, 0, c.fit(left, room))
    if legend:
        c.text(c.width - c.scale - FONT.measure(legend, c.scale), 0, legend, fill=c.dim)


def _sector_bar(c, x0, x1, y, height, name, corner=""):
    c.bar(x0, y, x1, y + height - 1)
    y += (height - c.lh) // 2
    right = x1 - c.scale
    if corner:
        right -= c.text(right - FONT.measure(corner, c.scale) + 1, y, corner, fill=c.bg) + c.cw
    c.text(x0 + c.scale, y, c.fit(name, right - x0 - c.scale), fill=c.bg)


def _change(delta):
    if not delta:
        return ""
    return ("▲" if delta > 0 else "▼") + str(abs(delta))


def _price(price, lang):
    # Four digits stay ungrouped ("1800", as French typography allows) to fit the field.
    return str(price) if price < 10_000 else format_amount(price, lang)


def _company_row(c, x0, x1, y, cid, data, lang):
    """NAME  price ▲chg ┆ lots, right-aligned in fixed fields so digits line up; a long
    change or price pushes the fields on its left instead of overlapping them."""
    s, cw, gap = c.scale, c.cw, 3 * c.scale
    if "price" not in data:
        c.text(x0 + s, y, c.fit(cid, x1 - x0 - s, ellipsis=False))
        return
    lots = str(data["bank_lots"])
    lots_left = x1 + 1 - 2 * cw
    c.text(x1 + 1 - FONT.measure(lots, s), y, lots, fill=c.dim)
    # A dotted rule, so "▼100" and "10" lots never read as one number "10010".
    c.pattern(lots_left - 2 * s, y + s, dotted(s, c.lh - 2 * s), c.dim)
    change = _change(data["last_change"])
    change_right = lots_left - gap
    cw_change = FONT.measure(change, s)
    c.text(change_right - cw_change, y, change)
    price = _price(data["price"], lang)
    price_left = change_right - max(4 * cw, cw_change) - gap - FONT.measure(price, s)
    c.text(price_left, y, price)
    c.text(x0 + s, y, c.fit(cid, price_left - gap - x0 - s, ellipsis=False))


# ---------------------------------------------------------------------- screen lines
def payday_lines(last_payday: dict, lang="fr") -> list[str]:
    """Body lines of the payday Screen: per player, a name line then the breakdown
    (dividends, jetons de présence, horizontal and vertical bonuses, total), amounts
    right-aligned ("label\\tamount"), every line present so the sums can be checked."""
    lines = []
    for player, b in last_payday.items():
        jetons = b.get("jetons", {})
        jetons = sum(jetons.values()) if isinstance(jetons, dict) else int(jetons)
        # The breakdown lists the sectors of its horizontal bonuses; their amount is what
        # the total holds beyond the other parts (exact: the total is their sum).
        horizontal = b["total"] - b["dividends"] - jetons - b["vertical"]
        lines.append(player)
        for key, amount in (("dividends", b["dividends"]), ("jetons", jetons),
                            ("horizontal", horizontal), ("vertical", b["vertical"]),
                            ("total", b["total"])):
            lines.append(f" {_t(lang, key)}\t{format_amount(amount, lang)}")
    return lines
