"""The journal's writer: each game kept as a checksummed, append-only list of actions.

A game is a header (a JSON-able dict: game name, format, players, settings, seed) plus an
ordered list of actions (JSON-able dicts). The journal knows nothing about rules: engines
rebuild the state by replaying the actions, so the journal *is* the game.

Durability. An action counts only once its row is committed, and append() returns only
after COMMIT, fsynced (opening.py). Each write is its own BEGIN IMMEDIATE ... COMMIT, unless
the journal is held (`hold()` ... `commit()`): the box's loop holds it while it handles one
event, so an action, the settings it changes and the screen state it leads to are one
commit, one fdatasync, made before anything is shown (firmware/app.py).

Integrity. SQLite survives torn writes, but not a worn SD card returning bad sectors, a
truncated file, or a row edited behind its back: every game's hash chain is walked at open
and each game cut back to its last good action (chain.py). If SQLite itself finds the file
damaged, the rows that can still be read (salvage.py, pages.py) are copied into a fresh file
and the damaged one is kept aside (repair.py). A -wal file lost or cut after a kill is told
from its -shm index (wal.py). Every repair is described in `Journal.repairs` for the
firmware to show; docs/reliability.md says what is promised.

Format. The schema's version is the file's user_version (opening.SCHEMA_VERSION). A writer
that opens a journal of an older schema copies it into a new file of this one first
(repair.migrate), keeping the old file beside it; a reader reads any schema as it is.

The journal belongs to one process, used from one thread (the firmware's main loop): a
writer holds a lock beside the file (lock.py), and a second writer is refused naming the
holder. Other processes read it with reader.py, which never writes.
"""
from __future__ import annotations

import json
import os
import sqlite3

import firmware.journal.lock as journal_lock
from firmware.journal.commits import Commits
from firmware.journal.connection import SCHEMA_VERSION, write_fresh
from firmware.journal.errors import JournalBusy, JournalError, JournalLockError
from firmware.journal.opening import open_writer
from firmware.journal.repair import Repairs
from firmware.journal.rows import (HEADER_COPY, SEQ_BITS, action_checksum, action_key, canonical, checksum_text,
                                   header_checksum, parse_row, parse_rows, stored_checksum)

__all__ = ["Journal", "JournalBusy", "JournalError", "JournalLockError", "SCHEMA_VERSION", "write_fresh"]


