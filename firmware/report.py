"""The end-of-game report: price history chart and final standings, saved as files.

``write_report`` writes these files in a folder and returns their paths:
* ``fortunes.png``: how the evening went, each player's fortune (as the game ranks
  players) after every action, one coloured line per player;
* ``prices.png`` (games with a market): one small chart per sector (grouping 40 lines on
  one chart makes them unreadable), all on the same price scale so sectors compare at a
  glance, one coloured line per company with a legend giving its final price;
* ``standings.png``: the final ranking with each player's wealth as a bar;
* ``standings.md``: the same ranking, the header and the first and last prices, as
  Markdown (plain text anyone can open, paste or print).

Everything is drawn with Pillow and the box's own bitmap font (no matplotlib on a Pi),
and nothing depends on the clock, so the same game always gives the same files.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from engines.core.i18n import format_amount, money
from firmware.palette import LINE_COLOURS
from firmware.texts import t
from firmware.fonts import FONT

WHITE, BLACK, GRID, MUTED = (255, 255, 255), (0, 0, 0), (225, 225, 225), (110, 110, 110)
SECTOR_COLOURS = [(40, 70, 140), (150, 60, 40), (30, 110, 80), (120, 60, 130), (140, 110, 20),
                  (60, 60, 60), (20, 110, 140), (150, 40, 90), (90, 100, 30), (80, 80, 160)]

S = 2            # the font is drawn 2x: a report is read on a computer screen or paper


def _t(lang, key, **params):
    return t("report." + key, lang, **params)


def write_report(path_dir, header, price_history: Sequence[Mapping[str, int]], ranking, lang="fr", *,
                 box=None, fortunes: Sequence[Mapping[str, int]] = (), money_of: str = "") -> list[Path]:
    """Write the report of a finished game into ``path_dir`` (created if needed).

    header: the game's title (str), or a mapping whose "title" is the title and whose
        other items are printed as "label : value" lines in the language's typography
        (labels already translated).
    price_history: every company's price after each action (or each round), oldest first.
    ranking: ``game.ranking_rows()``: [{"rank", "name", "fortune"}, ...].
    box: the box data (sectors, their names) to group companies by sector; without it
        the companies are charted as one group.
    fortunes: each player's fortune (by name) at the start and after each action.
    money_of: the catalog prefix of the game whose money the fortunes and prices are said in
        (engines.core.i18n.money: "1 200.—", "1 000 FT"), as the screens say them.
    """
    folder = Path(path_dir)
    folder.mkdir(parents=True, exist_ok=True)
    title, details = _header(header, lang)
    groups = _groups(price_history, box, lang)
    paths = []
    if any(fortunes):
        paths.append(folder / "fortunes.png")
        players = [(_t(lang, "fortunes"), list(dict.fromkeys(name for f in fortunes for name in f)))]
        _chart(title, _t(lang, "fortunes"), players, fortunes, lang).save(paths[-1])
    if groups or not fortunes:
        paths.append(folder / "prices.png")
        _chart(title, _t(lang, "prices"), groups, price_history, lang).save(paths[-1])
    paths += [folder / "standings.png", folder / "standings.md"]
    cash = lambda amount: "" if amount is None else money(amount, lang, money_of)
    _standings_image(title, details, ranking, lang, cash).save(paths[-2])
    paths[-1].write_text(_markdown(title, details, groups, price_history, ranking, lang, cash), encoding="utf-8")
    return paths


# ------------------------------------------------------------- on the quotation board
WIDE_BOARD = 400          # from this width a board shows the report's charts (the 800x480 board)
PER_PAGE = 2              # price panels on one page of a wide board


def board_pages(size, mode, lang, price_history, fortunes, *, box=None, paper=None) -> list[Image.Image]:
    """The end-of-game report drawn for a quotation board of ``size`` in ``mode`` ("1", "L"
    or "RGB"), with the report's own chart drawing: one image per page, shown in turn.

    A wide board (from 400 pixels: the 800x480 e-ink) shows the fortunes chart on its first
    page, then the prices chart a few sectors a page, with the PNG's legend and scale. A
    small board (an OLED) cannot show four lines apart on 64 pixels: it shows one player's
    fortune over the evening a page (their name and final fortune above it), all on the same
    scale so the pages compare. A 1-bit board gets its lines in one ink, told apart by their
    dashes; paper (e-ink, the default from 400 pixels) is dark on light, an OLED light on dark."""
    width, height = int(size[0]), int(size[1])
    wide = width >= WIDE_BOARD
    mono = mode == "1"
    pages = []
    players = list(dict.fromkeys(name for f in fortunes for name in f))
    if wide:
        layout = Layout(width=width, height=height, cols=1, scale=2 if width >= 640 else 1, mono=mono, head=False)
        if players:
            pages.append(_chart("", "", [(_t(lang, "fortunes"), players)], fortunes, lang, layout))
        groups = _groups(price_history, box, lang)
        for i in range(0, len(groups), PER_PAGE):
            chunk = groups[i:i + PER_PAGE]
            # Every page on the whole evening's price scale, so pages compare at a glance.
            page = _chart("", "", chunk, price_history, lang, layout)
            pages.append(page)
    else:
        layout = Layout(width=width, height=height, cols=1, scale=1, mono=True, head=False, labels=False,
                        legend=False, margin=1)
        last = fortunes[-1] if fortunes else {}
        for name in players:
            label = f"{name} {format_amount(last.get(name, 0), lang)}"
            pages.append(_chart("", "", [(label, [name])], [dict(f) for f in fortunes], lang, layout))
    on_paper = width >= WIDE_BOARD if paper is None else paper
    return [_for_display(page, mode, on_paper) for page in pages]


def _for_display(image, mode, on_paper):
    """A chart drawn in colour on white, as a board of ``mode`` shows it: grey levels for
    "L", ink and paper for "1" (the muted grey is ink: scale labels stay readable), light on
    dark for a lit display (an OLED)."""
    if mode == "RGB":
        out = image
    else:
        grey = image.convert("L")
        out = grey if mode == "L" else grey.point(lambda v: 255 if v > 160 else 0).convert("1")
    if not on_paper:
        from PIL import ImageOps
        out = ImageOps.invert(out.convert("L" if mode == "1" else out.mode)).convert(out.mode) \
            if mode != "RGB" else ImageOps.invert(out)
    return out


def _header(header, lang):
    if isinstance(header, Mapping):
        return str(header.get("title", "")), [t("label_value", lang, label=k, value=v)
                                               for k, v in header.items() if k != "title"]
    return str(header), []


def _groups(history, box, lang):
    """[(sector name, [company ids])] in box order; companies the box lacks go last."""
    seen = list(dict.fromkeys(c for prices in history for c in prices))
    groups, placed = [], set()
    for sector in getattr(box, "sectors", ()):
        ids = [c for c in sector.companies if c in seen]
        if ids:
            groups.append((sector.name.get(lang, sector.id), ids))
            placed.update(ids)
    rest = [c for c in seen if c not in placed]
    if rest:
        groups.append((_t(lang, "other") if groups else _t(lang, "prices"), rest))
    return groups


def _text(draw, xy, text, fill=BLACK, scale=S):
    return FONT.draw(draw, xy, text, fill, scale)


# ------------------------------------------------------------------------ the chart
PANEL_W, PANEL_H, COLS = 690, 230, 2
LEGEND_W = 250      # the most a legend takes of a panel's width


@dataclass(frozen=True)
class Layout:
    """Where a chart goes: the report's PNG (wide, in colour) or a quotation board (its size,
    a font scale it can show, ink only on a 1-bit display)."""
    width: int = COLS * PANEL_W + 20
    panel_h: int = PANEL_H
    cols: int = COLS
    scale: int = S
    mono: bool = False        # one ink: lines told apart by their dashes, not their colours
    height: int | None = None  # a board's height (the panels share it); None: as the rows need
    labels: bool = True       # the price (or fortune) scale on the left
    legend: bool = True       # each line's name and last value on the right
    head: bool = True         # the title line above the panels
    margin: int = 10          # white around the panels (and between two)

    def colour(self, colours, k):
        return BLACK if self.mono else colours[k % len(colours)]


# A line's dashes on a one-ink display: (drawn, gap) lengths in pixels, solid first.
# Each tells apart from the others within a legend's short stroke.
DASHES = [(), (10, 5), (3, 3), (10, 3, 2, 3), (1, 4), (6, 2, 1, 2, 1, 2)]


def _nice_step(span, ticks=5):
    raw = max(1, span / ticks)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


def _chart(title, label, groups, history, lang, layout=Layout()):
    """One panel per group, all on the same scale, one line per id of the group. A single
    group takes the whole width (half a page of white otherwise)."""
    values = [p for prices in history for p in prices.values()] or [0]
    step = _nice_step(max(values) - min(values) or 10)
    lo, hi = (min(values) // step) * step, -(-max(values) // step) * step
    if hi == lo:
        hi = lo + step
    s = layout.scale
    cols = max(1, min(layout.cols, len(groups)))
    rows = max(1, -(-len(groups) // cols))
    head = 16 * s if layout.head else 0
    m = layout.margin
    panel_w = (layout.width - 2 * m * cols) // cols        # a panel; 2 margins between two
    panel_h = (layout.height - head - m) // rows if layout.height else layout.panel_h
    if not layout.height and len(groups) == 1:
        panel_h *= 2                 # one chart across the page: as tall as two rows, or it reads flat
    image = Image.new("RGB", (layout.width, layout.height or head + rows * panel_h + m), WHITE)
    draw = ImageDraw.Draw(image)
    if layout.head:
        _text(draw, (10, 6), f"{title} · {label}" if title else label, scale=s)
        _text(draw, (10 + FONT.measure((f"{title} · {label}" if title else label) + "  ", s), 6),
              _t(lang, "steps", n=len(history)), MUTED, scale=s)
    last = {i: next((p[i] for p in reversed(history) if i in p), None) for _, ids in groups for i in ids}
    legends = [f"{i} {format_amount(v, lang) if v is not None else ''}" for i, v in last.items()]
    legend_w = min(max(LEGEND_W * s // S, panel_w // 3), max([FONT.measure(x, s) for x in legends] or [0]) + _swatch(layout) + 10) \
        if layout.legend else 0
    for i, (name, ids) in enumerate(groups):
        x, y = m + (i % cols) * (panel_w + 2 * m), head + (i // cols) * panel_h
        _panel(draw, (x, y, panel_w, panel_h), name, ids, history, (lo, hi, step),
               layout.colour(SECTOR_COLOURS, i), lang, layout, legend_w)
    return image


def _panel(draw, frame, name, ids, history, scale, colour, lang, layout=Layout(), legend_w=LEGEND_W):
    x, y, width, height = frame
    lo, hi, step = scale
    s = layout.scale
    draw.rectangle((x, y, x + width, y + FONT.height * s + 3), fill=colour)
    _text(draw, (x + 4, y + 2), FONT.fit(name, width - 8, s), WHITE, scale=s)
    label_w = FONT.measure(format_amount(hi, lang), s) + 8 if layout.labels else 2
    left, right = x + label_w, x + width - (legend_w + 10 if legend_w else 0)
    top = y + FONT.height * s + 4 * s + 4
    bottom = y + height - (8 * s if layout.labels else 3)
    for value in range(lo, hi + 1, step):           # horizontal grid, price labels
        gy = bottom - (value - lo) * (bottom - top) // (hi - lo)
        if layout.mono:                             # a one-ink grid: dotted, or it is a line
            draw.point([(gx, gy) for gx in range(left, right, 6)], fill=MUTED)
        else:
            draw.line((left, gy, right, gy), fill=GRID)
        if layout.labels:
            label = format_amount(value, lang)
            _text(draw, (left - 4 - FONT.measure(label, s), gy - FONT.ascent * s // 2 - s), label, MUTED, scale=s)
    draw.line((left, top, left, bottom), fill=MUTED)
    n = len(history)
    for k, company in enumerate(ids):
        line_colour = layout.colour(LINE_COLOURS, k)
        dash = DASHES[k % len(DASHES)] if layout.mono else ()
        points = [(left + (j * (right - left) // max(1, n - 1)),
                   bottom - (prices[company] - lo) * (bottom - top) // (hi - lo))
                  for j, prices in enumerate(history) if company in prices]
        if len(points) == 1:
            points.append((right, points[0][1]))
        if points:
            _polyline(draw, points, line_colour, s, dash)
        if not legend_w:
            continue
        last = next((p[company] for p in reversed(history) if company in p), None)
        row = FONT.height * s + 2 * s
        ly = top + k * row
        stroke = _swatch(layout)
        _polyline(draw, [(right + 10, ly + row // 2 - s), (right + 10 + stroke, ly + row // 2 - s)], line_colour, s,
                  dash)
        legend = f"{company} {format_amount(last, lang) if last is not None else ''}"
        _text(draw, (right + 16 + stroke, ly), FONT.fit(legend, legend_w - stroke - 6, s), BLACK, scale=s)


def _swatch(layout):
    """A legend's stroke: long enough in one ink for its dashes to read."""
    return (16 if layout.mono else 8) * layout.scale


