"""The operator's entries: the square menu of the decision's kinds (`root`), and an
action's fields asked one at a time (lists, amounts, confirmations) then applied (`entry`)."""
from __future__ import annotations

from dataclasses import dataclass, field

from engines.core.actions import ANYTIME, CONFIRM, OUTCOME
from engines.core.decision import Interactions as I
from engines.core.i18n import format_amount, text
from firmware.menus import MENU, Question, confirm_question, describe, kind_label, resolve
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.menu import Menu
from firmware.texts import t


@frame_type("root")
@dataclass
class Root(Frame):
    """The square menu: the decision's main kinds, then Menu."""
    sel: int = 0

    def key(self, ctl, key):
        kinds = ctl.flow.main_kinds() + [MENU]
        if self.move(key, len(kinds)):
            return
        if key == "ok":
            kind = kinds[self.sel]
            if kind == MENU:
                ctl.stack.append(Menu())
                return
            ctl.start_entry(kind)

    def draw(self, ctl):
        # The entries depend on the position and the language only: built once for both.
        items = ctl.kit.memo("root_items", lambda: tuple(ctl.kit.kind_label(k) for k in ctl.flow.main_kinds())
                          + (t("menu_item", ctl.lang),))
        return Screen("menu", ctl.kit.title(), ctl.news[:1], items, self.sel % len(items), ctl.kit.footer("root"))


