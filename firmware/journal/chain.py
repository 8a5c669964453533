"""The hash-chain check of a writer's journal: every game walked from its header's checksum,
each cut back to its last good action.

Each action row stores SHA-256(game id, seq, body, previous row's checksum), the first row
chaining to the header's checksum, so a changed, missing or reordered row breaks every
checksum from that row on. On open every chain is walked and each game cut back to the good
prefix before its first bad row.

Deferred check. Walking a long game's chain is most of what opening its journal costs, and a
resume from a snapshot needs only the rows from the snapshot's on (snapshots.py). With
`defer` (the box at start: startup.open_for_box), every game but the last is checked at open
as always; the last game's rows are checked from the snapshot's on by `verify_tail` when the
resume reads them, and the rest by `verify_deferred`, which the box's loop runs after the
first frame and before the first event (firmware/app.py), and which any read of the older
rows runs first. A damage found then is repaired and reported as at open.
"""
from __future__ import annotations

import sqlite3

from firmware.journal.errors import JournalError
from firmware.journal.connection import transaction
from firmware.journal.repair import Repairs
from firmware.journal.rows import (HEADER_COPY, SEQ_BITS, checksum_text, header_checksum, is_object, order_of,
                                   rows_of, walk_chain)


class ChainCheck:
    """The chain check of one open connection to a journal of the given layout (`keyed`:
    schema 3's actions table), its repairs told to `repairs`."""

    def __init__(self, conn: sqlite3.Connection, keyed: bool, repairs: Repairs, defer: bool = False):
        self.conn, self.keyed, self.repairs, self.defer = conn, keyed, repairs, defer
        # game -> (the seq below which its rows are not verified yet, the header checksum
        # its chain starts from): what `defer` left to check.
        self.unverified: dict[int, tuple[int, str]] = {}
        # The last game's actions as the open's walk read them (it parses every row to check
        # it is a JSON object), kept for the game's first read instead of reading and
        # parsing the rows again: (game id, the dicts, `stamp()` then). Given away at that
        # read; dropped at any write (`forget`).
        self.walked: tuple[int, list, tuple] | None = None

    def rows_of(self, game_id: int, start: int = 0, stop: int | None = None) -> tuple[str, tuple]:
        """The SQL condition (and its parameters) selecting the game's rows with start <= seq
        < stop in this file's layout (rows.rows_of)."""
        return rows_of(self.keyed, game_id, start, stop)

    @property
    def order(self) -> str:
        return order_of(self.keyed)

    def verify(self) -> None:
        """Walk every game's hash chain; cut each game back to its last good action."""
        conn = self.conn
        orphans = conn.execute(
            "SELECT count(*) FROM actions WHERE game_id NOT IN (SELECT id FROM games)").fetchone()[0]
        if orphans:
            with transaction(conn):
                conn.execute("DELETE FROM actions WHERE game_id NOT IN (SELECT id FROM games)")
            self.repairs.say(f"{orphans} actions removed that belonged to no game")
        games = conn.execute("SELECT id, header, checksum FROM games ORDER BY id").fetchall()
        last = games[-1][0] if games else None
        self.walked = None
        for game_id, header, hsum in games:
            problem = None
            if not isinstance(header, str) or hsum != header_checksum(game_id, header):
                problem = "header checksum mismatch"
            elif not is_object(header):
                problem = "header is not a JSON object"
            if problem:
                self._remove_game(game_id, problem)
                continue
            if self.defer and game_id == last:
                self.unverified[game_id] = (1 << SEQ_BITS, hsum)   # `verify_tail`, `verify_deferred`
                continue
            self._verify_chain(game_id, hsum, keep=game_id == last)

    def _remove_game(self, game_id: int, problem: str) -> None:
        conn = self.conn
        where, params = self.rows_of(game_id)
        count = conn.execute(f"SELECT count(*) FROM actions WHERE {where}", params).fetchone()[0]
        with transaction(conn):
            where, params = self.rows_of(game_id, HEADER_COPY)
            conn.execute(f"DELETE FROM actions WHERE {where}", params)
            conn.execute("DELETE FROM games WHERE id=?", (game_id,))
        self.repairs.say(f"game {game_id} removed ({problem}; its {count} actions "
                         f"cannot be replayed without it)")

    def stamp(self) -> tuple[int, int]:
        """What changes when a row may have changed since: this connection's changes and
        the commits of any other (PRAGMA data_version), for `walked`."""
        return self.conn.total_changes, self.conn.execute("PRAGMA data_version").fetchone()[0]

    def walked_actions(self, game_id: int) -> list | None:
        """The open's walk's dicts of `game_id` (`walked`), given away once; None when it
        kept none of that game or a row may have changed since."""
        walked = self.walked
        if walked is None or walked[0] != game_id:
            return None
        self.walked = None
        return walked[1] if walked[2] == self.stamp() else None

    def forget(self) -> None:
        """A write: the walk's dicts may be out of date."""
        self.walked = None

    def _walk(self, game_id: int, start: int, prev: str, keep: list | None = None) -> tuple[str | None, int]:
        """Check the game's rows from seq `start` on, the first chaining to `prev`: (why the
        first bad row is bad, its seq), or (None, _) when every row is good. The rows'
        objects go into `keep` when one is given (`walk_chain`)."""
        where, params = self.rows_of(game_id, start)
        # Row by row from the cursor, not fetched all at once: a long game's rows are never
        # all in memory. A text body comes as its stored UTF-8 bytes, hashed as they are
        # (`walk_chain`); any other (a damaged row) as None.
        rows = self.conn.execute(f"SELECT seq, CASE WHEN typeof(body)='text' THEN CAST(body AS BLOB) END, "
                                 f"checksum FROM actions WHERE {where} ORDER BY {self.order}", params)
        try:
            return walk_chain(game_id, rows, start, prev, keep)
        finally:
            rows.close()

    def _verify_chain(self, game_id: int, hsum: str, keep: bool = False) -> None:
        """Walk the game's whole hash chain; cut it back to its last good action. `keep`:
        a whole good chain's actions are kept for the game's first read (`walked`)."""
        conn = self.conn
        kept = [] if keep else None
        reason, expected = self._walk(game_id, 0, hsum, kept)
        if kept is not None and not reason:
            self.walked = (game_id, kept, self.stamp())
        if reason:
            where, params = self.rows_of(game_id)
            count, last = conn.execute(
                "SELECT count(*), max(CASE WHEN typeof(seq)='integer' THEN seq END) "
                f"FROM actions WHERE {where}", params).fetchone()
            total = max(count, last + 1 if last is not None else 0)
            with transaction(conn):
                where, params = self.rows_of(game_id, expected)
                conn.execute(f"DELETE FROM actions WHERE {where}", params)
            self.repairs.cut(game_id, expected, expected + 1)
            self.repairs.say(f"game {game_id} cut back to action {expected} of {total} ({reason})")

    @property
    def deferred(self) -> bool:
        """Rows whose chain check was deferred at open and is not done yet."""
        return bool(self.unverified)

    def verify_tail(self, game_id: int, start: int) -> None:
        """Check the game's chain from its action `start` on now, taking the stored checksum
        of the action before it as given (the rest is `verify_deferred`'s). A damage found
        makes the whole game's chain checked now, cut and reported as at open. Nothing to
        do when that part was checked already."""
        below, hsum = self.unverified.get(game_id, (0, None))
        start = max(0, start)
        if start >= below:
            return
        prev = hsum if start == 0 else self.stored_checksum(game_id, start - 1)
        try:
            reason = "no action before" if prev is None else self._walk(game_id, start, prev)[0]
            if reason:
                del self.unverified[game_id]
                self._verify_chain(game_id, hsum)
                return
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.repairs.path}: {exc}") from exc
        if start == 0:
            del self.unverified[game_id]
        else:
            self.unverified[game_id] = (start, hsum)

    def verify_deferred(self) -> list[str]:
        """Finish the chain check deferred at open (each game's whole chain walked, cut at
        its first bad row as at open); returns the repairs it made."""
        before = len(self.repairs.messages)
        for game_id, (_, hsum) in list(self.unverified.items()):
            del self.unverified[game_id]
            try:
                self._verify_chain(game_id, hsum)
            except sqlite3.Error as exc:
                raise JournalError(f"journal {self.repairs.path}: {exc}") from exc
        return self.repairs.messages[before:]

    def verified(self, game_id: int) -> None:
        """Before reading the game's rows as actions: the chain check deferred at open, now."""
        if game_id in self.unverified:
            self.verify_tail(game_id, 0)

    def stored_checksum(self, game_id: int, seq: int) -> str | None:
        where, params = self.rows_of(game_id, seq, seq + 1)
        try:
            rows = self.conn.execute(f"SELECT checksum FROM actions WHERE {where}", params).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.repairs.path}: {exc}") from exc
        return checksum_text(rows[0][0]) if rows else None

    def checksum(self, game_id: int, seq: int) -> str | None:
        """The stored checksum of the game's action `seq`, its chain from `seq` on checked
        first when that was deferred."""
        stored = self.stored_checksum(game_id, seq)
        if stored is not None and game_id in self.unverified:
            self.verify_tail(game_id, seq)
            stored = self.stored_checksum(game_id, seq)
        return stored
