"""The writes of a journal's writer: each its own transaction (one commit, one fsync), or,
while the journal is held, one transaction for every write until `commit`: the box holds
its journal while it handles one event, so the action, any setting it changes and the
screen state it leads to are one commit, one fdatasync, made before anything is shown
(firmware/app.py). Nothing is acknowledged before commit() returns, so nothing
acknowledged can be lost."""
from __future__ import annotations

import contextlib
import sqlite3
from typing import Callable

from firmware.journal.connection import transaction
from firmware.journal.errors import JournalError


class Commits:
    """The writes on `conn` (None once closed) of the journal at `path`; `forget` is told
    of every write and every rollback (what the writer remembers of its rows is then out
    of date)."""

    def __init__(self, path: str, conn: sqlite3.Connection, forget: Callable[[bool], None]):
        self.path, self.conn, self._forget = path, conn, forget
        self.held = False
        self.failed: sqlite3.Error | None = None   # a write that failed while held (see commit)
        self.unsaved = False                       # commits since the last checkpoint

    def live(self) -> sqlite3.Connection:
        if self.conn is None:
            raise JournalError(f"journal {self.path}: closed")
        return self.conn

    def hold(self) -> None:
        """Until commit(), writes join one transaction instead of committing each."""
        self.held = True
        self.failed = None

    @property
    def pending(self) -> bool:
        """Writes made while held and not yet committed (or one that failed: see commit)."""
        return self.failed is not None or (self.conn is not None and self.conn.in_transaction)

    def commit(self) -> None:
        """Commit what was written while held (nothing to do: no write, no sync); stop holding.

        Raises JournalError, with nothing of the held writes kept, when the commit fails or
        when one of them failed before it (a card that is full, read-only or failing may
        refuse any write, and SQLite may then have rolled the whole transaction back: what
        is left of it must not be committed as if it were all)."""
        self.held = False
        conn = self.live()
        failed, self.failed = self.failed, None
        if failed is None and not conn.in_transaction:
            return
        try:
            if failed is not None:
                raise failed
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._forget(True)
            with contextlib.suppress(sqlite3.Error):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            raise JournalError(f"journal {self.path}: {exc}") from exc
        self.unsaved = True

    def checkpoint(self, truncate: bool = False) -> bool:
        """Copy the WAL into the main file now (the box does it after a pause in play).

        Until a checkpoint, committed actions live only in the -wal file: one that is
        lost together with its -shm index loses them without a trace. Checkpointing at
        pauses keeps that window to the actions since the last pause, for two syncs and
        the changed pages once per pause (docs/performance.md). True if complete.
        """
        mode = "TRUNCATE" if truncate else "PASSIVE"     # TRUNCATE: the -wal cut to nothing after
        try:
            busy, _, _ = self.live().execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: checkpoint failed ({exc})") from exc
        self.unsaved = bool(busy)
        return not busy

    def rollback(self) -> None:
        """Forget what was written while held; stop holding."""
        self.held = False
        self.failed = None
        self._forget(True)
        if self.conn is not None and self.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")

    @contextlib.contextmanager
    def transaction(self):
        """One write: its own transaction, or a part of the held one."""
        conn = self.live()
        self._forget(False)
        try:
            if self.held:
                try:
                    if not conn.in_transaction:
                        conn.execute("BEGIN IMMEDIATE")
                    yield conn      # committed by commit()
                except sqlite3.Error as exc:
                    self.failed = self.failed or exc
                    raise
            else:
                with transaction(conn):
                    yield conn
                self.unsaved = True
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: {exc}") from exc
