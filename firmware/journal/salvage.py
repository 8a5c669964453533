"""Reading what can still be read of a damaged journal.

Two sources, then one rule:
1. SQLite, row by row (`_walk`): the rows of the tables it can still find, in key order,
   each walk stopping at the first page it cannot read (and walking back from the other
   end to get the rows behind it).
2. The file's pages read without SQLite (`firmware.journal.pages`): rows on pages SQLite
   cannot reach any more (a zeroed first page, a bad byte in the schema text, a cut tree).
The rule: a game is its header plus the longest run of actions 0, 1, 2... whose hash chain
verifies. A row from SQLite's walk wins over one from the page scan; two different rows
from the page scan for the same place (a stale page holding an undone action) end the
game there, since which one the players saw cannot be told.

Journals of every schema are read: SQLite's walk asks the file's own schema which layout
its actions table has (`_layout`), and the page scan recognises both by their rows' shapes.

Every loop here is bounded: a walk must move forward on every row (a damaged B-tree can
send a seek back to a row already seen, which would loop forever), and the number of
rows is capped by the file's size.
"""
from __future__ import annotations

import os
import sqlite3
import urllib.parse

import firmware.journal.pages as journal_pages
from firmware.journal.rows import (HEADER_COPY, SEQ_BITS, _lenient_text, action_checksum, action_key,
                                   checksum_text, header_checksum, is_keyed)


class _NoProgress(sqlite3.DatabaseError):
    """A damaged B-tree sent the walk back to a row it had already passed."""


def read_damaged(path: str, stops: dict | None = None) -> tuple[dict, dict, list[str]]:
    """({game id: (header, checksum, [(seq, body, checksum), ...])}, {meta}, notes).

    Every game returned verifies: its header checksum and its actions' chain. `stops`, when
    given, receives game id -> the number of its first action lost (a row found after the
    verified run), for each game that lost some.
    """
    notes: list[str] = []
    found = journal_pages.scan(path)     # first: the bytes as they are, the -wal's frames included
    walked_games, walked_actions, walked_meta, walked_copies = _read_with_sqlite(path, notes)
    games: dict = {}
    copies = {gid for gid, seq in found.actions if seq == HEADER_COPY} | set(walked_copies)
    for game_id in sorted(set(walked_games) | set(found.games) | copies):
        scanned = found.games.get(game_id, set()) | found.actions.get((game_id, HEADER_COPY), set())
        if game_id in walked_copies:
            scanned.add(walked_copies[game_id])
        header = _pick_header(game_id, walked_games.get(game_id), scanned)
        if header is None:
            notes.append(f"game {game_id}: no readable header that verifies; its actions are lost")
            continue
        actions, stop = _chain(game_id, header[1], walked_actions.get(game_id, []), found.actions)
        games[game_id] = (*header, actions)
        if stop:
            notes.append(f"game {game_id} ends at action {len(actions)} ({stop})")
            if stops is not None:
                stops[game_id] = len(actions) + 1
    meta = dict(walked_meta)
    for key, values in found.meta.items():
        if key not in meta and len(values) == 1:
            meta[key] = next(iter(values))
    recovered = [gid for gid in games
                 if gid not in walked_games or len(games[gid][2]) > len(walked_actions.get(gid, []))]
    if recovered:
        notes.append(f"rows of game(s) {', '.join(map(str, recovered))} read from the file's pages, "
                     f"past what SQLite could read")
    return games, meta, notes


def _pick_header(game_id, walked, scanned):
    if walked is not None and walked[1] == header_checksum(game_id, walked[0]):
        return walked
    good = {(h, c) for h, c in scanned if c == header_checksum(game_id, h)}
    return next(iter(good)) if len(good) == 1 else None


def _chain(game_id, start, walked, scanned) -> tuple[list, str | None]:
    """The longest verified run of actions; and why it stops, if anything follows."""
    by_seq = {seq: (body, checksum) for seq, body, checksum in walked}
    actions, prev = [], start
    while True:
        seq = len(actions)
        row = by_seq.get(seq)
        if row is None or row[1] != action_checksum(game_id, seq, row[0], prev):
            options = {r for r in scanned.get((game_id, seq), ())
                       if r[1] == action_checksum(game_id, seq, r[0], prev)}
            if len(options) > 1:
                return actions, f"{len(options)} different versions of action {seq + 1} found"
            if not options:
                later = any(s > seq for s in by_seq) or any(g == game_id and s > seq for g, s in scanned)
                return actions, (f"action {seq + 1} missing or damaged" if later else None)
            row = options.pop()
        actions.append((seq, *row))
        prev = row[1]


