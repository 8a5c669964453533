"""The operator's entries: the square menu of the decision's kinds, and an action's
fields asked one at a time (lists, amounts, confirmations) then applied.

A mixin of `firmware.controller.Controller`: the frames `root` and `entry`.
"""
from __future__ import annotations

from engines.core.i18n import format_amount, text
from engines.core.actions import ANYTIME, CONFIRM, OUTCOME
from engines.core.decision import Interactions as I
from firmware.menus import MENU, Question, confirm_question, describe, kind_label, resolve
from firmware.screen import Screen
from firmware.screens.menu import Menu
from firmware.texts import t


class EntryFlow:
    # --------------------------------------------------------- the square menu
    def _key_root(self, frame, key):
        kinds = self._main_kinds() + [MENU]
        if self._move(frame, key, len(kinds)):
            return
        if key == "ok":
            kind = kinds[frame["sel"]]
            if kind == MENU:
                self.stack.append(Menu())
                return
            self._start_entry(kind)

    def _start_entry(self, kind, root=False, menu=False):
        frame = {"t": "entry", "kind": kind, "v": {}, "root": root, "menu": menu}
        self._reset_entry(frame)
        self.stack.append(frame)
        self._advance(frame)

    def _screen_root(self, frame):
        kinds = self._main_kinds()
        items = tuple(kind_label(self.ctx, k) for k in kinds) + (t("menu_item", self.lang),)
        return Screen("menu", self._title(), self.news[:1], items, frame["sel"] % len(items),
                      self._footer("root"))

    # ----------------------------------------------------------------- entries
    def _question(self, frame):
        """The entry's current Question (None when the action is complete and applied)."""
        d = self.session.decision()
        option = d.option(frame["kind"])
        if option is None:
            return None
        values = frame["v"]
        filled, question = resolve(self.ctx, frame["kind"], option, values)
        if question is None:
            act = self.session.actions.classes[frame["kind"]](**filled)
            if self.ctx.has(frame["kind"], CONFIRM) and "#ok" not in values:
                return confirm_question(self.ctx, act)
            return ("apply", act)
        if question.kind == "list" and self._menu_item(frame):
            question.items = tuple(question.items) + ((t("menu_item", self.lang), MENU),)
        return question

    def _menu_item(self, frame) -> bool:
        return (frame.get("root") or frame.get("menu")) and not frame["v"]

    def _reset_entry(self, frame):
        question = self._question(frame) if self.session is not None else None
        frame["sel"] = question.selected if isinstance(question, Question) else 0
        frame["amt"] = question.start if isinstance(question, Question) and question.kind == "amount" else None
        frame["si"] = question.step if isinstance(question, Question) and question.kind == "amount" else 0

    def _advance(self, frame) -> None:
        """Apply the entry's action once every field is known."""
        question = self._question(frame)
        if isinstance(question, tuple):
            act = question[1]
            if not self.apply(act):
                self._back_entry(frame)

    def _set(self, frame, key, value):
        frame["v"][key] = value
        self._reset_entry(frame)
        self._advance(frame)

    def _back_entry(self, frame):
        if frame["v"]:
            frame["v"].pop(list(frame["v"])[-1])
            self._reset_entry(frame)
        elif not frame.get("root"):
            self.stack.remove(frame)
            if len(self.stack) == 1:
                self._pop_to_root()

    def _key_entry(self, frame, key):
        question = self._question(frame)
        if isinstance(question, tuple) and key == "ok":
            self.apply(question[1])          # the one thing left to do, nothing to ask (end of turn)
            return
        if not isinstance(question, Question):
            return
        if key == "back":
            self._back_entry(frame)
            return
        if question.kind == "list":
            if self._move(frame, key, len(question.items)):
                return
            if key == "ok" and question.items:
                label, value = question.items[frame["sel"] % len(question.items)]
                if value == MENU:
                    self.stack.append(Menu())
                    return
                self._set(frame, question.key, value)
        elif question.kind == "amount":
            self._amount_key(frame, question, key)
        elif question.kind == "confirm" and self.ctx.has(frame["kind"], OUTCOME):
            # Dice entered by hand: a line per company, scrolled like the device's outcome.
            if key in ("up", "down"):
                frame["sel"] = max(0, frame.get("sel", 0) + (1 if key == "down" else -1))
            elif key == "ok":
                self._set(frame, "#ok", True)
        elif question.kind == "confirm":
            if self._move(frame, key, 2):
                return
            if key == "ok":
                if frame["sel"] == 0:
                    self._set(frame, "#ok", True)
                else:
                    self._back_entry(frame)

    def _amount_step_key(self, frame) -> bool:
        """On an amount, a long OK cycles the step size (the encoder has no long Up/Down)."""
        question = self._question(frame)
        if not isinstance(question, Question) or question.kind != "amount":
            return False
        frame["si"] = (frame.get("si", question.step) + 1) % len(question.steps)
        return True

    def _amount_key(self, frame, q, key):
        value, si = frame.get("amt", q.start), frame.get("si", q.step)
        step = q.steps[min(si, len(q.steps) - 1)]
        if key in ("up", "down"):
            value += step if key == "up" else -step
            if q.skip_zero and value == 0:
                value += step if key == "up" else -step
            frame["amt"] = min(max(value, q.lo), q.hi)
            if q.skip_zero and frame["amt"] == 0:
                frame["amt"] = step if key == "up" else -step
        elif key == "long_up":
            frame["si"] = min(si + 1, len(q.steps) - 1)
        elif key == "long_down":
            frame["si"] = max(si - 1, 0)
        elif key == "ok":
            self._set(frame, q.key, frame["amt"])

    def _screen_entry(self, frame):
        question = self._question(frame)
        if not isinstance(question, Question):
            lines = tuple(self.news[:1]) + ((describe(self.ctx, question[1]),) if isinstance(question, tuple) else ())
            return Screen("message", self._title(), lines, footer=self._footer("ok"))
        title = self._title() if frame.get("root") else question.title
        actor = self.session.decision().actor
        if not frame.get("root") and actor is not None and not self.ctx.has(frame["kind"], ANYTIME):
            title = t("entry_title", self.lang, player=self.session.players[actor], what=title)
        lines = question.lines
        d = self.session.decision()
        if frame.get("root") and d.interaction.kind == I.SPEAKING_ROUND:
            lines = (text("ui.line." + d.prompt.removeprefix("prompt."), self.lang, **self._params(d.params)),)
        if frame.get("root") and not frame["v"] and self.news:
            lines = tuple(self.news[:1]) + tuple(lines)
        if question.kind == "list":
            items = tuple(label for label, _ in question.items)
            return Screen("menu", title, lines, items, frame["sel"] % max(1, len(items)),
                          self._footer("root" if frame.get("root") and not frame["v"] else "menu"))
        if question.kind == "amount":
            value = frame.get("amt", question.start)
            step = question.steps[min(frame.get("si", 0), len(question.steps) - 1)]
            fmt = question.fmt or str
            lines = tuple(lines) + (t("amount_step", self.lang, step=format_amount(step, self.lang)),)
            return Screen("amount", title, lines, (fmt(value),), 0, self._footer("amount"))
        if self.ctx.has(frame["kind"], OUTCOME):
            frame["sel"] = min(frame.get("sel", 0), max(0, len(question.lines) - 1))
            return Screen("payday", title if frame.get("root") else self._title(), tuple(question.lines), (),
                          frame["sel"], self._footer("chance_back"))
        what = t("confirm_title", self.lang, what=kind_label(self.ctx, frame["kind"]))
        if actor is not None and not self.ctx.has(frame["kind"], ANYTIME):
            what = t("entry_title", self.lang, player=self.session.players[actor], what=what)
        return Screen("confirm", what, question.lines, question.items, frame["sel"] % 2, self._footer("confirm"))
