"""Charts of the evening drawn on the server as SVG: no script, no library in the browser.

One line per name (a company's price, a player's fortune) after each action, in the
report's colours (firmware/palette.py), with a scale of four steps and a legend giving
each line's last value. A long game is thinned to at most MAX_POINTS points a line: a TV
shows no more.
"""
from __future__ import annotations

from html import escape

from engines.core.i18n import format_amount
from firmware.palette import LINE_COLOURS

MAX_POINTS = 240
WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 96, 8, 8, 20
DASHES = ("", "6 3", "2 3", "8 3 2 3")


def colour(i: int) -> str:
    return "#%02x%02x%02x" % LINE_COLOURS[i % len(LINE_COLOURS)]


def thin(values, most: int = MAX_POINTS) -> list[tuple[int, int]]:
    """(action number, value) pairs, at most `most`, the last one always kept."""
    count = len(values)
    step = max(1, -(-count // most))
    picked = list(range(0, count, step))
    if picked and picked[-1] != count - 1:
        picked.append(count - 1)
    return [(i, values[i]) for i in picked]


def line_chart(series: dict, lang: str, label: str) -> str:
    """An SVG line chart of `series` ({name: values after each action}), titled by `label`
    for screen readers. Empty when there is nothing to draw."""
    series = {name: values for name, values in series.items() if len(values)}
    if not series:
        return ""
    count = max(len(values) for values in series.values())
    low = min(min(values) for values in series.values())
    high = max(max(values) for values in series.values())
    if high == low:
        high, low = high + 1, low - 1 if low > 0 else low
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    x = lambda i: LEFT + (plot_w * i / max(1, count - 1))
    y = lambda v: TOP + plot_h * (high - v) / (high - low)
    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">']
    for k in range(5):
        value = low + (high - low) * k / 4
        top = y(value)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{top:.1f}" y2="{top:.1f}"/>')
        out.append(f'<text class="scale" x="{LEFT - 4}" y="{top + 4:.1f}" text-anchor="end">'
                   f'{escape(format_amount(round(value), lang))}</text>')
    out.append(f'<text class="scale" x="{LEFT}" y="{HEIGHT - 4}">1</text>')
    out.append(f'<text class="scale" x="{WIDTH - RIGHT}" y="{HEIGHT - 4}" text-anchor="end">{count - 1}</text>')
    for i, (name, values) in enumerate(series.items()):
        points = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in thin(values))
        dash = DASHES[(i // len(LINE_COLOURS)) % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline fill="none" stroke="{colour(i)}" stroke-width="2"{dashed} points="{points}">'
                   f'<title>{escape(name)}</title></polyline>')
    out.append("</svg>")
    return "".join(out)


def legend(series: dict, lang: str, money) -> list[tuple[str, str, str]]:
    """(colour, name, last value in words) of each line, as the chart draws them."""
    return [(colour(i), name, money(values[-1]) if len(values) else "")
            for i, (name, values) in enumerate(series.items())]
