"""What every game's adapter derives from the game's registry entry.

A game's `GameSpec` (engines/registry.py) names the game, the prefix of its catalog keys,
its formats, its settings and its box module. From those, `GameUI` answers what the setup
and the end of a game ask of every game the same way: the game's title, the formats offered
and their labels, the shipped box file, the header of a new game, the journal meta key of an
unverified box file the table accepted, and the final ranking's lines (from the snapshot's
one row shape, engines/core/table.py). An adapter (firmware/games/<game>.py) sets `spec` to
its game's entry and keeps only what is its game's own: the quotation board, its labels,
its confirmation and news lines, the questions only it asks.
"""
from __future__ import annotations

from importlib import import_module

from engines.core.i18n import money
from firmware.games.news import news_line
from firmware.texts import t


def ranking_lines(rows, lang: str, fortunes: bool = True, prefix: str = "") -> list[str]:
    """Body lines of the ranking screen: "1. Ana\\t6 300 000 $" (ties share a rank), or the
    rank and name alone where the fortunes are not to be shown; each fortune in the money of
    the game of catalog prefix `prefix`."""
    if not fortunes:
        return [f"{r['rank']}. {r['name']}" for r in rows]
    return [f"{r['rank']}. {r['name']}\t{money(r['fortune'], lang, prefix)}" for r in rows]


class GameUI:
    spec = None              # the game's registry entry (its package's GAME)
    NEWS_ORDER: tuple = ()   # the events that make the news line, the most telling first

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def prefix(self) -> str:
        """The game's own catalog keys: kind.<prefix>.*, act.<prefix>.* texts."""
        return self.spec.prefix + "."

    @property
    def rounds(self) -> bool:
        """Whether the table agrees on a number of rounds (the game declares a `rounds` setting)."""
        return "rounds" in self.spec.settings

    @property
    def box_meta(self) -> str:
        """The journal meta key of the unverified box file the table accepted."""
        return "box_confirmed." + self.name

    # ------------------------------------------------------------------ setup
    def title(self, lang):
        return t("game." + self.spec.prefix, lang)

    def choices(self, lang):
        """The formats the setup offers once this game is chosen: (label, value); none for
        a game with one format (no format question)."""
        return [(self.label(f, lang), f) for f in self.spec.formats]

    def label(self, value, lang):
        return t("format." + self.prefix + value, lang) if self.spec.formats else self.title(lang)

    def load_box(self, path=None):
        """The owner's box file at `path`, else the one the game ships (the setup checks
        whether its owner verified it)."""
        return import_module(self.spec.box).load_box(path)

    def header(self, value, names, seed, settings, rounds):
        """A new game's header: `value` the format chosen (a game with formats), `settings`
        the game's declared settings as the setup chose them, `rounds` the table's agreed
        number (a game that asks it)."""
        header = {"game": self.name}
        if self.spec.formats:
            header["format"] = value
        header.update(players=names, seed=seed, settings=dict(settings))
        if self.rounds:
            header["settings"]["rounds"] = rounds
        return header

    # ---------------------------------------------------------------- screens
    def ranking_lines(self, snap, lang):
        """The final ranking; a fortune that counts hidden cash stays hidden."""
        return ranking_lines(snap.get("ranking", []), lang, "players.*.cash" not in snap.get("private", []),
                             self.spec.prefix)

    def company_label(self, ctx, company, kind=None):
        return str(company)

    def act_key(self, act, key):
        return key

    def confirm_lines(self, ctx, act, events, describe):
        return [describe(ctx, act)]

    def news(self, ctx, act, events, describe):
        return news_line(ctx, act, events, describe, self.NEWS_ORDER)

    def report(self, session, lang):
        """(header details, box grouping the prices in the report's chart): none by default."""
        return {}, None
