"""firmware/journal/reader.py: `JournalReader`, a journal read from beside the box.

    from firmware.journal.reader import JournalReader

    with JournalReader(path) as reader:        # open a path (str or os.PathLike)
        reader.games()                          # [(game id, header dict)], oldest first
        reader.last_game()                      # the game a box resumes, or None
        reader.header(game_id)                  # the game's header (a dict)
        reader.actions(game_id, start=0)        # its actions (dicts) from index `start` on
        reader.get_meta(key)                    # one meta value (a str) or None
        reader.meta()                           # every meta value, {key: value}
        reader.repairs                          # damage found, in words (the file is unchanged)

Every error is a `firmware.journal.JournalError` naming the file. For `corbeille replay`
and `export`, the web view and any process reading the journal while a box may play on it:

- It never writes: no byte of the journal's folder changes, no file is made there, and it
  works in a read-only folder. It never takes the box's lock (a peek at it could refuse a
  box that starts at that moment): whether a box holds the journal is read from the
  kernel's list of locks (`journal_lock.held`).
- Each call is its own short read transaction: a box appending meanwhile is never held up
  (a reader's snapshot only keeps the WAL from being checkpointed while it lasts), and the
  next call sees every commit the box made since.
- How it opens the file: SQLite's `immutable` mode, which reads the file and nothing else
  and makes nothing beside it, only while no box holds the journal and no -wal file is
  there (or only an empty one), checked again before each call (a box starting makes its
  -wal at once, and writes it at its first commit); else
  read-only (`mode=ro`), which reads the -wal as the box commits; and where that cannot be
  done (a read-only folder holding a -wal without its -shm index) a temporary copy of the
  file and its -wal, made again when they change. A file replaced under it (the box
  salvaged or migrated it) is opened again.
- Only verified rows are returned. Each game's hash chain is walked once, from where the
  last call stopped (an undo the box made is noticed and the game walked again); a row
  that does not verify ends the game there, said in `repairs`. A file SQLite finds
  damaged (a bad header, a damaged page or WAL frame) is salvaged into a temporary copy,
  as the box salvages it into its own journal, and read from there.
- Journals of every schema are read as they are (no migration), by the layout of their
  own tables.

The box runs on a `ReadOnlyJournal` (firmware/journal/readonly.py), this reader with the
journal's writing calls refused, when its card cannot be written.
"""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import urllib.parse

import firmware.journal.header as journal_header
import firmware.journal.lock as journal_lock
import firmware.journal.wal as journal_wal
from firmware.journal.errors import Damaged, JournalError, is_damage, missing
from firmware.journal.connection import SCHEMA_VERSION, write_fresh
from firmware.journal.rows import (_lenient_text, checksum_text, header_checksum, is_keyed, is_object,
                                   order_of, parse_rows, rows_of, walk_chain)

__all__ = ["JournalReader"]


