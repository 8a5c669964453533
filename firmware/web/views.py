"""What the web view's pages show, from the public feed and the box's live channel.

The public page is built from the engine's `public` view of the game only: the game's board
as its adapter gives it (`web_tables`, from the public snapshot), the standings and the
chart of fortunes only while nothing is hidden (`feed.hides`: Dividends and Richesses du
Monde keep cash private until the end), the history in the box's own words with the cash
each action moved (again only while cash is public), the charts of prices. A seat's page
adds what that player alone may see: the box's own private view of that seat (the adapter's
`private_lines`, the same lines a long seat press shows) and what the decision lets that
seat do now. Nothing here reads another seat's private view.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engines.core.actions import ANYTIME, CORRECTION
from engines.core.i18n import format_amount, money
from firmware.feed import TableFeed, hides
from firmware.texts import t
from firmware.web import charts

HISTORY_SHOWN = 30


@dataclass
class Page:
    """What a page's `main` fragment shows (what changes with the journal; its `live`
    fragment is the box's channel as it comes: firmware/web/templates/live.html)."""
    title: str = ""
    problem: str = ""
    tables: list = field(default_factory=list)
    standings: list = field(default_factory=list)
    hidden: bool = False
    history: list = field(default_factory=list)
    charts: list = field(default_factory=list)
    private: tuple | None = None             # (title, [(label, value)]) of a seat's page
    may: list = field(default_factory=list)
    over: bool = False


def build(feed: TableFeed, lang: str, seat: int | None = None) -> Page:
    from firmware.games import adapter_of

    session = feed.session
    page = Page()
    if session is None:
        page.problem = t("web.unreadable", lang, error=feed.problem) if feed.problem else t("web.no_game", lang)
        return page
    game, ui = session.game, adapter_of(session)
    page.title = ui.title(lang)
    page.over = session.over
    page.hidden = hides(session)
    cash = lambda amount, sign=False: money(amount, lang, ui.prefix, sign)     # the game's money, as the screens
    page.tables = ui.web_tables(session.public_snapshot(), game, lang)
    if not page.hidden:
        page.standings = [(rank, game.players[s], cash(value)) for rank, s, value in game.ranking()]
    page.history = history(feed, lang, cash, page.hidden)
    page.charts = evening(feed, game, lang, cash, page.hidden)
    if seat is not None:
        name, lines = ui.private_lines(session, seat, lang)
        page.private = (t("web.private", lang, player=name), [tuple((line.split("\t") + [""])[:2]) for line in lines])
        page.may = may_do(session, seat, lang)
    return page


def history(feed: TableFeed, lang: str, cash, hidden: bool) -> list[tuple[int, str, str]]:
    """(number, what it did, cash moved) of the last actions, newest first."""
    players = feed.session.players
    out = []
    for entry in list(feed.history)[-HISTORY_SHOWN:][::-1]:
        moved = "" if hidden else "  ".join(f"{players[s]} {cash(v, sign=True)}" for s, v in entry.moved.items())
        out.append((entry.n, feed.line(entry, lang), moved))
    return out


def evening(feed: TableFeed, game, lang: str, cash, hidden: bool) -> list[tuple[str, str, list]]:
    """(title, SVG, legend) of each chart: the prices by group (sector), the fortunes while
    they are public."""
    out = []
    if not hidden and feed.fortunes.values:
        title = t("web.fortunes", lang)
        out.append((title, charts.line_chart(feed.fortunes.values, lang, title),
                    charts.legend(feed.fortunes.values, lang, cash)))
    prices = feed.prices.values
    groups = game.groups() or ([("", {}, list(prices))] if prices else [])
    for group, names, members in groups:
        series = {name: prices[name] for name in members if name in prices}
        title = t("web.prices", lang) + (" · " + names.get(lang, group) if group else "")
        amount = lambda value: format_amount(value, lang)
        out.append((title, charts.line_chart(series, lang, title), charts.legend(series, lang, amount)))
    return out


def may_do(session, seat: int, lang: str) -> list[str]:
    """The labels of what the pending decision lets `seat` do now (not the operator's
    corrections nor the table's own actions)."""
    from firmware.menus import Ctx, is_seat, kind_label

    decision, actions = session.decision(), session.actions
    ctx = Ctx(session, lang)
    out = []
    for option in decision.options:
        if actions.has(option.kind, CORRECTION):
            continue
        seats = [name for name, typ, _ in actions.fields(option.kind) if is_seat(typ) and name in option.fields]
        if seats:
            mine = any(seat in option.fields[name] for name in seats)
        else:
            mine = decision.actor == seat and not actions.has(option.kind, ANYTIME)
        if mine:
            label = kind_label(ctx, option.kind)
            if label not in out:
                out.append(label)
    return out
