"""Dividends on the box: setup, quotation board, private view and news lines.

Cash is hidden in this game (DV2): the quotation board is drawn from
``engines.dividends.game.public(snapshot)`` only, and the operator screens never show a
player's cash outside the private view (a long seat press or an RFID card).
"""
from __future__ import annotations

from engines.core.i18n import format_amount, money
from engines.dividends import GAME
from firmware.games.base import GameUI
from firmware.texts import t
from firmware.web.table import Cell, Table, num

NEWS_ORDER = ("dv.game_over", "dv.tokens_dealt", "dv.token_won", "dv.token_won_all_cash", "dv.event", "dv.bought", "dv.sold",
              "dv.influence", "dv.cards_returned", "dv.offer_declined", "dv.bid")
NAME_CHARS = 8           # company names are cut like tickers: "CEDARPIN"


class DividendsUI(GameUI):
    spec = GAME
    NEWS_ORDER = NEWS_ORDER

    # ------------------------------------------------------------------ board
    def board_pages(self, box, size):
        return 1 if size[0] >= 256 else 2

    def render_board(self, snapshot, box, size, mode, lang, page):
        return render_board(snapshot, size, mode, lang, page)

    # ---------------------------------------------------------------- screens
    def company_label(self, ctx, company, kind=None):
        info = ctx.snapshot()["companies"].get(company)
        if not info:
            return str(company)
        if kind == "buy" and info["buy_price"] is not None:
            return f"{company}\t{money(info['buy_price'], ctx.lang, GAME.prefix)}"
        if kind == "sell" and info["sell_price"] is not None:
            return f"{company}\t{money(info['sell_price'], ctx.lang, GAME.prefix)}"
        if kind in ("influence", "set_marker"):
            return f"{company}\t{info['dividend']}"
        return str(company)

    def private_lines(self, session, seat, lang):
        """Only here does a player's cash appear (the private view)."""
        snap = session.snapshot()
        player = snap["players"][seat]
        lines = [f"{t('private.cash', lang)}\t{money(player['cash'], lang, GAME.prefix)}"]
        extra = t("private.cards", lang, n=player["influence_cards"])
        if player.get("token") is not None:
            extra += " · " + t("private.token", lang, n=player["token"])
        lines.append(extra)
        # Then each company held, by its name as printed: a 128x64 screen shows the first ones.
        lines += [f"{company}\t{n}" for company, n in player["certificates"].items()]
        return player["name"], lines

    def web_tables(self, snap, game, lang):
        """The board of the web view (firmware/web/), from the *public* snapshot."""
        return web_tables(snap, game, lang)

    def confirm_lines(self, ctx, act, events, describe):
        """A confirmation's lines from the engine's preview of the action (`events`): the
        dice with each marker's move ("DESERT-OIL\t+3 200→350"), the tile drawn, each
        player's dividends, the price a certificate sells at."""
        lang = ctx.lang
        if act.kind == "dice":
            lines, dice = [], {}
            for event in events:
                p = event.params
                if event.key == "dv.die":
                    dice[p["company"]] = p
                elif event.key == "dv.marker" and p["company"] in dice:
                    die = dice.pop(p["company"])
                    move = format_amount(die["move"] or 0, lang, sign=True)
                    lines.append(f"{p['company']}\t{t('dv.die_move', lang, move=move, old=p['old'], new=p['new'])}")
            return lines
        if act.kind == "event":
            tile = next((e.params["tile"] for e in events if e.key == "dv.event"), act.tile)
            return [t("q.dv.tile_is", lang, tile=tile), t("dv.tile." + str(tile), lang)]
        if act.kind == "payout":
            paid = {e.params["player"]: e.params["amount"] for e in events if e.key == "dv.dividends"}
            return [f"{name}\t{money(paid.get(name, 0), lang, GAME.prefix)}" for name in ctx.players]
        if act.kind == "sell":
            sold = next((e for e in events if e.key == "dv.sold"), None)
            if sold is not None:
                return [describe(ctx, act), t("q.sell_at", lang, price=money(sold.params["price"], lang, GAME.prefix))]
        return [describe(ctx, act)]



