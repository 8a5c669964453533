"""The seats' private links: one unguessable token per seat and game.

A seat's page on the web view (firmware/web/) is reached by `/s/<token>`. The token is 128
bits of HMAC-SHA256 over the game (its journal id and its header, which holds the game's
random seed) and the seat, keyed by a secret of 32 random bytes kept in the box's state
folder (`web.secret`, mode 0600): never in the journal, so never in an export or a bug
report. A new game gets new tokens; a token of an earlier game, or of another journal, opens
nothing. The box makes the secret when the web view is enabled (`ensure_secret`, at start);
the web process only reads it.

Tokens are written in base32 capitals (26 characters): a URL all in capitals fits a QR code
in its alphanumeric mode, which is what lets it be drawn two pixels a module on the 128x64
operator screen (firmware/screens/phones.py). `seat_of` compares a token with every seat's
in constant time (hmac.compare_digest), and always with every seat.
"""
from __future__ import annotations

import base64
import os
from pathlib import Path

from engines.core.files import sha256     # CPython's own, not OpenSSL's: see hmac_sha256
from firmware.journal.rows import canonical

SECRET_FILE = "web.secret"
SECRET_BYTES = 32
TOKEN_CHARS = 26          # 128 bits in base32


def secret_path(state_dir) -> Path:
    return Path(state_dir) / SECRET_FILE


def ensure_secret(state_dir) -> bytes:
    """The box's secret, made once (0600, synced) the first time the web view is enabled."""
    path = secret_path(state_dir)
    secret = read_secret(state_dir)
    if secret is not None:
        return secret
    secret = os.urandom(SECRET_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, secret)
        os.fsync(fd)
    finally:
        os.close(fd)
    return secret


def read_secret(state_dir) -> bytes | None:
    """The secret, or None when the box has not made it (or it is not whole)."""
    try:
        secret = secret_path(state_dir).read_bytes()
    except OSError:
        return None
    return secret if len(secret) == SECRET_BYTES else None


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 (RFC 2104) on CPython's own SHA-256: the `hmac` module loads OpenSSL
    (3.4 MiB of the box's RSS: firmware/journal/rows.py), and the box only makes tokens."""
    key = key.ljust(64, b"\0")
    inner = sha256(bytes(k ^ 0x36 for k in key) + message).digest()
    return sha256(bytes(k ^ 0x5C for k in key) + inner).digest()


def seat_token(secret: bytes, game_id: int, header: dict, seat: int) -> str:
    message = f"{game_id}\n{seat}\n{canonical(header)}".encode()
    return base64.b32encode(hmac_sha256(secret, message)[:16]).decode("ascii").rstrip("=")


def seat_of(secret: bytes, game_id: int, header: dict, token: str) -> int | None:
    """The seat whose token `token` is in this game, or None. Every seat is compared, each
    in constant time, whatever matched first."""
    from hmac import compare_digest

    given = token.upper().encode("ascii", "replace")
    found = None
    for seat in range(len(header.get("players", []))):
        if compare_digest(given, seat_token(secret, game_id, header, seat).encode("ascii")):
            found = seat
    return found
