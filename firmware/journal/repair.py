"""Repairs a writer makes to its own journal file: what each one says, a damaged file
salvaged into a fresh one in its place, and a file of an older schema copied into one of
this schema.

A fresh file is built beside the journal and swapped in with one rename, so a power cut
during a repair leaves either the old file (repaired again at next start) or the fresh
one, never no journal at all.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3

from firmware.journal.connection import fsync_dir, write_fresh


class Repairs:
    """What the repairs of one journal said (`messages`, for the log and the operator
    screen) and, per game they cut back, salvaged or may have lost actions of, (actions
    kept, number of the first action lost or None when no loss is known): `cuts`."""

    def __init__(self, path: str):
        self.path = path
        self.messages: list[str] = []
        self.cuts: dict[int, tuple[int, int | None]] = {}

    def say(self, message: str) -> None:
        self.messages.append(f"journal {self.path}: {message}")

    def cut(self, game_id: int, kept: int, first_lost: int | None) -> None:
        self.cuts[game_id] = (kept, first_lost)

    def lost_frames(self, lost: tuple[int, str], game: int | None, kept: int) -> None:
        """Committed -wal frames found gone at open (wal.examine's (frames, how)): the last
        game, now `kept` actions long, may have lost those acknowledged since the last
        checkpoint."""
        frames, how = lost
        if game:
            self.cut(game, kept, None)
        where = f"game {game} now ends at action {kept}" if game else "no game left"
        self.say(f"{how}: {frames} committed WAL frames not yet in the main file are gone, so "
                 f"actions acknowledged since the last checkpoint may be lost ({where})")


def salvage(path: str, reason: str, repairs: Repairs) -> None:
    """Copy every row that can still be read into a fresh file in the journal's place; the
    damaged one is kept aside as `<path>.damaged-N`."""
    from firmware.journal.salvage import read_damaged

    stops: dict[int, int] = {}
    games, meta, notes = read_damaged(path, stops)
    for game_id, (_, _, rows) in games.items():
        repairs.cut(game_id, len(rows), stops.get(game_id))
    n = 1
    while os.path.exists(f"{path}.damaged-{n}"):
        n += 1
    aside = f"{path}.damaged-{n}"
    replace_with(path, games, meta, ".salvage", aside)
    actions = sum(len(g[2]) for g in games.values())
    repairs.say(f"file damaged ({reason}); kept aside as {aside}; salvaged "
                f"{len(games)} games and {actions} actions into a fresh journal")
    for note in notes:
        repairs.say(note)


def migrate(conn: sqlite3.Connection, path: str, old: int) -> tuple[str, int]:
    """Copy a journal of schema 1 or 2 (open on `conn`, which this closes) into a new file of
    this schema, in its place: (where the old file is kept, actions that belonged to no game
    and were left out).

    Every row is copied as it is (checksums unchanged, so the chains still verify; a damaged
    row stays damaged and the chain check cuts it as in any file); schema 1's games get
    their header copies. The old file is kept as `journal.sqlite.schema-N`.
    """
    games = {gid: (header, hsum, []) for gid, header, hsum in
             conn.execute("SELECT id, header, checksum FROM games ORDER BY id")}
    orphans = 0
    for gid, seq, body, checksum in conn.execute(
            "SELECT game_id, seq, body, checksum FROM actions WHERE seq>=0 ORDER BY game_id, seq"):
        if gid in games:
            games[gid][2].append((seq, body, checksum))
        else:
            orphans += 1
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # the old file whole on its own
    conn.close()
    aside, n = f"{path}.schema-{old}", 1
    while os.path.lexists(aside):
        n += 1
        aside = f"{path}.schema-{old}-{n}"
    replace_with(path, games, meta, ".migrate", aside)
    return aside, orphans


def replace_with(path: str, games: dict, meta: dict, suffix: str, aside: str) -> None:
    """Write `games` and `meta` into a fresh file (this schema) and put it in the journal's
    place, the journal's file (and its -wal) kept as `aside`."""
    fresh = path + suffix
    for leftover in (fresh, fresh + "-wal", fresh + "-shm"):  # an interrupted swap
        with contextlib.suppress(FileNotFoundError):
            os.remove(leftover)
    write_fresh(fresh, games, meta)
    if os.path.exists(path):
        try:
            os.link(path, aside)
        except OSError:  # a filesystem without hard links
            import shutil  # here only: it loads bz2 and lzma, which a start does not need

            shutil.copy2(path, aside)
    # A WAL left beside the old file must not be replayed into the fresh one.
    if os.path.exists(path + "-wal"):
        os.replace(path + "-wal", aside + "-wal")
    with contextlib.suppress(FileNotFoundError):
        os.remove(path + "-shm")
    os.replace(fresh, path)
    fsync_dir(os.path.dirname(os.path.abspath(path)))
