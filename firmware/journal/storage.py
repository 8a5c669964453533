"""The SD card under the journal: why a write failed, whether it can be written again, and
what the box may free on it.

A journal write fails in three ways the box tells apart, because each asks the table to do
something else (docs/reliability.md, "Storage faults"):

- "full": no room for the file to grow (ENOSPC, a quota, a file-size limit). The box frees
  what it owns and carries on as soon as a write succeeds.
- "read_only": the card, its filesystem (ext4 remounts itself read-only after an error,
  until a reboot), the folder or the file cannot be written. Restart the box; if it stays,
  copy the journal off the card.
- "failing": the card refused a write although it has room and is writable (an fsync
  error, a short write). Enter the action again; if it comes back, restart and copy the
  journal.

SQLite reports all three as "disk I/O error" or "database or disk is full" without the
errno, so the kind is read from the card itself (statvfs, access, the process's file-size
limit): nothing here writes a byte, so asking costs the card nothing and can be done at
every press.
"""
from __future__ import annotations

import errno
import os
import resource
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import firmware.journal.snapshots as snapshots
from firmware.journal.store import JournalError

# Room a commit needs to be sure to fit: an action, its screen and a snapshot are a few KiB
# of -wal frames; SQLite's -shm index grows by 32 KiB.
MARGIN = 64 * 1024

_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_SQLITE = ("SQLITE_IOERR", "SQLITE_FULL", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")


@dataclass(frozen=True)
class Fault:
    kind: str            # "full", "read_only" or "failing"
    detail: str          # what failed, for the log

    @property
    def key(self) -> str:
        """The catalog key of its texts (firmware/locale: ui.card.<kind>.*)."""
        return f"card.{self.kind}"


def is_storage_error(error: BaseException) -> bool:
    """Whether `error` (or what caused it) is the card refusing a write or an open, rather
    than what the file holds: such a journal is never moved aside or salvaged for it."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, sqlite3.Error) and getattr(error, "sqlite_errorname", "").startswith(_SQLITE):
            return True
        if isinstance(error, OSError) and error.errno in _READ_ONLY | _FULL | {errno.EIO}:
            return True
        error = error.__cause__ or error.__context__
    return False


def blocked(path: str) -> Fault | None:
    """What stops the journal at `path` from being written now, as far as can be seen
    without writing: a read-only filesystem, folder or file, or no room. None otherwise
    (an I/O error shows only when writing)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        info = os.statvfs(folder)
    except OSError as exc:
        return Fault("failing", f"{folder}: {exc.strerror}")
    if info.f_flag & os.ST_RDONLY:
        return Fault("read_only", f"{folder}: the filesystem is mounted read-only")
    for name in (folder, path, path + "-wal", path + "-shm"):
        if os.path.exists(name) and not os.access(name, os.W_OK):
            return Fault("read_only", f"{name}: not writable")
    # ext4 stopped by an error may still pass statvfs and access(2): opening a file for
    # writing (and writing nothing) tells. Only the lock file: closing a descriptor of the
    # journal, its -wal or -shm would drop the POSIX locks SQLite holds on them, while the
    # lock's flock belongs to its own descriptor (firmware/journal/lock.py).
    try:
        os.close(os.open(path + "-lock", os.O_RDWR | os.O_CLOEXEC | os.O_NOCTTY))
    except OSError as exc:
        if exc.errno in _READ_ONLY:
            return Fault("read_only", f"{path}-lock: {exc.strerror}")
    if info.f_bavail * info.f_frsize < MARGIN:
        return Fault("full", f"{folder}: {info.f_bavail * info.f_frsize} bytes free")
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit != resource.RLIM_INFINITY:
        largest = max((os.path.getsize(n) for n in (path, path + "-wal", path + "-shm") if os.path.exists(n)),
                      default=0)
        if largest + MARGIN > limit:
            return Fault("full", f"the process may write files of at most {limit} bytes")
    return None


def diagnose(path: str, error: BaseException) -> Fault:
    """Why writing the journal at `path` failed with `error`: what the card shows now, else
    what the error says, else a failing card."""
    found = blocked(path)
    if found is not None:
        return Fault(found.kind, f"{error} ({found.detail})")
    name = ""
    cause = error
    while cause is not None:
        name = getattr(cause, "sqlite_errorname", "") or name
        number = getattr(cause, "errno", None)
        if number in _READ_ONLY:
            return Fault("read_only", str(error))
        if number in _FULL:
            return Fault("full", str(error))
        cause = cause.__cause__
    if name.startswith("SQLITE_READONLY"):
        return Fault("read_only", str(error))
    return Fault("failing", str(error))


def free(state_dir: str | os.PathLike, journal, game_id: int | None = None) -> int:
    """Free what the box owns on the card that nothing needs: the parsed box files it keeps
    (engines.core.files.keep_parsed_in: parsed again at the next start), the -wal (copied
    into the journal's file and cut to nothing: up to 1 000 frames of 536 bytes), and the
    snapshots of the games but `game_id` (a resume reads only the last game's: their pages
    are reused by the next writes instead of the file growing). Returns the bytes given
    back to the card; nothing raises."""
    freed = 0
    parsed = Path(state_dir) / "parsed"
    if parsed.is_dir():
        for item in parsed.iterdir():
            try:
                size = item.stat().st_size
                item.unlink()
                freed += size
            except OSError:
                pass
    if journal is None or journal.read_only:
        return freed
    wal = journal.path + "-wal"
    before = os.path.getsize(wal) if os.path.exists(wal) else 0
    # The -wal cut first (the room the deletion needs), the snapshots deleted, and the -wal
    # cut again (that deletion went into it). Each step is best effort: a card refusing one
    # may still allow the next.
    for step in (lambda: journal.checkpoint(truncate=True), lambda: snapshots.drop_others(journal, game_id),
                 lambda: journal.checkpoint(truncate=True)):
        try:
            step()
        except JournalError:
            pass
    return freed + max(0, before - (os.path.getsize(wal) if os.path.exists(wal) else 0))
