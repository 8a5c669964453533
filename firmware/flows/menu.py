"""The menu's one controller-wide setting: the language. The menu and its screens are
screen objects in firmware/screens/menu.py.

A mixin of `firmware.controller.Controller`.
"""
from __future__ import annotations


class MenuFlow:
    def set_lang(self, lang: str) -> None:
        self.lang = lang
        if getattr(self, "news_again", None) is not None:
            self.news = self.news_again()      # the line above the menu follows the switch too
        if self.journal is not None:
            self.journal.set_meta("lang", lang)
        self.changed = True