class Journal:
    """A journal file opened by its one writer.

    The writer holds the journal's lock (lock.py) until close(); a second writer is refused
    with JournalBusy naming the holder. Reading beside it, without writing: reader.py.
    """

    read_only = False

    def __init__(self, path: str | os.PathLike, *, defer_chain: bool = False):
        self.path = os.fspath(path)
        self._repairs = Repairs(self.path)
        self.repairs = self._repairs.messages
        self.cuts = self._repairs.cuts
        opened = open_writer(self.path, self._repairs, defer_chain)
        self._conn, self._lock, self._chain = opened.conn, opened.lock, opened.chain
        self._commits = Commits(self.path, self._conn, self._forget)
        self.migrated = opened.migrated       # where the file of an older schema was kept
        if opened.lost:
            game = self.last_game()
            self._repairs.lost_frames(opened.lost, game, len(self.actions(game)) if game else 0)

    # ---- the chain check deferred at open (chain.py) ---------------------------------------

    @property
    def deferred(self) -> bool:
        """Rows whose chain check was deferred at open and is not done yet."""
        return self._chain is not None and self._chain.deferred

    def verify_tail(self, game_id: int, start: int) -> None:
        """Check the game's chain from its action `start` on now (ChainCheck.verify_tail)."""
        self._live()
        self._chain.verify_tail(game_id, start)

    def verify_deferred(self) -> list[str]:
        """Finish the chain check deferred at open; returns the repairs it made, also in
        `repairs` (ChainCheck.verify_deferred)."""
        return self._chain.verify_deferred() if self._chain is not None else []

    def _rows_of(self, game_id: int, start: int = 0, stop: int | None = None) -> tuple[str, tuple]:
        return self._chain.rows_of(game_id, start, stop)

    # ---- the API -------------------------------------------------------------------------

    def new_game(self, header: dict) -> int:
        text = _text(self.path, header, "game header")
        with self._commits.transaction() as conn:
            game_id = conn.execute("INSERT INTO games (header, checksum) VALUES (?, '')",
                                   (text,)).lastrowid
            checksum = header_checksum(game_id, text)
            conn.execute("UPDATE games SET checksum=? WHERE id=?", (checksum, game_id))
            # The copy sits in the actions tree just before action 0: a salvage that finds
            # the game's first actions on a page finds its header with them, even when
            # the games table's pages are lost (salvage.py).
            conn.execute("INSERT INTO actions (id, body, checksum) VALUES (?, ?, ?)",
                         (action_key(game_id, HEADER_COPY), text, stored_checksum(checksum)))
        return game_id

    # The last action row this writer appended, while nothing else changed a row since:
    # (connection, its total_changes then, game id, seq, checksum). An append reads its
    # previous checksum from here instead of a SELECT on every applying press. Any other
    # write (an undo, a repair, a new game) moves total_changes on, except the meta rows
    # set_meta accounts for; a rollback forgets it (rolled back changes stay counted in
    # total_changes, but the row is gone).
    _tail = None

    def _standing_tail(self, conn):
        """`_tail` while it still stands for `conn` (no other row changed since), else None."""
        tail = self._tail
        return tail if tail is not None and tail[0] is conn and tail[1] == conn.total_changes else None

    def append(self, game_id: int, action: dict) -> int:
        """Store an action; returns its seq (0-based) once the row is durably committed."""
        body = _text(self.path, action, "action")
        # IMMEDIATE takes the write lock now, so reading the last row and inserting the
        # next one cannot interleave with another writer.
        with self._commits.transaction() as conn:
            tail = self._standing_tail(conn)
            if tail is not None and tail[2] == game_id:
                seq, prev = tail[3] + 1, tail[4]
            else:
                where, params = self._rows_of(game_id)
                last = conn.execute(f"SELECT seq, checksum FROM actions WHERE {where} "
                                    f"ORDER BY id DESC LIMIT 1", params).fetchone()
                if last:
                    seq, prev = last[0] + 1, checksum_text(last[1])
                else:
                    seq, prev = 0, self._game_row(game_id)[1]
            if seq + 1 >= 1 << SEQ_BITS:
                raise JournalError(f"journal {self.path}: game {game_id} is full ({seq} actions)")
            checksum = action_checksum(game_id, seq, body, prev)
            self._tail = None
            conn.execute("INSERT INTO actions (id, body, checksum) VALUES (?, ?, ?)",
                         (action_key(game_id, seq), body, stored_checksum(checksum)))
        self._tail = (conn, conn.total_changes, game_id, seq, checksum)
        return seq

    def actions(self, game_id: int) -> list[dict]:
        self._chain.verified(game_id)
        walked = self._chain.walked_actions(game_id)
        if walked is not None:
            return walked
        where, params = self._rows_of(game_id)
        rows = self._query(f"SELECT body FROM actions WHERE {where} ORDER BY {self._chain.order}", params)
        if not rows:
            self._game_row(game_id)  # an unknown game is an error, not an empty one
        return parse_rows(body for body, in rows)

    def iter_actions(self, game_id: int):
        """The game's actions one at a time, as `actions` lists them: a resume replays them as
        they are read, without holding every row and every dict of a long game at once.
        Read the game through before writing to the journal."""
        where, params = self._rows_of(game_id)
        self._game_row(game_id)  # an unknown game is an error, not an empty one
        self._chain.verified(game_id)
        walked = self._chain.walked_actions(game_id)
        if walked is not None:
            yield from walked
            return
        try:
            rows = self._live().execute(f"SELECT body FROM actions WHERE {where} ORDER BY {self._chain.order}",
                                        params)
            for body, in rows:
                yield parse_row(body)
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: {exc}") from exc

    def bodies(self, game_id: int) -> list[str]:
        """The game's actions as their stored JSON text, unparsed: a resume keeps those
        before its snapshot so, parsed only when something reads them (engines/core/log.py).
        With defer_chain they may not all be verified yet: parse none before
        `verify_deferred` (`deferred` says whether it is still to run)."""
        self._chain.walked_actions(game_id)    # read as texts: the walk's dicts are not kept for later
        where, params = self._rows_of(game_id)
        rows = self._query(f"SELECT body FROM actions WHERE {where} ORDER BY {self._chain.order}", params)
        if not rows:
            self._game_row(game_id)  # an unknown game is an error, not an empty one
        return [body for body, in rows]

    def header(self, game_id: int) -> dict:
        return json.loads(self._game_row(game_id)[0])

    def checksum(self, game_id: int, seq: int) -> str | None:
        """The chain checksum of the game's action `seq` (hex), None when there is no such
        action. Because each checksum chains to the previous one, it names the game's
        first seq + 1 actions exactly: a snapshot taken after them records it
        (firmware/journal/snapshots.py), and is used only while the journal still holds them."""
        if seq < 0:
            return None
        self._live()
        return self._chain.checksum(game_id, seq)

    def games(self) -> list[tuple[int, dict]]:
        return [(gid, json.loads(h)) for gid, h in
                self._query("SELECT id, header FROM games ORDER BY id")]

    def last_game(self) -> int | None:
        """The most recently created game: the one to resume at start."""
        return self._query("SELECT max(id) FROM games")[0][0]

    def undo(self, game_id: int, count: int = 1) -> dict | None:
        """Delete the game's last `count` actions in one transaction (one flush, however far
        the undo goes); return the earliest one deleted, or None if there is none."""
        with self._commits.transaction() as conn:
            where, params = self._rows_of(game_id)
            last = conn.execute(f"SELECT id, body FROM actions WHERE {where} "
                                f"ORDER BY id DESC LIMIT 1 OFFSET ?", params + (max(1, count) - 1,)).fetchone()
            if last is None:
                self._game_row(game_id)
                return None
            conn.execute(f"DELETE FROM actions WHERE {where} AND id>=?", params + (last[0],))
        return json.loads(last[1])

    def set_meta(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not isinstance(value, str):
            raise JournalError(f"journal {self.path}: meta keys and values are strings, got "
                               f"{key!r}: {value!r}")
        with self._commits.transaction() as conn:
            tail = self._standing_tail(conn)
            # UPDATE keeps the row's rowid, so only the table's page changes; INSERT OR
            # REPLACE would also rewrite the key's index page: one more WAL frame a commit.
            if not conn.execute("UPDATE meta SET value=? WHERE key=?", (value, key)).rowcount:
                conn.execute("INSERT INTO meta VALUES (?, ?)", (key, value))
            if tail is not None:        # a meta row is no action row: the tail stands
                self._tail = (conn, conn.total_changes, *tail[2:])

    def get_meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    def delete_meta(self, keys) -> None:
        with self._commits.transaction() as conn:
            conn.executemany("DELETE FROM meta WHERE key=?", [(key,) for key in keys])

    # ---- one commit per step (commits.py) -------------------------------------------------

    def hold(self) -> None:
        """Until commit(), writes join one transaction instead of committing each."""
        self._commits.hold()

    @property
    def pending(self) -> bool:
        """Writes made while held and not yet committed (or one that failed: see commit)."""
        return self._commits.pending

    def commit(self) -> None:
        """Commit what was written while held; JournalError, nothing of it kept, when it fails."""
        self._commits.commit()

    def rollback(self) -> None:
        """Forget what was written while held; stop holding."""
        self._commits.rollback()

    def checkpoint(self, truncate: bool = False) -> bool:
        """Copy the WAL into the main file now; True if complete (Commits.checkpoint)."""
        return self._commits.checkpoint(truncate)

    @property
    def unsaved(self) -> bool:
        """Commits since the last checkpoint."""
        return self._commits.unsaved

    def _forget(self, rolled_back: bool) -> None:
        """A write or a rollback: the open walk's dicts may be out of date; after a rollback
        the appended row `_tail` names may be gone (its changes still count in
        total_changes)."""
        self._chain.forget()
        if rolled_back:
            self._tail = None

    def _close_connection(self) -> None:
        if self._conn is not None:
            self.rollback()     # a step that never finished was never acknowledged
            self._conn.close()  # the last connection checkpoints the WAL into the main file
            self._conn = self._commits.conn = None
            self._chain.forget()

    def close(self) -> None:
        self._close_connection()
        if self._lock is not None:
            journal_lock.release(self._lock)
            self._lock = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({self.path!r})"

    # ---- helpers -------------------------------------------------------------------------

    def _live(self) -> sqlite3.Connection:
        return self._commits.live()

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        try:
            return self._live().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: {exc}") from exc

    def _game_row(self, game_id: int) -> tuple[str, str]:
        rows = self._query("SELECT header, checksum FROM games WHERE id=?", (game_id,))
        if not rows:
            raise JournalError(f"journal {self.path}: no game {game_id}")
        return rows[0]


def _text(path: str, value, what: str) -> str:
    """The canonical JSON text of a header or an action, or a JournalError saying why not."""
    if not isinstance(value, dict):
        raise JournalError(f"journal {path}: a {what} must be a dict, got {type(value).__name__}")
    try:
        return canonical(value)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"journal {path}: {what} is not JSON-able ({exc}): {value!r}") from exc
