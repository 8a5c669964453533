"""What a journal row is, shared by the journal and its salvage.

The header copy's place, the canonical JSON text that checksums cover, the two checksums
of the hash chain and the lenient decoder of a row's text. They live apart from
``firmware.journal`` because salvage (``firmware.journal_salvage``) needs them and the
journal calls salvage: kept in journal.py they made an import circle.
"""
from __future__ import annotations

import hashlib
import json

# Each game's header is also kept as its action -1, beside its first actions (schema 2).
HEADER_COPY = -1


def canonical(obj) -> str:
    """The one JSON text of a value that checksums are computed over."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def header_checksum(game_id: int, header: str) -> str:
    return hashlib.sha256(f"{game_id}:header:{header}".encode()).hexdigest()


def action_checksum(game_id: int, seq: int, body: str, prev: str) -> str:
    # The body goes last: everything before it has a fixed syntax (integers, hex), so
    # distinct rows can never produce the same hashed text.
    return hashlib.sha256(f"{game_id}:{seq}:{prev}:{body}".encode()).hexdigest()


def _lenient_text(raw: bytes) -> str:
    # A damaged page can hold bytes that are not UTF-8. Decoding them with replacement
    # characters lets the checksum, not the decoder, reject the row.
    return raw.decode("utf-8", "replace")
