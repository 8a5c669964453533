"""The journal: round trips, repairs of damaged files, and power cuts."""
import contextlib
import os
import random
import re
import shutil
import sqlite3

import pytest

from firmware.journal.store import Journal, JournalError, action_checksum
from firmware.journal.reader import JournalReader
from firmware.journal.rows import checksum_text, stored_checksum
from journal_writer import demo_actions, kill_and_reopen

HEADER = {"game": "maxibourse", "format": "standard", "players": ["Anne", "Bruno"],
          "settings": {"years": 3, "bank": "unlimited"}, "seed": 42}


def big_actions(n):
    """Actions of ~500 bytes: a few per page, so damage to one page loses only a few."""
    return [{"kind": "declare", "player": i % 4, "lots": i, "pad": "é" * 200} for i in range(n)]


def build(path, actions, header=HEADER):
    """Write a game and close the journal; return the game id."""
    with Journal(path) as journal:
        game = journal.new_game(header)
        for action in actions:
            journal.append(game, action)
    return game


def tamper(path, *statements):
    """Change the file behind the journal's back, as a bad sector or a bug would."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        for sql, *params in statements:
            db.execute(sql, params)


# ---- the API -------------------------------------------------------------------------------

def test_round_trip_keeps_headers_and_actions(tmp_path):
    path = tmp_path / "j.db"
    actions = demo_actions(30)
    with Journal(path) as journal:
        game = journal.new_game(HEADER)
        assert [journal.append(game, a) for a in actions] == list(range(30))
        other = journal.new_game({**HEADER, "game": "dividends"})
        journal.append(other, {"kind": "payday"})
    with Journal(path) as journal:
        assert journal.repairs == []
        assert journal.actions(game) == actions
        assert journal.header(game) == HEADER
        assert journal.games() == [(game, HEADER), (other, {**HEADER, "game": "dividends"})]
        assert journal.actions(other) == [{"kind": "payday"}]


def test_wal_and_full_synchronous(tmp_path):
    with Journal(tmp_path / "j.db") as journal:
        assert journal._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_append_is_committed_when_it_returns(tmp_path):
    path = tmp_path / "j.db"
    with Journal(path) as journal, contextlib.closing(sqlite3.connect(path)) as other:
        game = journal.new_game(HEADER)
        journal.append(game, {"kind": "buy", "lots": 2})
        # Another connection sees only committed data.
        assert other.execute("SELECT body FROM actions WHERE seq >= 0").fetchall() == [('{"kind":"buy","lots":2}',)]


def test_append_rejects_what_is_not_json(tmp_path):
    with Journal(tmp_path / "j.db") as journal:
        game = journal.new_game(HEADER)
        for bad in ({"x": object()}, {"x": float("nan")}, ["not", "a", "dict"]):
            with pytest.raises(JournalError, match="j.db"):
                journal.append(game, bad)
        assert journal.actions(game) == []
        assert journal.append(game, {"kind": "ok"}) == 0


def test_undo_removes_the_last_action_and_the_chain_stays_valid(tmp_path):
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        game = journal.new_game(HEADER)
        assert journal.undo(game) is None
        for i in range(5):
            journal.append(game, {"kind": "buy", "n": i})
        assert journal.undo(game) == {"kind": "buy", "n": 4}
        assert journal.undo(game) == {"kind": "buy", "n": 3}
        assert journal.append(game, {"kind": "sell"}) == 3
    with Journal(path) as journal:
        assert journal.repairs == []
        assert journal.actions(game) == [{"kind": "buy", "n": i} for i in range(3)] + [{"kind": "sell"}]


def test_last_game_is_the_one_to_resume(tmp_path):
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        assert journal.last_game() is None and journal.games() == []
        journal.new_game(HEADER)
        second = journal.new_game({**HEADER, "seed": 43})
    with Journal(path) as journal:
        assert journal.last_game() == second
        assert journal.header(second)["seed"] == 43


def test_meta_keeps_small_settings(tmp_path):
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        assert journal.get_meta("screen") is None
        journal.set_meta("screen", "menu")
        journal.set_meta("screen", "bourse")
        journal.set_meta("langue", "fr")
        with pytest.raises(JournalError):
            journal.set_meta("volume", 3)
    with Journal(path) as journal:
        assert journal.get_meta("screen") == "bourse" and journal.get_meta("langue") == "fr"


def test_unknown_game_and_closed_journal_are_errors(tmp_path):
    journal = Journal(tmp_path / "j.db")
    for call in (journal.actions, journal.header, journal.undo,
                 lambda g: journal.append(g, {"kind": "x"})):
        with pytest.raises(JournalError, match="no game 7"):
            call(7)
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.games()


# ---- repairs of rows changed behind the journal's back ------------------------------------

def test_corrupted_body_is_cut_back(tmp_path):
    path = tmp_path / "j.db"
    game = build(path, demo_actions(57))
    tamper(path, ("UPDATE actions SET body=? WHERE seq=41", '{"kind":"buy","lots":999}'))
    with Journal(path) as journal:
        assert journal.repairs == [f"journal {path}: game {game} cut back to action 41 of 57 "
                                   "(checksum mismatch at action 42)"]
        assert journal.actions(game) == demo_actions(57)[:41]
    with Journal(path) as journal:  # repaired for good
        assert journal.repairs == []
        assert journal.append(game, {"kind": "next"}) == 41


def test_unparsable_body_is_cut_back(tmp_path):
    path = tmp_path / "j.db"
    game = build(path, demo_actions(10))
    with contextlib.closing(sqlite3.connect(path)) as db:
        prev = checksum_text(db.execute("SELECT checksum FROM actions WHERE seq=5").fetchone()[0])
    body = '{"kind":"bu'  # cut short, but with a checksum that matches it
    tamper(path, ("UPDATE actions SET body=?, checksum=? WHERE seq=6",
                  body, stored_checksum(action_checksum(game, 6, body, prev))))
    with Journal(path) as journal:
        assert journal.repairs == [f"journal {path}: game {game} cut back to action 6 of 10 "
                                   "(unparsable JSON at action 7)"]
        assert journal.actions(game) == demo_actions(10)[:6]


def test_deleted_middle_row_is_cut_back(tmp_path):
    path = tmp_path / "j.db"
    game = build(path, demo_actions(10))
    other = build(path, demo_actions(4))
    tamper(path, ("DELETE FROM actions WHERE game_id=? AND seq=3", game))
    with Journal(path) as journal:
        assert journal.repairs == [f"journal {path}: game {game} cut back to action 3 of 10 "
                                   "(action 4 missing)"]
        assert journal.actions(game) == demo_actions(10)[:3]
        assert journal.actions(other) == demo_actions(4)  # other games untouched


def test_changed_header_removes_its_game(tmp_path):
    path = tmp_path / "j.db"
    game = build(path, demo_actions(5))
    other = build(path, demo_actions(3))
    tamper(path, ("UPDATE games SET header=? WHERE id=?", '{"game":"shark"}', game))
    with Journal(path) as journal:
        assert journal.repairs == [f"journal {path}: game {game} removed (header checksum "
                                   "mismatch; its 5 actions cannot be replayed without it)"]
        assert journal.games() == [(other, HEADER)]
        assert journal.new_game(HEADER) > other  # a removed game's id is not reused


# ---- damaged files ----------------------------------------------------------------------------

def snapshot(path, dest):
    """Copy a journal and its WAL as they are on disk now, as if the power went off."""
    shutil.copy(path, dest)
    shutil.copy(f"{path}-wal", f"{dest}-wal")


def test_truncated_wal_keeps_every_complete_commit(tmp_path):
    path = tmp_path / "j.db"
    actions = demo_actions(60)
    with Journal(path) as journal:
        game = journal.new_game(HEADER)
        wal_size = []  # WAL bytes once each action is committed
        for action in actions:
            journal.append(game, action)
            wal_size.append(os.path.getsize(f"{path}-wal"))
        for cut in (1, 100, wal_size[-1] // 3, wal_size[-1] - wal_size[0]):
            copy = tmp_path / f"cut-{cut}.db"
            snapshot(path, copy)
            os.truncate(f"{copy}-wal", wal_size[-1] - cut)
            complete = sum(size <= wal_size[-1] - cut for size in wal_size)
            assert complete == {1: 59, 100: 59}.get(cut, complete)
            with Journal(copy) as reopened:
                # SQLite ignores a WAL transaction whose commit frame is cut: the journal
                # is back at the last complete commit, with nothing before it lost.
                assert reopened.repairs == []
                assert reopened.actions(game) == actions[:complete], cut


def page_size(data: bytes) -> int:
    return int.from_bytes(data[16:18], "big")


def lots_in(data: bytes) -> set[int]:
    """Which of big_actions() have bytes in this part of a file."""
    return {int(n) for n in re.findall(rb'"lots":(\d+),', data)}


@pytest.fixture
def pages_of_4k(monkeypatch):
    """Journals of 4 KiB pages (the size before 1 KiB, still found in older journals): each
    ~500-byte action then sits whole on one page, which the damage tests below reason on."""
    import firmware.journal.connection
    monkeypatch.setattr(firmware.journal.connection, "PAGE_SIZE", 4096)


@pytest.mark.parametrize("cut", [1, 100, 4096, 3 * 4096 + 5, 20 * 4096])
def test_truncated_main_file_keeps_rows_before_the_damage(tmp_path, cut, pages_of_4k):
    path = tmp_path / "j.db"
    actions = big_actions(300)
    game = build(path, actions)  # closed: the WAL is checkpointed into the file
    data = path.read_bytes()
    os.truncate(path, len(data) - cut)
    size = page_size(data)
    whole_pages = (len(data) - cut) // size
    first_damaged = min(lots_in(data[whole_pages * size:]))
    with Journal(path) as journal:
        kept = journal.actions(game)
        assert journal.repairs and all(m.startswith(f"journal {path}: ") for m in journal.repairs)
    # A prefix, holding at least every action stored wholly on pages before the cut.
    assert kept == actions[:len(kept)]
    assert len(kept) >= first_damaged > 0
    with Journal(path) as journal:
        assert journal.repairs == [] and journal.actions(game) == kept
        assert journal.append(game, {"kind": "resumed"}) == len(kept)


def test_garbage_page_in_main_file_is_salvaged(tmp_path, pages_of_4k):
    path = tmp_path / "j.db"
    actions = big_actions(300)
    game = build(path, actions)
    with Journal(path) as journal:
        journal.set_meta("screen", "bourse")
    data = path.read_bytes()
    size = page_size(data)
    bad_page = len(data) // size // 2  # a leaf of the actions table, mid-file
    start = (bad_page - 1) * size
    first_damaged = min(lots_in(data[start:start + size]))
    with open(path, "r+b") as f:
        f.seek(start)
        f.write(random.Random(1).randbytes(size))
    with Journal(path) as journal:
        kept = journal.actions(game)
        assert journal.repairs[0].startswith(f"journal {path}: file damaged (")
        assert f"kept aside as {path}.damaged-1" in journal.repairs[0]
        assert journal.get_meta("screen") == "bourse"
    assert kept == actions[:len(kept)]
    assert len(kept) >= first_damaged > 100
    assert os.path.getsize(f"{path}.damaged-1") == len(data)


def test_destroyed_first_page_keeps_the_game_read_from_later_pages(tmp_path):
    # The case: "a zeroed first page makes `run` refuse to start although the game's rows
    # are intact in later pages". The page scan finds them; the hash chain vouches for them.
    path = tmp_path / "j.db"
    game = build(path, demo_actions(20))
    size = page_size(path.read_bytes())
    with open(path, "r+b") as f:
        f.seek(16)  # past "SQLite format 3\0": the page size and the schema are gone
        f.write(b"\xff" * (size - 16))
    damaged = path.read_bytes()
    with Journal(path) as journal:
        assert journal.games() == [(game, HEADER)]
        assert journal.actions(game) == demo_actions(20)
        assert journal.repairs[0].startswith(f"journal {path}: file damaged (")
        assert "salvaged 1 games and 20 actions" in journal.repairs[0]
        assert journal.append(game, {"kind": "next"}) == 20
    assert (tmp_path / "j.db.damaged-1").read_bytes() == damaged


def test_zeroed_first_page_keeps_the_games(tmp_path):
    path = tmp_path / "j.db"
    first = build(path, big_actions(40))
    second = build(path, demo_actions(30))
    with open(path, "r+b") as f:
        f.write(bytes(page_size(path.read_bytes())))  # the whole first page, magic included
    with Journal(path) as journal:
        assert journal.actions(first) == big_actions(40)
        assert journal.actions(second) == demo_actions(30)
        assert "file damaged" in journal.repairs[0]


def test_a_bad_byte_in_the_schema_text_is_named_and_the_rows_recovered(tmp_path):
    # The case: "One bad byte in the journal's schema text gives a bare 'utf-8' codec
    # can't decode with no file named and no repair tried".
    path = tmp_path / "j.db"
    game = build(path, demo_actions(25))
    data = bytearray(path.read_bytes())
    data[data.index(b"CREATE TABLE actions") + 3] = 0xFF
    path.write_bytes(bytes(data))
    with Journal(path) as journal:
        assert journal.repairs[0].startswith(f"journal {path}: file damaged (a bad byte in the "
                                             "file's schema text)")
        assert journal.actions(game) == demo_actions(25)


def test_a_stale_page_with_an_undone_action_ends_the_game_at_the_fork(tmp_path):
    # Two rows for the same place that both verify (an undone action left on a freed page
    # and the action that replaced it): which one the players saw cannot be told.
    from firmware.journal.salvage import _chain
    from firmware.journal.store import header_checksum

    hsum = header_checksum(1, "{}")
    rows, prev = [], hsum
    for seq, body in enumerate(['{"n":0}', '{"n":1}']):
        prev = action_checksum(1, seq, body, prev)
        rows.append((seq, body, prev))
    undone = action_checksum(1, 1, '{"n":9}', rows[0][2])
    scanned = {(1, 0): {rows[0][1:]}, (1, 1): {rows[1][1:], ('{"n":9}', undone)}}
    assert _chain(1, hsum, [], scanned) == ([rows[0]], "2 different versions of action 2 found")
    # SQLite's own walk, when it reaches the row, settles it.
    assert _chain(1, hsum, rows, scanned) == (rows, None)


def test_file_cut_to_a_few_bytes_is_salvaged(tmp_path):
    path = tmp_path / "j.db"
    build(path, demo_actions(20))
    os.truncate(path, 10)
    with Journal(path) as journal:
        assert journal.games() == [] and len(journal.repairs) >= 1
    assert (tmp_path / "j.db.damaged-1").stat().st_size == 10


# ---- clear messages -----------------------------------------------------------------------

def test_missing_directory_is_named(tmp_path):
    path = tmp_path / "nowhere" / "j.db"
    with pytest.raises(JournalError, match=f"journal {path}: directory {tmp_path / 'nowhere'} "
                                           "does not exist"):
        Journal(path)


def test_file_that_is_not_a_database_is_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Acheter des piles pour la boîte\n")
    with pytest.raises(JournalError, match=f"journal {path}: not an SQLite database"):
        Journal(path)
    assert path.read_text() == "Acheter des piles pour la boîte\n"
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_other_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    tamper(path, ("CREATE TABLE t (x)",))
    with pytest.raises(JournalError, match=f"journal {path}: an SQLite database, but not "
                                           "a Corbeille journal"):
        Journal(path)


def test_directory_is_refused(tmp_path):
    with pytest.raises(JournalError, match="is a directory"):
        Journal(tmp_path)


# ---- power cuts ---------------------------------------------------------------------------

def test_power_cut_keeps_every_acknowledged_action(tmp_path):
    stats = kill_and_reopen(tmp_path, lambda: demo_actions(120), random.Random(2026), rounds=300)
    assert len(stats) == 300
    # Kills landed before anything was acknowledged, in the middle of runs of appends, and
    # between a COMMIT and its acknowledgement (committed, never shown: allowed to stay).
    assert any(acked == 0 for acked, _ in stats)
    assert sum(acked > 0 for acked, _ in stats) > 100
    assert any(committed == acked + 1 for acked, committed in stats)


def test_power_cut_keeps_every_acknowledged_action_and_its_screen_state_with_it(tmp_path):
    # The case: "the screen state saved inside the action's own transaction ... at most one
    # fdatasync per acknowledged action". Held, as the box's loop holds it: the action and
    # the "ui" row are one commit, so after any kill they agree exactly.
    def ui_matches_the_last_action(journal):
        game = journal.last_game()
        ui = journal.get_meta("ui")
        if game is None or not journal.actions(game):
            assert ui is None or not ui.startswith(f"{game}:"), ui
        else:
            assert ui == f"{game}:{len(journal.actions(game))}", (ui, len(journal.actions(game)))

    stats = kill_and_reopen(tmp_path, lambda: demo_actions(120), random.Random(2027), rounds=120,
                            check=ui_matches_the_last_action, held=True)
    assert sum(acked > 0 for acked, _ in stats) > 40


# ---- a lost -wal file -----------------------------------------------------------------------

def killed_writer(path, acks):
    """A writer appending demo actions, SIGKILLed after `acks` acknowledgements."""
    from journal_writer import DEMO_HEADER, killed_writer

    return killed_writer(path, DEMO_HEADER, demo_actions(120), acks)


@pytest.mark.parametrize("damage", ["deleted", "cut"])
def test_a_lost_or_damaged_wal_is_said_not_silent(tmp_path, damage):
    # The case: "Deleting or damaging the -wal file left by a killed writer silently loses
    # acknowledged actions: SQLite cannot see it, and the journal's checksum chain cannot
    # either". The -shm index beside it still counts the committed frames.
    path = tmp_path / "j.db"
    acked = killed_writer(path, 40)
    wal = f"{path}-wal"
    if damage == "deleted":
        os.remove(wal)
    else:
        os.truncate(wal, os.path.getsize(wal) // 2)
    with Journal(path) as journal:
        game = journal.last_game()
        kept = len(journal.actions(game)) if game else 0
        assert kept < acked
        said = [m for m in journal.repairs if "WAL frames not yet in the main file are gone" in m]
        where = f"game 1 now ends at action {kept})" if game else "no game left)"
        assert len(said) == 1 and where in said[0], journal.repairs


def test_garbage_in_the_wal_loses_nothing_its_later_frames_hold(tmp_path):
    # SQLite stops at the damaged frame and never reads the commits after it; salvage reads
    # the frames past it, and the chain keeps every action it still links.
    path = tmp_path / "j.db"
    acked = killed_writer(path, 40)
    wal = f"{path}-wal"
    with open(wal, "r+b") as f:
        f.seek(os.path.getsize(wal) // 2)
        f.write(random.Random(3).randbytes(300))
    with Journal(path) as journal:
        assert len(journal.actions(journal.last_game())) >= acked
        assert journal.repairs[0].startswith(f"journal {path}: file damaged (the -wal file has a damaged frame")
        assert not [m for m in journal.repairs if "WAL frames not yet in the main file are gone" in m]
    assert os.path.exists(f"{path}.damaged-1-wal")            # the damaged -wal kept with its file


def test_a_wal_left_by_a_killed_writer_is_no_alarm(tmp_path):
    path = tmp_path / "j.db"
    acked = killed_writer(path, 40)
    with Journal(path) as journal:
        assert journal.repairs == [] and len(journal.actions(journal.last_game())) >= acked


def test_a_lost_wal_and_a_lost_index_are_not_detected(tmp_path):
    # The limit, as docs/reliability.md says: with the -shm gone too, nothing is left to tell.
    path = tmp_path / "j.db"
    acked = killed_writer(path, 40)
    os.remove(f"{path}-wal")
    os.remove(f"{path}-shm")
    with Journal(path) as journal:
        game = journal.last_game()
        assert (len(journal.actions(game)) if game else 0) < acked and journal.repairs == []


def test_read_only_reports_a_damaged_tail_without_touching_the_file(tmp_path):
    path = tmp_path / "j.db"
    game = build(path, demo_actions(20))
    tamper(path, ("UPDATE actions SET body=? WHERE seq=12", '{"kind":"buy","lots":999}'))
    before = path.read_bytes()
    with JournalReader(path) as journal:
        assert journal.actions(game) == demo_actions(20)[:12]     # read: the chain is walked
        assert journal.repairs == [f"journal {path}: game {game} cut back to action 12 of 20 (checksum "
                                   "mismatch at action 13) (read only: not repaired in the file)"]
        assert not hasattr(journal, "set_meta") and not hasattr(journal, "append")
    assert path.read_bytes() == before
    with Journal(path) as journal:                         # the writer repairs it for good
        assert journal.actions(game) == demo_actions(20)[:12] and journal.repairs


def test_games_table_lost_the_header_copies_beside_the_actions_bring_the_games_back(tmp_path):
    # The case: "the schema and the first page are not single points of failure (... or
    # a header copy is kept)". Every page of the games and meta tables is wiped: only the
    # actions tree is left, holding each game's header copy (action -1).
    path = tmp_path / "j.db"
    games = [build(path, demo_actions(n), {**HEADER, "seed": n}) for n in (15, 40, 8)]
    with contextlib.closing(sqlite3.connect(path)) as db:   # SQLite's own map of its pages
        pages = [n for n, in db.execute("SELECT pageno FROM dbstat WHERE name IN "
                                         "('games', 'meta', 'sqlite_sequence') AND pageno > 1")]
    data = bytearray(path.read_bytes())
    size = page_size(bytes(data))
    for number in pages:                                     # page 1 (the schema) kept
        data[(number - 1) * size:number * size] = bytes(size)
    assert len(pages) >= 2
    path.write_bytes(bytes(data))
    with Journal(path) as journal:
        assert [gid for gid, _ in journal.games()] == games
        for gid, n in zip(games, (15, 40, 8)):
            assert journal.header(gid) == {**HEADER, "seed": n}
            assert journal.actions(gid) == demo_actions(n)
        assert journal.repairs[0].startswith(f"journal {path}: file damaged")


def test_iter_actions_reads_what_actions_lists(tmp_path):
    # A resume replays the actions as they are read (firmware/session.py): the same actions,
    # and an unknown game is an error there too.
    path = tmp_path / "j.db"
    game = build(path, demo_actions(30))
    build(path, demo_actions(4))
    with Journal(path) as journal:
        assert list(journal.iter_actions(game)) == journal.actions(game) == demo_actions(30)
        with pytest.raises(JournalError, match="no game 99"):
            list(journal.iter_actions(99))
