"""The box's journal as a reader beside the box follows it: read-only, short, never in the way.

The web view's feed (firmware/feed.py) reads the journal of a running box from another
process. Everything here keeps it from costing the box anything:

* the file is opened read-only (SQLite's `mode=ro`), and this module never writes, never
  takes the journal's lock (firmware/journal_lock.py) and never checkpoints;
* each look is one short read transaction (`BEGIN` ... `COMMIT` around a few SELECTs by
  rowid range, milliseconds): a reader that stays in a transaction would keep the box's
  checkpoints from emptying the WAL, which then grows against the SD card's budget;
* between looks nothing is read: `changed()` compares the journal's and its WAL's sizes and
  times (a commit always changes the WAL), so an idle poll is two stat calls;
* a journal swapped for a new file (a salvage, a journal moved aside) is opened again;
* in a read-only folder (the web unit sees the state folder read-only) with the box
  stopped, SQLite cannot make the WAL's index it needs to read: then the file, whole
  without a -wal, is read as `immutable` and opened anew for each look, so a box that
  starts again (and makes its -wal) is read normally at the next one.

It reads schema 3 (firmware/journal.py SCHEMA_VERSION), which the box migrates any older
journal to when it opens it. The rows' hash chain is checked as they are read
(journal_rows.walk_chain); a row that does not verify ends what is read there, as the box
itself would cut it.

This is the one place the feed reads the journal: a read-only reader of the journal's own
(docs/reliability.md) can take its place behind the same four methods.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import urllib.parse

from firmware.journal_rows import HEADER_COPY, action_key, checksum_text, key_parts, walk_chain

SCHEMA = 3


class JournalUnreadable(Exception):
    """The journal cannot be read now (missing, another schema, damaged): said, retried."""


class JournalFollower:
    def __init__(self, path):
        self.path = os.fspath(path)
        self._conn = None
        self._inode = None
        self._stamp = None
        self._immutable = False

    # ---- looking ---------------------------------------------------------------------
    def changed(self) -> bool:
        """Whether the journal may hold something new since the last call (cheap)."""
        stamp = []
        for suffix in ("", "-wal"):
            try:
                info = os.stat(self.path + suffix)
                stamp.append((info.st_ino, info.st_size, info.st_mtime_ns))
            except OSError:
                stamp.append(None)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        return True

    @contextlib.contextmanager
    def look(self):
        """One short read transaction: what is read inside it is one consistent state."""
        conn = self._connection()
        try:
            conn.execute("BEGIN")
            yield self
        except sqlite3.Error as error:
            self.close()
            raise JournalUnreadable(f"journal {self.path}: {error}") from error
        finally:
            if self._conn is not None and self._conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("COMMIT")
            if self._immutable:
                self.close()

    # ---- inside a look -----------------------------------------------------------------
    def last_game(self) -> tuple[int, str, str] | None:
        """(game id, header text, header checksum) of the box's last game, or None."""
        return self._conn.execute("SELECT id, header, checksum FROM games ORDER BY id DESC LIMIT 1").fetchone()

    def tail(self, game_id: int) -> tuple[int, str | None]:
        """(number of actions, checksum of the last one) of a game."""
        row = self._conn.execute("SELECT id, checksum FROM actions WHERE id>? AND id<? ORDER BY id DESC LIMIT 1",
                                 (action_key(game_id, HEADER_COPY), action_key(game_id + 1, HEADER_COPY))).fetchone()
        if row is None:
            return 0, None
        return key_parts(row[0])[1] + 1, checksum_text(row[1])

    def checksums(self, game_id: int, start: int, stop: int) -> list[str]:
        """The checksums of actions start..stop-1 (hex), in order."""
        rows = self._conn.execute("SELECT checksum FROM actions WHERE id>=? AND id<? ORDER BY id",
                                  (action_key(game_id, start), action_key(game_id, stop)))
        return [checksum_text(stored) for stored, in rows]

    def actions(self, game_id: int, start: int, prev: str) -> tuple[list[dict], list[str]]:
        """The game's actions from `start` on, the first chaining to the checksum `prev`,
        as far as the chain holds: (the actions, their checksums)."""
        rows = self._conn.execute(
            "SELECT id, CASE WHEN typeof(body)='text' THEN CAST(body AS BLOB) END, checksum FROM actions "
            "WHERE id>=? AND id<? ORDER BY id",
            (action_key(game_id, start), action_key(game_id + 1, HEADER_COPY))).fetchall()
        kept: list[dict] = []
        walk_chain(game_id, ((key_parts(key)[1], body, stored) for key, body, stored in rows), start, prev, kept)
        return kept, [checksum_text(stored) for _, _, stored in rows[:len(kept)]]

    # ---- the connection --------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        try:
            inode = os.stat(self.path).st_ino
        except OSError as error:
            self.close()
            raise JournalUnreadable(f"journal {self.path}: {error.strerror}") from error
        if self._conn is not None and inode == self._inode:
            return self._conn
        self.close()
        try:
            conn, version = self._open("")
        except sqlite3.OperationalError as error:
            if os.path.exists(self.path + "-wal"):
                raise JournalUnreadable(f"journal {self.path}: {error}") from error
            try:
                conn, version = self._open("&immutable=1")   # the box stopped; a read-only folder
            except sqlite3.Error as again:
                raise JournalUnreadable(f"journal {self.path}: {again}") from again
            self._immutable = True
        except sqlite3.Error as error:
            raise JournalUnreadable(f"journal {self.path}: {error}") from error
        if version != SCHEMA:
            conn.close()
            raise JournalUnreadable(f"journal {self.path}: schema {version}; the box migrates it to "
                                    f"{SCHEMA} when it starts")
        conn.execute("PRAGMA cache_size=-64")    # the web process's memory: pages are re-read, rarely
        self._conn, self._inode = conn, inode
        return conn

    def _open(self, extra: str):
        uri = f"file:{urllib.parse.quote(os.path.abspath(self.path))}?mode=ro{extra}"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=1, check_same_thread=False)
        try:
            return conn, conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error:
            conn.close()
            raise

    def close(self) -> None:
        self._immutable = False
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn = self._inode = None
