"""One-screen steps the operator confirms: chance drawn by the device, the settlement of a
company's buyers, payday, device dice for who starts, and the final ranking. Each is a
root frame, picked by the controller from the decision's interaction."""
from __future__ import annotations

from dataclasses import dataclass

from engines.core.decision import Interactions as I
from engines.core.i18n import money
from firmware.menus import chance_lines
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.menu import Menu
from firmware.texts import t


@frame_type("chance")
@dataclass
class Chance(Frame):
    """The device draws (dice, an event tile) or a payment: the outcome shown a line per
    company or player (scrolled), applied on OK."""
    kind: str = ""
    sel: int = 0

    def action(self, ctl):
        from firmware.script import fill_dice
        return fill_dice(ctl.session.game, ctl.session.actions.classes[self.kind]())

    def key(self, ctl, key):
        if self.scroll(key):
            return
        if key == "ok":
            ctl.apply(self.action(ctl))

    def draw(self, ctl):
        lines = tuple(chance_lines(ctl.kit.ctx, self.action(ctl)))
        self.sel = min(self.sel, max(0, len(lines) - 1))
        return Screen("payday", ctl.kit.title(), lines, (), self.sel, ctl.kit.footer("chance"))


@frame_type("settle")
@dataclass
class Settle(Frame):
    """A line per buyer with what they pay, as the decision lists them; OK or the menu."""
    sel: int = 0

    def key(self, ctl, key):
        if self.move(key, 2):
            return
        if key == "ok":
            if self.sel == 0:
                ctl.apply(ctl.flow.act(I.CONFIRM))
            else:
                ctl.stack.append(Menu())

    def draw(self, ctl):
        lines = ctl.session.decision().interaction.params.get("lines", [])
        shown = tuple(f"{ctl.session.players[x['player']]} {x['lots']}\t{money(x['amount'], ctl.lang, ctl.ui.prefix)}"
                      for x in lines)
        items = (t("settle.ok", ctl.lang), t("menu_short", ctl.lang))
        return Screen("confirm", ctl.kit.title(), shown, items, self.sel % 2, ctl.kit.footer("confirm"))


@frame_type("payday")
@dataclass
class Payday(Frame):
    """Payday's breakdown (the game's adapter words it), scrolled; OK pays."""
    sel: int = 0

    def key(self, ctl, key):
        if self.scroll(key):
            return
        if key == "ok":
            ctl.apply(ctl.flow.act(I.CONFIRM))

    def draw(self, ctl):
        lines = tuple(ctl.ui.payday_lines(ctl.session.decision().interaction.params, ctl.lang))
        self.sel = min(self.sel, max(0, len(lines) - 1))
        return Screen("payday", ctl.kit.title(), lines, (), self.sel, ctl.kit.footer("payday"))


@frame_type("first_dice")
@dataclass
class FirstDice(Frame):
    """Who starts, from the dice the engine rolled: confirm, or the menu."""
    sel: int = 0

    @staticmethod
    def rolls(ctl):
        """({seat: total}, first seat) as the decision shows them."""
        shown = ctl.session.decision().interaction.params
        return {seat: total for seat, total in shown["rolls"]}, shown["first"]

    def key(self, ctl, key):
        if self.move(key, 2):
            return
        if key == "ok":
            if self.sel == 0:
                ctl.apply(ctl.flow.act(I.CHOOSE, player=self.rolls(ctl)[1]))
            else:
                ctl.stack.append(Menu())

    def draw(self, ctl):
        rolls, first = self.rolls(ctl)
        line = " ".join(f"{ctl.session.players[s]} {r}" for s, r in rolls.items())
        lines = (line, t("first_is", ctl.lang, player=ctl.session.players[first]))
        return Screen("confirm", ctl.kit.title(), lines, (t("yes", ctl.lang), t("menu_short", ctl.lang)),
                      self.sel % 2, ctl.kit.footer("confirm"))


@frame_type("over")
@dataclass
class Over(Frame):
    """The final ranking (scrolled); OK opens the menu (undo, new game)."""
    sel: int = 0

    def key(self, ctl, key):
        if key == "ok":
            ctl.stack.append(Menu())
        else:
            self.scroll(key)

    def draw(self, ctl):
        lines = list(ctl.ui.ranking_lines(ctl.session.snapshot(), ctl.lang))
        if getattr(ctl, "report_path", None):
            lines.append(t("report_saved", ctl.lang))
        return Screen("ranking", ctl.kit.title(), tuple(lines), (), self.sel, ctl.kit.footer("over"))
