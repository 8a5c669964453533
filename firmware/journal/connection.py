"""A journal file's connection: its path checked, the connection and its pragmas, the tables of a
new file, and the writes that build a whole file at once (a salvage's or a migration's).

The connection runs in WAL mode with synchronous=FULL: in WAL mode, NORMAL fsyncs only at
checkpoints, so a power cut could take back commits that had already returned; FULL fsyncs
the WAL on every commit, so an action shown as done survives the plug being pulled.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3

import firmware.journal.header as journal_header
from firmware.journal.errors import Damaged, JournalError, missing
from firmware.journal.header import APPLICATION_ID
from firmware.journal.rows import HEADER_COPY, SEQ_BITS, _lenient_text, action_key, stored_checksum

# 1: games, actions (a WITHOUT ROWID table keyed by game id and seq), meta.
# 2: each game's header is also kept as its action -1 (HEADER_COPY), beside its first
#    actions. Same tables as 1.
# 3: actions in a rowid table keyed by one integer (rows.action_key), checksums
#    stored as 32 bytes, 512-byte pages: an acknowledged action costs the SD card about
#    5 KiB instead of 7.4 (docs/performance.md, "## Journal").
# A writer copies a journal of schema 1 or 2 into a new file of schema 3 when it opens it
# (`_migrate`; the old file is kept beside it); a read-only reader reads every schema as it
# is. A firmware that knows only an older schema refuses a newer one.
SCHEMA_VERSION = 3
# 512 bytes, SQLite's smallest page: an action and the screen state it leads to are two WAL
# frames of 536 bytes, which share the -wal's last 4 KiB block most of the time; with 1 KiB
# pages each commit more often dirties a second block (docs/performance.md). The size is
# fixed when a file is made: a migration or a salvage writes a new file of this size.
PAGE_SIZE = 512
CACHE_KIB = 128

# The tables. Comments stay out of the SQL: SQLite keeps its text in the file's schema, which
# with 512-byte pages is best kept short (fewer pages to lose).
# games:   id is never reused, even after a repair; header is canonical JSON; checksum starts
#          the game's hash chain.
# actions: id is action_key(game id, seq) (rows.py); body is canonical JSON; checksum
#          the 32 bytes of the SHA-256. game_id and seq (0, 1, 2... with no gaps; -1: the header
#          copy) are computed from id when read, never stored: the file holds id, body, checksum.
SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, header TEXT NOT NULL, checksum TEXT NOT NULL);
CREATE TABLE actions (id INTEGER PRIMARY KEY, body TEXT NOT NULL, checksum BLOB NOT NULL,
    game_id INTEGER GENERATED ALWAYS AS (id >> {bits}) VIRTUAL,
    seq INTEGER GENERATED ALWAYS AS ((id & {mask}) - 1) VIRTUAL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
""".format(bits=SEQ_BITS, mask=(1 << SEQ_BITS) - 1)


def check_path(path: str) -> str | None:
    """What is wrong with the file's header (journal_header.damage), None when it is
    sound or there is no file yet. A file that is not even SQLite's, and holds no game
    whose chain verifies, is some other file that was never ours: it is refused and
    left exactly as it is."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise missing("no_directory", path=str(path), directory=directory)
    if os.path.isdir(path):
        raise missing("directory", path=str(path))
    try:
        head = journal_header.read(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(f"journal {path}: cannot read ({exc})") from exc
    if not journal_header.looks_sqlite(head):
        from firmware.journal.salvage import read_damaged

        if not read_damaged(path)[0]:
            raise JournalError(f"journal {path}: not an SQLite database (it starts with "
                               f"{head[:16]!r}); refusing to touch it")
    return journal_header.damage(head)


def connect(path: str) -> sqlite3.Connection:
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
            raise Damaged(f"the file's header is damaged: {why}")
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
        # game, so 128 KiB serve it as well and keep the box within its memory budget.
        conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        # Deleted rows (an undone action) are zeroed, not left on the page: the page
        # scan of a salvage (pages.py) then never finds two versions of a row.
        conn.execute("PRAGMA secure_delete=ON")
        # quick_check reads every page: a few milliseconds for a game's journal, and a
        # damaged page found now is salvaged now, not at the first append mid-game.
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise Damaged("; ".join(problems[:3]))
        if is_new:
            conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA}"
                               f"PRAGMA application_id={APPLICATION_ID};"
                               f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        return conn
    except BaseException:
        conn.close()
        raise


def fsync_dir(directory: str) -> None:
    # A rename is durable only once the directory holding it is synced.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_fresh(path: str, games: dict, meta: dict) -> None:
    """A new journal file (this schema) holding salvaged or migrated rows, ids and checksums
    unchanged: {game id: (header, checksum, [(seq, body, checksum), ...])}, checksums in hex."""
    conn = connect(path)
    try:
        with transaction(conn):
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
def transaction(conn: sqlite3.Connection):
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
