"""Richesses du Monde's questions for what the box learns at the table (RM13 as amended):
names chosen from lists as the box file prints them (a production, a country), numbers
with the amount entry in the unit printed on the card (a percent, a price in francs)."""
from __future__ import annotations

from engines.core.i18n import money
from firmware.menus import Question, kind_label
from firmware.texts import t


def learn_question(ctx, kind, name, domain, filled):
    """The question for one field of a `learn_*` action, or None for the box's own."""
    lang, box, title = ctx.lang, ctx.game.box, kind_label(ctx, kind)
    if name == "production":
        items = tuple((box.production_name(p), p) for p in domain.values)
        return Question(name, "list", title, (t("q.rm.learn_production", lang),), items)
    if name == "country":
        items = tuple((box.countries[c][0], c) for c in domain.values)
        return Question(name, "list", title, (t("q.rm.learn_country", lang),), items)
    if name == "percent":
        return percent(name, title, domain, t("q.rm.learn_percent", lang), 5)
    if name == "price":
        return amount(name, title, domain, t("q.rm.learn_price", lang), 500_000, lang)
    if name == "jokers":
        return Question(name, "amount", title, (t("q.rm.learn_jokers", lang),), lo=domain.lo, hi=domain.hi,
                        start=10, steps=(1, 10), step=0, fmt=str)
    if name.startswith("table#"):
        index = int(name.partition("#")[2])
        band = index // 2 + 1
        if index % 2 == 0:
            return percent(name, title, domain, t("q.rm.learn_band", lang, band=band), 30 + 20 * (band - 1))
        return amount(name, title, domain, t("q.rm.learn_amount", lang, band=band), 1_000_000, lang)
    return None


def percent(name, title, domain, line, start):
    return Question(name, "amount", title, (line,), lo=domain.lo, hi=domain.hi,
                    start=min(max(start, domain.lo), domain.hi), steps=(1, 5, 10), step=1, fmt=lambda v: f"{v} %")


def amount(name, title, domain, line, start, lang):
    return Question(name, "amount", title, (line,), lo=domain.lo, hi=domain.hi, start=start,
                    steps=(domain.step, domain.step * 5, domain.step * 10), step=1,
                    fmt=lambda v: money(v, lang, "rm"))
