"""A writer opening its journal: the path checked, the lock taken, the file connected (or
salvaged first when SQLite cannot read it, or migrated when it is of an older schema), and
every game's chain checked (chain.py)."""
from __future__ import annotations

import sqlite3
from typing import NamedTuple

import firmware.journal.lock as journal_lock
import firmware.journal.repair as repair
import firmware.journal.wal as journal_wal
from firmware.journal.chain import ChainCheck
from firmware.journal.connection import SCHEMA_VERSION, check_path, connect
from firmware.journal.errors import (Damaged, JournalBusy, JournalError, JournalLockError, describe,
                                     is_damage)
from firmware.journal.rows import is_keyed


class Opened(NamedTuple):
    conn: sqlite3.Connection
    lock: int
    chain: ChainCheck
    lost: tuple | None            # committed WAL frames lost since the last checkpoint (wal.examine)
    migrated: str | None          # where the file of an older schema was kept


def open_writer(path: str, repairs: repair.Repairs, defer: bool) -> Opened:
    """The journal at `path` opened by its one writer, its repairs told to `repairs`;
    `defer`: the last game's chain check left for later (chain.py)."""
    damage = check_path(path)
    lock = take_lock(path)
    conn = None
    try:
        # Before SQLite rebuilds the -wal's index from what is left of the -wal.
        lost, wal = journal_wal.examine(path)
        migrated = None
        try:
            if damage or wal:
                # SQLite would refuse the file, misread it, or stop at the bad frame and
                # never see the commits after it: the rows are read from the pages.
                lost = None               # salvage reads every frame the -wal still has
                raise Damaged(f"the file's header is damaged: {damage}" if damage else f"the -wal file {wal}")
            conn = connect(path)
            old = conn.execute("PRAGMA user_version").fetchone()[0]
            if old < SCHEMA_VERSION:
                migrated, orphans = repair.migrate(conn, path, old)
                conn = connect(path)
                if orphans:
                    repairs.say(f"{orphans} actions removed that belonged to no game")
            chain = _checked(conn, repairs, defer)
        except (Damaged, sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            if isinstance(exc, sqlite3.DatabaseError) and not is_damage(exc):
                raise
            if conn is not None:
                conn.close()              # the lock stays held through the salvage
                conn = None
            repair.salvage(path, describe(exc), repairs)
            conn = connect(path)
            chain = _checked(conn, repairs, defer)
        return Opened(conn, lock, chain, lost, migrated)
    except BaseException as exc:
        if conn is not None:
            conn.close()
        journal_lock.release(lock)
        if isinstance(exc, (sqlite3.Error, Damaged, OSError, UnicodeDecodeError)):
            raise JournalError(f"journal {path}: cannot open ({describe(exc)})") from exc
        raise


def _checked(conn: sqlite3.Connection, repairs: repair.Repairs, defer: bool) -> ChainCheck:
    chain = ChainCheck(conn, is_keyed(conn), repairs, defer)
    chain.verify()
    return chain


def take_lock(path: str) -> int:
    """The journal's lock (lock.py), or JournalBusy naming the process that holds it."""
    try:
        return journal_lock.acquire(path)
    except journal_lock.Held as held:
        raise JournalBusy(f"journal {path}: in use by {held.describe()}; one journal has one "
                          f"writer: stop that process first, or read the journal with "
                          f"`corbeille export` or `corbeille replay`") from None
    except OSError as exc:
        raise JournalLockError(f"journal {path}: cannot take its lock "
                               f"{journal_lock.lock_path(path)} ({exc.strerror})") from exc
