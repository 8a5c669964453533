"""Maxi Bourse International on the box: what the generic controller cannot read from a decision."""
from __future__ import annotations

from engines.core.i18n import format_amount, money
from engines.maxibourse import GAME
from firmware.games.base import GameUI
from firmware.texts import t
from firmware.web.table import Table, change, num

NEWS_ORDER = tuple("mb." + key for key in (
    "closed", "ruined", "payday", "cessation", "sanction", "purchase_withdrawn", "offer_reduced", "bank_bought",
    "shortage", "cannot_pay", "settled", "titre_over", "price", "rolled", "turn_skipped", "declared", "passed", "bid",
    "titre", "rumour_drawn", "round"))


BOARD_OTHER = "#board_other"  # the pawn is not on the board's square: the operator names it


class MaxiBourseUI(GameUI):
    spec = GAME
    # The journal meta key of the unverified box file the table accepted: Maxi Bourse's is
    # the key without a game's name, which its journals hold.
    box_meta = "box_confirmed"

    # ------------------------------------------------------------------ setup
    def box_unverified(self, box, lang):
        """The setup's warning lines: the nominal prices, and the board's order of the
        squares (shipped reconstructed, like the nominals) until the owner checks them."""
        lines = [] if box.verified else [t("setup.box_unverified.mb", lang)]
        if box.board and not box.board_verified:
            lines.append(t("setup.board_unverified", lang))
        return lines

    def summary_shortcut(self, settings, lang):
        """MB2 has each player choose the starting lots (`picks = "chosen"`, kept by
        default), a lot at a time: 21 choices at a Senior table of three, 60 at a Masters
        of six. The setup's summary offers dealing them instead, in its own button ("Donner":
        the device deals, one OK shows them): (button, the footer saying what it does,
        settings)."""
        if settings.get("picks") != "chosen":
            return None
        return t("mb.setup.deal", lang), t("mb.setup.deal_footer", lang), {"picks": "dealt"}

    # ------------------------------------------------------------------ board
    def render_board(self, snapshot, box, size, mode, lang, page):
        from firmware.games.maxibourse_board import render_board
        return render_board(snapshot, box, size, mode, lang, page)

    def board_pages(self, box, size):
        from firmware.games.maxibourse_board import board_pages
        return board_pages(box, size)

    def box_view(self, session, lang):
        """The menu's view of the box file: whether the owner checked it, then each sector's
        companies with the nominal price the game plays (a correction included)."""
        game = session.game
        box = game.box
        lines = [t("box.mb.verified" if box.verified else "box.mb.unverified", lang)]
        for sector in box.sectors:
            lines.append(sector.name.get(lang, sector.id))
            lines += [f"  {c}\t{game.nominal(c)}" for c in sector.companies]
        return t("menu.mb.box", lang), lines

    # ---------------------------------------------------------------- screens
    def company_label(self, ctx, company, kind=None):
        info = ctx.snapshot()["companies"].get(company)
        return f"{company}\t{money(info['price'], ctx.lang, self.prefix)}" if info else str(company)

    def private_lines(self, session, seat, lang):
        snap = session.snapshot()
        player = snap["players"][seat]
        lines = [f"{t('private.cash', lang)}\t{money(player['cash'], lang, self.prefix)}"]
        for company, lots in player["lots"].items():
            lines.append(f"{company}\t{t('lots_count', lang, n=lots)}")
        if player.get("rumours"):
            lines.append(f"{t('private.mb.rumours', lang)}\t{player['rumours']}")
        lines.append(f"{t('private.wealth', lang)}\t{money(player['wealth'], lang, self.prefix)}")
        return player["name"], lines


    def web_tables(self, snap, game, lang):
        """The board of the web view (firmware/web/), from the *public* snapshot."""
        return web_tables(snap, game, lang)

    def payday_lines(self, shown, lang):
        """The payday screen: each player's breakdown (the decision's `lines`) before OK pays it."""
        from firmware.games.maxibourse_board import payday_lines
        return payday_lines(shown.get("lines", {}), lang)

    def field_question(self, ctx, kind, name, domain, filled, values):
        """The titre square, with a board: the square the pawn reached, au cours or another
        company, or another square (the operator corrects the board), in one list. Without
        a board, or for another square, the square is asked from its domain, then the
        company: au cours (the square's own company at its price) or another company (au
        mieux, MB3), asked before the company list. The lander's au cours answer starts on
        1 lot (they chose to trade). Other fields are asked from their domain (None)."""
        from dataclasses import replace

        from engines.core.decision import Choice
        from firmware.menus import AU_COURS, OTHER, Question, company_label, company_question, kind_label, lots_question
        lang = ctx.lang
        if kind == "learn_nominal" and name == "nominal":     # read off the quotation table, in dollars
            company = filled.get("company", "")
            return Question(name, "list", kind_label(ctx, kind),
                            (t("q.mb.learn_nominal", lang, company=company),),
                            tuple((money(v, lang, "mb"), v) for v in domain.values))
        if kind == "declare" and name == "lots" and ctx.decision().prompt == "prompt.mb.titre_au_cours":
            question = lots_question(ctx, kind, name, domain, filled)
            return replace(question, selected=1) if len(question.items) > 1 else question
        if kind == "set_nominal" and name == "nominal" and isinstance(domain, Choice):
            now = ctx.game.nominal(filled["company"])
            items = tuple((money(v, lang, self.prefix), v) for v in domain.values if v != now)
            return Question(name, "list", kind_label(ctx, kind),
                            (t("q.mb.nominal", lang, company=filled["company"], nominal=now),), items)
        if kind != "titre" or not isinstance(domain, Choice):
            return None
        pawn = ctx.decision().params.get("square")
        on_board = values.get("#square") in (AU_COURS, OTHER)
        if name == "square":
            if pawn is None or pawn not in domain.values:
                return None
            if "#square" not in values:
                option = ctx.decision().option("titre")
                open_ = option.fields["company"].values if option else ()
                items = [(t("q.mb.au_cours", lang, company=pawn), AU_COURS)] if pawn in open_ else []
                items += [(t("q.mb.other_company", lang), OTHER), (t("q.mb.other_square", lang), BOARD_OTHER)]
                return Question("#square", "list", t("q.mb.titre_title", lang, company=pawn),
                                (company_label(ctx, pawn).replace("\t", " "),), tuple(items))
            return ("auto", pawn) if on_board else None
        if name != "company":
            return None
        square = filled.get("square")
        choices = [c for c in domain.values if c is not None]
        mode = values.get("#square") if on_board else values.get("#company")
        if mode == AU_COURS:
            return ("auto", None)
        if mode == OTHER:
            return company_question(ctx, kind, name, Choice(tuple(c for c in choices if c != square)), filled, values)
        title = kind_label(ctx, kind)
        items = []
        if None in domain.values and square in choices:
            items.append((t("q.mb.au_cours", lang, company=square), AU_COURS))
        items.append((t("q.mb.other_company", lang), OTHER))
        if len(items) == 1:
            return Question("#company", "list", title, (t("q.mb.titre_closed", lang, company=square),), tuple(items))
        return Question("#company", "list", t("q.mb.titre_title", lang, company=square),
                        (company_label(ctx, square).replace("\t", " "),), tuple(items))

    def act_key(self, act, key):
        """A titre bought in another company than the square's says both."""
        if act.kind == "titre" and getattr(act, "company", None) and act.company != act.square:
            return "act." + self.prefix + "titre_other"
        return key

    def confirm_lines(self, ctx, act, events, describe):
        """A confirmation's lines: what the action is, and what the engine's preview of it
        (`events`) says it does: the price a sale is offered at, who ends their turn."""
        lang, snap = ctx.lang, ctx.snapshot()
        if act.kind == "sell":
            offer = next((e for e in events if e.key == "mb.offer"), None)
            if offer is not None:
                return [describe(ctx, act), t("q.sell_at", lang, price=money(offer.params["price"], lang, self.prefix))]
        if act.kind == "double":
            return [describe(ctx, act), t("q.mb.au_cours_at", lang, price=snap["companies"][act.company]["price"])]
        if act.kind == "deal":
            return [e.text(lang) for e in events if e.key == "mb.dealt"] or [describe(ctx, act)]
        if act.kind == "end":
            return [t("q.mb.end", lang, player=snap.get("turn") or "")]
        if act.kind == "close":
            return [t("q.mb.close", lang)]
        return [describe(ctx, act)]

    def news(self, ctx, act, events, describe):
        """The line shown above the next menu: the most telling thing the action did."""
        lang = ctx.lang
        best = None
        for event in events:
            if event.key in NEWS_ORDER and (best is None or NEWS_ORDER.index(event.key) < NEWS_ORDER.index(best.key)
                                            or (event.key == best.key == "mb.price")):
                best = event
        if best is None:
            return [describe(ctx, act)]
        if best.key == "mb.rolled":
            key = "news.mb.rolled_square" if "square" in best.params else "news.mb.rolled"
            return [t(key, lang, **best.params)]
        if best.key == "mb.closed":
            return [t("news.mb.closed", lang)]
        if best.key == "mb.payday":
            return [t("news.mb.payday", lang, round=best.params.get("round", ""))]
        if best.key == "mb.price":
            p = best.params
            return [t("news.mb.price", lang, company=p["company"], old=p["old"], new=p["new"])]
        return [best.text(lang)]

    def report(self, session, lang):
        """(header details, box grouping the prices by sector) for the report."""
        return {t("report.format", lang): t("format." + self.prefix + session.game.format, lang)}, session.game.box


# ------------------------------------------------------------------------ web view
def web_tables(snap, game, lang):
    """Prices by sector, the last change marked, lots left at the bank; then the players."""
    tables = []
    companies = snap["companies"]
    for sector, names, members in game.groups() or [("", {}, list(companies))]:
        table = Table(names.get(lang, sector), (t("mb.web.company", lang), t("mb.web.price", lang),
                                                t("mb.web.bank_lots", lang)))
        for company in members:
            info = companies[company]
            table.row(company, change(info["last_change"], format_amount(info["price"], lang)),
                      num(str(info["bank_lots"])))
        tables.append(table)
    players = Table(t("web.players", lang), (t("web.player", lang), t("private.cash", lang), t("mb.web.lots", lang),
                                             t("private.mb.rumours", lang)))
    for p in snap["players"]:
        players.row(p["name"], num(money(p["cash"], lang, GAME.prefix)), num(str(sum(p["lots"].values()))),
                    num(str(p.get("rumours", 0))))
    return tables + [players]