def _polyline(draw, points, colour, width, dash=()):
    """A line through ``points``, solid or with ``dash`` (drawn, gap, ... lengths in pixels,
    carried on from one segment to the next so a dash pattern reads along the whole line)."""
    if not dash:
        draw.line(points, fill=colour, width=width)
        return
    pattern, k, left = list(dash), 0, dash[0]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = max(abs(x1 - x0), abs(y1 - y0))
        at = 0
        while at < length:
            run = min(left, length - at)
            if k % 2 == 0:
                a, b = at / length, (at + run) / length
                draw.line((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
                          fill=colour, width=width)
            at += run
            left -= run
            if left <= 0:
                k = (k + 1) % len(pattern)
                left = pattern[k]


# --------------------------------------------------------------------- standings
def _standings_image(title, details, ranking, lang, cash):
    row = FONT.height * S + 10
    width = 760
    top = 14 + row * (1 + len(details)) + 10
    image = Image.new("RGB", (width, top + row * (len(ranking) + 1) + 10), WHITE)
    draw = ImageDraw.Draw(image)
    _text(draw, (14, 10), f"{title} · {_t(lang, 'standings')}" if title else _t(lang, "standings"))
    for i, line in enumerate(details):
        _text(draw, (14, 10 + row * (i + 1)), line, MUTED)
    best = max([r["fortune"] for r in ranking] + [1])
    name_w, rank_w = 14 * FONT.width * S, 6 * FONT.width * S
    bar_x, bar_w = 14 + rank_w + name_w, width - 28 - rank_w - name_w
    _text(draw, (14, top), _t(lang, "rank"), MUTED)
    _text(draw, (14 + rank_w, top), _t(lang, "player"), MUTED)
    _text(draw, (bar_x, top), _t(lang, "wealth"), MUTED)
    for i, r in enumerate(ranking):
        y = top + row * (i + 1)
        _text(draw, (14, y), f"{r['rank']}.")
        _text(draw, (14 + rank_w, y), FONT.fit(str(r["name"]), name_w - FONT.width * S, S))
        length = bar_w * max(0, r["fortune"]) // best
        winner = r["rank"] == 1
        colour = LINE_COLOURS[0] if winner else (170, 190, 215)
        draw.rectangle((bar_x, y, bar_x + max(length, 2), y + FONT.height * S - 4), fill=colour)
        amount = cash(r["fortune"])
        aw = FONT.measure(amount, S)
        inside = length > aw + 12           # the amount on its bar when it fits, else after
        _text(draw, (bar_x + length - aw - 6 if inside else bar_x + length + 8, y), amount,
              WHITE if inside and winner else BLACK)
    return image


def _markdown(title, details, groups, history, ranking, lang, cash):
    out = [f"# {title or _t(lang, 'standings')}", ""]
    out += [f"- {line}" for line in details] + ([""] if details else [])
    out += [f"## {_t(lang, 'standings')}", "",
            f"| {_t(lang, 'rank')} | {_t(lang, 'player')} | {_t(lang, 'wealth')} |", "|---:|---|---:|"]
    out += [f"| {r['rank']} | {r['name']} | {cash(r['fortune'])} |" for r in ranking]
    if history:
        first, last = history[0], history[-1]
        out += ["", f"## {_t(lang, 'final_prices')}", "",
                f"| {_t(lang, 'sector')} | {_t(lang, 'company')} | {_t(lang, 'first')} | {_t(lang, 'last')} |",
                "|---|---|---:|---:|"]
        for name, ids in groups:
            out += [f"| {name} | {c} | {cash(first.get(c))} | {cash(last.get(c))} |" for c in ids]
    return "\n".join(out) + "\n"
