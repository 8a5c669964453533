"""Shark on the box: setup, the public board (the map, the values, holdings and cash, the
last placement's payments), the placement's preview lines, share counts and news lines.

Cash and holdings are public in this game (SH8): the board shows them all. The operator's
placement screen is the generic one (firmware/screens/placement.py); this adapter only
words the engine's preview of a cell.
"""
from __future__ import annotations

from engines.core.actions import CHANCE
from engines.core.decision import Choice, IntRange
from engines.core.i18n import format_amount, money, text
from engines.shark import GAME
from engines.shark.rules import LETTERS
from firmware.games.base import GameUI
from firmware.texts import t
from firmware.web.table import Cell, Table, num

NEWS_ORDER = ("sh.game_over", "sh.out", "sh.short", "sh.forced_sale", "sh.removed", "sh.bonus", "sh.no_cell", "sh.bought",
              "sh.sold", "sh.colour", "sh.rolled", "sh.first")


class SharkUI(GameUI):
    spec = GAME
    NEWS_ORDER = NEWS_ORDER
    colour_names = False          # its companies are the colours: players are not named after them

    # ------------------------------------------------------------------ board
    def board_pages(self, box, size):
        return 1 if size[0] >= 256 else 3

    def render_board(self, snapshot, box, size, mode, lang, page):
        return render_board(snapshot, size, mode, lang, page)

    # ---------------------------------------------------------------- screens
    def company_label(self, ctx, company, kind=None):
        info = ctx.snapshot()["companies"].get(company)
        name = company_name(company, ctx.lang)
        if not info:
            return name
        if kind in ("buy", "sell", "forced_sale"):
            return f"{name}\t{money(info['price'], ctx.lang, GAME.prefix)}"
        return f"{name}\t{info['value']}"

    def private_lines(self, session, seat, lang):
        snap = session.snapshot()
        player = snap["players"][seat]
        lines = [f"{t('private.cash', lang)}\t{money(player['cash'], lang, GAME.prefix)}"]
        lines += [f"{company_name(company, lang)}\t{n}" for company, n in player["shares"].items()]
        lines.append(f"{t('private.wealth', lang)}\t{money(player['fortune'], lang, GAME.prefix)}")
        return player["name"], lines

    def act_key(self, act, key):
        """Dice without the colour die (variant 3) say the zone alone."""
        return key + "_zone" if act.kind == "roll" and act.zone is not None and not act.colour else key

    def field_text(self, ctx, name, value):
        """A company of an action by its name, as the rulebook calls it by its colour."""
        return company_name(value, ctx.lang) if name == "company" else None

    def placement_map(self, rows, lang):
        return map_rows(rows, lang)

    def web_tables(self, snap, game, lang):
        """The board of the web view (firmware/web/), from the *public* snapshot."""
        return web_tables(snap, game, lang)

    def placement_lines(self, preview, params, lang):
        """The engine's preview of the cell under the cursor: the cell, the success bonus,
        each value that changes (a rise pays every holder, a fall costs the others)."""
        lines = [f"{preview['cell']}\t{money(preview['bonus'], lang, GAME.prefix, sign=True)}"]
        for company, (old, new) in preview["changes"].items():
            lines.append(f"{letter(company, lang)} {old}→{new}\t{format_amount((new - old) * 1000, lang, sign=True)}")
        if preview.get("removed"):
            lines.append(t("sh.removed", lang, n=preview["removed"]))
        return lines

    def field_question(self, ctx, kind, name, domain, filled, values):
        """A share count shown against the 5-share limit, and the device's dice taken as
        drawn (the confirmation shows them before OK)."""
        from firmware.menus import Question, kind_label
        from firmware.script import fill_dice
        lang = ctx.lang
        if ctx.has(kind, CHANCE) and ctx.device_dice:
            drawn = fill_dice(ctx.game, ctx.game.ACTIONS.classes[kind]())
            return ("auto", getattr(drawn, name))
        if name == "shares" and isinstance(domain, IntRange):
            company = filled.get("company")
            hi = domain.hi
            if kind == "sell" and company:
                hi = min(hi, ctx.snapshot()["players"][filled["player"]]["shares"].get(company, 0))
            if kind == "buy" and company:
                price = ctx.snapshot()["companies"][company]["price"]
                cash = ctx.snapshot()["players"][filled["player"]]["cash"]
                hi = min(hi, cash // price if price else 0, ctx.snapshot()["companies"][company]["stock"])
            items = tuple((t("sh.shares", lang, n=v), v) for v in range(domain.lo, max(hi, domain.lo) + 1))
            left = ctx.decision().params.get("left")
            line = t("sh.q_buy", lang, company=company or "", left=left) if kind == "buy" else \
                t("sh.q_sell", lang, company=company or "")
            return Question(name, "list", kind_label(ctx, kind), (line,), items)
        if name in ("value", "removed") and isinstance(domain, IntRange):
            items = tuple((str(v), v) for v in range(domain.lo, domain.hi + 1))
            line = t("sh.q_" + name, lang, company=filled.get("company") or ctx.decision().params.get("company", ""))
            start = ctx.snapshot()["companies"].get(filled.get("company") or ctx.decision().params.get("company"), {})
            selected = max(0, min(len(items) - 1, start.get("value", domain.lo) - domain.lo)) if name == "value" else 0
            return Question(name, "list", kind_label(ctx, kind), (line,), items, selected)
        if name == "colour" and isinstance(domain, Choice):
            items = tuple((t("sh.colour." + str(v), lang), v) for v in domain.values)
            return Question(name, "list", kind_label(ctx, kind), (t("sh.q_colour", lang),), items)
        return None

    def confirm_lines(self, ctx, act, events, describe):
        """A confirmation's lines from the engine's preview: the dice, the starting shares."""
        lang = ctx.lang
        if act.kind == "roll":
            colour = t("sh.colour." + str(act.colour), lang) if act.colour else "-"
            return [t("sh.roll_line", lang, zone=act.zone, colour=colour)]
        if act.kind == "deal":
            return [f"{name}\t{company_name(company, lang)}" for name, company in zip(ctx.players, act.companies)]
        if act.kind == "built":
            paid = [e for e in events if e.key == "transfer"]
            lines = [describe(ctx, act)]
            for e in paid:
                p = e.params
                who = ctx.players[p["dst"]] if p["dst"] >= 0 else ctx.players[p["src"]]
                amount = p["amount"] if p["dst"] >= 0 else -p["amount"]
                what = t("sh.board." + p["reason"], lang) if p["reason"] in ("bonus", "rise", "fall") \
                    else text("reason." + p["reason"], lang)
                lines.append(f"{who} {what}\t{money(amount, lang, GAME.prefix, sign=True)}")
            return lines
        return [describe(ctx, act)]



def company_name(company, lang) -> str:
    """A company as the French edition calls it, by its colour ("Jaune"), from the catalog."""
    return text("sh.company." + str(company), lang)


def letter(company, lang) -> str:
    """A company's building as one letter (J for Jaune in French) on the maps and the board."""
    return t("sh.letter." + str(company), lang)


def map_rows(rows, lang) -> list[str]:
    """The engine's map rows (its letters, "Y" a yellow building) with each building in the
    language's letter."""
    shown = {LETTERS[company]: letter(company, lang) for company in LETTERS}
    return ["".join(shown.get(ch, ch) for ch in row) for row in rows]


# ------------------------------------------------------------------------ board
RGB = {"RED": (210, 30, 30), "YELLOW": (235, 200, 0), "GREEN": (20, 160, 60), "BLUE": (30, 90, 220)}


def render_board(snapshot, size=(128, 64), mode="1", lang="fr", page=0, *, paper=None):
    """The public board from a public snapshot: the whole map with the four values (page
    1), every player's cash and shares (page 2), the last placement's payments (page 3); on
    a board 256 pixels wide or more, all on one page beside the map (stacked in one column
    when the board is tall enough)."""
    from firmware.fonts import FONT
    from firmware.render import Canvas

    size = (int(size[0]), int(size[1]))
    scale = max(1, min(size[0] // 256, size[1] // 64, 3))
    c = Canvas.new(size, mode, paper, scale=scale)
    paged = size[0] < 256
    pages = 3 if paged else 1
    page %= pages
    title = t("sh.board.over", lang) if snapshot.get("step") == "over" else \
        t("sh.board.title", lang, player=snapshot.get("turn") or "")
    c.bar(0, 0, c.width - 1, c.lh)
    corner = f"{page + 1}/{pages}" if paged else ""
    right = c.width - c.scale
    if corner:
        right -= c.text(right - FONT.measure(corner, c.scale), c.scale // 2, corner, fill=c.bg) + c.cw
    c.text(c.scale, c.scale // 2, c.fit(title, right - c.scale), fill=c.bg)
    top = c.lh + 2 * c.scale
    values = [f"{letter(k, lang)} {info['value']}\t{format_amount(info['price'], lang)}"
              for k, info in snapshot.get("companies", {}).items()]
    players = [f"{p['name']}{' ' + t('sh.board.out', lang) if p['out'] else ''} "
               + " ".join(f"{letter(k, lang)}{n}" for k, n in p["shares"].items())
               + f"\t{format_amount(p['cash'], lang)}" for p in snapshot.get("players", [])]
    last = [f"{line['player']} {t('sh.board.' + line['what'], lang)} {letter(line['company'], lang)}"
            f"\t{format_amount(line['amount'], lang, sign=True)}"
            for line in (snapshot.get("last") or {}).get("lines", [])]
    if paged:
        if page == 0:   # beside the map only the values: a share costs value x 1 000
            x = _map(c, snapshot.get("map"), c.scale, top, c.width // 2) + 2 * c.cw
            _lines(c, x, c.width - c.scale, top,
                   [f"{letter(k, lang)}\t{info['value']}" for k, info in snapshot.get("companies", {}).items()])
        else:
            _lines(c, c.scale, c.width - c.scale, top, players if page == 1 else last)
        return c.image
    x = _map(c, snapshot.get("map"), c.scale, top, c.width // 2) + 2 * c.cw
    rows = (c.height - top) // c.lh
    if rows >= len(values) + len(players) + 2:          # tall: one column, the payments below
        y = _lines(c, x, c.width - c.scale, top, values) + c.lh // 2
        y = _lines(c, x, c.width - c.scale, y, players) + c.lh // 2
        _lines(c, x, c.width - c.scale, y, last)
    else:                                                # wide: the values, then the players beside
        mid = x + 13 * c.cw
        _lines(c, x, mid - c.cw, top, values)
        _lines(c, mid, c.width - c.scale, top, players)
    return c.image


def _lines(c, x0, x1, y, lines) -> int:
    """`lines` from `y` down while they fit; returns the y below the last one drawn."""
    for line in lines:
        if y + c.lh > c.height:
            break
        c.columns(x0, x1, y, line)
        y += c.lh
    return y


def _map(c, board_map, x0, y0, width) -> int:
    """The whole map, one square a cell (a building filled in its colour on a colour board;
    on a 1-bit one red and blue filled, green outlined, yellow outlined with a dot; a free
    cell a dim dot), at most `width` wide; returns the right edge. Without the grid (SH11)
    nothing is drawn."""
    if not board_map:
        return x0
    from engines.core.actions import read_cell
    rows = board_map["rows"]
    cols = max((len(r) for r in rows), default=1)
    pieces = {read_cell(k): v for k, v in board_map["pieces"].items()}
    size = max(2, min((c.height - y0) // max(1, len(rows)), width // cols))
    colour = c.image.mode == "RGB"
    for r, row in enumerate(rows):
        for col, ch in enumerate(row):
            if ch == ".":
                continue                                  # not a cell of the map
            x, y = x0 + col * size, y0 + r * size
            x1, y1 = x + size - 2, y + size - 2
            mid_x, mid_y = x + size // 2 - 1, y + size // 2 - 1
            piece = pieces.get((r, col))
            if piece is None:
                if size >= 3:
                    c.bar(mid_x, mid_y, mid_x, mid_y, fill=c.dim)
            elif colour:
                c.bar(x, y, x1, y1, fill=RGB[piece])
            elif piece in ("RED", "BLUE"):
                c.bar(x, y, x1, y1)
            else:
                c.draw.rectangle((x, y, x1, y1), outline=c.ink)
                if piece == "YELLOW":
                    c.bar(mid_x, mid_y, mid_x, mid_y)
    return x0 + cols * size


# ------------------------------------------------------------------------ web view
def web_tables(snap, game, lang):
    """The map (each building by its chain's letter and colour), the chains' values and
    prices, the players' cash, shares and fortune."""
    from engines.core.actions import read_cell

    board = snap["map"]
    pieces = {read_cell(k): v for k, v in board["pieces"].items()}
    grid = Table(t("sh.web.map", lang), grid=True)
    for r, row in enumerate(board["rows"]):
        grid.row(*(Cell(LETTERS.get(pieces.get((r, c)), ""), "zone" + zone, pieces.get((r, c), "").lower())
                   for c, zone in enumerate(row)))
    amount = lambda value: num(money(value, lang, GAME.prefix))
    chains = Table(t("sh.web.chains", lang), (t("sh.web.chain", lang), t("sh.web.value", lang), t("sh.web.price", lang),
                                              t("sh.web.stock", lang), t("sh.web.on_board", lang)))
    for company, info in snap["companies"].items():
        chains.row(Cell(f"{LETTERS[company]} {company}", "", company.lower()), num(str(info["value"])),
                   amount(info["price"]), num(str(info["stock"])), num(str(info["on_board"])))
    players = Table(t("web.players", lang), (t("web.player", lang), t("private.cash", lang), t("sh.web.shares", lang)))
    for p in snap["players"]:
        shares = " ".join(f"{LETTERS[c]}{n}" for c, n in p["shares"].items() if n) or "—"
        players.row(p["name"] + (" " + t("sh.board.out", lang) if p["out"] else ""), amount(p["cash"]), shares)
    return [grid, chains, players]
