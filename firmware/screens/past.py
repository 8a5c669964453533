"""The games of earlier evenings, from the menu: the journal keeps every game, and the
report of each finished one sits in <state dir>/reports/game-<id>/ (copy it off the card
to print or share it). The box lists them newest first; OK shows one game's players,
length and standings, replayed from the journal."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engines import game_class
from engines.core.errors import CorbeilleError
from engines.core.i18n import money
from engines.registry import game_of, spec
from firmware.games import adapter
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.overlays import Message
from firmware.texts import t


def title_of(name: str, lang: str) -> str:
    try:
        return adapter(name).title(lang)
    except CorbeilleError:                 # a game the box no longer (or not yet) plays
        return name


@lru_cache(maxsize=8)
def standings(name: str, header_json: str, actions_json: tuple) -> tuple[bool, tuple]:
    """(over, [(rank, seat, fortune)]) of a journaled game, replayed once per content."""
    import json
    cls = game_class(name)
    header = json.loads(header_json)
    from firmware.session import read_recording     # a game an earlier version recorded reads its way
    _, game, _, problem = read_recording(cls, header, [json.loads(a) for a in actions_json])
    if problem is not None:
        raise problem[1]
    return game.over, tuple(game.ranking())


def game_lines(journal, game_id: int, lang: str) -> tuple[str, list[str]]:
    """(title, lines) saying what a journaled game was: players, length, standings."""
    import json
    header = journal.header(game_id)
    name = game_of(header)
    actions = journal.actions(game_id)
    title = t("past.title", lang, id=game_id, game=title_of(name, lang))
    lines = [", ".join(header.get("players", [])), t("past.actions", lang, count=len(actions))]
    try:
        over, ranking = standings(name, json.dumps(header, sort_keys=True),
                                  tuple(json.dumps(a, sort_keys=True) for a in actions))
    except (CorbeilleError, ValueError, KeyError) as error:
        return title, lines + [t("past.unreadable", lang, error=str(error))]
    players = header.get("players", [])
    lines.append(t("past.over" if over else "past.unfinished", lang))
    lines += [f"{rank}. {players[seat]}  {money(value, lang, spec(name).prefix)}" for rank, seat, value in ranking]
    report = journal.get_meta(f"report.{game_id}")
    if report:
        lines.append(t("past.report", lang, path=report))
    return title, lines


@frame_type("past")
@dataclass
class PastGames(Frame):
    """Every game of the journal, newest first; OK shows one."""
    saved = False
    sel: int = 0

    def games(self, ctl):
        journal = ctl.session.journal if ctl.session is not None else None
        return [] if journal is None else list(reversed(journal.games()))

    def key(self, ctl, key):
        games = self.games(ctl)
        if key == "back" or (key == "ok" and not games):
            ctl.stack.pop()
        elif self.move(key, len(games)):
            return
        elif key == "ok":
            game_id, _ = games[self.sel % len(games)]
            title, lines = game_lines(ctl.session.journal, game_id, ctl.lang)
            ctl.stack.append(Message(title=title, lines=lines))

    def draw(self, ctl):
        lang, games = ctl.lang, self.games(ctl)
        if not games:
            return Screen("message", t("menu.past", lang), (t("past.none", lang),), (), 0, ctl.kit.footer("close"))
        current = ctl.session.game_id
        items = tuple(f"{gid}. {title_of(game_of(h), lang)}{' *' if gid == current else ''} · {' '.join(h.get('players', []))}"
                      for gid, h in games)
        return Screen("menu", t("menu.past", lang), (), items, self.sel % len(items), ctl.kit.footer("menu"))
