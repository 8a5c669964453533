"""The journal: each game kept as a checksummed, append-only list of actions in SQLite.

A game is a header (a JSON-able dict: game name, format, players, settings, seed) plus an
ordered list of actions (JSON-able dicts). The journal knows nothing about rules: engines
rebuild the state by replaying the actions, so the journal *is* the game.

Durability. An action counts only once its row is committed, and append() returns only
after COMMIT. The database runs in WAL mode with synchronous=FULL: in WAL mode, NORMAL
fsyncs only at checkpoints, so a power cut could take back commits that had already
returned; FULL fsyncs the WAL on every commit, so an action shown as done survives the
plug being pulled. Each write is its own BEGIN IMMEDIATE ... COMMIT, unless the journal
is held (`hold()` ... `commit()`): the box's loop holds it while it handles one event, so
an action, the settings it changes and the screen state it leads to are one commit, one
fdatasync, made before anything is shown (firmware/app.py).

Integrity. SQLite survives torn writes, but not a worn SD card returning bad sectors, a
truncated file, or a row edited behind its back. Each action row therefore stores
SHA-256(game id, seq, body, previous row's checksum), and the first row chains to the
header's checksum. Because of the chain, a changed, missing or reordered row breaks every
checksum from that row on. On open the journal walks every chain and cuts each game back
to the good prefix before the first bad row (the box defers part of the last game's walk
until after its first frame: `defer_chain`, `verify_tail`, `verify_deferred`). If SQLite itself finds the file damaged, the
rows that can still be read (by SQLite, or from the file's raw pages when SQLite cannot
read its schema: firmware/journal/salvage.py, journal_pages.py) are copied into a fresh
file and the damaged one is kept aside. A -wal file lost or cut after a kill is told from
its -shm index (journal_wal.py). Every repair is described in `Journal.repairs` for the
firmware to show; docs/reliability.md says what is promised and what was tried.

Format. The schema's version is the file's user_version (SCHEMA_VERSION, its history
below). A writer that opens a journal of an older schema copies it into a new file of this
one first (`_migrate`), keeping the old file beside it; a reader reads any schema as it is.

The journal belongs to one process, used from one thread (the firmware's main loop): a
writer holds a lock beside the file (journal_lock.py), and a second writer is refused
naming the holder. Other processes read it with firmware/journal/reader.py, which never
writes.
"""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3

from engines.core.errors import CorbeilleError
import firmware.journal.header as journal_header
import firmware.journal.lock as journal_lock
import firmware.journal.wal as journal_wal
from firmware.journal.header import APPLICATION_ID
# The rows' own format, shared with salvage (which journal.py imports: one module each
# way would be an import circle).
from firmware.journal.rows import (HEADER_COPY, SEQ_BITS, _lenient_text, action_checksum, action_key,
                                   canonical, checksum_text, header_checksum, is_keyed, is_object, order_of,
                                   parse_row, parse_rows, rows_of, stored_checksum, walk_chain)

__all__ = ["Journal", "JournalBusy", "JournalError"]

# 1: games, actions (a WITHOUT ROWID table keyed by game id and seq), meta.
# 2: each game's header is also kept as its action -1 (HEADER_COPY), beside its first
#    actions. Same tables as 1.
# 3: actions in a rowid table keyed by one integer (journal_rows.action_key), checksums
#    stored as 32 bytes, 512-byte pages: an acknowledged action costs the SD card about
#    5 KiB instead of 7.4 (docs/benchmarks.md, "## Journal").
# A writer copies a journal of schema 1 or 2 into a new file of schema 3 when it opens it
# (`_migrate`; the old file is kept beside it); a read-only reader reads every schema as it
# is. A firmware that knows only an older schema refuses a newer one.
SCHEMA_VERSION = 3
# 512 bytes, SQLite's smallest page: an action and the screen state it leads to are two WAL
# frames of 536 bytes, which share the -wal's last 4 KiB block most of the time; with 1 KiB
# pages each commit more often dirties a second block (docs/benchmarks.md). The size is
# fixed when a file is made: a migration or a salvage writes a new file of this size.
PAGE_SIZE = 512
CACHE_KIB = 128

