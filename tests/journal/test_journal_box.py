"""The box's journal: one writer (a lock naming the holder), and a journal the box cannot
open at all moved aside so the box starts on a fresh one.

The case: "A journal the box cannot open makes `corbeille run` exit 1; under systemd that
ends in a start-limit stop: the box stays down until someone removes the file." and "Two
processes can open the same journal (`corbeille run` beside a running simulator) with no
lock or warning."
"""
import json
import os
import queue
import re
import subprocess
import sys
from pathlib import Path

import pytest

from drivers.display import DummyDisplay
from firmware.app import Hardware, start_app
from firmware.config import config_from_dict
from firmware.journal import Journal, JournalBusy, JournalError
from firmware.journal.startup import open_for_box
from firmware.journal.reader import JournalReader
from firmware.journal import lock as journal_lock
from journal_writer import demo_actions

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"game": "maxibourse", "format": "junior", "players": ["Ana", "Ben"], "seed": 1}


@pytest.fixture
def holder(tmp_path):
    """Another process holding a journal open, as a running box does."""
    procs = []

    def hold(path):
        code = ("import sys; from firmware.journal import Journal; j = Journal(sys.argv[1]); "
                "print('held', flush=True); sys.stdin.read()")
        proc = subprocess.Popen([sys.executable, "-c", code, str(path)], cwd=ROOT, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        procs.append(proc)
        assert proc.stdout.readline().strip() == "held"
        return proc

    yield hold
    for proc in procs:
        proc.stdin.close()                 # EOF: the holder exits
        proc.wait(timeout=10)
        proc.stdout.close()


def corbeille(*args):
    return subprocess.run([sys.executable, "-m", "firmware.cli", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


# ---- one journal, one writer ----------------------------------------------------------------

def test_a_second_writer_is_refused_naming_the_process_that_holds_the_journal(tmp_path, holder):
    path = tmp_path / "journal.sqlite"
    proc = holder(path)
    with pytest.raises(JournalBusy, match=rf"journal {re.escape(str(path))}: in use by process {proc.pid} "):
        Journal(path)
    # Not moved aside either: a held journal is somebody's game.
    with pytest.raises(JournalBusy):
        open_for_box(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite", "journal.sqlite-lock",
                                                          "journal.sqlite-shm", "journal.sqlite-wal"]


def test_the_lock_names_its_writer_whatever_the_last_one_left_in_it(tmp_path):
    # The pid is written over the last holder's in place (no truncation at each open):
    # nothing of a longer one may be left behind.
    path = tmp_path / "journal.sqlite"
    lock = tmp_path / "journal.sqlite-lock"
    for left in ("4194304\n", "9" * 40 + "\n", "", "12\n"):
        lock.write_text(left)
        with Journal(path):
            text = lock.read_text()
            assert text.split() == [str(os.getpid())] and text.endswith("\n"), (left, text)
            assert journal_lock.holder(str(path)).pid == os.getpid()


def test_the_lock_goes_with_the_writer(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    with pytest.raises(JournalBusy, match=f"in use by process {os.getpid()}"):
        Journal(path)
    journal.close()
    with Journal(path) as again:            # closed (or killed: the kernel drops the lock)
        assert again.games() == []


def test_corbeille_run_on_a_held_journal_is_refused_with_the_pid(tmp_path, holder):
    state = tmp_path / "state"
    state.mkdir()
    proc = holder(state / "journal.sqlite")
    config = tmp_path / "corbeille.toml"
    config.write_text(f'[state]\ndir = "{state}"\n[operator]\ntype = "dummy"\n')
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-m", "firmware.cli", "--config", str(config), "run"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 1, run.stderr
    assert f"in use by process {proc.pid}" in run.stderr and "Traceback" not in run.stderr


def test_export_and_replay_read_beside_a_running_box(tmp_path, holder):
    path = tmp_path / "journal.sqlite"
    played = corbeille("script", ROOT / "examples" / "sony.txt", "--journal", path)
    assert played.returncode == 0, played.stderr
    holder(path)
    with JournalReader(path) as journal:
        assert len(journal.actions(journal.last_game())) == 29
        assert not hasattr(journal, "append")
    replayed = corbeille("replay", "--journal", path)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == json.loads(played.stdout)
    exported = corbeille("export", "--journal", path)
    assert exported.returncode == 0 and exported.stdout.startswith("game maxibourse")


# ---- a journal the box cannot open ------------------------------------------------------------

def box_config(tmp_path):
    return config_from_dict({"state": {"dir": str(tmp_path / "state")}, "operator": {"type": "dummy"}})


def other_database(tmp_path):
    import contextlib
    import sqlite3

    with contextlib.closing(sqlite3.connect(tmp_path / "other.db")) as db:
        db.execute("CREATE TABLE recettes (nom TEXT)")
        db.commit()
    return (tmp_path / "other.db").read_bytes()


@pytest.mark.parametrize("content", [b"\xff" * 5000, b"Acheter des piles\n", other_database])
def test_run_moves_an_unopenable_journal_aside_and_starts_on_a_fresh_one(tmp_path, content, caplog):
    state = tmp_path / "state"
    state.mkdir()
    content = content if isinstance(content, bytes) else content(tmp_path)
    (state / "journal.sqlite").write_bytes(content)
    with pytest.raises(JournalError):
        Journal(state / "journal.sqlite")                    # refused as it is...
    app = start_app(box_config(tmp_path), Hardware(operator=DummyDisplay((128, 64), "1")), queue=queue.Queue(),
                    strict=True)
    try:
        assert app.journal.games() == []                     # ...the box starts anyway
        screen = app.controller.screen()
        assert screen.title == "Nouveau journal"
        aside = [p for p in state.iterdir() if ".unreadable-" in p.name]
        assert len(aside) == 1 and re.fullmatch(r"journal\.sqlite\.unreadable-\d{8}-\d{6}", aside[0].name)
        assert aside[0].read_bytes() == content              # kept exactly as it was
        assert any(f"Kept as {aside[0]}" in r.message and "corbeille salvage" in r.message
                   for r in caplog.records)
    finally:
        app.journal.close()


def test_a_damaged_first_page_is_salvaged_by_the_command(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        first = journal.new_game(HEADER)
        for action in demo_actions(12):
            journal.append(first, action)
        second = journal.new_game({**HEADER, "seed": 2})
        for action in demo_actions(7):
            journal.append(second, action)
    data = bytearray(path.read_bytes())
    data[:1024] = b"\xff" * 1024                             # the magic too: not even SQLite any more
    path.write_bytes(bytes(data))
    done = corbeille("salvage", path)
    assert done.returncode == 0, done.stderr
    assert f"salvaged 2 games and 19 actions from {path} into {path}.salvaged.sqlite" in done.stdout
    assert path.read_bytes() == bytes(data)                  # the damaged file is left as it was
    with Journal(f"{path}.salvaged.sqlite") as journal:
        assert journal.repairs == []
        assert journal.actions(first) == demo_actions(12) and journal.actions(second) == demo_actions(7)
    again = corbeille("salvage", path)
    assert again.returncode == 1 and "already exists" in again.stderr


def test_salvage_that_finds_nothing_exits_1_with_a_message(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(bytes(range(256)) * 32)
    done = corbeille("salvage", junk)
    assert done.returncode == 1 and f"nothing could be recovered from {junk}" in done.stderr
    assert not (tmp_path / "junk.sqlite.salvaged.sqlite").exists()
    missing = corbeille("salvage", tmp_path / "none.sqlite")
    assert missing.returncode == 1 and "no such file" in missing.stderr and "Traceback" not in missing.stderr


# ---- what the box writes (SD wear) -------------------------------------------------

class Syncs:
    """Counts the journal's commits that reach the disk (each is one fdatasync of the WAL)."""

    def __init__(self, journal):
        self.journal, self.commits, self.wal = journal, 0, f"{journal.path}-wal"
        original = journal.commit

        def commit():
            if journal.pending:
                self.commits += 1
            original()
        journal.commit = commit

    def wal_size(self):
        return os.path.getsize(self.wal) if os.path.exists(self.wal) else 0


def box_app(tmp_path):
    from drivers.events import InputEvent  # noqa: F401 - used by the callers through App.step
    from firmware.app import App
    from firmware.controller import Controller
    from firmware.session import Session
    from maxibourse_helpers import started

    journal = Journal(tmp_path / "journal.sqlite")
    game = started(["Ana", "Ben"])
    session = Session(game, journal, journal.new_game(game.header))
    for act in game.log:
        journal.append(session.game_id, act.to_json())
    controller = Controller(journal)
    controller.attach(session)
    app = App(controller, Hardware(operator=DummyDisplay((128, 64), "1")), journal=journal, strict=True)
    app.refresh()
    return app, journal


def test_menu_moves_write_nothing_and_an_action_is_one_commit_with_its_screen(tmp_path):
    from drivers.events import InputEvent

    app, journal = box_app(tmp_path)
    try:
        syncs = Syncs(journal)
        wal, ui = syncs.wal_size(), journal.get_meta("ui")
        for i in range(20):                                   # a player browsing the menus
            app.step(InputEvent("down" if i % 3 else "up", "press", 1.0 + i))
        assert syncs.commits == 0 and syncs.wal_size() == wal and journal.get_meta("ui") == ui
        n = len(app.controller.session.game.log)
        app.step(InputEvent("console", "line", 30.0, "adjust_cash Ana +100 oubli"))
        assert len(app.controller.session.game.log) == n + 1
        assert syncs.commits == 1                             # the action and its screen: one commit
        saved = json.loads(journal.get_meta("ui"))
        assert saved["n"] == n + 1 and saved == app.controller.ui_state()
    finally:
        journal.close()


def test_a_pause_in_play_checkpoints_the_wal_into_the_journal_file(tmp_path):
    from drivers.events import InputEvent
    from firmware.app import CHECKPOINT_IDLE_S

    app, journal = box_app(tmp_path)
    try:
        app.step(InputEvent("console", "line", 10.0, "adjust_cash Ana +100 oubli"))
        assert journal.unsaved
        app.step(InputEvent("clock", "tick", 10.0 + CHECKPOINT_IDLE_S - 1))
        assert journal.unsaved                                # still playing: no extra writes
        app.step(InputEvent("clock", "tick", 10.0 + CHECKPOINT_IDLE_S))
        assert not journal.unsaved
        # The journal file alone, without its -wal, now holds the action.
        alone = tmp_path / "alone.sqlite"
        alone.write_bytes((tmp_path / "journal.sqlite").read_bytes())
        with Journal(alone) as copy:
            assert copy.actions(copy.last_game())[-1]["kind"] == "adjust_cash"
    finally:
        journal.close()


def test_a_lock_that_cannot_be_made_never_moves_the_journal(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.new_game(HEADER)
    lock = tmp_path / "journal.sqlite-lock"
    lock.unlink()
    lock.mkdir()                                              # in the way: the lock cannot be opened
    with pytest.raises(JournalError, match="cannot take its lock"):
        open_for_box(path)
    assert not [p for p in tmp_path.iterdir() if "unreadable" in p.name]


def test_corbeille_sim_on_a_held_journal_is_refused_with_the_pid(tmp_path, holder):
    import pty
    import select
    import time

    state = tmp_path / "state"
    state.mkdir()
    proc = holder(state / "journal.sqlite")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"), CORBEILLE_CONFIG="", PYTHONPATH=str(ROOT))
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "firmware.cli", "sim", "--state", str(state)], env)
    out, end = b"", time.monotonic() + 30
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1
    assert f"in use by process {proc.pid}".encode() in out and b"Traceback" not in out
