"""The journal read from beside the box (firmware/journal/reader.py): its API, short read
transactions that see the box's commits, never a byte written nor the box's lock taken,
a read-only folder, damaged files read through a salvaged copy."""
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.journal import lock as journal_lock
from firmware.journal import Journal, JournalError
from firmware.journal.reader import JournalReader
from faults import read_only, read_only_reason, tree
from journal_writer import DEMO_HEADER, demo_actions, killed_writer

ROOT = Path(__file__).resolve().parents[2]
SONY = ROOT / "examples" / "sony.txt"


def build(path, counts=(12, 7)):
    with Journal(path) as journal:
        games = []
        for n in counts:
            game = journal.new_game({**DEMO_HEADER, "seed": n})
            for action in demo_actions(n):
                journal.append(game, action)
            games.append(game)
        journal.set_meta("lang", "fr")
        journal.set_meta("ui", "{}")
    return games


def test_the_api_games_header_actions_from_an_index_and_meta(tmp_path):
    path = tmp_path / "journal.sqlite"
    first, second = build(path)
    with JournalReader(path) as reader:
        assert reader.games() == [(first, {**DEMO_HEADER, "seed": 12}), (second, {**DEMO_HEADER, "seed": 7})]
        assert reader.last_game() == second and reader.header(first)["seed"] == 12
        assert reader.actions(first) == demo_actions(12)
        assert reader.actions(first, 9) == demo_actions(12)[9:] and reader.actions(first, 12) == []
        assert reader.actions(second, 3) == demo_actions(7)[3:]
        assert reader.get_meta("lang") == "fr" and reader.get_meta("nothing") is None
        assert reader.meta() == {"lang": "fr", "ui": "{}"}
        assert reader.repairs == []
        with pytest.raises(JournalError, match="no game 9"):
            reader.actions(9)
    with pytest.raises(JournalError, match="closed"):
        reader.games()