# The tables. Comments stay out of the SQL: SQLite keeps its text in the file's schema, which
# with 512-byte pages is best kept short (fewer pages to lose).
# games:   id is never reused, even after a repair; header is canonical JSON; checksum starts
#          the game's hash chain.
# actions: id is action_key(game id, seq) (journal_rows.py); body is canonical JSON; checksum
#          the 32 bytes of the SHA-256. game_id and seq (0, 1, 2... with no gaps; -1: the header
#          copy) are computed from id when read, never stored: the file holds id, body, checksum.
_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, header TEXT NOT NULL, checksum TEXT NOT NULL);
CREATE TABLE actions (id INTEGER PRIMARY KEY, body TEXT NOT NULL, checksum BLOB NOT NULL,
    game_id INTEGER GENERATED ALWAYS AS (id >> {bits}) VIRTUAL,
    seq INTEGER GENERATED ALWAYS AS ((id & {mask}) - 1) VIRTUAL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
""".format(bits=SEQ_BITS, mask=(1 << SEQ_BITS) - 1)


class JournalError(CorbeilleError):
    """The journal cannot do what was asked; the message names the file and the problem."""


class JournalBusy(JournalError):
    """Another process holds the journal (one journal, one writer)."""


class JournalLockError(JournalError):
    """The journal's lock file cannot be made: a problem of the folder, not of the journal."""


class _Damaged(Exception):
    """SQLite reports the file itself damaged: salvage what can be read."""


def _is_damage(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def fsync_dir(directory: str) -> None:
    # A rename is durable only once the directory holding it is synced.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    """A journal file opened by its one writer.

    The writer holds the journal's lock (firmware/journal/lock.py) until close(); a second
    writer is refused with JournalBusy naming the holder. Reading beside it, without
    writing: firmware/journal/reader.py.
    """

    read_only = False

    def __init__(self, path: str | os.PathLike, *, defer_chain: bool = False):
        self.path = os.fspath(path)
        self.repairs: list[str] = []
        # game id -> (actions kept, number of the first action lost or None when no loss is
        # known) for each game a repair cut back, salvaged or may have lost actions: what
        # the operator screen says beside the repair.
        self.cuts: dict[int, tuple[int, int | None]] = {}
        self._conn: sqlite3.Connection | None = None
        self._lock: int | None = None
        self._held = False
        self._failed: sqlite3.Error | None = None   # a write that failed while held (see commit)
        self.unsaved = False                  # commits since the last checkpoint (WAL only)
        # defer_chain: the last game's chain is left to check (see `verify_tail`): game ->
        # the seq below which its rows are not verified yet, and the header checksum its
        # chain starts from.
        self._defer = defer_chain
        self._unverified: dict[int, tuple[int, str]] = {}
        self._keyed = True                    # schema 3's actions table (False: schemas 1, 2)
        self.migrated: str | None = None      # where the file of an older schema was kept
        # The last game's actions as the open's chain walk read them (it parses every row to
        # check it is a JSON object), kept for the first `actions()` of that game instead
        # of reading and parsing the rows again (a replay, issue 11): (game id, the dicts,
        # `_stamp()` then). Given away at that read; dropped at any write and at close.
        self._walked: tuple[int, list, tuple] | None = None
        damage = self._check_path()
        try:
            self._lock = journal_lock.acquire(self.path)
        except journal_lock.Held as held:
            raise JournalBusy(f"journal {self.path}: in use by {held.describe()}; one journal has one "
                              f"writer: stop that process first, or read the journal with "
                              f"`corbeille export` or `corbeille replay`") from None
        except OSError as exc:
            raise JournalLockError(f"journal {self.path}: cannot take its lock "
                                   f"{journal_lock.lock_path(self.path)} ({exc.strerror})") from exc
        try:
            # Before SQLite rebuilds the -wal's index from what is left of the -wal.
            lost, wal = journal_wal.examine(self.path)
            try:
                if damage or wal:
                    # SQLite would refuse the file, misread it, or stop at the bad frame and
                    # never see the commits after it: the rows are read from the pages.
                    lost = None               # salvage reads every frame the -wal still has
                    raise _Damaged(f"the file's header is damaged: {damage}" if damage
                                   else f"the -wal file {wal}")
                self._conn = self._connect(self.path)
                if self._schema() < SCHEMA_VERSION:
                    self._migrate()
                self._verify()
            except (_Damaged, sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                if isinstance(exc, sqlite3.DatabaseError) and not _is_damage(exc):
                    raise
                self._close_connection()      # the lock stays held through the salvage
                self._salvage(_describe(exc))
                self._conn = self._connect(self.path)
                self._schema()
                self._verify()
        except (sqlite3.Error, _Damaged, OSError, UnicodeDecodeError) as exc:
            self.close()
            raise JournalError(f"journal {self.path}: cannot open ({_describe(exc)})") from exc
        except BaseException:
            self.close()
            raise
        if lost:
            frames, how = lost
            game = self.last_game()
            where = f"game {game} now ends at action {len(self.actions(game))}" if game else "no game left"
            if game:
                self.cuts[game] = (len(self.actions(game)), None)
            self._repaired(f"{how}: {frames} committed WAL frames not yet in the main file are gone, so "
                           f"actions acknowledged since the last checkpoint may be lost ({where})")

    # ---- opening -----------------------------------------------------------------------

    def _check_path(self) -> str | None:
        """What is wrong with the file's header (journal_header.damage), None when it is
        sound or there is no file yet. A file that is not even SQLite's, and holds no game
        whose chain verifies, is some other file that was never ours: it is refused and
        left exactly as it is."""
        directory = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(directory):
            raise JournalError(f"journal {self.path}: directory {directory} does not exist")
        if os.path.isdir(self.path):
            raise JournalError(f"journal {self.path}: is a directory, not a journal file")
        try:
            head = journal_header.read(self.path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise JournalError(f"journal {self.path}: cannot read ({exc})") from exc
        if not journal_header.looks_sqlite(head):
            from firmware.journal.salvage import read_damaged

            if not read_damaged(self.path)[0]:
                raise JournalError(f"journal {self.path}: not an SQLite database (it starts with "
                                   f"{head[:16]!r}); refusing to touch it")
        return journal_header.damage(head)

    @staticmethod
    def _connect(path: str) -> sqlite3.Connection:
        # isolation_level=None: no implicit transactions; every write says BEGIN/COMMIT.
        conn = sqlite3.connect(path, isolation_level=None, timeout=5)
        conn.text_factory = _lenient_text
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {name for name, in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            is_new = not tables
            what, why = journal_header.identity(app_id, version, tables, SCHEMA_VERSION)
            if what == "damaged":
                raise _Damaged(f"the file's header is damaged: {why}")
            if what != "journal":
                raise JournalError(f"journal {path}: {why}")
            if is_new:
                conn.execute(f"PRAGMA page_size={PAGE_SIZE}")  # before WAL writes the header
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"journal {path}: cannot use WAL mode (got {mode!r})")
            conn.execute("PRAGMA synchronous=FULL")  # see the module docstring
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA cell_size_check=ON")  # catch damaged pages early
            # SQLite caches up to 2 MiB of pages by default, filled by the reads of an open
            # (every page of the file) and kept: the box writes only at the end of the last
            # game, so 128 KiB serve it as well (issue 11's RSS budget).
            conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            # Deleted rows (an undone action) are zeroed, not left on the page: the page
            # scan of a salvage (journal_pages.py) then never finds two versions of a row.
            conn.execute("PRAGMA secure_delete=ON")
            # quick_check reads every page: a few milliseconds for a game's journal, and a
            # damaged page found now is salvaged now, not at the first append mid-game.
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise _Damaged("; ".join(problems[:3]))
            if is_new:
                conn.executescript(f"BEGIN IMMEDIATE; {_SCHEMA}"
                                   f"PRAGMA application_id={APPLICATION_ID};"
                                   f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
            return conn
        except BaseException:
            conn.close()
            raise

    def _verify(self) -> None:
        """Walk every game's hash chain; cut each game back to its last good action."""
        conn = self._conn
        orphans = conn.execute(
            "SELECT count(*) FROM actions WHERE game_id NOT IN (SELECT id FROM games)").fetchone()[0]
        if orphans:
            with _transaction(conn):
                conn.execute("DELETE FROM actions WHERE game_id NOT IN (SELECT id FROM games)")
            self._repaired(f"{orphans} actions removed that belonged to no game")
        games = conn.execute("SELECT id, header, checksum FROM games ORDER BY id").fetchall()
        last = games[-1][0] if games else None
        self._walked = None
        for game_id, header, hsum in games:
            problem = None
            if not isinstance(header, str) or hsum != header_checksum(game_id, header):
                problem = "header checksum mismatch"
            elif not is_object(header):
                problem = "header is not a JSON object"
            if problem:
                where, params = self._rows_of(game_id)
                count = conn.execute(f"SELECT count(*) FROM actions WHERE {where}", params).fetchone()[0]
                with _transaction(conn):
                    where, params = self._rows_of(game_id, HEADER_COPY)
                    conn.execute(f"DELETE FROM actions WHERE {where}", params)
                    conn.execute("DELETE FROM games WHERE id=?", (game_id,))
                self._repaired(f"game {game_id} removed ({problem}; its {count} actions "
                               f"cannot be replayed without it)")
                continue
            if self._defer and game_id == last:
                self._unverified[game_id] = (1 << SEQ_BITS, hsum)   # `verify_tail`, `verify_deferred`
                continue
            self._verify_chain(game_id, hsum, keep=game_id == last)

    def _stamp(self) -> tuple[int, int]:
        """What changes when a row may have changed since: this connection's changes and
        the commits of any other (PRAGMA data_version), for `_walked`."""
        conn = self._live()
        return conn.total_changes, conn.execute("PRAGMA data_version").fetchone()[0]

    def _walked_actions(self, game_id: int) -> list | None:
        """The open's walk's dicts of `game_id` (`_walked`), given away once; None when it
        kept none of that game or a row may have changed since."""
        walked = self._walked
        if walked is None or walked[0] != game_id:
            return None
        self._walked = None
        return walked[1] if walked[2] == self._stamp() else None

    def _walk(self, game_id: int, start: int, prev: str, keep: list | None = None) -> tuple[str | None, int]:
        """Check the game's rows from seq `start` on, the first chaining to `prev`: (why the
        first bad row is bad, its seq), or (None, _) when every row is good. The rows'
        objects go into `keep` when one is given (`walk_chain`)."""
        where, params = self._rows_of(game_id, start)
        # Row by row from the cursor, not fetched all at once: a long game's rows are
        # never all in memory (issue 11's RSS budget). A text body comes as its stored
        # UTF-8 bytes, hashed as they are (`walk_chain`); any other (a damaged row) as None.
        rows = self._conn.execute(f"SELECT seq, CASE WHEN typeof(body)='text' THEN CAST(body AS BLOB) END, "
                                  f"checksum FROM actions WHERE {where} ORDER BY {self._order}", params)
        try:
            return walk_chain(game_id, rows, start, prev, keep)
        finally:
            rows.close()

    def _verify_chain(self, game_id: int, hsum: str, keep: bool = False) -> None:
        """Walk the game's whole hash chain; cut it back to its last good action. `keep`:
        a whole good chain's actions are kept for the game's first read (`_walked`)."""
        conn = self._conn
        kept = [] if keep else None
        reason, expected = self._walk(game_id, 0, hsum, kept)
        if kept is not None and not reason:
            self._walked = (game_id, kept, self._stamp())
        if reason:
            where, params = self._rows_of(game_id)
            count, last = conn.execute(
                "SELECT count(*), max(CASE WHEN typeof(seq)='integer' THEN seq END) "
                f"FROM actions WHERE {where}", params).fetchone()
            total = max(count, last + 1 if last is not None else 0)
            with _transaction(conn):
                where, params = self._rows_of(game_id, expected)
                conn.execute(f"DELETE FROM actions WHERE {where}", params)
            self.cuts[game_id] = (expected, expected + 1)
            self._repaired(f"game {game_id} cut back to action {expected} of {total} "
                           f"({reason})")

    # ---- the chain check deferred at open (defer_chain) -----------------------------------
    #
    # Walking a long game's chain is most of what opening its journal costs (2 000 actions:
    # about 25 ms here, ten times that on a Pi Zero 2 W), and a resume from a snapshot needs
    # only the rows from the snapshot's on (firmware/journal/snapshots.py). With defer_chain (the box
    # at start: journal_open.open_for_box), every game but the last is checked at open as always; the
    # last game's rows are checked from the snapshot's on by `verify_tail` when the resume
    # reads them, and the rest by `verify_deferred`, which the box's loop runs after the
    # first frame and before the first event (firmware/app.py), and which any read of the
    # older rows runs first. A damage found then is repaired and reported as at open.

    @property
    def deferred(self) -> bool:
        """Rows whose chain check was deferred at open and is not done yet."""
        return bool(self._unverified)

    def verify_tail(self, game_id: int, start: int) -> None:
        """Check the game's chain from its action `start` on now, taking the stored checksum
        of the action before it as given (the rest is `verify_deferred`'s). A damage found
        makes the whole game's chain checked now, cut and reported as at open. Nothing to
        do when that part was checked already."""
        below, hsum = self._unverified.get(game_id, (0, None))
        start = max(0, start)
        if start >= below:
            return
        if start == 0:
            prev = hsum
        else:
            prev = self._stored_checksum(game_id, start - 1)
        try:
            reason = "no action before" if prev is None else self._walk(game_id, start, prev)[0]
            if reason:
                del self._unverified[game_id]
                self._verify_chain(game_id, hsum)
                return
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: {exc}") from exc
        if start == 0:
            del self._unverified[game_id]
        else:
            self._unverified[game_id] = (start, hsum)

    def verify_deferred(self) -> list[str]:
        """Finish the chain check deferred at open (each game's whole chain walked, cut at
        its first bad row as at open); returns the repairs it made, also in `repairs`."""
        before = len(self.repairs)
        for game_id, (_, hsum) in list(self._unverified.items()):
            del self._unverified[game_id]
            try:
                self._verify_chain(game_id, hsum)
            except sqlite3.Error as exc:
                raise JournalError(f"journal {self.path}: {exc}") from exc
        return self.repairs[before:]

    def _verified(self, game_id: int) -> None:
        """Before reading the game's rows as actions: the chain check deferred at open, now."""
        if game_id in self._unverified:
            self.verify_tail(game_id, 0)

    def _stored_checksum(self, game_id: int, seq: int) -> str | None:
        where, params = self._rows_of(game_id, seq, seq + 1)
        rows = self._query(f"SELECT checksum FROM actions WHERE {where}", params)
        return checksum_text(rows[0][0]) if rows else None

    def _repaired(self, message: str) -> None:
        self.repairs.append(f"journal {self.path}: {message}")

    # ---- salvage -------------------------------------------------------------------------

    def _salvage(self, reason: str) -> None:
        """Copy every row SQLite can still read into a fresh file; keep the damaged one aside.

        The fresh file is built beside the journal and swapped in with one rename, so a
        power cut during salvage leaves either the damaged file (salvaged again at next
        start) or the fresh one, never no journal at all.
        """
        from firmware.journal.salvage import read_damaged

        stops: dict[int, int] = {}
        games, meta, notes = read_damaged(self.path, stops)
        for game_id, (_, _, rows) in games.items():
            self.cuts[game_id] = (len(rows), stops.get(game_id))
        n = 1
        while os.path.exists(f"{self.path}.damaged-{n}"):
            n += 1
        aside = f"{self.path}.damaged-{n}"
        self._replace_with(games, meta, ".salvage", aside)

        actions = sum(len(g[2]) for g in games.values())
        self._repaired(f"file damaged ({reason}); kept aside as {aside}; salvaged "
                       f"{len(games)} games and {actions} actions into a fresh journal")
        for note in notes:
            self._repaired(note)

    def _replace_with(self, games: dict, meta: dict, suffix: str, aside: str) -> None:
        """Write `games` and `meta` into a fresh file (this schema) and put it in the journal's
        place, the journal's file (and its -wal) kept as `aside`.

        The fresh file is built beside the journal and swapped in with one rename, so a
        power cut during the swap leaves either the old file (salvaged or migrated again at
        next start) or the fresh one, never no journal at all.
        """
        fresh = self.path + suffix
        for leftover in (fresh, fresh + "-wal", fresh + "-shm"):  # an interrupted swap
            with contextlib.suppress(FileNotFoundError):
                os.remove(leftover)
        write_fresh(fresh, games, meta)
        if os.path.exists(self.path):
            try:
                os.link(self.path, aside)
            except OSError:  # a filesystem without hard links
                import shutil  # here only: it loads bz2 and lzma (0.5 MiB, 7 ms of a start)

                shutil.copy2(self.path, aside)
        # A WAL left beside the old file must not be replayed into the fresh one.
        if os.path.exists(self.path + "-wal"):
            os.replace(self.path + "-wal", aside + "-wal")
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.path + "-shm")
        os.replace(fresh, self.path)
        fsync_dir(os.path.dirname(os.path.abspath(self.path)))

    # ---- older schemas -------------------------------------------------------------------

    def _schema(self) -> int:
        """The file's schema (its user_version); how its actions are addressed (`_rows_of`)
        is read from its tables (`journal_rows.is_keyed`)."""
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        self._keyed = is_keyed(self._conn)
        return version

    @property
    def _order(self) -> str:
        return order_of(self._keyed)

    def _rows_of(self, game_id: int, start: int = 0, stop: int | None = None) -> tuple[str, tuple]:
        """The SQL condition (and its parameters) selecting the game's rows with start <= seq
        < stop in this file's layout (`journal_rows.rows_of`)."""
        return rows_of(self._keyed, game_id, start, stop)

    def _migrate(self) -> None:
        """Copy a journal of schema 1 or 2 into a new file of this schema, in its place.

        Every row is copied as it is (checksums unchanged, so the chains still verify; a
        damaged row stays damaged and `_verify` cuts it as before); schema 1's games get
        their header copies. The old file is kept as `journal.sqlite.schema-N`.
        """
        conn, old = self._conn, self._schema()
        games = {gid: (header, hsum, []) for gid, header, hsum in
                 conn.execute("SELECT id, header, checksum FROM games ORDER BY id")}
        orphans = 0
        for gid, seq, body, checksum in conn.execute(
                "SELECT game_id, seq, body, checksum FROM actions WHERE seq>=0 ORDER BY game_id, seq"):
            if gid in games:
                games[gid][2].append((seq, body, checksum))
            else:
                orphans += 1
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # the old file whole on its own
        self._close_connection()
        aside, n = f"{self.path}.schema-{old}", 1
        while os.path.lexists(aside):
            n += 1
            aside = f"{self.path}.schema-{old}-{n}"
        self._replace_with(games, meta, ".migrate", aside)
        self.migrated = aside
        self._conn = self._connect(self.path)
        self._schema()
        if orphans:
            self._repaired(f"{orphans} actions removed that belonged to no game")

    # ---- the API -------------------------------------------------------------------------

    def new_game(self, header: dict) -> int:
        text = self._json(header, "game header")
        with self._transaction() as conn:
            game_id = conn.execute("INSERT INTO games (header, checksum) VALUES (?, '')",
                                   (text,)).lastrowid
            checksum = header_checksum(game_id, text)
            conn.execute("UPDATE games SET checksum=? WHERE id=?", (checksum, game_id))
            # The copy sits in the actions tree just before action 0: a salvage that finds
            # the game's first actions on a page finds its header with them, even when
            # the games table's pages are lost (journal_salvage.py).
            conn.execute("INSERT INTO actions (id, body, checksum) VALUES (?, ?, ?)",
                         (action_key(game_id, HEADER_COPY), text, stored_checksum(checksum)))
        return game_id

    # The last action row this writer appended, while nothing else changed a row since:
    # (connection, its total_changes then, game id, seq, checksum). An append reads its
    # previous checksum from here instead of a SELECT (one statement of five per applying
    # press, issue 11). Any other write (an undo, a repair, a new game) moves total_changes
    # on, except the meta rows set_meta accounts for; a rollback forgets it (rolled back
    # changes stay counted in total_changes, but the row is gone).
    _tail = None

    def _standing_tail(self, conn):
        """`_tail` while it still stands for `conn` (no other row changed since), else None."""
        tail = self._tail
        return tail if tail is not None and tail[0] is conn and tail[1] == conn.total_changes else None

    def append(self, game_id: int, action: dict) -> int:
        """Store an action; returns its seq (0-based) once the row is durably committed."""
        body = self._json(action, "action")
        # IMMEDIATE takes the write lock now, so reading the last row and inserting the
        # next one cannot interleave with another writer.
        with self._transaction() as conn:
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
        self._verified(game_id)
        walked = self._walked_actions(game_id)
        if walked is not None:
            return walked
        where, params = self._rows_of(game_id)
        rows = self._query(f"SELECT body FROM actions WHERE {where} ORDER BY {self._order}", params)
        if not rows:
            self._game_row(game_id)  # an unknown game is an error, not an empty one
        return parse_rows(body for body, in rows)

    def iter_actions(self, game_id: int):
        """The game's actions one at a time, as `actions` lists them: a resume replays them as
        they are read, without holding every row and every dict of a long game at once
        (issue 11's RSS budget). Read the game through before writing to the journal."""
        where, params = self._rows_of(game_id)
        self._game_row(game_id)  # an unknown game is an error, not an empty one
        self._verified(game_id)
        walked = self._walked_actions(game_id)
        if walked is not None:
            yield from walked
            return
        try:
            rows = self._live().execute(f"SELECT body FROM actions WHERE {where} ORDER BY {self._order}",
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
        self._walked_actions(game_id)    # read as texts: the walk's dicts are not kept for later
        where, params = self._rows_of(game_id)
        rows = self._query(f"SELECT body FROM actions WHERE {where} ORDER BY {self._order}", params)
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
        stored = self._stored_checksum(game_id, seq)
        if stored is not None and game_id in self._unverified:
            self.verify_tail(game_id, seq)     # defer_chain: the chain from `seq` on, first
            stored = self._stored_checksum(game_id, seq)
        return stored

    def games(self) -> list[tuple[int, dict]]:
        return [(gid, json.loads(h)) for gid, h in
                self._query("SELECT id, header FROM games ORDER BY id")]

    def last_game(self) -> int | None:
        """The most recently created game: the one to resume at start."""
        return self._query("SELECT max(id) FROM games")[0][0]

    def undo(self, game_id: int, count: int = 1) -> dict | None:
        """Delete the game's last `count` actions in one transaction (one flush, however far
        the undo goes); return the earliest one deleted, or None if there is none."""
        with self._transaction() as conn:
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
        with self._transaction() as conn:
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
        with self._transaction() as conn:
            conn.executemany("DELETE FROM meta WHERE key=?", [(key,) for key in keys])

    # ---- one commit per step -------------------------------------------------------------

    def hold(self) -> None:
        """Until commit(), writes join one transaction instead of committing each.

        The box holds its journal while it handles one event, so the action, any setting
        it changes and the screen state it leads to are one commit: one fdatasync. Nothing
        is acknowledged before commit() returns, so nothing acknowledged can be lost.
        """
        self._held = True
        self._failed = None

    @property
    def pending(self) -> bool:
        """Writes made while held and not yet committed (or one that failed: see commit)."""
        return self._failed is not None or (self._conn is not None and self._conn.in_transaction)

    def commit(self) -> None:
        """Commit what was written while held (nothing to do: no write, no sync); stop holding.

        Raises JournalError, with nothing of the held writes kept, when the commit fails or
        when one of them failed before it (a card that is full, read-only or failing may
        refuse any write, and SQLite may then have rolled the whole transaction back: what
        is left of it must not be committed as if it were all)."""
        self._held = False
        conn = self._live()
        failed, self._failed = self._failed, None
        if failed is None and not conn.in_transaction:
            return
        try:
            if failed is not None:
                raise failed
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._tail = None
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
        the changed pages once per pause (docs/benchmarks.md). True if complete.
        """
        mode = "TRUNCATE" if truncate else "PASSIVE"     # TRUNCATE: the -wal cut to nothing after
        try:
            busy, _, _ = self._live().execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: checkpoint failed ({exc})") from exc
        self.unsaved = bool(busy)
        return not busy

    def rollback(self) -> None:
        """Forget what was written while held; stop holding."""
        self._held = False
        self._failed = None
        self._tail = None
        if self._conn is not None and self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")

    def _close_connection(self) -> None:
        self._walked = None
        if self._conn is not None:
            self.rollback()     # a step that never finished was never acknowledged
            self._conn.close()  # the last connection checkpoints the WAL into the main file
            self._conn = None

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
        if self._conn is None:
            raise JournalError(f"journal {self.path}: closed")
        return self._conn

    @contextlib.contextmanager
    def _transaction(self):
        conn = self._live()
        self._walked = None     # a write: the walk's dicts may be out of date, and are not read now
        try:
            if self._held:
                try:
                    if not conn.in_transaction:
                        conn.execute("BEGIN IMMEDIATE")
                    yield conn      # committed by commit()
                except sqlite3.Error as exc:
                    self._failed = self._failed or exc
                    raise
            else:
                with _transaction(conn):
                    yield conn
                self.unsaved = True
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: {exc}") from exc

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

    def _json(self, value, what: str) -> str:
        if not isinstance(value, dict):
            raise JournalError(f"journal {self.path}: a {what} must be a dict, "
                               f"got {type(value).__name__}")
        try:
            return canonical(value)
        except (TypeError, ValueError) as exc:
            raise JournalError(f"journal {self.path}: {what} is not JSON-able ({exc}): "
                               f"{value!r}") from exc


def write_fresh(path: str, games: dict, meta: dict) -> None:
    """A new journal file (this schema) holding salvaged or migrated rows, ids and checksums
    unchanged: {game id: (header, checksum, [(seq, body, checksum), ...])}, checksums in hex."""
    conn = Journal._connect(path)
    try:
        with _transaction(conn):
            for game_id, (header, hsum, actions) in sorted(games.items()):
                conn.execute("INSERT INTO games (id, header, checksum) VALUES (?, ?, ?)",
                             (game_id, header, hsum))
                conn.executemany("INSERT INTO actions (id, body, checksum) VALUES (?, ?, ?)",
                                 [(action_key(game_id, seq), body, stored_checksum(checksum))
                                  for seq, body, checksum in [(HEADER_COPY, header, hsum), *actions]])
            conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    finally:
        conn.close()  # checkpoints: the fresh journal is now one complete file


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection):
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


def _describe(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):  # SQLite quotes the damaged schema text in its message
        return "a bad byte in the file's schema text"
    return str(exc)
