"""The SD card refusing the journal's writes, as the box lives with it (docs/reliability.md,
"Storage faults"): a commit refused acknowledges nothing, the game goes back to what the
journal holds, the operator screen and the console say what happened, up to which action
the game is safe and what to do, and each later press looks at whether the card can be
written again (asked of the card without writing: journal/storage.py)."""
from __future__ import annotations

import logging

from firmware.journal import storage
from firmware.screens.overlays import Message
from firmware.texts import t

log = logging.getLogger("corbeille")


class CardFaults:
    """The card's fault (a storage.Fault, None while it writes) and its message on the
    operator screen, for the box's `controller`; `clock` times the restart of the game."""

    def __init__(self, controller, clock, state_dir=None, fault=None):
        self.controller, self.clock, self.state_dir = controller, clock, state_dir
        self.fault = fault
        self._message = None           # the Message saying it, while it is on the screen

    def refused(self, journal, error) -> str:
        """The card refused the event's commit: the game goes back to what the journal holds
        (nothing the event did is shown, lit or buzzed as done), on a full card the box
        frees what it owns, and the screen and the console say what happened. Returns the
        console's answer."""
        c = self.controller
        fault = getattr(journal, "fault", None) or storage.diagnose(journal.path, error)
        log.error("journal commit failed, the last action was not recorded: %s (the card: %s)", fault.detail,
                  fault.kind)
        c.session, c.stack = None, []
        c.boot(self.clock())
        c.resumed = False              # not a restart: the card's message says where the game is
        if fault.kind == "full" and self.state_dir is not None:
            freed = storage.free(self.state_dir, journal, c.session.game_id if c.session else None)
            log.warning("card full: %d bytes freed", freed)
        self.fault = fault
        return self.say("lost")

    def say(self, what: str) -> str:
        """The fault on the operator screen (over whatever it shows), its buzz, and the same
        words for the console: `what` happened ("lost": an action not recorded; "start":
        the box started on a journal it cannot write), the game as far as the journal holds
        it, what to do."""
        c, fault = self.controller, self.fault
        lang = c.lang
        lines = [t(f"{fault.key}.{what}", lang)]
        if c.session is not None:
            lines.append(t("card.safe" if what == "lost" else "card.shown", lang, n=len(c.session.game.log)))
        lines.append(t(f"{fault.key}.todo", lang))
        self._message = Message(t(f"title.{fault.key}", lang), lines)
        c.stack.append(self._message)
        c.take_beeps()                 # nothing the refused event queued is played
        c.take_blinks()
        c.beeps.append("error")
        c.changed = True
        return " ".join(lines)

    def retry(self, journal, attach):
        """A press while the card is at fault: can it be written again? A box started on a
        journal it could not write opens it for writing now (`attach(writer)` gives it to
        the controller), and the game goes on; a card that refused a write for no reason it
        shows ("failing") is back once a commit goes through. Returns the journal to use."""
        if self.fault.kind == "failing" and not journal.read_only:
            return journal
        if storage.blocked(journal.path) is not None:
            return journal
        if journal.read_only:
            from firmware.journal import Journal, JournalError

            try:
                writer = Journal(journal.path, defer_chain=True)
            except JournalError as error:
                log.warning("the card still refuses the journal: %s", error)
                return journal
            journal.close()
            log.info("the card can be written again: the journal is open for writing")
            c = self.controller
            attach(writer)
            c.session, c.stack = None, []
            c.boot(self.clock(), messages=writer.repairs)
            journal = writer
        self.back()
        return journal

    def back(self) -> None:
        """The card can be written again: its status and its message go."""
        self.fault = None
        stack = self.controller.stack
        if self._message in stack:
            stack.remove(self._message)
            self.controller.changed = True
        self._message = None
