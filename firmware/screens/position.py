"""A game already under way entered on the box ("Partie en cours", in the setup's Options).

The table that moves a game onto the box mid-way enters where it stands as the game's own
corrections (engines/core/corrections.py): each player's cash and holdings, the board or
the map, the pawns, whose turn it is. This screen lists the corrections the pending decision
offers, in its order, each started as the menu's Corrections start it (its fields asked one
at a time, the box's reason filled in, one journal action each), and comes back after each
one, until "Terminé : jouer" hands the game to its usual screens. Nothing here knows a game:
what may be corrected, and when, is the engine's decision. The list opens at the start of a
turn (the game's `turn_start`, engines/core/table.py): the game's own set-up (a deal, the
first player, the plaques) is played first as usual, so it cannot undo what was entered.
"""
from __future__ import annotations

from dataclasses import dataclass

from firmware.menus import kind_label
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.menu import corrections
from firmware.texts import t

DONE = "#done"


@frame_type("position")
@dataclass
class Position(Frame):
    sel: int = 0

    def entries(self, ctl) -> list[str]:
        return corrections(ctl, ctl.session.decision()) + [DONE]

    def key(self, ctl, key):
        entries = self.entries(ctl)
        if self.move(key, len(entries)) or key != "ok":
            return
        kind = entries[self.sel % len(entries)]
        if kind == DONE:
            ctl.position = False
            ctl.flow.sync(force=True)
        else:
            ctl.start_entry(kind, menu=True)

    def draw(self, ctl):
        items = tuple(t("position.done", ctl.lang) if k == DONE else kind_label(ctl.kit.ctx, k) for k in self.entries(ctl))
        return Screen("menu", t("position.title", ctl.lang), (t("position.line", ctl.lang),), items,
                      self.sel % len(items), ctl.kit.footer("root"))
