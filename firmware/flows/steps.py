"""One-screen steps the operator confirms: chance drawn by the device, the settlement
of a company's buyers, payday, device dice for who starts, and the final ranking.

A mixin of `firmware.controller.Controller`: the frames `chance`, `settle`, `payday`,
`first_dice` and `over`.
"""
from __future__ import annotations

from engines.core.decision import Interactions as I
from engines.core.i18n import format_amount
from firmware.menus import chance_lines
from firmware.screen import Screen
from firmware.screens.menu import Menu
from firmware.texts import t


class StepFlows:
    # --------------------------------------------------------- chance (device)
    def _chance_action(self, frame):
        from firmware.script import fill_dice
        return fill_dice(self.session.game, self.session.actions.classes[frame["kind"]]())

    def _key_chance(self, frame, key):
        if key in ("up", "down"):
            frame["sel"] = max(0, frame["sel"] + (1 if key == "down" else -1))
        elif key == "ok":
            self.apply(self._chance_action(frame))

    def _screen_chance(self, frame):
        lines = tuple(chance_lines(self.ctx, self._chance_action(frame)))
        frame["sel"] = min(frame["sel"], max(0, len(lines) - 1))
        return Screen("payday", self._title(), lines, (), frame["sel"], self._footer("chance"))

    # ------------------------------------------------------------------ settle
    def _key_settle(self, frame, key):
        if self._move(frame, key, 2):
            return
        if key == "ok":
            if frame["sel"] == 0:
                self.apply(self._act(I.CONFIRM))
            else:
                self.stack.append(Menu())

    def _settle_lines(self):
        """A line per buyer with what they pay, as the engine's decision lists them."""
        lines = self.session.decision().interaction.params.get("lines", [])
        return tuple(f"{self.session.players[x['player']]} {x['lots']}\t{format_amount(x['amount'], self.lang)}"
                     for x in lines)

    def _screen_settle(self, frame):
        items = (t("settle.ok", self.lang), t("menu_short", self.lang))
        return Screen("confirm", self._title(), self._settle_lines(), items, frame["sel"] % 2, self._footer("confirm"))

    # ------------------------------------------------------------------ payday
    def _key_payday(self, frame, key):
        if key in ("up", "down"):
            frame["sel"] = max(0, frame["sel"] + (1 if key == "down" else -1))
        elif key == "ok":
            self.apply(self._act(I.CONFIRM))

    def _screen_payday(self, frame):
        shown = self.session.decision().interaction.params
        lines = tuple(self.ui.payday_lines(shown, self.lang))
        frame["sel"] = min(frame["sel"], max(0, len(lines) - 1))
        return Screen("payday", self._title(), lines, (), frame["sel"], self._footer("payday"))

    # ------------------------------------------------------------------- first
    def _dice_for_first(self):
        """The device's dice for who starts, as the engine rolled them: ({seat: total}, seat)."""
        shown = self.session.decision().interaction.params
        return {seat: total for seat, total in shown["rolls"]}, shown["first"]

    def _key_first_dice(self, frame, key):
        if self._move(frame, key, 2):
            return
        if key == "ok":
            if frame["sel"] == 0:
                _, first = self._dice_for_first()
                self.apply(self._act(I.CHOOSE, player=first))
            else:
                self.stack.append(Menu())

    def _screen_first_dice(self, frame):
        rolls, first = self._dice_for_first()
        line = " ".join(f"{self.session.players[s]} {r}" for s, r in rolls.items())
        lines = (line, t("first_is", self.lang, player=self.session.players[first]))
        return Screen("confirm", self._title(), lines, (t("yes", self.lang), t("menu_short", self.lang)),
                      frame["sel"] % 2, self._footer("confirm"))

    # --------------------------------------------------------------- game over
    def _key_over(self, frame, key):
        if key == "ok":
            self.stack.append(Menu())
        elif key in ("up", "down"):
            frame["sel"] = max(0, frame.get("sel", 0) + (1 if key == "down" else -1))

    def _screen_over(self, frame):
        snap = self.session.snapshot()
        lines = list(self.ui.ranking_lines(snap, self.lang))
        if getattr(self, "report_path", None):
            lines.append(t("report_saved", self.lang))
        return Screen("ranking", self._title(), tuple(lines), (), frame.get("sel", 0), self._footer("over"))
