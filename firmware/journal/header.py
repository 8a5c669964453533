"""The first 100 bytes of a journal file (SQLite's database header) and what they say.

SQLite trusts these bytes: one bad bit in the magic, the page size or the format bytes
makes it refuse the file, and one in the text encoding, the application id or the
user_version makes it (or the journal) misread a file whose rows are all intact. So a
journal's header is checked before its rows are read, and a damaged one sends the file to
salvage (firmware/journal/salvage.py), which reads the rows from the pages themselves: the
hash chain, not the header, says which rows are good.

`damage(head)` names what is wrong with the bytes SQLite needs; `identity(...)` tells a
journal whose application id or user_version bit flipped (its tables are a journal's)
from another program's database or a newer firmware's journal, which are left alone.

Format: https://www.sqlite.org/fileformat2.html#database_header
"""
from __future__ import annotations

MAGIC = b"SQLite format 3\x00"
SIZE = 100

# "Corb" in the SQLite header tells our files from other SQLite databases.
APPLICATION_ID = 0x436F7262

# The tables every schema of the journal has (firmware/journal/store.py, `_SCHEMA`).
TABLES = frozenset({"games", "actions", "meta"})


def read(path: str) -> bytes:
    """The file's first SIZE bytes (fewer when it is shorter). OSError when it cannot be read."""
    with open(path, "rb") as f:
        return f.read(SIZE)


def looks_sqlite(head: bytes) -> bool:
    """Whether the file may be an SQLite file at all: it starts with (a part of) the magic,
    or it is empty or zeroed there (a cut or zeroed first page, common ways for an SD card
    to fail). Anything else is either a journal whose magic was damaged or another file."""
    start = head[:len(MAGIC)]
    return MAGIC.startswith(start) or not start.strip(b"\x00")


def damage(head: bytes) -> str | None:
    """What is wrong with the header fields SQLite reads the file by, or None when they are
    sound (or the file is empty: a new journal)."""
    if not head:
        return None
    if len(head) < SIZE:
        return f"the file is cut short ({len(head)} bytes, less than its header)"
    if not head.startswith(MAGIC):
        return "its first 16 bytes are not SQLite's"
    size = int.from_bytes(head[16:18], "big")
    size = 65536 if size == 1 else size
    if size < 512 or size & (size - 1):
        return f"its page size field reads {size}"
    if head[18] not in (1, 2) or head[19] not in (1, 2):
        return f"its format bytes read {head[18]} and {head[19]}"
    if head[20] != 0 or head[21:24] != b"\x40\x20\x20":
        return "its page layout bytes are damaged"
    if int.from_bytes(head[44:48], "big") not in (0, 1, 2, 3, 4):   # 0: no table yet (in the -wal)
        return f"its schema format field reads {int.from_bytes(head[44:48], 'big')}"
    encoding = int.from_bytes(head[56:60], "big")
    if encoding not in (0, 1):          # 0: no table yet; a journal is UTF-8 (1)
        return f"its text encoding field reads {encoding}, a journal's is 1 (UTF-8)"
    return None


def identity(app_id: int, version: int, tables: set, known: int) -> tuple[str, str | None]:
    """What a file SQLite opens is, from its application id, user_version and table names:
    ("journal", None), ("damaged", why) for a journal whose id or version bit flipped,
    ("foreign", why) for another program's database, ("newer", why) for a journal of a
    schema after `known`. A file with no table is a new journal."""
    if not tables:
        return "journal", None
    if not TABLES <= tables:
        return "foreign", f"an SQLite database, but not a Corbeille journal (application id {app_id:#x})"
    if app_id != APPLICATION_ID:
        return "damaged", f"its application id reads {app_id:#x}, a journal's is {APPLICATION_ID:#x}"
    if version > known:
        # A newer firmware's schema is one of the next few numbers; one bit flipped in the
        # known schema is not (3 becomes 7, 11, 19... or a huge number).
        if version <= known + 3:
            return "newer", f"written by a newer firmware (schema {version}, this one knows {known})"
        return "damaged", f"its user_version reads {version}, a journal's schema is 1 to {known}"
    if version < 1:
        return "damaged", f"its user_version reads {version}, a journal's schema is 1 to {known}"
    return "journal", None