def test_each_call_sees_what_the_box_committed_since_and_an_undo(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as box:
        game = box.new_game(DEMO_HEADER)
        actions = demo_actions(30)
        for action in actions[:10]:
            box.append(game, action)
        with JournalReader(path) as reader:
            assert reader.actions(game) == actions[:10]
            for action in actions[10:20]:
                box.append(game, action)
            assert reader.actions(game, 10) == actions[10:20]            # only the new ones walked
            box.undo(game, 3)
            box.append(game, {"kind": "other"})
            assert reader.actions(game) == actions[:17] + [{"kind": "other"}]
            box.set_meta("ui", "après")
            assert reader.get_meta("ui") == "après" and reader.repairs == []
            assert not reader._conn.in_transaction                        # nothing held between calls


def test_it_never_takes_the_box_lock_nor_makes_a_file(tmp_path):
    path = tmp_path / "journal.sqlite"
    build(path)
    before = tree(tmp_path)
    with JournalReader(path) as reader:
        reader.actions(reader.last_game())
        assert reader._how == "immutable"               # no box, no -wal: the file and nothing else
        assert journal_lock.held(str(path)) is False
        assert tree(tmp_path) == before
        box = Journal(path)                             # a box starts beside the reader
        try:
            assert journal_lock.held(str(path)) is True
            box.append(reader.last_game(), {"kind": "late"})
            assert reader.actions(reader.last_game())[-1] == {"kind": "late"}
            assert reader._how == "ro"                   # the box's -wal appeared: read with it
        finally:
            reader.close()
            box.close()
    assert sorted(tree(tmp_path)) == sorted(before)


def test_beside_a_running_box_it_reads_the_wal_and_the_box_goes_on(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as box:
        game = box.new_game(DEMO_HEADER)
        for action in demo_actions(29):
            box.append(game, action)
        box.append(game, {"kind": "end"})
        with JournalReader(path) as reader:
            assert reader._how == "ro" and len(reader.actions(game)) == 30
            box.append(game, {"kind": "end", "n": 2})
            assert len(reader.actions(game)) == 31


def sony(tmp_path):
    """The example game's header and actions, as `corbeille script` journals them."""
    path = tmp_path / "sony.sqlite"
    played = subprocess.run([sys.executable, "-m", "firmware.cli", "script", SONY, "--journal", path], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert played.returncode == 0, played.stderr
    with JournalReader(path) as reader:
        game = reader.last_game()
        return reader.header(game), reader.actions(game)


@pytest.mark.parametrize("left", ["clean", "wal and index", "wal alone"])
def test_replay_in_a_read_only_folder_changes_no_byte(tmp_path, left):
    # Also when a box was killed there: its -wal, with or without the -shm index.
    if read_only_reason():
        pytest.skip(read_only_reason())
    folder = tmp_path / "state"
    folder.mkdir()
    path = folder / "journal.sqlite"
    header, actions = sony(tmp_path)
    if left == "clean":
        with Journal(path) as journal:
            game = journal.new_game(header)
            for action in actions:
                journal.append(game, action)
        acked = len(actions)
    else:
        acked = killed_writer(path, header, actions, 20)
        if left == "wal alone":
            os.remove(f"{path}-shm")
    (folder / "journal.sqlite-lock").unlink(missing_ok=True)
    before = tree(folder)
    with read_only(folder) as wrap:
        # The acknowledgements counted are the first game's (it has more actions than that);
        # a writer killed late may have started a second game, so game 1 is the one exported.
        for command in ("replay", "export"):
            game = ["--game", "1"] if command == "export" else []
            run = subprocess.run(wrap([sys.executable, "-m", "firmware.cli", command, "--journal", str(path), *game]),
                                 cwd=ROOT, capture_output=True, text=True, timeout=60,
                                 env=dict(os.environ, PYTHONPATH=str(ROOT)))
            assert "Traceback" not in run.stderr and "Read-only" not in run.stderr, run.stderr
            assert run.returncode == 0, run.stderr
            if command == "export":
                assert len(run.stdout.splitlines()) >= acked, run.stdout        # every acknowledged action
    assert tree(folder) == before


def test_a_damaged_file_is_read_through_a_salvaged_copy_and_left_as_it_is(tmp_path):
    path = tmp_path / "journal.sqlite"
    first, second = build(path, (30, 20))
    data = bytearray(path.read_bytes())
    data[:100] = b"\xff" * 100                       # the header, the magic included
    path.write_bytes(bytes(data))
    with JournalReader(path) as reader:
        assert reader._how == "salvaged"
        assert reader.actions(first) == demo_actions(30) and reader.actions(second) == demo_actions(20)
        assert reader.repairs[0].startswith(f"journal {path}: file damaged (its first 16 bytes are not "
                                            "SQLite's); read from a salvaged copy: 2 games and 50 actions")
    assert path.read_bytes() == bytes(data) and sorted(p.name for p in tmp_path.iterdir()) == [
        "journal.sqlite", "journal.sqlite-lock"]


def test_files_that_are_no_journal_are_refused_with_their_name(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("Acheter des piles\n")
    with pytest.raises(JournalError, match=f"journal {text}: not an SQLite database"):
        JournalReader(text)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE recettes (nom TEXT)")
    with pytest.raises(JournalError, match="not a Corbeille journal"):
        JournalReader(other)
    with pytest.raises(JournalError, match="does not exist"):
        JournalReader(tmp_path / "none.sqlite")
    with pytest.raises(JournalError, match="is a directory"):
        JournalReader(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "other.db"]


def test_a_header_that_does_not_verify_hides_its_game(tmp_path):
    path = tmp_path / "journal.sqlite"
    first, second = build(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET header=? WHERE id=?", (json.dumps({"game": "shark"}), first))
    with JournalReader(path) as reader:
        assert [gid for gid, _ in reader.games()] == [second]
        with pytest.raises(JournalError, match=f"no game {first}"):
            reader.header(first)
        assert any("its header does not verify" in m for m in reader.repairs)
