"""Journal snapshots: a resume starts from the game's state after its last hundredth action
instead of replaying the whole evening (PRODUCT.md: "snapshots, not a full replay").

The engine keeps a checkpoint of its state every CHECKPOINT_EVERY (100) actions, pickled
(`Game.frozen_state`); when it makes one, the session writes it to the journal's meta as the
game's snapshot (`snapshot.<game id>`, one per game, replaced each time), in the same
transaction as the action that led to it: no commit and no fdatasync of its own, and a
small write once every 100 actions (docs/performance.md).

A snapshot is used only when everything it says is checked on read, else the game is
replayed, with nothing lost (the actions are the journal; a snapshot only saves
time):

* `sum`: the SHA-256 of the state's bytes (a damaged value);
* `rules`: the rules fingerprint it was written under (a firmware update may change what the
  state's classes are or what an action does);
* `chain`: the hash-chain checksum of the action it was taken after. The chain names the
  game's first `n` actions exactly, so the snapshot is used only while the journal holds
  those same actions (an undo past it, a repair that cut the game, or a game rebuilt on
  other actions make it stale);
* the state is read back only as the engines' own classes (engines/core/game.py `thaw`).
"""
from __future__ import annotations

import base64
import binascii
import json
import zlib

from firmware.journal.rows import sha256     # not hashlib's: see there

KEY = "snapshot.{}"


def write(journal, game_id: int, count: int, frozen: bytes, rules: str) -> None:
    """Keep `frozen`, the state after the game's first `count` actions, as its snapshot
    (joins the journal's transaction: the action's own commit on the box)."""
    value = {"n": count, "chain": journal.checksum(game_id, count - 1), "rules": rules,
             "sum": sha256(frozen).hexdigest(), "state": base64.b64encode(zlib.compress(frozen, 6)).decode("ascii")}
    journal.set_meta(KEY.format(game_id), json.dumps(value, separators=(",", ":")))


def read(journal, game_id: int, rules: str) -> tuple[int, bytes] | None:
    """(count, frozen state) of the game's snapshot when every check holds; None otherwise
    (no snapshot, or one that is damaged, stale or of other rules: replay instead)."""
    raw = journal.get_meta(KEY.format(game_id))
    if not raw:
        return None
    try:
        snap = json.loads(raw)
        count, chain = snap["n"], snap["chain"]
        frozen = zlib.decompress(base64.b64decode(snap["state"], validate=True))
        if snap["rules"] != rules or sha256(frozen).hexdigest() != snap["sum"]:
            return None
    except (ValueError, TypeError, KeyError, binascii.Error, zlib.error):
        return None
    if type(count) is not int or count < 1 or not chain or journal.checksum(game_id, count - 1) != chain:
        return None
    return count, frozen


def drop_others(journal, game_id: int | None) -> None:
    """Delete the snapshots of every game but `game_id`: a box resumes only its last game
    (firmware/journal/storage.py frees them on a full card)."""
    journal.delete_meta([KEY.format(other) for other, _ in journal.games() if other != game_id])
