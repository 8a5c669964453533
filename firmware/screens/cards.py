"""A card the box does not know, tapped at setup: whose is it? Asked once; the box
remembers the answer (firmware/tag_book.py).

The names the box can propose come first (the configuration's players, the previous
game's table, those not yet at this table), then "Épeler un nom": the name spelled on the
buttons, a letter at a time (Up/Down choose the letter, OK adds it, Back erases the last
one, a long OK ends the name). A name already at the table, an empty or a too long one is
refused with a message naming what is wrong, and the name so far is kept.
"""
from __future__ import annotations

from dataclasses import dataclass

from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.texts import t

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÉÈÇ-"
MAX_LETTERS = 10          # a name fits beside an amount on the 21-character screen
SPELL = "#spell"


@frame_type("card_name")
@dataclass
class CardName(Frame):
    """An unknown card at setup: a name from the list, or spelled."""
    tag: str = ""
    sel: int = 0
    spelled: str | None = None    # None: the list of names; a text: the name being spelled
    letter: int = 0               # the letter Up/Down are on
    modal = True                  # a long OK ends the name here, it does not open the menu

    def candidates(self, ctl) -> list[str]:
        """The names the setup proposes for a new card (Setup.proposed)."""
        return ctl.stack[0].proposed(ctl)

    def card(self, ctl, tag):
        """Another card while this one is named: one card at a time (a buzz)."""
        if tag != self.tag:
            ctl.beeps.append("error")

    def key(self, ctl, key):
        if self.spelled is None:
            self._key_list(ctl, key)
        else:
            self._key_spell(ctl, key)

    def _key_list(self, ctl, key):
        items = self.candidates(ctl) + [SPELL]
        if key == "back":
            ctl.stack.pop()                      # the card is left as it was: unknown
            return
        if self.move(key, len(items)) or key != "ok":
            return
        chosen = items[self.sel % len(items)]
        if chosen == SPELL:
            self.spelled, self.letter = "", 0
        else:
            self._done(ctl, chosen)

    def _key_spell(self, ctl, key):
        if key in ("up", "down"):
            self.letter = (self.letter + (1 if key == "down" else -1)) % len(LETTERS)
        elif key == "ok":
            if len(self.spelled) >= MAX_LETTERS:
                ctl.error(t("card.too_long", ctl.lang, n=MAX_LETTERS))
                return
            self.spelled += self._letter()
            self.letter = 0
        elif key == "back":
            if self.spelled:
                self.spelled = self.spelled[:-1]
            else:
                self.spelled = None
        elif key == "long_ok":
            name = self.spelled
            if not name:
                ctl.error(t("card.empty", ctl.lang))
            elif name.lower() in {x.lower() for x in ctl.stack[0].seated()}:
                ctl.error(t("card.taken", ctl.lang, name=name))
            else:
                self._done(ctl, name)

    def _letter(self) -> str:
        """The letter Up/Down are on, as it goes in the name: a capital first."""
        letter = LETTERS[self.letter % len(LETTERS)]
        return letter if not self.spelled else letter.lower()

    def _done(self, ctl, name):
        ctl.tag_book.remember(ctl.journal, self.tag, name)
        ctl.stack.pop()
        ctl.stack[0].place(ctl, name, self.tag)

    def draw(self, ctl):
        lang = ctl.lang
        if self.spelled is None:
            items = tuple(self.candidates(ctl)) + (t("card.spell", lang),)
            return Screen("menu", t("rfid.title", lang), (t("rfid.line", lang),), items,
                          self.sel % len(items), ctl.kit.footer("menu"))
        lines = (t("card.name_so_far", lang, name=self.spelled or "…"), t("card.spell_done", lang))
        return Screen("amount", t("card.spell_title", lang), lines, (self._letter(),), 0, ctl.kit.footer("spell"))
