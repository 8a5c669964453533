"""The menu (a long OK) and the small screens it opens: corrections, whose private view,
the history, a new game."""
from __future__ import annotations

from dataclasses import dataclass

from engines.core.actions import ANYTIME, CORRECTION
from engines.core.errors import CorbeilleError
from firmware.menus import is_seat, describe, kind_label
from firmware.screen import Screen
from firmware.screens.base import Frame, Page, frame_type
from firmware.screens.past import PastGames
from engines.core.i18n import money
from firmware.texts import t


def corrections(ctl, decision) -> list[str]:
    """The corrections the decision offers, in its order."""
    return [o.kind for o in decision.options if ctl.kit.ctx.has(o.kind, CORRECTION)]


def by_a_player(ctl, kind) -> bool:
    """Whether the action names a player (a seat field) rather than being the table's."""
    return any(is_seat(typ) for _, typ, _ in ctl.session.actions.fields(kind))


@frame_type("menu")
@dataclass
class Menu(Frame):
    """Reveal, private view, history, undo, corrections, close, language, new game."""
    sel: int = 0

    def items(self, ctl):
        """The menu's entries, built once per game position and language (the menu is drawn
        on every tick of the loop): besides the position they read only whether the box has
        phones' links and keeps what the table learned, which the memo's name holds."""
        return ctl.kit.memo(("menu", getattr(ctl, "phones", None) is not None, ctl.learned_writer is not None),
                            lambda: self._items(ctl))

    def _items(self, ctl):
        lang = ctl.lang
        d = ctl.session.decision()
        # Actions allowed at any time (not corrections): a player's own (revealing a rumour)
        # open the menu; the table's (closing the game) come after the corrections.
        anytime = [o for o in d.options if ctl.kit.ctx.has(o.kind, ANYTIME) and not ctl.kit.ctx.has(o.kind, CORRECTION)]
        players = [o.kind for o in anytime if by_a_player(ctl, o.kind)]
        table = [o.kind for o in anytime if not by_a_player(ctl, o.kind)]
        items = [(t("menu." + kind, lang), ("entry", kind)) for kind in players]
        items.append((t("menu.private", lang), "private"))
        items.append((t("menu.history", lang), "history"))
        if ctl.session.last_action is not None:
            items.append((t("menu.undo", lang), "undo"))
        if corrections(ctl, d):
            items.append((t("menu.corrections", lang), "corr"))
        items += [(t("menu." + kind, lang), ("entry", kind)) for kind in table]
        view = box_view(ctl)
        if view is not None:
            items.append((view[0], "box"))
        if getattr(ctl, "phones", None) is not None:
            items.append((t("menu.phones", lang), "phones"))
        if learned_to_save(ctl):
            items.append((t("menu.save_learned", lang), "save_learned"))
        items.append((t("menu.past", lang), "past"))
        items.append((t("menu.lang", lang), "lang"))
        items.append((t("menu.new_game", lang), "new"))
        return items

    def key(self, ctl, key):
        items = self.items(ctl)
        if key == "back":
            ctl.pop()
            return
        if self.move(key, len(items)) or key != "ok":
            return
        choice = items[self.sel % len(items)][1]
        if isinstance(choice, tuple):
            ctl.start_entry(choice[1])
        elif choice == "private":
            ctl.stack.append(Who())
        elif choice == "history":
            ctl.stack.append(History())
        elif choice == "box":
            ctl.stack.append(BoxValues())
        elif choice == "past":
            ctl.stack.append(PastGames())
        elif choice == "phones":
            from firmware.screens.phones import Phones   # with the web view only: tokens, segno

            ctl.stack.append(Phones())
        elif choice == "save_learned":
            save_learned(ctl)
        elif choice == "undo":
            ctl.offer_undo()
        elif choice == "corr":
            ctl.stack.append(Corrections())
        elif choice == "lang":
            ctl.set_lang("en" if ctl.lang == "fr" else "fr")
        elif choice == "new":
            ctl.stack.append(NewGame())

    def draw(self, ctl):
        items = tuple(label for label, _ in self.items(ctl))
        return Screen("menu", t("menu.title", ctl.lang), (), items, self.sel % len(items), ctl.kit.footer("menu"))


def learned_to_save(ctl) -> bool:
    """The game learned box data at the table and the box keeps it (a state folder)."""
    entries = getattr(ctl.session.game, "learned_entries", None)
    return ctl.learned_writer is not None and entries is not None and bool(entries())


def save_learned(ctl) -> None:
    """What the table learned so far, written now (one durable write), and where."""
    from firmware.screens.overlays import Message
    try:
        path = ctl.setup.keep_learned(quiet=False)
    except (OSError, CorbeilleError) as error:
        ctl.error(t("learned_failed", ctl.lang, error=str(error)))
        return
    n = len(ctl.session.game.learned_entries())
    ctl.stack.append(Message(t("title.learned_saved", ctl.lang), [t("learned_saved.line", ctl.lang, n=n, file=path.name)]))


def box_view(ctl):
    """(title, lines) of the box file's values as the game's adapter shows them (its
    `box_view`), or None for a game without one."""
    from firmware.games import adapter_of
    view = getattr(adapter_of(ctl.session), "box_view", None)
    return view(ctl.session, ctl.lang) if view is not None else None


