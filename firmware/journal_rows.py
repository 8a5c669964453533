"""What a journal row is, shared by the journal and its salvage.

The header copy's place, where an action sits in the actions table of each schema, the
canonical JSON text that checksums cover, the two checksums of the hash chain, how a
checksum is stored, and the lenient decoder of a row's text. They live apart from
``firmware.journal`` because salvage (``firmware.journal_salvage``) needs them and the
journal calls salvage: kept in journal.py they made an import circle.
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
# schemas 1 and 2 (docs/benchmarks.md: about 3.4 WAL frames an action against 2.3).
SEQ_BITS = 32


def action_key(game_id: int, seq: int) -> int:
    """The rowid of action `seq` of game `game_id` (schema 3)."""
    return (game_id << SEQ_BITS) + seq + 1


def key_parts(key: int) -> tuple[int, int]:
    """(game id, seq) of a schema 3 rowid."""
    return key >> SEQ_BITS, (key & ((1 << SEQ_BITS) - 1)) - 1


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


def _lenient_text(raw: bytes) -> str:
    # A damaged page can hold bytes that are not UTF-8. Decoding them with replacement
    # characters lets the checksum, not the decoder, reject the row.
    return raw.decode("utf-8", "replace")
