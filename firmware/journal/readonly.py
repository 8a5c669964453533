"""The box's journal when its card cannot be written: the game shown, nothing written.

`open_for_box` (firmware/journal/startup.py) gives the box a `ReadOnlyJournal` when the journal
cannot be opened for writing because of the card (read-only, full, failing: firmware/
storage.py), instead of the box exiting (and systemd's start limit stopping it) or the
file being moved aside. It reads as `JournalReader` does (never a byte written, the file
salvaged into a temporary copy when damaged); a journal it cannot read at all, or none
yet, reads as an empty one (the setup). Every write is refused with a JournalError and
remembered until the end of the event, so the box's commit (`commit`, as
`Journal.commit`) says the action was not recorded (firmware/app.py). The box opens the
journal for writing again once the card can be written (`CardFaults.retry`, firmware/card_faults.py).
"""
from __future__ import annotations

import logging
import sqlite3

from firmware.journal.errors import JournalError
from firmware.journal.connection import SCHEMA as _SCHEMA
from firmware.journal.reader import JournalReader

log = logging.getLogger("corbeille")


class ReadOnlyJournal(JournalReader):
    unsaved = False                   # nothing to checkpoint

    def __init__(self, path, fault):
        self.fault = fault            # why the card cannot be written (a storage.Fault)
        self._failed: JournalError | None = None
        try:
            super().__init__(path)
        except JournalError as error:     # the reader's own state is set before it opens
            log.error("%s; the box starts on an empty journal it cannot write", error)
            self._how = "empty"
            self._conn = sqlite3.connect(":memory:", isolation_level=None)
            self._conn.executescript(_SCHEMA)

    def _stale(self) -> bool:
        return self._how != "empty" and super()._stale()

    # ---- writes: refused, and said at the end of the event ---------------------------------

    def _refuse(self, *_args, **_kwargs):
        self._failed = JournalError(f"journal {self.path}: cannot be written ({self.fault.detail})")
        raise self._failed

    append = undo = set_meta = new_game = delete_meta = _refuse

    def hold(self) -> None:
        self._failed = None

    @property
    def pending(self) -> bool:
        return self._failed is not None

    def commit(self) -> None:
        failed, self._failed = self._failed, None
        if failed is not None:
            raise failed

    def rollback(self) -> None:
        self._failed = None