# ------------------------------------------------------------------------ board
def render_board(snapshot, size=(128, 64), mode="1", lang="fr", page=0, *, paper=None):
    """The Dividends quotation board from a *public* snapshot (``public(snapshot)``).

    Per company: buy and sell prices, certificates left on the chart, the dividend marker
    with its zone (the die rolled), the majority holder; the title says the year and step.
    It reads only ``year``, ``step`` and ``companies``: never ``players`` (cash is hidden).
    On a 128-pixel-wide board the columns come in two pages (prices, then dividends)."""
    from firmware.fonts import FONT
    from firmware.render import Canvas

    size = (int(size[0]), int(size[1]))
    scale = max(1, min(size[0] // 256, size[1] // 64, 3))
    c = Canvas.new(size, mode, paper, scale=scale)
    paged = size[0] < 256
    pages = 2 if paged else 1
    page %= pages
    step = snapshot.get("step") or ""
    if step == "over":
        title = t("dv.board.over", lang)
    else:
        title = t("dv.board.title", lang, year=snapshot.get("year", ""), step=t("dv.step." + step, lang))
    corner = f"{page + 1}/{pages}" if paged else ""
    lh = c.lh
    c.bar(0, 0, c.width - 1, lh)
    right = c.width - c.scale
    if corner:
        right -= c.text(right - FONT.measure(corner, c.scale), c.scale // 2, corner, fill=c.bg) + c.cw
    c.text(c.scale, c.scale // 2, c.fit(title, right - c.scale), fill=c.bg)
    # Columns: (header key, width in characters, value of a company row).
    price = lambda v: "—" if v is None else str(v)
    cols_prices = [("buy", 5, lambda d: price(d.get("buy_price"))),
                   ("sell", 5, lambda d: price(d.get("sell_price"))),
                   ("left", 4, lambda d: str(d.get("certificates_left", "")))]
    cols_divs = [("div", 4, lambda d: str(d.get("dividend", ""))),
                 ("zone", 3, lambda d: t("dv.zone." + str(d.get("zone")), lang)),
                 ("major", 7, lambda d: d.get("majority") or "—")]
    columns = (cols_prices if page == 0 else cols_divs) if paged else cols_prices + cols_divs
    y = lh + 1 + c.scale
    x_name = c.scale
    _row(c, y, x_name, "", [(t("dv.board." + key, lang), width) for key, width, _ in columns], dim=True)
    y += lh
    for cid, data in (snapshot.get("companies") or {}).items():
        cells = [(fn(data), width) for _, width, fn in columns]
        _row(c, y, x_name, cid[:NAME_CHARS], cells)
        y += lh
    return c.image


def _row(c, y, x_name, name, cells, dim=False):
    """The name on the left, then cells right-aligned in fixed-width fields; the last
    field (a majority holder's name) is left-aligned."""
    from firmware.fonts import FONT

    x = c.width - c.scale
    fields = []
    for text, width in reversed(cells):
        fields.append((x - width * c.cw, x, text))
        x -= width * c.cw
    fill = c.dim if dim else c.ink
    for i, (x0, x1, text) in enumerate(reversed(fields)):
        text = c.fit(str(text), x1 - x0 - c.cw // 2, ellipsis=False)
        if i == len(fields) - 1 and cells and cells[-1][1] >= 6:
            c.text(x0 + c.cw, y, text, fill=fill)
        else:
            c.text(x1 - FONT.measure(text, c.scale), y, text, fill=fill)
    c.text(x_name, y, c.fit(name, x - x_name - c.scale, ellipsis=False), fill=fill)


# ------------------------------------------------------------------------ web view
def web_tables(snap, game, lang):
    """Each company's prices, certificates left, dividend, zone and majority; the turn
    order; each player's certificates, cards and token (never cash: `snap` is public)."""
    cash = lambda amount: num("—" if amount is None else money(amount, lang, GAME.prefix))
    companies = Table(t("dv.web.companies", lang), tuple(t("dv.web." + key, lang) for key in
                                                          ("company", "buy", "sell", "left", "dividend", "zone", "majority")))
    for cid, info in snap["companies"].items():
        companies.row(cid, cash(info["buy_price"]), cash(info["sell_price"]), num(str(info["certificates_left"])),
                      cash(info["dividend"]), Cell(t("dv.zone." + str(info["zone"]), lang), "", str(info["zone"])),
                      info["majority"] or "—")
    order = Table(t("dv.web.turn_order", lang), (t("dv.web.token", lang), t("web.player", lang)))
    for n, name in enumerate(snap["turn_order"], 1):
        order.row(num(str(n)), name)
    players = Table(t("web.players", lang), (t("web.player", lang), t("dv.web.certificates", lang),
                                             t("dv.web.cards", lang), t("dv.web.token", lang)))
    for p in snap["players"]:
        held = ", ".join(f"{c} {n}" for c, n in p["certificates"].items() if n) or "—"
        players.row(p["name"], held, num(str(p["influence_cards"])), num("—" if p["token"] is None else str(p["token"])))
    return [companies, order, players]