class JournalReader:
    """A journal opened for reading only (see the module's docstring). Besides the API
    above, what a Session reads of a journal (`bodies`, `checksum`, `iter_actions`,
    `read_only`, `deferred`), for the box's ReadOnlyJournal."""

    read_only = True
    deferred = False            # every row is verified when it is first read

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        self.repairs: list[str] = []
        self._conn: sqlite3.Connection | None = None
        self._copy = None                 # a temporary folder holding what is read instead of the file
        self._how = None                  # "immutable", "ro", "copy" or "salvaged"
        self._seen = None                 # the files' stat when opened (`_stale`)
        self._keyed = True
        self._chains: dict[int, tuple[int, str]] = {}   # game -> (actions verified, last checksum)
        self._said: set = set()
        self._open()

    # ---- the API --------------------------------------------------------------------------

    def games(self) -> list[tuple[int, dict]]:
        with self._read() as conn:
            rows = conn.execute("SELECT id, header, checksum FROM games ORDER BY id").fetchall()
        return [(gid, json.loads(header)) for gid, header, hsum in rows if self._sound(gid, header, hsum)]

    def last_game(self) -> int | None:
        games = self.games()
        return games[-1][0] if games else None

    def header(self, game_id: int) -> dict:
        with self._read() as conn:
            return json.loads(self._game_row(conn, game_id)[0])

    def actions(self, game_id: int, start: int = 0) -> list[dict]:
        """The game's verified actions from index `start` (0-based) on."""
        with self._read() as conn:
            hsum = self._game_row(conn, game_id)[1]
            before, walked, count = self._verify(conn, game_id, hsum)
            start = max(0, start)
            older = []
            if start < before:                # verified by an earlier call: read them again
                where, params = self._rows(game_id, start, before)
                older = parse_rows(body for body, in conn.execute(
                    f"SELECT body FROM actions WHERE {where} ORDER BY {order_of(self._keyed)}", params))
        return older + walked[max(0, start - before):]

    def iter_actions(self, game_id: int):
        return iter(self.actions(game_id))

    def bodies(self, game_id: int) -> list[str]:
        """The game's verified actions as their stored JSON texts."""
        with self._read() as conn:
            hsum = self._game_row(conn, game_id)[1]
            count = self._verify(conn, game_id, hsum)[2]
            where, params = self._rows(game_id, 0, count)
            return [body for body, in conn.execute(
                f"SELECT body FROM actions WHERE {where} ORDER BY {order_of(self._keyed)}", params)]

    def checksum(self, game_id: int, seq: int) -> str | None:
        """The chain checksum (hex) of the game's action `seq`, None when it has no such
        verified action (what a snapshot is checked against: firmware/journal/snapshots.py)."""
        with self._read() as conn:
            hsum = self._game_row(conn, game_id)[1]
            count = self._verify(conn, game_id, hsum)[2]
            return self._stored(conn, game_id, seq) if 0 <= seq < count else None

    def get_meta(self, key: str) -> str | None:
        with self._read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def meta(self) -> dict[str, str]:
        with self._read() as conn:
            return dict(conn.execute("SELECT key, value FROM meta").fetchall())

    def verify_deferred(self) -> list[str]:
        return []

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None

    def __enter__(self) -> JournalReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"JournalReader({self.path!r})"

    # ---- opening --------------------------------------------------------------------------

    def _open(self) -> None:
        if os.path.isdir(self.path):
            raise missing("directory", path=str(self.path))
        if not os.path.exists(self.path):
            raise missing("absent", path=str(self.path))
        self._seen = _stat(self.path)
        try:
            head = journal_header.read(self.path)
            # A box playing on it checked its -wal when it opened it, and may be restarting
            # it now (new frames over old ones): read then, it could look damaged.
            wal = journal_wal.damage(self.path) if journal_lock.held(self.path) is False else None
            problem = journal_header.damage(head) or (wal and f"the -wal file {wal}")
            if problem is None:
                try:
                    self._conn = self._connect_file()
                    self._check()
                    return
                except Damaged as exc:
                    problem = str(exc)
                except sqlite3.DatabaseError as exc:
                    if not is_damage(exc):
                        raise
                    problem = str(exc)
                except UnicodeDecodeError:
                    problem = "a bad byte in the file's schema text"
                self.close()
            self._salvage(problem, foreign=not journal_header.looks_sqlite(head))
        except JournalError:
            self.close()
            raise
        except (sqlite3.Error, OSError) as exc:
            self.close()
            raise JournalError(f"journal {self.path}: cannot read ({exc})") from exc

    def _connect_file(self) -> sqlite3.Connection:
        """The file itself, immutable while no box holds it and no -wal is beside it, else
        read-only; a temporary copy where neither can be opened (a read-only folder holding
        a -wal without its index)."""
        if journal_lock.held(self.path) is False and not _size(self.path + "-wal"):
            self._how = "immutable"
            return _connect(self.path, "immutable=1")
        try:
            self._how = "ro"
            conn = _connect(self.path, "mode=ro")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()   # opens the -wal now
            return conn
        except sqlite3.OperationalError as exc:
            if is_damage(exc):
                raise
            # The -wal's index cannot be made or read here (a read-only folder, a card that
            # refuses the -shm): a copy of the file and its -wal is read instead.
        self._how = "copy"
        return _connect(self._copy_files(), "mode=ro")

    def _copy_files(self, name: str = "journal.sqlite") -> str:
        """The file and its -wal copied into a temporary folder (kept until close)."""
        import shutil
        import tempfile

        self._copy = tempfile.TemporaryDirectory(prefix="corbeille-read-")
        copy = os.path.join(self._copy.name, name)
        shutil.copyfile(self.path, copy)
        if os.path.exists(self.path + "-wal"):
            shutil.copyfile(self.path + "-wal", copy + "-wal")
        return copy

    def _check(self) -> None:
        """The file is a journal this firmware reads, sound as far as SQLite can tell."""
        conn = self._conn
        tables = {name for name, in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        what, why = journal_header.identity(app_id, version, tables, SCHEMA_VERSION)
        if what in ("foreign", "newer"):
            raise JournalError(f"journal {self.path}: {why}")
        if what == "damaged":
            raise Damaged(why)
        if not tables:
            raise JournalError(f"journal {self.path}: no game recorded (an empty file)")
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise Damaged("; ".join(problems[:3]))
        self._keyed = is_keyed(conn)

    def _salvage(self, problem: str, foreign: bool) -> None:
        """Read the file through a salvaged temporary copy, as the box would salvage it
        (its rows read from SQLite and from the pages of the file and its -wal, every game
        kept while its chain verifies)."""
        from firmware.journal.salvage import read_damaged

        copy = self._copy_files("damaged.sqlite")
        games, meta, notes = read_damaged(copy)
        if not games and foreign:
            raise JournalError(f"journal {self.path}: not an SQLite database ({problem}); not a journal")
        fresh = os.path.join(self._copy.name, "salvaged.sqlite")
        write_fresh(fresh, games, meta)
        self._how = "salvaged"
        self._conn = _connect(fresh, "immutable=1")
        self._keyed = is_keyed(self._conn)
        actions = sum(len(rows) for _, _, rows in games.values())
        self._say(f"file damaged ({problem}); read from a salvaged copy: {len(games)} games and "
                  f"{actions} actions")
        for note in notes:
            self._say(note.replace(copy, self.path))

    def _stale(self) -> bool:
        """The file was replaced, or (read immutable or from a copy) changed or got a -wal."""
        now = _stat(self.path)
        if self._how in ("immutable", "copy"):
            return now != self._seen
        return now[0] != self._seen[0]        # the same file (inode), whatever was written to it

    # ---- reading --------------------------------------------------------------------------

    @contextlib.contextmanager
    def _read(self):
        """One short read transaction; the file opened again first when it changed under a
        connection that would not see it."""
        if self._conn is None:
            raise JournalError(f"journal {self.path}: closed")
        try:
            if self._how != "salvaged" and self._stale():
                self.close()
                self._chains.clear()
                self._open()
            conn = self._conn
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: {exc}") from exc
        except OSError as exc:
            raise JournalError(f"journal {self.path}: cannot read ({exc.strerror})") from exc

    def _rows(self, game_id: int, start: int = 0, stop: int | None = None) -> tuple[str, tuple]:
        return rows_of(self._keyed, game_id, start, stop)

    def _game_row(self, conn, game_id: int) -> tuple[str, str]:
        row = conn.execute("SELECT header, checksum FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None or not self._sound(game_id, *row):
            raise JournalError(f"journal {self.path}: no game {game_id}")
        return row

    def _sound(self, game_id: int, header, hsum) -> bool:
        if isinstance(header, str) and hsum == header_checksum(game_id, header) and is_object(header):
            return True
        self._say(f"game {game_id}: its header does not verify; the game cannot be read")
        return False

    def _stored(self, conn, game_id: int, seq: int) -> str | None:
        where, params = self._rows(game_id, seq, seq + 1)
        row = conn.execute(f"SELECT checksum FROM actions WHERE {where}", params).fetchone()
        return checksum_text(row[0]) if row else None

    def _verify(self, conn, game_id: int, hsum: str) -> tuple[int, list, int]:
        """Walk the game's chain on from where the last call stopped: (actions verified
        before, the actions verified now, in order, actions verified in all)."""
        count, prev = self._chains.get(game_id, (0, hsum))
        if count and self._stored(conn, game_id, count - 1) != prev:
            count, prev = 0, hsum          # rows taken back (an undo) or rewritten since: walk again
        where, params = self._rows(game_id, count)
        rows = conn.execute(f"SELECT seq, CASE WHEN typeof(body)='text' THEN CAST(body AS BLOB) END, "
                            f"checksum FROM actions WHERE {where} ORDER BY {order_of(self._keyed)}", params)
        walked: list = []
        try:
            reason, _ = walk_chain(game_id, rows, count, prev, walked)
        finally:
            rows.close()
        total = count + len(walked)
        if walked:
            self._chains[game_id] = (total, self._stored(conn, game_id, total - 1))
        if reason:
            where, params = self._rows(game_id)
            stored = conn.execute(f"SELECT count(*) FROM actions WHERE {where}", params).fetchone()[0]
            self._say(f"game {game_id} cut back to action {total} of {max(stored, total + 1)} ({reason})")
        return count, walked, total

    def _say(self, message: str) -> None:
        if message not in self._said:
            self._said.add(message)
            self.repairs.append(f"journal {self.path}: {message} (read only: not repaired in the file)")


def _connect(path: str, mode: str) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?{mode}", uri=True,
                           isolation_level=None, timeout=5, check_same_thread=False)
    conn.text_factory = _lenient_text
    conn.execute("PRAGMA query_only=ON")
    return conn


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _stat(path: str) -> tuple:
    """What changes when a file is replaced or written: for the journal and its -wal."""
    out = []
    for name in (path, path + "-wal"):
        try:
            info = os.stat(name)
            out += [info.st_ino, info.st_size, info.st_mtime_ns]
        except FileNotFoundError:
            out += [None, None, None]
    return tuple(out)
