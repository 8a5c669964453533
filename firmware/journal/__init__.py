"""The journal: each game kept as a checksummed, append-only list of actions in SQLite.

The writer is `Journal` (store.py); readers beside it use `JournalReader` (reader.py); the
box opens its own journal through `open_for_box` (startup.py). docs/reliability.md says
what is promised and how each module keeps it.
"""
from firmware.journal.store import Journal, JournalBusy, JournalError, JournalLockError

__all__ = ["Journal", "JournalBusy", "JournalError", "JournalLockError"]