@frame_type("entry")
@dataclass
class Entry(Frame):
    """One action's fields, asked in order; `v` holds the answers so far, `amt` and `si` an
    amount being set and its step size. A `root` entry is the decision's only action (Back
    does not leave it); a `menu` one was opened from the menu or stands in for seat buttons."""
    kind: str = ""
    v: dict = field(default_factory=dict)
    root: bool = False
    menu: bool = False
    sel: int = 0
    amt: int | None = None
    si: int = 0

    def question(self, ctl):
        """The current Question, ("apply", action) when every field is known, or None when
        the decision no longer offers the action. Built once per position, language and
        answers so far: a press asks for it, then the frame it leads to again."""
        return ctl.kit.memo(("question", self.kind, self.root, self.menu, repr(self.v)),
                         lambda: self._question(ctl))

    def _question(self, ctl):
        option = ctl.session.decision().option(self.kind)
        if option is None:
            return None
        filled, question = resolve(ctl.kit.ctx, self.kind, option, self.v)
        if question is None:
            act = ctl.session.actions.classes[self.kind](**filled)
            if ctl.kit.ctx.has(self.kind, CONFIRM) and "#ok" not in self.v:
                return confirm_question(ctl.kit.ctx, act)
            return ("apply", act)
        if question.kind == "list" and (self.root or self.menu) and not self.v:
            question.items = tuple(question.items) + ((t("menu_item", ctl.lang), MENU),)
        return question

    def reset(self, ctl):
        """Selection and amount as the new question proposes them; returns that question."""
        question = self.question(ctl) if ctl.session is not None else None
        asks = isinstance(question, Question)
        self.sel = question.selected if asks else 0
        self.amt = question.start if asks and question.kind == "amount" else None
        self.si = question.step if asks and question.kind == "amount" else 0
        return question

    def advance(self, ctl, question=None) -> None:
        """Apply the action once every field is known (`question`: this frame's question
        now, when the caller just built it)."""
        if question is None:
            question = self.question(ctl)
        if isinstance(question, tuple) and not ctl.apply(question[1]):
            self.back(ctl)

    def answer(self, ctl, key, value):
        self.v[key] = value
        self.advance(ctl, self.reset(ctl))     # one question built for both (the answers did not change)

    def back(self, ctl):
        if self.v:
            self.v.pop(list(self.v)[-1])
            self.reset(ctl)
        elif not self.root:
            ctl.stack[:] = [f for f in ctl.stack if f is not self]
            if len(ctl.stack) == 1:
                ctl.pop_to_root()

    def key(self, ctl, key):
        question = self.question(ctl)
        if isinstance(question, tuple) and key == "ok":
            ctl.apply(question[1])          # the one thing left to do, nothing to ask (end of turn)
            return
        if not isinstance(question, Question):
            return
        if key == "back":
            self.back(ctl)
            return
        if question.kind == "list":
            if self.move(key, len(question.items)):
                return
            if key == "ok" and question.items:
                label, value = question.items[self.sel % len(question.items)]
                if value == MENU:
                    ctl.stack.append(Menu())
                    return
                self.answer(ctl, question.key, value)
        elif question.kind == "amount":
            self.amount_key(ctl, question, key)
        elif question.kind == "confirm" and ctl.kit.ctx.has(self.kind, OUTCOME):
            # Dice entered by hand: a line per company, scrolled like the device's outcome.
            if self.scroll(key):
                return
            if key == "ok":
                self.answer(ctl, "#ok", True)
        elif question.kind == "confirm":
            if self.move(key, 2):
                return
            if key == "ok":
                if self.sel == 0:
                    self.answer(ctl, "#ok", True)
                else:
                    self.back(ctl)

    def amount_step_key(self, ctl) -> bool:
        """On an amount, a long OK cycles the step size (the encoder has no long Up/Down)."""
        question = self.question(ctl)
        if not isinstance(question, Question) or question.kind != "amount":
            return False
        self.si = (self.si + 1) % len(question.steps)
        return True

    def amount_key(self, ctl, q, key):
        value = self.amt if self.amt is not None else q.start
        step = q.steps[min(self.si, len(q.steps) - 1)]
        if key in ("up", "down"):
            value += step if key == "up" else -step
            if q.skip_zero and value == 0:
                value += step if key == "up" else -step
            self.amt = min(max(value, q.lo), q.hi)
            if q.skip_zero and self.amt == 0:
                self.amt = step if key == "up" else -step
        elif key == "long_up":
            self.si = min(self.si + 1, len(q.steps) - 1)
        elif key == "long_down":
            self.si = max(self.si - 1, 0)
        elif key == "ok":
            self.answer(ctl, q.key, self.amt)

    def draw(self, ctl):
        question = self.question(ctl)
        if not isinstance(question, Question):
            lines = tuple(ctl.news[:1]) + ((describe(ctl.kit.ctx, question[1]),) if isinstance(question, tuple) else ())
            return Screen("message", ctl.kit.title(), lines, footer=ctl.kit.footer("ok"))
        title = ctl.kit.title() if self.root else question.title
        d = ctl.session.decision()
        actor = d.actor
        if not self.root and actor is not None and not ctl.kit.ctx.has(self.kind, ANYTIME):
            title = t("entry_title", ctl.lang, player=ctl.session.players[actor], what=title)
        lines = question.lines
        if self.root and d.interaction.kind == I.SPEAKING_ROUND:
            lines = (text("ui.line." + d.prompt.removeprefix("prompt."), ctl.lang, **ctl.kit.params(d.params)),)
        if self.root and not self.v and ctl.news:
            lines = tuple(ctl.news[:1]) + tuple(lines)
        if question.kind == "list":
            items = tuple(label for label, _ in question.items)
            return Screen("menu", title, lines, items, self.sel % max(1, len(items)),
                          ctl.kit.footer("root" if self.root and not self.v else "menu"))
        if question.kind == "amount":
            value = self.amt if self.amt is not None else question.start
            step = question.steps[min(self.si, len(question.steps) - 1)]
            fmt = question.fmt or str
            lines = tuple(lines) + (t("amount_step", ctl.lang, step=format_amount(step, ctl.lang)),)
            return Screen("amount", title, lines, (fmt(value),), 0, ctl.kit.footer("amount"))
        if ctl.kit.ctx.has(self.kind, OUTCOME):
            self.sel = min(self.sel, max(0, len(question.lines) - 1))
            return Screen("payday", title if self.root else ctl.kit.title(), tuple(question.lines), (),
                          self.sel, ctl.kit.footer("chance_back"))
        what = t("confirm_title", ctl.lang, what=kind_label(ctl.kit.ctx, self.kind))
        if actor is not None and not ctl.kit.ctx.has(self.kind, ANYTIME):
            what = t("entry_title", ctl.lang, player=ctl.session.players[actor], what=what)
        return Screen("confirm", what, question.lines, question.items, self.sel % 2, ctl.kit.footer("confirm"))
