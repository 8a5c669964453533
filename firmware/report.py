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
from pathlib import Path

from PIL import Image, ImageDraw

from engines.core.i18n import format_amount
from firmware.texts import t
from firmware.fonts import FONT

WHITE, BLACK, GRID, MUTED = (255, 255, 255), (0, 0, 0), (225, 225, 225), (110, 110, 110)
# Okabe-Ito: distinct for the common colour-vision deficiencies, and on paper.
LINE_COLOURS = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233),
                (230, 159, 0), (0, 0, 0)]
SECTOR_COLOURS = [(40, 70, 140), (150, 60, 40), (30, 110, 80), (120, 60, 130), (140, 110, 20),
                  (60, 60, 60), (20, 110, 140), (150, 40, 90), (90, 100, 30), (80, 80, 160)]

S = 2            # the font is drawn 2x: a report is read on a computer screen or paper


def _t(lang, key, **params):
    return t("report." + key, lang, **params)


def write_report(path_dir, header, price_history: Sequence[Mapping[str, int]], ranking, lang="fr", *,
                 box=None, fortunes: Sequence[Mapping[str, int]] = ()) -> list[Path]:
    """Write the report of a finished game into ``path_dir`` (created if needed).

    header: the game's title (str), or a mapping whose "title" is the title and whose
        other items are printed as "label : value" lines in the language's typography
        (labels already translated).
    price_history: every company's price after each action (or each round), oldest first.
    ranking: ``snapshot(game)["ranking"]``: [{"rank", "name", "wealth"}, ...].
    box: the box data (sectors, their names) to group companies by sector; without it
        the companies are charted as one group.
    fortunes: each player's fortune (by name) at the start and after each action.
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
    _standings_image(title, details, ranking, lang).save(paths[-2])
    paths[-1].write_text(_markdown(title, details, groups, price_history, ranking, lang), encoding="utf-8")
    return paths


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
LEGEND_W = 250


def _nice_step(span, ticks=5):
    raw = max(1, span / ticks)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


def _chart(title, label, groups, history, lang):
    """One panel per group, all on the same scale, one line per id of the group."""
    values = [p for prices in history for p in prices.values()] or [0]
    step = _nice_step(max(values) - min(values) or 10)
    lo, hi = (min(values) // step) * step, -(-max(values) // step) * step
    if hi == lo:
        hi = lo + step
    rows = max(1, -(-len(groups) // COLS))
    head = 16 * S
    image = Image.new("RGB", (COLS * PANEL_W + 20, head + rows * PANEL_H + 10), WHITE)
    draw = ImageDraw.Draw(image)
    _text(draw, (10, 6), f"{title} · {label}" if title else label)
    _text(draw, (10 + FONT.measure(title + " · " + label + "  ", S), 6),
          _t(lang, "steps", n=len(history)), MUTED)
    for i, (name, ids) in enumerate(groups):
        x, y = 10 + (i % COLS) * PANEL_W, head + (i // COLS) * PANEL_H
        _panel(draw, (x, y), name, ids, history, (lo, hi, step), SECTOR_COLOURS[i % len(SECTOR_COLOURS)], lang)
    return image


def _panel(draw, origin, name, ids, history, scale, colour, lang):
    x, y = origin
    lo, hi, step = scale
    draw.rectangle((x, y, x + PANEL_W - 20, y + FONT.height * S + 3), fill=colour)
    _text(draw, (x + 4, y + 2), name, WHITE)
    label_w = FONT.measure(format_amount(hi, lang), S) + 8
    left, right = x + label_w, x + PANEL_W - 20 - LEGEND_W
    top, bottom = y + FONT.height * S + 12, y + PANEL_H - 16
    for value in range(lo, hi + 1, step):           # horizontal grid, price labels
        gy = bottom - (value - lo) * (bottom - top) // (hi - lo)
        draw.line((left, gy, right, gy), fill=GRID)
        label = format_amount(value, lang)
        _text(draw, (left - 4 - FONT.measure(label, S), gy - FONT.ascent * S // 2 - S), label, MUTED)
    draw.line((left, top, left, bottom), fill=MUTED)
    n = len(history)
    for k, company in enumerate(ids):
        colour = LINE_COLOURS[k % len(LINE_COLOURS)]
        points = [(left + (j * (right - left) // max(1, n - 1)),
                   bottom - (prices[company] - lo) * (bottom - top) // (hi - lo))
                  for j, prices in enumerate(history) if company in prices]
        if len(points) == 1:
            points.append((right, points[0][1]))
        if points:
            draw.line(points, fill=colour, width=2)
        last = next((p[company] for p in reversed(history) if company in p), None)
        ly = top + k * (FONT.height * S + 4)
        draw.rectangle((right + 10, ly + 6, right + 26, ly + 10), fill=colour)
        legend = f"{company} {format_amount(last, lang) if last is not None else ''}"
        _text(draw, (right + 32, ly), FONT.fit(legend, LEGEND_W - 34, S), BLACK)


# --------------------------------------------------------------------- standings
def _standings_image(title, details, ranking, lang):
    row = FONT.height * S + 10
    width = 760
    top = 14 + row * (1 + len(details)) + 10
    image = Image.new("RGB", (width, top + row * (len(ranking) + 1) + 10), WHITE)
    draw = ImageDraw.Draw(image)
    _text(draw, (14, 10), f"{title} · {_t(lang, 'standings')}" if title else _t(lang, "standings"))
    for i, line in enumerate(details):
        _text(draw, (14, 10 + row * (i + 1)), line, MUTED)
    best = max([r["wealth"] for r in ranking] + [1])
    name_w, rank_w = 14 * FONT.width * S, 6 * FONT.width * S
    bar_x, bar_w = 14 + rank_w + name_w, width - 28 - rank_w - name_w
    _text(draw, (14, top), _t(lang, "rank"), MUTED)
    _text(draw, (14 + rank_w, top), _t(lang, "player"), MUTED)
    _text(draw, (bar_x, top), _t(lang, "wealth"), MUTED)
    for i, r in enumerate(ranking):
        y = top + row * (i + 1)
        _text(draw, (14, y), f"{r['rank']}.")
        _text(draw, (14 + rank_w, y), FONT.fit(str(r["name"]), name_w - FONT.width * S, S))
        length = bar_w * max(0, r["wealth"]) // best
        winner = r["rank"] == 1
        colour = LINE_COLOURS[0] if winner else (170, 190, 215)
        draw.rectangle((bar_x, y, bar_x + max(length, 2), y + FONT.height * S - 4), fill=colour)
        amount = format_amount(r["wealth"], lang)
        aw = FONT.measure(amount, S)
        inside = length > aw + 12           # the amount on its bar when it fits, else after
        _text(draw, (bar_x + length - aw - 6 if inside else bar_x + length + 8, y), amount,
              WHITE if inside and winner else BLACK)
    return image


def _markdown(title, details, groups, history, ranking, lang):
    out = [f"# {title or _t(lang, 'standings')}", ""]
    out += [f"- {line}" for line in details] + ([""] if details else [])
    out += [f"## {_t(lang, 'standings')}", "",
            f"| {_t(lang, 'rank')} | {_t(lang, 'player')} | {_t(lang, 'wealth')} |", "|---:|---|---:|"]
    out += [f"| {r['rank']} | {r['name']} | {format_amount(r['wealth'], lang)} |" for r in ranking]
    if history:
        first, last = history[0], history[-1]
        out += ["", f"## {_t(lang, 'final_prices')}", "",
                f"| {_t(lang, 'sector')} | {_t(lang, 'company')} | {_t(lang, 'first')} | {_t(lang, 'last')} |",
                "|---|---|---:|---:|"]
        for name, ids in groups:
            out += [f"| {name} | {c} | {_amount(first.get(c), lang)} | {_amount(last.get(c), lang)} |" for c in ids]
    return "\n".join(out) + "\n"


def _amount(value, lang):
    return "" if value is None else format_amount(value, lang)
