"""What a journal row is, shared by the journal and its salvage.

The header copy's place, where an action sits in the actions table of each schema, the
canonical JSON text that checksums cover, the two checksums of the hash chain, how a
checksum is stored, and the lenient decoder of a row's text: one module that the writer,
its readers and the salvage all read, and that reads none of them.
"""
from __future__ import annotations

import json

from engines.core.files import sha256     # CPython's own, not OpenSSL's: see there

# Each game's header is also kept as its action -1, beside its first actions (schema 2).
HEADER_COPY = -1

# Schema 3: the actions table is a rowid table keyed by one integer holding the game id and
# the seq (the header copy is seq -1, so its key is the game id times 2**32). The box only
# ever appends to the last game, so every new row has the table's largest key and SQLite
# splits a full leaf by starting a new one (its "quick balance": one new page) instead of
# rebalancing three leaves and their parent, as it did in the WITHOUT ROWID table of
# schemas 1 and 2 (docs/performance.md: about 3.4 WAL frames an action against 2.3).
SEQ_BITS = 32


def action_key(game_id: int, seq: int) -> int:
    """The rowid of action `seq` of game `game_id` (schema 3)."""
    return (game_id << SEQ_BITS) + seq + 1


def key_parts(key: int) -> tuple[int, int]:
    """(game id, seq) of a schema 3 rowid."""
    return key >> SEQ_BITS, (key & ((1 << SEQ_BITS) - 1)) - 1


def rows_of(keyed: bool, game_id: int, start: int = 0, stop: int | None = None) -> tuple[str, tuple]:
    """The SQL condition (and its parameters) selecting the game's rows with start <= seq <
    stop, in either layout of the actions table (`is_keyed`). Keyed (schema 3), a range of
    rowids: one seek, however many games the journal holds (game_id and seq are computed
    columns there, not indexed)."""
    if keyed:
        end = action_key(game_id + 1, HEADER_COPY)
        return "id>=? AND id<?", (action_key(game_id, start),
                                  end if stop is None else min(end, action_key(game_id, stop)))
    return "game_id=? AND seq>=? AND seq<?", (game_id, start, 1 << 62 if stop is None else stop)


def order_of(keyed: bool) -> str:
    """The column that orders a game's rows in that layout."""
    return "id" if keyed else "seq"


def is_keyed(conn) -> bool:
    """True for schema 3's actions table (a rowid table), False for schemas 1 and 2 (WITHOUT
    ROWID, keyed by game_id and seq): read from the file's own schema, not from its
    user_version (one bad bit there must not make the rows misread). A schema SQLite cannot
    read raises sqlite3.Error or UnicodeDecodeError."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name='actions'").fetchone()
    return not (row and isinstance(row[0], str) and "WITHOUT ROWID" in row[0].upper())


def stored_checksum(checksum: str):
    """A checksum as schema 3 stores it: its 32 bytes, not 64 hex digits (32 bytes less a row).
    Text that is not a checksum (a damaged row being copied) is kept as it is, so the chain
    check still refuses it."""
    if isinstance(checksum, str) and len(checksum) == 64:
        try:
            return bytes.fromhex(checksum)
        except ValueError:
            pass
    return checksum


def checksum_text(stored) -> str | None:
    """A stored checksum as the hex text the chain is computed with (schema 3 stores bytes,
    schemas 1 and 2 text); None for anything else (a damaged row)."""
    if isinstance(stored, bytes):
        return stored.hex()
    return stored if isinstance(stored, str) else None


# json.dumps with these options builds a new encoder on every call; one made once writes
# the same text (dumps is `JSONEncoder(**options).encode`), a little sooner on every append.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical(obj) -> str:
    """The one JSON text of a value that checksums are computed over."""
    return _CANONICAL.encode(obj)


def header_checksum(game_id: int, header: str) -> str:
    return sha256(f"{game_id}:header:{header}".encode()).hexdigest()


def action_checksum(game_id: int, seq: int, body: str, prev: str) -> str:
    # The body goes last: everything before it has a fixed syntax (integers, hex), so
    # distinct rows can never produce the same hashed text.
    return sha256(f"{game_id}:{seq}:{prev}:{body}".encode()).hexdigest()


# json.loads(text) is the decoder's scan from the first character plus two whitespace
# matches and a check of the end, in Python; a row is canonical JSON, with no whitespace
# around it, so scanning it alone reads the same value (anything else goes to json.loads).
_SCAN = json.JSONDecoder().scan_once


def parse_row(text: str):
    """json.loads(text): the same value or the same error, sooner for a row's canonical text."""
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError, TypeError):
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def parse_rows(texts) -> list:
    """[parse_row(text) for text in texts]."""
    return list(map(parse_row, texts))


def is_object(text: str) -> bool:
    """Whether `text` is the JSON of an object (every row's body and header is one)."""
    try:
        return isinstance(parse_row(text), dict)
    except ValueError:
        return False


def walk_chain(game_id: int, rows, start: int, prev: str, keep: list | None = None) -> tuple[str | None, int]:
    """Check a game's rows, (seq, body, stored checksum) in seq order from `start`, the first
    chaining to the checksum `prev` (hex): (why the first bad row is bad, its seq), or
    (None, the last seq) when every row is good. A body is its stored UTF-8 bytes (None
    for a value that is not text): those bytes are what `action_checksum` hashes, so they
    are hashed as they are, and only a row whose checksum holds is decoded and scanned
    for its JSON object (`parse_row`). One loop: the open walks every row of the journal
    (2 000 a long game). The objects it reads go into `keep` (a list) when one is given:
    what reading the good rows back would parse again."""
    prefix, prev = f"{game_id}:".encode(), prev.encode()
    kept = None if keep is None else keep.append
    reason, expected = None, start
    for expected, (seq, raw, stored) in enumerate(rows, start):
        if seq != expected:
            reason = f"action {expected + 1} missing"
            break
        if raw is None:
            reason = f"checksum mismatch at action {expected + 1}"
            break
        digest = sha256(b"%s%d:%s:%s" % (prefix, seq, prev, raw))
        if stored.__class__ is bytes:           # schema 3: the 32 bytes
            good = stored == digest.digest()
        else:                                   # schemas 1 and 2: the hex text
            good = stored == digest.hexdigest()
        try:
            body = raw.decode() if good else None
        except UnicodeDecodeError:              # not the UTF-8 text a checksum covers
            body = None
        if body is None:
            reason = f"checksum mismatch at action {expected + 1}"
            break
        try:
            value = parse_row(body)
        except ValueError:
            value = None
        if not isinstance(value, dict):
            reason = f"unparsable JSON at action {expected + 1}"
            break
        if kept is not None:
            kept(value)
        prev = (stored.hex() if stored.__class__ is bytes else stored).encode()
    return reason, expected


def _lenient_text(raw: bytes) -> str:
    # A damaged page can hold bytes that are not UTF-8. Decoding them with replacement
    # characters lets the checksum, not the decoder, reject the row.
    return raw.decode("utf-8", "replace")
