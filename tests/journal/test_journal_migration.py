"""Journals written by earlier firmware still open.

tests/reference/journal/main-v1.sqlite was written by main at 7508aa0 (schema 1, 4 KiB pages,
before the journal's lock, tip file and page scanner) with `corbeille script examples/sony.txt
--journal ...`, then examples/twa.txt, then two meta rows.

tests/reference/journal/main-v2.sqlite was written by the journal2 branch at c9c5906 (schema 2:
header copies as action -1, 1 KiB pages, the rules fingerprint of game 2) the same way: the two
scripts, then `Session.resume` of game 2 and the same two meta rows.

Each must open without a repair, resume, append, and replay to the state the same scripts give
today. A writer copies each into the current schema (3) and keeps the old file beside it; a
read-only reader reads it as it is.
"""
import contextlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware.cli import state_json
from firmware.journal.store import SCHEMA_VERSION, Journal
from firmware.journal.reader import JournalReader
from firmware.journal.rows import action_checksum
from firmware.script import run_script
from firmware.session import Session

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "reference" / "journal"


@pytest.mark.parametrize("fixture", ["main-v1.sqlite", "main-v2.sqlite"])
def test_a_journal_written_by_main_opens_replays_and_takes_new_actions(tmp_path, fixture):
    path = tmp_path / "journal.sqlite"
    shutil.copy(FIXTURES / fixture, path)
    old = int(fixture[len("main-v"):-len(".sqlite")])
    with Journal(path) as journal:
        assert journal.repairs == []
        assert journal.migrated == f"{path}.schema-{old}"
        assert Path(journal.migrated).read_bytes() == (FIXTURES / fixture).read_bytes()
        assert [gid for gid, _ in journal.games()] == [1, 2]
        assert [len(journal.actions(gid)) for gid in (1, 2)] == [29, 42]
        assert json.loads(journal.get_meta("ui")) == {"game": 2} and journal.get_meta("lang") == "fr"
        for gid, name in ((1, "sony.txt"), (2, "twa.txt")):
            script = ROOT / "examples" / name
            played = run_script(script.read_text(encoding="utf-8"), str(script))
            header = journal.header(gid)
            cls = type(played)
            replayed = cls.replay(header, [cls.ACTIONS.from_json(a) for a in journal.actions(gid)])
            assert state_json(replayed) == state_json(played), name
            resumed = Session.resume(journal, gid)
            assert resumed.messages == [] and state_json(resumed.game) == state_json(played), name
        assert journal.append(2, {"kind": "end"}) == 42
        third = journal.new_game({"game": "maxibourse", "players": ["Ana", "Ben"], "seed": 3})
        journal.append(third, {"kind": "roll"})
    with Journal(path) as journal:
        assert journal.repairs == [] and len(journal.actions(2)) == 43
        assert journal.actions(third) == [{"kind": "roll"}]
        assert journal.migrated is None  # once
        # Schema 3, 512-byte pages; every game has its header copy (schema 1 had none).
        conn = journal._conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert conn.execute("PRAGMA page_size").fetchone()[0] == 512
        assert [g for g, in conn.execute("SELECT game_id FROM actions WHERE seq=-1")] == [1, 2, third]


@pytest.mark.parametrize("fixture", ["main-v1.sqlite", "main-v2.sqlite"])
def test_an_older_journal_is_read_as_it_is_by_a_reader(tmp_path, fixture):
    path = tmp_path / "journal.sqlite"
    shutil.copy(FIXTURES / fixture, path)
    with JournalReader(path) as journal:
        assert journal.repairs == [] and [len(journal.actions(gid)) for gid in (1, 2)] == [29, 42]
        assert journal.header(2)["players"] and journal.get_meta("lang") == "fr"
    assert path.read_bytes() == (FIXTURES / fixture).read_bytes()
    assert not list(tmp_path.glob("journal.sqlite.schema-*"))


def test_a_damaged_row_of_an_older_journal_is_cut_back_as_before(tmp_path):
    # Rows are copied as they are: the chain check after the copy finds the same damage and
    # says the same thing as it would have in the old file.
    path = tmp_path / "journal.sqlite"
    shutil.copy(FIXTURES / "main-v2.sqlite", path)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("""UPDATE actions SET body='{"kind":"end"}' WHERE game_id=2 AND seq=30""")
        db.execute("INSERT INTO actions VALUES (9, 0, '{}', 'x')")  # a row of no game
    with Journal(path) as journal:
        assert journal.repairs == [f"journal {path}: 1 actions removed that belonged to no game",
                                   f"journal {path}: game 2 cut back to action 30 of 42 "
                                   f"(checksum mismatch at action 31)"]
        assert len(journal.actions(1)) == 29 and len(journal.actions(2)) == 30
        assert journal.append(2, {"kind": "end"}) == 30


