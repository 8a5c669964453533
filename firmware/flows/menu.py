"""The menu (a long OK): reveal, private view, history, undo, corrections, close,
language, new game, and the small screens it opens.

A mixin of `firmware.controller.Controller`: the frames `menu`, `corr`, `who`, `history`
and `newgame`.
"""
from __future__ import annotations

from engines.core.actions import ANYTIME, CORRECTION
from firmware.menus import _is_seat, describe, kind_label
from firmware.screen import Screen
from firmware.texts import t


class MenuFlow:
    # ---------------------------------------------------------------- the menu
    def _menu_items(self):
        lang = self.lang
        d = self.session.decision()
        # Actions allowed at any time (not corrections): a player's own (revealing a rumour)
        # open the menu; the table's (closing the game) come after the corrections.
        anytime = [o for o in d.options if self.ctx.has(o.kind, ANYTIME) and not self.ctx.has(o.kind, CORRECTION)]
        players = [o.kind for o in anytime if self._by_a_player(o.kind)]
        table = [o.kind for o in anytime if not self._by_a_player(o.kind)]
        items = [(t("menu." + kind, lang), ("entry", kind)) for kind in players]
        items.append((t("menu.private", lang), "private"))
        items.append((t("menu.history", lang), "history"))
        if self.session.last_action is not None:
            items.append((t("menu.undo", lang), "undo"))
        if self._corrections(d):
            items.append((t("menu.corrections", lang), "corr"))
        items += [(t("menu." + kind, lang), ("entry", kind)) for kind in table]
        items.append((t("menu.lang", lang), "lang"))
        items.append((t("menu.new_game", lang), "new"))
        return items

    def _key_menu(self, frame, key):
        items = self._menu_items()
        if key == "back":
            self._pop()
            return
        if self._move(frame, key, len(items)):
            return
        if key != "ok":
            return
        choice = items[frame["sel"] % len(items)][1]
        if isinstance(choice, tuple):
            self._start_entry(choice[1])
        elif choice == "private":
            self.stack.append({"t": "who", "sel": 0})
        elif choice == "history":
            self.stack.append({"t": "history", "sel": 0})
        elif choice == "undo":
            self._offer_undo()
        elif choice == "corr":
            self.stack.append({"t": "corr", "sel": 0})
        elif choice == "lang":
            self.set_lang("en" if self.lang == "fr" else "fr")
        elif choice == "new":
            self.stack.append({"t": "newgame", "sel": 1})

    def _by_a_player(self, kind) -> bool:
        """Whether the action names a player (a seat field) rather than being the table's."""
        return any(_is_seat(typ) for _, typ, _ in self.session.actions.fields(kind))

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        if self.journal is not None:
            self.journal.set_meta("lang", lang)
        self.changed = True

    def _screen_menu(self, frame):
        items = tuple(label for label, _ in self._menu_items())
        title = t("menu.title", self.lang)
        return Screen("menu", title, (), items, frame["sel"] % len(items), self._footer("menu"))

    def _corrections(self, decision) -> list[str]:
        """The corrections the decision offers, in its order."""
        return [o.kind for o in decision.options if self.ctx.has(o.kind, CORRECTION)]

    # ------------------------------------------------------------- its screens
    def _key_corr(self, frame, key):
        d = self.session.decision()
        kinds = self._corrections(d)
        if key == "back":
            self.stack.pop()
            return
        if self._move(frame, key, len(kinds)):
            return
        if key == "ok" and kinds:
            self._start_entry(kinds[frame["sel"] % len(kinds)])

    def _screen_corr(self, frame):
        d = self.session.decision()
        items = tuple(kind_label(self.ctx, k) for k in self._corrections(d))
        return Screen("menu", t("menu.corrections", self.lang), (), items, frame["sel"] % max(1, len(items)),
                      self._footer("menu"))

    def _key_who(self, frame, key):
        players = self.session.players
        if key == "back":
            self.stack.pop()
            return
        if self._move(frame, key, len(players)):
            return
        if key == "ok":
            self.stack.pop()
            self._private(frame["sel"] % len(players))

    def _screen_who(self, frame):
        items = tuple(self.session.players)
        return Screen("menu", t("menu.private", self.lang), (t("q.player", self.lang),), items,
                      frame["sel"] % len(items), self._footer("menu"))

    def _key_history(self, frame, key):
        if key in ("up", "down"):
            frame["sel"] = max(0, frame["sel"] + (1 if key == "down" else -1))
        elif key in ("ok", "back"):
            self.stack.pop()

    def _screen_history(self, frame):
        log = self.session.game.log
        lines = tuple(f"{i}. {describe(self.ctx, a)}" for i, a in reversed(list(enumerate(log, 1))))
        frame["sel"] = min(frame["sel"], max(0, len(lines) - 1))
        return Screen("message", t("menu.history", self.lang), lines or (t("history.empty", self.lang),),
                      (), frame["sel"], self._footer("scroll"))

    def _key_newgame(self, frame, key):
        if self._move(frame, key, 2):
            return
        if key == "back" or (key == "ok" and frame["sel"] == 1):
            self.stack.pop()
        elif key == "ok":
            self.stack = [self._setup_frame()]

    def _screen_newgame(self, frame):
        return Screen("confirm", t("menu.new_game", self.lang), (t("newgame.line", self.lang),),
                      (t("yes", self.lang), t("no", self.lang)), frame["sel"] % 2, self._footer("confirm"))
