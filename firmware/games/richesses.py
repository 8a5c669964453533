"""Richesses du Monde on the box: setup, public board, private view and news lines.

Cash is hidden (RM10): the board is drawn from the game's public snapshot only (titles,
shares, plaques, the lot on sale), and a player's cash appears only in his private view
(a long seat press or an RFID card), beside what each of his trusts earns now.
"""
from __future__ import annotations

from engines.core.i18n import format_amount, money
from engines.richesses import GAME
from firmware.games.base import GameUI
from firmware.games.richesses_learning import learn_question
from firmware.texts import t
from firmware.web.table import Table, num

NEWS_ORDER = ("rm.over", "rm.bankrupt", "rm.lot_sold", "rm.bank_bought", "rm.sale", "rm.royalties", "rm.claim_lost",
              "rm.royalty", "rm.claims_open", "rm.claim", "rm.bought",
              "rm.learned_royalties", "rm.learned_jokers", "rm.learned_title",
              "rm.double", "rm.joker_bought", "rm.joker_used", "rm.lot", "rm.bid", "rm.overbid", "rm.offer",
              "rm.offer_closed", "rm.offer_lapsed", "rm.bonus", "rm.rest", "rm.not_yet", "rm.nothing_to_buy",
              "rm.nothing_to_auction", "rm.no_joker_left", "rm.world_tour", "rm.moved", "rm.landed", "rm.plaques",
              "rm.first", "rm.roll")