def test_actions_still_in_an_older_journals_wal_are_migrated(tmp_path):
    # A box stopped by a power cut leaves its last actions in the -wal: they are copied too.
    path = tmp_path / "journal.sqlite"
    shutil.copy(FIXTURES / "main-v2.sqlite", path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    prev = db.execute("SELECT checksum FROM actions WHERE game_id=2 AND seq=41").fetchone()[0]
    body = '{"kind":"end"}'
    db.execute("INSERT INTO actions VALUES (2, 42, ?, ?)", (body, action_checksum(2, 42, body, prev)))
    shutil.copy(path, tmp_path / "copy.sqlite")                 # the main file without it,
    shutil.copy(f"{path}-wal", tmp_path / "copy.sqlite-wal")    # its -wal with it
    db.close()
    copy = tmp_path / "copy.sqlite"
    with Journal(copy) as journal:
        assert journal.repairs == [] and len(journal.actions(2)) == 43
        assert journal.actions(2)[-1] == {"kind": "end"}
    with JournalReader(f"{copy}.schema-2") as kept:   # the old file, whole on its own
        assert len(kept.actions(2)) == 43


def _copy(fixture, tmp_path):
    path = tmp_path / "journal.sqlite"
    shutil.copy(FIXTURES / fixture, path)
    return path


@pytest.mark.parametrize("fixture", ["main-v1.sqlite", "main-v2.sqlite"])
def test_salvage_reads_journals_of_every_schema(tmp_path, fixture):
    # SQLite's walk of a sound file and, the first page destroyed (magic included), the page
    # scan alone: both find every game of an older journal, as `corbeille salvage` says.
    from firmware.journal.salvage import read_damaged
    from test_journal_box import corbeille

    path = _copy(fixture, tmp_path)
    with JournalReader(path) as journal:
        expected = {gid: (journal.header(gid), journal.actions(gid)) for gid in (1, 2)}
    games, meta, notes = read_damaged(str(path))
    assert {gid: len(rows) for gid, (_, _, rows) in games.items()} == {1: 29, 2: 42} and notes == []
    assert meta["lang"] == "fr"
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    data[:size] = b"\xff" * size
    path.write_bytes(bytes(data))
    done = corbeille("salvage", path)
    assert done.returncode == 0, done.stderr
    assert f"salvaged 2 games and 71 actions from {path}" in done.stdout
    with Journal(f"{path}.salvaged.sqlite") as journal:
        assert journal.repairs == [] and journal.migrated is None   # written in this schema
        assert {gid: (journal.header(gid), journal.actions(gid)) for gid in (1, 2)} == expected


def test_salvage_reads_a_journal_of_this_schema_from_its_pages_and_its_wal(tmp_path):
    # Schema 3's rows (a rowid table, 32-byte checksums) are found by the page scan too, in
    # the main file and in the -wal.
    from firmware.journal.pages import scan

    path = _copy("main-v2.sqlite", tmp_path)
    with Journal(path) as journal:
        game = journal.new_game({"game": "maxibourse", "players": ["Ana", "Ben"], "seed": 3})
        journal.append(game, {"kind": "roll"})
        found = scan(str(path))            # before the close: action 0 of game 3 is in the -wal
        assert found.actions[(game, 0)] == {('{"kind":"roll"}', journal_checksum(journal, game, 0))}
        assert (2, 41) in found.actions and (game, -1) in found.actions
        assert found.games[2] == {(json.dumps(journal.header(2), sort_keys=True, separators=(",", ":"),
                                              ensure_ascii=False), header_sum(journal, 2))}


def journal_checksum(journal, game, seq):
    row = journal._conn.execute("SELECT checksum FROM actions WHERE game_id=? AND seq=?", (game, seq)).fetchone()
    return row[0].hex()


def header_sum(journal, game):
    return journal._conn.execute("SELECT checksum FROM games WHERE id=?", (game,)).fetchone()[0]


def test_a_migration_cut_before_its_rename_is_done_again_at_the_next_start(tmp_path, monkeypatch):
    # The new file goes in with one rename: stopped before it (a power cut), the old file is
    # still the journal, whole, and the next start migrates it again.
    import firmware.journal.repair
    from firmware.journal import JournalError

    path = _copy("main-v2.sqlite", tmp_path)
    real = firmware.journal.repair.os.replace

    def cut(src, dst):
        if str(dst) == str(path):
            raise OSError(5, "power cut")
        real(src, dst)

    monkeypatch.setattr(firmware.journal.repair.os, "replace", cut)
    with pytest.raises(JournalError, match="power cut"):
        Journal(path)
    monkeypatch.setattr(firmware.journal.repair.os, "replace", real)
    assert path.read_bytes() == (FIXTURES / "main-v2.sqlite").read_bytes()
    with Journal(path) as journal:
        assert journal.repairs == [] and [len(journal.actions(g)) for g in (1, 2)] == [29, 42]
        assert journal.migrated == f"{path}.schema-2-2"      # the first try's copy is kept too