@frame_type("box_values")
@dataclass
class BoxValues(Page):
    """The box file's values (nominal prices...) as the game plays them, scrolled; a wrong
    one is corrected from Corrections (a journal action with its reason)."""
    sel: int = 0

    def draw(self, ctl):
        title, lines = box_view(ctl)
        self.sel = min(self.sel, max(0, len(lines) - 1))
        return Screen("payday", title, tuple(lines), (), self.sel, ctl.kit.footer("scroll"))


@frame_type("corr")
@dataclass
class Corrections(Frame):
    """The corrections the decision offers; OK starts one as an entry."""
    sel: int = 0

    def key(self, ctl, key):
        kinds = corrections(ctl, ctl.session.decision())
        if key == "back":
            ctl.stack.pop()
            return
        if self.move(key, len(kinds)):
            return
        if key == "ok" and kinds:
            ctl.start_entry(kinds[self.sel % len(kinds)])

    def draw(self, ctl):
        items = tuple(kind_label(ctl.kit.ctx, k) for k in corrections(ctl, ctl.session.decision()))
        return Screen("menu", t("menu.corrections", ctl.lang), (), items, self.sel % max(1, len(items)),
                      ctl.kit.footer("menu"))


@frame_type("who")
@dataclass
class Who(Frame):
    """Whose private view to show."""
    sel: int = 0

    def key(self, ctl, key):
        players = ctl.session.players
        if key == "back":
            ctl.stack.pop()
            return
        if self.move(key, len(players)):
            return
        if key == "ok":
            ctl.stack.pop()
            ctl.private(self.sel % len(players))

    def draw(self, ctl):
        items = tuple(ctl.session.players)
        return Screen("menu", t("menu.private", ctl.lang), (t("q.player", ctl.lang),), items,
                      self.sel % len(items), ctl.kit.footer("menu"))


@frame_type("history")
@dataclass
class History(Frame):
    """The game's actions, newest first, with the cash each moved above the list; OK on
    an action offers to undo back to before it (UndoTo)."""
    sel: int = 0

    def key(self, ctl, key):
        entries = ctl.session.history()
        if key == "back" or (key == "ok" and not entries):
            ctl.stack.pop()
        elif self.move(key, len(entries)):
            return
        elif key == "ok":
            ctl.stack.append(UndoTo(len(entries) - 1 - self.sel % len(entries)))

    def draw(self, ctl):
        entries = ctl.session.history()
        if not entries:
            return Screen("message", t("menu.history", ctl.lang), (t("history.empty", ctl.lang),), (), 0,
                          ctl.kit.footer("close"))
        # said once per position: the screen is drawn again at every tick while it is shown
        items = ctl.kit.memo("history", lambda: tuple(f"{i}. {describe(ctl.kit.ctx, act)}"
                                                      for i, (act, _) in reversed(list(enumerate(entries, 1)))))
        _, moved = entries[len(entries) - 1 - self.sel % len(entries)]
        return Screen("menu", t("menu.history", ctl.lang), (cash_moved(ctl, moved),), items,
                      self.sel % len(entries), ctl.kit.footer("history"))


def cash_moved(ctl, moved: dict) -> str:
    """'Rouge +1 200  Bleu -600': the cash an action moved, player by player."""
    if not moved:
        return t("history.no_cash", ctl.lang)
    return "  ".join(f"{ctl.session.players[s]} {money(v, ctl.lang, ctl.ui.prefix, sign=True)}" for s, v in moved.items())


@frame_type("undo_to")
@dataclass
class UndoTo(Frame):
    """Undo every action from the `length`+1-th on? The actions undone, newest first."""
    length: int = 0
    sel: int = 1                       # No selected: going back several actions is a choice

    def key(self, ctl, key):
        def undo():
            ctl.undo_to(self.length)

        self.yes_no(ctl, key, undo)

    def draw(self, ctl):
        log, lang = ctl.session.game.log, ctl.lang
        undone = log[self.length:]
        lines = (t("undo_to.line", lang, count=len(undone)),)
        lines += tuple(f"{i}. {describe(ctl.kit.ctx, act)}" for i, act in reversed(list(enumerate(undone, self.length + 1))))
        return Screen("confirm", t("undo_to.title", lang, n=self.length + 1), lines[:4] + (("…",) if len(lines) > 4 else ()),
                      (t("yes", lang), t("no", lang)), self.sel % 2, ctl.kit.footer("confirm"))


@frame_type("newgame")
@dataclass
class NewGame(Frame):
    """Leave this game for the setup? Yes / No (No selected)."""
    sel: int = 1

    def key(self, ctl, key):
        def leave():
            if not ctl.session.over:                  # what it learned, offered at the setup
                ctl.setup.keep_learned()
            ctl.stack = [ctl.setup.setup_frame()]     # the game stays in the journal

        self.yes_no(ctl, key, leave)

    def draw(self, ctl):
        return Screen("confirm", t("menu.new_game", ctl.lang), (t("newgame.line", ctl.lang),),
                      (t("yes", ctl.lang), t("no", ctl.lang)), self.sel % 2, ctl.kit.footer("confirm"))
