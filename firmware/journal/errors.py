"""What goes wrong with a journal, as the journal's modules raise and describe it."""
from __future__ import annotations

import sqlite3

from engines.core.errors import CorbeilleError


class JournalError(CorbeilleError):
    """The journal cannot do what was asked; the message names the file and the problem."""


def missing(key: str, /, **params) -> JournalError:
    """A JournalError for a path that is no journal file (`ui.journal.<key>` of the box's
    catalog), said in the language a command is asked in."""
    from engines.core.errors import worded
    from firmware import texts  # noqa: F401 (registers the box's catalog)

    return worded(JournalError, "ui.journal." + key, **params)


class JournalBusy(JournalError):
    """Another process holds the journal (one journal, one writer)."""


class JournalLockError(JournalError):
    """The journal's lock file cannot be made: a problem of the folder, not of the journal."""


class Damaged(Exception):
    """SQLite reports the file itself damaged: salvage what can be read."""


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error says the file is damaged (not busy, not full, not read-only)."""
    name = getattr(exc, "sqlite_errorname", "")
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def describe(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):  # SQLite quotes the damaged schema text in its message
        return "a bad byte in the file's schema text"
    return str(exc)
