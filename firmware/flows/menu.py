"""The menu's one controller-wide setting: the language. The menu and its screens are
screen objects in firmware/screens/menu.py.

A mixin of `firmware.controller.Controller`.
"""
from __future__ import annotations


class MenuFlow:
    def set_lang(self, lang: str) -> None:
        self.lang = lang
        again = getattr(self, "news_again", None)
        # The line above the menu follows the switch too; one brought back by a restart (its
        # text saved, not what made it) cannot, and goes rather than stay in the other language.
        self.news = again() if again is not None else ()
        if self.journal is not None:
            self.journal.set_meta("lang", lang)
        self.changed = True