class RichessesUI(GameUI):
    spec = GAME
    NEWS_ORDER = NEWS_ORDER

    # ------------------------------------------------------------------ board
    def board_pages(self, box, size):
        """The plaques to lay take several pages on a small board (the other pages of play
        draw the same frame, which the display does not send again)."""
        per_row, rows = plaque_layout(size)
        return max(1, -(-len(box.plaque_squares()) // (per_row * rows)))

    def render_board(self, snapshot, box, size, mode, lang, page):
        return render_board(snapshot, size, mode, lang, page, box=box)

    # ---------------------------------------------------------------- screens
    def private_lines(self, session, seat, lang):
        """Only here does a player's cash appear, with what each trust earns now."""
        player = session.snapshot()["players"][seat]
        box = session.game.box
        lines = [f"{t('private.cash', lang)}\t{money(player['cash'], lang, GAME.prefix)}"]
        for production, trust in player["trusts"].items():
            lines.append(f"{box.production_name(production)} {trust['share']}%\t"
                         f"{'?' if trust['royalty'] is None else money(trust['royalty'], lang, GAME.prefix)}")
        if player["jokers"]:
            lines.append(t("rm.private.jokers", lang, n=player["jokers"]))
        return player["name"], lines

    def field_text(self, ctx, name, value):
        """Titles, trusts and countries as the box file prints them, never by their ids: a
        title by its production and country ("Argent (Canada)"), or by its production alone
        in a list of one country's titles; a special square stays the word the catalog names."""
        box = ctx.game.box
        if isinstance(value, (tuple, list)):          # an action's list (the history): each in full
            return [box.title_name(v) if v in box.titles else self.field_text(ctx, name, v) or v for v in value]
        if name == "titles" and value in box.titles:  # an item of the purchase's checklist
            offered = ctx.decision().option("buy")
            titles = offered.fields["titles"].values if offered else ()
            one_country = value in titles and len({box.titles[v].country for v in titles}) == 1
            return box.production_name(box.titles[value].production) if one_country else box.title_name(value)
        if name == "title" and value in box.titles:
            return box.title_name(value)
        if name in ("production", "productions", "other", "plaque") and value in box.productions:
            return box.production_name(value)
        if name in ("square", "country") and value in box.countries:
            return box.countries[value][0]
        return None

    def web_tables(self, snap, game, lang):
        """The board of the web view (firmware/web/), from the *public* snapshot."""
        return web_tables(snap, game, lang)

    def act_key(self, act, key):
        """A landing said without a plaque (none owed) reads without one."""
        if act.kind == "land" and getattr(act, "plaque", None) is None:
            return key + "_bare"
        return key

    def field_question(self, ctx, kind, name, domain, filled, values):
        """Without the square order (RM8) the operator says where the pawn landed: a
        continent then its country, or a special square (a continental choice then its
        continent), in one list; then the plaque, only among the productions the engine
        says would cost the lander royalties (`owed`), the one said before for the same
        square first; none owed, nothing asked. A pawn put back by a correction: its
        square, then its world tours. An exchange's trust in return: the buyer's."""
        if kind.startswith("learn_"):
            return learn_question(ctx, kind, name, domain, filled)
        if kind == "set_pawn" and name in ("square", "tours"):
            return pawn_question(ctx, name, domain, filled)
        if kind == "exchange" and name == "other":
            return in_return_question(ctx, domain, filled)
        if kind != "land":
            return None
        if name == "square":
            return square_question(ctx, domain, values)
        if name == "plaque":
            return plaque_question(ctx, filled, values)
        return None

    def confirm_lines(self, ctx, act, events, describe):
        """What the action does, from the engine's preview: the dice, where the pawn lands,
        the royalties with each holder's share, what the square pays."""
        lang = ctx.lang
        lines = []
        for event in events:
            if event.key.startswith("rm.") and event.key in NEWS_ORDER:
                lines.append(event.text(lang))
        return lines or [describe(ctx, act)]



# ------------------------------------------------------- landing without the square order
WHERE = "#where"          # the first list's answer: a continent, or a special square
SPECIALS = ("CONTINENTAL", "BONUS", "NEWS", "JOKER", "AUCTION", "WORLD")


def square_question(ctx, domain, values):
    from engines.richesses.box import CONTINENTAL_WORD
    from firmware.menus import Question, kind_label
    lang, box = ctx.lang, ctx.game.box
    title = kind_label(ctx, "land")
    places = set(domain.values)
    continents = list(dict.fromkeys(c for cid, (_, c) in box.countries.items() if cid in places))
    if WHERE not in values:
        items = tuple((t("rm.continent." + c, lang), c) for c in continents)
        items += tuple((t("rm.square." + w, lang), w) for w in SPECIALS
                       if w in places or w == "CONTINENTAL" and any(p.startswith(CONTINENTAL_WORD) for p in places))
        return Question(WHERE, "list", title, (t("q.rm.where", lang),), items)
    where = values[WHERE]
    if where == "CONTINENTAL":
        items = tuple((t("rm.continent." + p[len(CONTINENTAL_WORD):], lang), p) for p in domain.values
                      if p.startswith(CONTINENTAL_WORD))
        return Question("square", "list", t("rm.square.CONTINENTAL", lang), (t("q.rm.continent", lang),), items)
    if where in SPECIALS:
        return ("auto", where)
    items = tuple((box.countries[cid][0], cid) for cid, (_, c) in box.countries.items() if c == where and cid in places)
    if len(items) == 1:
        return ("auto", items[0][1])
    return Question("square", "list", t("rm.continent." + where, lang), (t("q.rm.country", lang),), items)


def plaque_question(ctx, filled, values):
    from firmware.menus import Question, kind_label
    lang, game = ctx.lang, ctx.game
    square = game.box.place(filled.get("square") or "")
    params = ctx.decision().params
    owed = list(params.get("owed", []))
    if square is None or not square.plaque or not owed:
        return ("auto", None)          # nothing on this square would cost the lander anything
    seen = params.get("seen", {}).get(filled["square"])
    if seen in owed:                    # the plaque said the last time on this square
        owed.remove(seen)
        owed.insert(0, seen)
    names = {p: game.box.productions[p].name for p in owed}
    items = tuple((names[p], p) for p in owed) + ((t("q.rm.no_plaque", lang), None),)
    return Question("plaque", "list", kind_label(ctx, "land"), (t("q.rm.plaque", lang),), items)


def in_return_question(ctx, domain, filled):
    """The trust an exchange's buyer gives in return: one of his own, not the one offered
    (the menus' seller filter lists the seller's trusts for the one offered)."""
    from firmware.menus import Question, kind_label, player_name
    buyer = filled["buyer"]
    items = tuple((ctx.game.box.production_name(p), p) for p in domain.values
                  if ctx.game.holding(buyer, p) and p != filled.get("production"))
    return Question("other", "list", kind_label(ctx, "exchange"),
                    (t("q.rm.in_return", ctx.lang, player=player_name(ctx, buyer)),), items)


# ------------------------------------------------------------ a pawn put back
def pawn_question(ctx, name, domain, filled):
    """A correction's square (each number shown with the square's name) or world tours, by
    ones and tens from where the box has the pawn now; nothing to ask when the range holds
    one value (no square order in the box file: the squares are not numbered)."""
    from firmware.menus import Question, kind_label, player_name
    if domain.lo == domain.hi:
        return ("auto", domain.lo)
    lang, seat = ctx.lang, filled["player"]
    pawn = ctx.snapshot()["players"][seat]
    now = pawn["square"] if name == "square" else pawn["world_tours"]
    fmt = (lambda n: square_label(ctx.game, n, lang)) if name == "square" else str
    line = t("q.rm.pawn_" + name, lang, player=player_name(ctx, seat))
    return Question(name, "amount", kind_label(ctx, "set_pawn"), (line,), lo=domain.lo, hi=domain.hi,
                    start=min(max(now, domain.lo), domain.hi), steps=(1, 10), step=0, fmt=fmt)


def square_label(game, number, lang):
    """A square by its number and its name ("19 : « 500 000 »"); 0 is the start arrow."""
    if number == 0:
        return t("rm.square_start", lang)
    return t("rm.square_at", lang, number=number, square=game.square_name(game.box.square(number)))


# ------------------------------------------------------------------------ board
PLAQUE_CHARS = 10     # "12 Alumin " : a square, its plaque's production cut to six letters


def plaque_layout(size):
    """(plaques per row, rows per page) on a board of `size`."""
    from firmware.render import Canvas

    c = Canvas.new((int(size[0]), int(size[1])))
    return max(1, (c.width // c.cw) // PLAQUE_CHARS), max(1, (c.height - c.lh - c.scale) // c.lh)


def plaque_rows(plaques: dict, size, page: int, name=str) -> list[str]:
    """The rows of `page` listing the plaques to lay, square by square (RM13), each
    production by its name (`name`) cut to fit."""
    per_row, rows = plaque_layout(size)
    items = list(plaques.items())
    lines = [" ".join(f"{sq} {name(p)[:6]:6}" for sq, p in items[i:i + per_row]).rstrip()
             for i in range(0, len(items), per_row)]
    pages = max(1, -(-len(lines) // rows))
    return lines[(page % pages) * rows:(page % pages + 1) * rows]


def render_board(snapshot, size=(128, 64), mode="1", lang="fr", page=0, *, paper=None, box=None):
    """The public board from a *public* snapshot: the lot on sale (production, bid,
    leader), or the titles and shares of each player; before the first turn, the plaques
    to lay. It never reads cash (the public snapshot has none). A production is named as
    the box file prints it (`box`), cut to fit its column."""
    from firmware.render import Canvas

    name = box.production_name if box is not None else str
    size = (int(size[0]), int(size[1]))
    c = Canvas.new(size, mode, paper)
    lh = c.lh
    auction = snapshot.get("auction")
    if snapshot.get("step") == "over":
        title = t("rm.board.over", lang, winner=(snapshot.get("ranking") or [{"name": "-"}])[0]["name"])
    elif auction:
        title = t("rm.board.lot", lang, production=name(auction["production"]), seller=auction["seller"])
    elif snapshot.get("turn"):
        title = t("rm.board.title", lang, player=snapshot["turn"])
    else:
        title = t("game." + GAME.prefix, lang)
    c.bar(0, 0, c.width - 1, lh)
    c.text(c.scale, c.scale // 2, c.fit(title, c.width - 2 * c.scale), fill=c.bg)
    rows = []
    if auction:
        if auction.get("high") is None:
            rows.append(t("rm.board.opening", lang, amount=format_amount(auction["opening"], lang)))
        else:
            rows.append(f"{auction['high_bidder']}\t{format_amount(auction['high'], lang)}")
        rows.append(t("rm.board.next", lang, amount=format_amount(auction["minimum"], lang)))
    elif snapshot.get("step") == "setup" and snapshot.get("plaques"):
        rows += plaque_rows(snapshot["plaques"], size, page, name)
    else:
        for player in snapshot.get("players", []):
            if not player.get("in_game", True):
                continue
            trusts = " ".join(f"{name(p)[:4]}{v['share']}" for p, v in player.get("trusts", {}).items())
            rows.append(f"{player['name'][:6]} {trusts}")
    y = lh + c.scale
    for row in rows:
        if y + lh > c.height:
            break
        c.columns(c.scale, c.width - c.scale, y, row)
        y += lh
    return c.image


# ------------------------------------------------------------------------ web view
def web_tables(snap, game, lang):
    """Each player's trusts (share and royalty), jokers and world tours; the lot on sale
    (never cash: `snap` is public)."""
    amount = lambda value: num(money(value, lang, GAME.prefix))
    trusts = Table(t("rm.web.trusts", lang), (t("web.player", lang), t("rm.web.trust", lang), t("rm.web.share", lang),
                                             t("rm.web.royalty", lang)))
    players = Table(t("web.players", lang), (t("web.player", lang), t("rm.web.square", lang), t("rm.web.tours", lang),
                                             t("rm.web.jokers", lang)))
    for p in snap["players"]:
        name = p["name"] if p["in_game"] else p["name"] + " " + t("rm.web.out", lang)
        players.row(name, num(str(p["square"])), num(str(p["world_tours"])), num(str(p["jokers"])))
        for production, trust in p["trusts"].items():
            trusts.row(p["name"], production, num(f"{trust['share']} %"),
                       "?" if trust["royalty"] is None else amount(trust["royalty"]))
    return [players, trusts]
