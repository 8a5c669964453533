"""The box's own journal at start, whatever state its file and its card are in.

`open_for_box` is what `corbeille run` and `sim` open (firmware/app.py, start_app): the
writer (firmware/journal/store.py) when it can be, with the last game's chain check deferred;
a file that is not a journal moved aside; and a `ReadOnlyJournal` when the card will not
let the box write (firmware/journal/storage.py, firmware/journal/readonly.py).
"""
from __future__ import annotations

import os
import time

import firmware.journal.storage as storage
from firmware.journal.errors import JournalBusy, JournalError, JournalLockError
from firmware.journal.connection import fsync_dir
from firmware.journal.store import Journal


def open_for_box(path: str | os.PathLike) -> tuple:
    """The box's own journal, whatever state its file and its card are in: (journal, what
    was done).

    A journal that cannot be opened at all (not an SQLite file, another program's
    database, a newer firmware's, a folder) is moved aside, kept and named with the date,
    and the box starts on a fresh one: a box that refuses to start stays down until
    someone removes a file, which at a game table nobody can. A journal held by another
    process is never moved aside (JournalBusy is raised). A journal the card will not let
    the box write (read-only, full, failing: firmware/journal/storage.py) is never moved aside
    either: the box gets a `ReadOnlyJournal` (firmware/journal/readonly.py) showing the
    game as the file holds it, its `fault` saying why.
    """
    path = os.fspath(path)
    try:
        journal = Journal(path, defer_chain=True)
    except JournalBusy:
        raise                          # the journal itself may be fine: never move it
    except JournalError as error:
        if storage.is_storage_error(error):
            return _read_only(path, storage.diagnose(path, error)), None
        if isinstance(error, JournalLockError) or not os.path.lexists(path):
            raise                      # nothing to move: a directory or permission problem
        aside = _aside_name(path, time.strftime("%Y%m%d-%H%M%S"))
        try:
            os.replace(path, aside)
            for suffix in ("-wal", "-shm"):
                if os.path.exists(path + suffix):
                    os.replace(path + suffix, aside + suffix)
            fsync_dir(os.path.dirname(os.path.abspath(path)))
        except OSError as exc:
            raise JournalError(f"{error}; and it cannot be moved aside ({exc.strerror})") from exc
        note = (f"{error}. Kept as {aside}; the box starts on a fresh journal. "
                f"`corbeille salvage {aside}` recovers what can be read from it.")
        try:
            return Journal(path), note
        except JournalError as again:
            if storage.is_storage_error(again):
                return _read_only(path, storage.diagnose(path, again)), note
            raise
    # Opened, but the card may still not let the box write (a read-only file SQLite opened
    # read-only, a full card): seen now rather than at the first action. A full card gets
    # what the box can free first.
    fault = storage.blocked(path)
    if fault is not None and fault.kind == "full":
        storage.free(os.path.dirname(os.path.abspath(path)), journal, journal.last_game())
        fault = storage.blocked(path)
    if fault is None:
        return journal, None
    journal.close()
    return _read_only(path, fault), None


def _read_only(path: str, fault):
    """The journal read-only, for a box whose card will not let it write (a storage.Fault).
    Imported here: a box whose card is sound never loads the reader (tempfile, shutil)."""
    from firmware.journal.readonly import ReadOnlyJournal

    return ReadOnlyJournal(path, fault)


def _aside_name(path: str, stamp: str) -> str:
    aside, n = f"{path}.unreadable-{stamp}", 1
    while os.path.lexists(aside):
        n += 1
        aside = f"{path}.unreadable-{stamp}-{n}"
    return aside
