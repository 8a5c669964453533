"""A Vendre! on the box: setup, the public board, private view and news lines.

Nothing is hidden in this game (the banknotes lie on the table): the board shows each
pawn's square, trip and titles (x/3, x/6), cash and loans, the bank's cash and owner, and
any auction under way; the private view shows a player's titles with half their PA and
the fortune so far (AV13). Everything is read from the engine's snapshot.
"""
from __future__ import annotations

from engines.avendre import GAME
from engines.core.i18n import format_amount, money
from firmware.games.base import GameUI
from firmware.texts import t
from firmware.web.table import Table, num

BANKNOTES = (10, 50, 100, 500)   # "100 de 10.—, 200 de 50.—, 100 de 100.—, 60 de 500.—"

NEWS_ORDER = ("av.game_over", "av.bank_sold", "av.bank_unsold", "av.bank_auction", "av.second_trip", "av.restart",
              "av.out", "av.waiting", "av.arrived", "av.shop_sold", "av.no_bid", "av.bought", "av.granted",
              "av.grant_none", "av.income", "av.tax", "av.card_green", "av.card_tax", "av.card_back", "av.card_pay",
              "av.card_receive", "av.card_pay_each", "av.card_collect",
              "av.green", "av.rolled", "av.bid")


class AVendreUI(GameUI):
    spec = GAME
    NEWS_ORDER = NEWS_ORDER

    # ------------------------------------------------------------------ board
    def board_pages(self, box, size):
        """Pages enough for ten players, then who owns which title (render_board wraps
        the page number when fewer players leave pages over)."""
        rows = board_rows(size)
        return -(-10 // rows) + 1

    def render_board(self, snapshot, box, size, mode, lang, page):
        return render_board(snapshot, size, mode, lang, page)

    # ---------------------------------------------------------------- screens
    def private_lines(self, session, seat, lang):
        snap = session.snapshot()
        player = snap["players"][seat]
        lines = [f"{t('private.cash', lang)}\t{money(player['cash'], lang, GAME.prefix)}"]
        for title in player["titles"]:
            lines.append(f"{title['title']}\t{money(title['half_pa'], lang, GAME.prefix)}")
        if player["loans"]:
            lines.append(f"{t('av.loans', lang, n=player['loans'])}\t{money(-player['loans_owed'], lang, GAME.prefix)}")
        lines.append(f"{t('av.fortune', lang)}\t{money(player['fortune'], lang, GAME.prefix)}")
        return player["name"], lines

    def web_tables(self, snap, game, lang):
        """The board of the web view (firmware/web/), from the *public* snapshot."""
        return web_tables(snap, game, lang)

    def box_unverified(self, box, lang):
        """The setup's warning: A Vendre!'s box file holds a board and titles, not nominal
        prices."""
        return [] if box.verified else [t("setup.box_unverified.avendre", lang)]

    def field_text(self, ctx, name, value):
        """An action's title in words (the history, a confirmation), as the title question
        lists it, never a bare number; a square's colour as the colour question says it."""
        if name == "title":
            return title_text(ctx.game, value, ctx.lang)
        if name == "colour":
            return t("av.colour." + str(value).lower(), ctx.lang)
        return None

    def field_question(self, ctx, kind, name, domain, filled, values):
        """Titles by number and name; the colour of a square read without a board."""
        from engines.core.decision import Choice, IntRange
        from firmware.menus import Question, kind_label
        lang, title = ctx.lang, kind_label(ctx, kind)
        if isinstance(domain, IntRange) and name in ("amount", "pa", "r"):
            return self.amount_question(ctx, kind, name, domain, filled, title)
        if isinstance(domain, IntRange) and name in ("title", "square", "squares") and domain.hi - domain.lo > 12:
            # a number on the board or on a title card: ones and tens, from the lowest
            line = t("q.av.title_on_square" if kind == "learn_square" else "q.av." + name, lang)
            # a square read for the first time: the engine's likely title (the next shop along the track)
            start = ctx.decision().params.get("likely", 1) if kind == "learn_square" else 1
            return Question(name, "amount", title, (line,), lo=domain.lo, hi=domain.hi,
                            start=min(max(domain.lo, start), domain.hi), steps=(1, 10), step=0, fmt=str)
        if not isinstance(domain, Choice):
            return None
        if name == "title":
            game = ctx.game
            items = tuple((title_text(game, v, lang), v) for v in domain.values)
            return Question(name, "list", title, (t("q.av.title", lang),), items)
        if name == "colour":
            items = tuple((t("av.colour." + v.lower(), lang), v) for v in domain.values)
            return Question(name, "list", title, (t("q.av.colour", lang),), items)
        return None

    def amount_question(self, ctx, kind, name, domain, filled, title):
        """Francs by the box's banknotes ("100 de 10.—, 200 de 50.—, 100 de 100.—, 60 de
        500.—"): Up/Down add or take one note, a long press picks the next larger or smaller
        note. A bid starts at the lowest accepted; a PA read on a square at 800 by notes of
        500 (any multiple of 50 from 100 to 2 000 is at most 7 presses away, 4.8 on average,
        docs/presses.md); an R at 100 by notes of 10 (10 to 300: at most 7, 4.5 on
        average); a card's amount at 100 by notes of 100."""
        from firmware.menus import Question
        from firmware.menus import player_name
        lang = ctx.lang
        base = domain.step
        if name in ("pa", "r"):
            notes = tuple(n for n in BANKNOTES if n >= base and n % base == 0)
            start, step = (800, notes.index(500)) if name == "pa" else (100, 0)
        else:
            notes = tuple(sorted({base, *(s for s in (10, 100, 1000) if s >= base and s % base == 0)}))
            step = notes.index(100) if 100 in notes and kind != "bid" else 0
            start = domain.lo if kind == "bid" else notes[step]
        start = min(max(start, domain.lo), domain.hi)
        line = t("q.av." + name, lang, player=player_name(ctx, filled.get("player")))
        return Question(name, "amount", title, (line,), lo=domain.lo, hi=domain.hi, start=start, steps=notes, step=step,
                        fmt=lambda v: money(v, lang, GAME.prefix))

    def confirm_lines(self, ctx, act, events, describe):
        """What the action does, from the engine's preview: the money it moves."""
        lines = [describe(ctx, act)]
        for event in events:
            if event.key == "transfer":
                p = event.params
                moved = t("av.moved", ctx.lang, src=ctx.game.account_name(p["src"]),
                          dst=ctx.game.account_name(p["dst"]))
                lines.append(f"{moved}\t{money(p['amount'], ctx.lang, GAME.prefix)}")
        return lines[:5]



# ------------------------------------------------------------------------ board
def render_board(snapshot, size=(128, 64), mode="1", lang="fr", page=0, *, paper=None):
    """The A Vendre! board from the public snapshot: a title line (the bank's cash and
    owner, or the auction under way), then one line per player: name, square (* waiting
    at 60, X out), titles held of those the trip needs (x/3 on the first, x/6 on the
    second), cash, loans (E and their count), as many pages as the players need; the last
    page: each player's title numbers (owners; as many as fit)."""
    from firmware.render import Canvas

    size = (int(size[0]), int(size[1]))
    scale = max(1, min(size[0] // 256, size[1] // 64, 3))
    c = Canvas.new(size, mode, paper, scale=scale)
    bank = snapshot.get("bank") or {}
    auction = snapshot.get("auction")
    if auction:
        title = auction_line(c, auction, lang)
    elif snapshot.get("step") == "over":
        title = t("av.board.over", lang)
    else:
        owner = bank.get("owner") or "-"
        title = t("av.board.bank", lang, cash=format_amount(bank.get("cash", 0), lang), owner=owner)
    lh = c.lh
    c.bar(0, 0, c.width - 1, lh)
    c.text(c.scale, c.scale // 2, c.fit(title, c.width - 2 * c.scale), fill=c.bg)
    y = lh + c.scale
    players = snapshot.get("players") or []
    rows = max(1, (c.height - y) // lh)
    player_pages = max(1, -(-len(players) // rows))
    page %= player_pages + 1
    if page == player_pages:        # the owners: each player's title numbers
        owned = {}
        for number, name in (snapshot.get("owners") or {}).items():
            owned.setdefault(name, []).append(int(number))
        for player in players:
            if y + lh > c.height:
                break
            numbers = " ".join(str(n) for n in sorted(owned.get(player["name"], []))) or "-"
            c.text(c.scale, y, c.fit(f"{player['name'][:6]} {numbers}", c.width - 2 * c.scale), fill=c.ink)
            y += lh
        return c.image
    for player in players[page * rows:(page + 1) * rows]:
        needed = player.get("titles_needed")
        titles = f"{player['titles_count']}/{needed}" if needed else str(player["titles_count"])
        square = "X" if player["out"] else str(player["square"]) + ("*" if player["waiting"] else "")
        cells = [(square, 3), (titles, 4), (str(player["cash"]), 6), (f"E{player['loans']}" if player["loans"] else "", 3)]
        _row(c, y, player["name"], cells, dim=player["out"])
        y += lh
    return c.image


def title_text(game, title, lang) -> str:
    """A title as the box file prints it ("3 Boucherie"), or by its number without a board
    ("titre 3"): the game knows no name it was not told."""
    return game.title_label(title) if game.box is not None else t("av.title_n", lang, n=title)


def auction_line(c, auction, lang) -> str:
    """The board's title line during an auction: the lot (a title, or the bank), the high
    bid and its bidder. A narrow board (128 pixels: 21 characters) drops the title's name
    for its number, then the word "Enchère", so the bid is never the part that is cut."""
    from firmware.fonts import FONT

    high = "-" if auction["high"] is None else f"{format_amount(auction['high'], lang)} {auction['high_bidder']}"
    item = t("av.board.bank_lot", lang) if auction["item"] == "bank" else auction["item"]
    short = item.split(" ")[0]
    for line in (t("av.board.auction", lang, item=item, high=high), t("av.board.auction", lang, item=short, high=high),
                 t("av.board.auction_short", lang, item=short, high=high)):
        if FONT.measure(line, c.scale) <= c.width - 2 * c.scale:
            return line
    return line


def board_rows(size) -> int:
    """The player lines a board of `size` holds under its title line."""
    from firmware.render import Canvas

    c = Canvas.new((int(size[0]), int(size[1])), "1", None, scale=max(1, min(int(size[0]) // 256, int(size[1]) // 64, 3)))
    return max(1, (c.height - c.lh - c.scale) // c.lh)


def _row(c, y, name, cells, dim=False):
    from firmware.fonts import FONT

    x = c.width - c.scale
    fill = c.dim if dim else c.ink
    for text, width in reversed(cells):
        text = c.fit(str(text), width * c.cw - c.cw // 2, ellipsis=False)
        c.text(x - FONT.measure(text, c.scale), y, text, fill=fill)
        x -= width * c.cw
    c.text(c.scale, y, c.fit(name, x - 2 * c.scale, ellipsis=False), fill=fill)


# ------------------------------------------------------------------------ web view
def web_tables(snap, game, lang):
    """The titles and their owners, each player's square, cash and loans, the bank's cash."""
    amount = lambda value: num(money(value, lang, GAME.prefix))
    titles = Table(t("av.web.titles", lang), (t("av.web.title", lang), t("av.web.owner", lang)))
    for p in snap["players"]:
        for title in p["titles"]:
            titles.row(title["title"], p["name"])
    players = Table(t("web.players", lang), (t("web.player", lang), t("av.web.square", lang), t("private.cash", lang),
                                             t("av.web.titles_count", lang), t("av.web.loans", lang)))
    for p in snap["players"]:
        name = p["name"] + (" " + t("av.web.out", lang) if p["out"] else "")
        players.row(name, num(str(p["square"])), amount(p["cash"]),
                    num(f"{p['titles_count']}/{p['titles_needed']}"), amount(p["loans_owed"]))
    bank = Table(t("av.web.bank", lang), (t("private.cash", lang),))
    bank.row(amount(snap["bank"]["cash"]))
    return [players, titles, bank]