def _read_with_sqlite(path: str, notes: list[str]):
    games: dict = {}
    actions: dict = {}
    meta: dict = {}
    copies: dict = {}     # game id -> (header, checksum) from its action -1
    try:
        # Read-only: a connection that writes would checkpoint the -wal into the file when
        # it closes, and delete it: the frames past a damaged one with it.
        conn = sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro", uri=True,
                               isolation_level=None)
        conn.text_factory = _lenient_text
        # A file shorter than its header says is refused as corrupt unless writable_schema
        # is on; with it, SQLite reads the pages that are there. This connection only reads.
        conn.execute("PRAGMA writable_schema=ON")
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        notes.append(f"SQLite could not read the file ({_message(exc)})")
        return games, actions, meta, copies
    cap = _row_cap(path)
    try:
        rows, error = _walk_both_ways(conn, "games", "id, header, checksum", "id", cap)
        if error:
            notes.append(f"SQLite could not read every game header ({error})")
        for game_id, header, hsum in rows:
            if isinstance(game_id, int) and isinstance(header, str) and isinstance(hsum, str):
                games[game_id] = (header, hsum)
        keyed = _layout(conn)
        try:
            # Schema 3: the rowid is the key (a header copy's is a multiple of 2**SEQ_BITS).
            walk = (_walk(conn, "actions", "id, body, checksum", "id", cap,
                          where=f"id % {1 << SEQ_BITS} = 0") if keyed else
                    _walk(conn, "actions", "game_id, body, checksum", "game_id", cap,
                          where=f"seq={HEADER_COPY}"))
            for key, header, hsum in walk:
                game_id = key >> SEQ_BITS if keyed and isinstance(key, int) else key
                hsum = checksum_text(hsum)
                if isinstance(game_id, int) and isinstance(header, str) and isinstance(hsum, str):
                    copies[game_id] = (header, hsum)
        except (sqlite3.Error, UnicodeDecodeError):
            pass  # the page scan looks for the rest
        for game_id in set(games) | set(copies):
            actions[game_id] = _walked_actions(conn, game_id, keyed, cap)
        rows, error = _walk_both_ways(conn, "meta", "key, value", "key", cap)
        meta = {k: v for k, v in rows if isinstance(k, str) and isinstance(v, str)}
        if error:
            notes.append(f"some settings could not be read ({error})")
    finally:
        conn.close()
    return games, actions, meta, copies


def _walked_actions(conn, game_id: int, keyed: bool, cap: int) -> list:
    """The game's actions 0, 1, 2... as SQLite walks them, up to the first it cannot read
    or that is not the next (the page scan may find the rest; the notes say where each
    game ends)."""
    rows = []
    walk = (_walk(conn, "actions", "id, body, checksum", "id", cap, where="id>=? AND id<?",
                  params=(action_key(game_id, 0), action_key(game_id + 1, HEADER_COPY)))
            if keyed else
            _walk(conn, "actions", "seq, body, checksum", "seq", cap,
                  where="game_id=? AND seq>=0", params=(game_id,)))
    try:
        for seq, body, checksum in walk:
            seq = seq - action_key(game_id, 0) if keyed and isinstance(seq, int) else seq
            checksum = checksum_text(checksum)
            if not (seq == len(rows) and isinstance(body, str) and isinstance(checksum, str)):
                break
            rows.append((seq, body, checksum))
    except (sqlite3.Error, UnicodeDecodeError):
        pass
    return rows


def _layout(conn) -> bool:
    """`is_keyed`, or True when SQLite cannot read the schema (no walk will succeed then;
    the page scan reads both layouts)."""
    try:
        return is_keyed(conn)
    except (sqlite3.Error, UnicodeDecodeError):
        return True


def _row_cap(path: str) -> int:
    """More rows than the file (and its WAL) could hold: a bound on every walk."""
    size = 0
    for name in (path, path + "-wal"):
        try:
            size += os.path.getsize(name)
        except OSError:
            pass
    return size // 4 + 100


def _walk(conn, table, columns, key, cap, *, where="1", params=(), descending=False):
    """Yield the rows of a table in key order, one query (one B-tree seek) per row.

    A plain cursor is no good on a damaged file: Python's sqlite3 steps one row ahead, so
    the error from a bad page also loses the good row before it. A seek per row stops
    exactly at the bad page. Raises sqlite3.Error there, and _NoProgress when a seek
    does not move past the last key (a damaged tree can answer "the next row after 0"
    with row 0 again), so every walk ends.
    """
    op, order = ("<", "DESC") if descending else (">", "ASC")
    sql = f"SELECT {columns} FROM {table} WHERE {where} "
    tail = f" ORDER BY {key} {order} LIMIT 1"
    row = conn.execute(sql + tail, params).fetchone()
    last = None
    for _ in range(cap):
        if row is None:
            return
        if last is not None and not _beyond(row[0], last, descending):
            raise _NoProgress(f"rows out of order in {table} after key {last!r}")
        yield row
        last = row[0]
        row = conn.execute(f"{sql} AND {key} {op} ? {tail}", (*params, last)).fetchone()
    raise _NoProgress(f"more rows in {table} than the file can hold")


def _beyond(key, last, descending) -> bool:
    try:
        return key < last if descending else key > last
    except TypeError:  # keys of different types: SQLite's order, not Python's
        return False


def _walk_both_ways(conn, table, columns, key, cap):
    """A table's rows walked forwards, then backwards, each way up to a damaged page.

    Walking from both ends recovers the rows on either side of a bad page.
    Returns (rows, first error message or None).
    """
    found, error = {}, None
    for descending in (False, True):
        try:
            for row in _walk(conn, table, columns, key, cap, descending=descending):
                found[row[0]] = row
            if not descending:  # read to the end: nothing more to get from the other side
                break
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            error = error or _message(exc)
    return list(found.values()), error


def _message(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "text that is not UTF-8 in the file's schema"
    return str(exc)
