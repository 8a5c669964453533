"""Overlays any screen can raise: an error, a message, a player's private view, an RFID
tag to assign, and the undo confirmation."""
from __future__ import annotations

from dataclasses import dataclass, field

from firmware.menus import describe
from firmware.screen import Screen
from firmware.screens.base import Frame, Page, frame_type
from firmware.texts import t


@frame_type("error")
@dataclass
class Error(Frame):
    """A refused action or a failure, said until OK or Back; a refusal (`said`) in the
    language the screen is drawn in, should the menu opened over it switch the language."""
    saved = False
    msg: str = ""
    said: object = None

    def key(self, ctl, key):
        if key in ("ok", "back"):
            ctl.stack.pop()

    def draw(self, ctl):
        msg = self.said.message(ctl.lang) if self.said is not None else self.msg
        return Screen("error", t("error.title", ctl.lang), (msg,), footer=ctl.kit.footer("ok"))


@frame_type("message")
@dataclass
class Message(Page):
    """A few lines to read (the journal repaired or set aside), scrolled, closed by OK or Back."""
    saved = False
    title: str = ""
    lines: list = field(default_factory=list)
    sel: int = 0

    def draw(self, ctl):
        return Screen("message", self.title, tuple(self.lines), (), self.sel, ctl.kit.footer("ok"))


@frame_type("private")
@dataclass
class Private(Frame):
    """A player's private view, shown for a few seconds; any key closes it."""
    saved = False
    modal = True                        # every key (long ones too) closes it
    seat: int = 0
    until: float = 0.0

    def key(self, ctl, key):
        ctl.pop()

    def tick(self, ctl, now):
        if now >= self.until:
            ctl.stack.pop()
            if len(ctl.stack) == 1:
                ctl.pop_to_root()
            ctl.changed = True

    def deadline(self, ctl):
        return self.until

    def draw(self, ctl):
        name, lines = ctl.ui.private_lines(ctl.session, self.seat, ctl.lang)
        return Screen("private", t("private.title", ctl.lang, player=name), tuple(lines),
                      footer=ctl.kit.footer("close"))


@frame_type("rfid")
@dataclass
class Rfid(Frame):
    """An unknown RFID tag: whose is it (or ignore it)."""
    tag: str = ""
    sel: int = 0

    def key(self, ctl, key):
        players = ctl.session.players
        count = len(players) + 1
        if key == "back":
            ctl.stack.pop()
            return
        if self.move(key, count):
            return
        if key == "ok":
            ctl.stack.pop()
            sel = self.sel % count
            if sel < len(players):
                ctl.tag_book.seats[self.tag] = sel
                ctl.tag_book.save(ctl.journal, ctl.session.game_id)
                ctl.tag_book.remember(ctl.journal, self.tag, players[sel])   # the box knows this card from now on
                ctl.private(sel)

    def draw(self, ctl):
        items = tuple(ctl.session.players) + (t("rfid.ignore", ctl.lang),)
        return Screen("menu", t("rfid.title", ctl.lang), (t("rfid.line", ctl.lang),), items,
                      self.sel % len(items), ctl.kit.footer("menu"))


@frame_type("undo")
@dataclass
class Undo(Frame):
    """Undo the last action? Yes / No."""
    sel: int = 0

    def key(self, ctl, key):
        self.yes_no(ctl, key, ctl.undo)

    def draw(self, ctl):
        last = ctl.session.last_action
        line = t("undo.line", ctl.lang, action=describe(ctl.kit.ctx, last)) if last else ""
        return Screen("confirm", t("undo.title", ctl.lang), (line,), (t("yes", ctl.lang), t("no", ctl.lang)),
                      self.sel % 2, ctl.kit.footer("confirm"))
