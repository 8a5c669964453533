"""Power cuts: the real box process (`corbeille run`, PNG-capture operator display, mock
GPIO pins, buttons pressed through its serial console on a pty) is killed with SIGKILL
in the middle of a game and started again: it comes back on the same screen (same saved
UI state, the same frame once the menu moves since the last action are made again) with
the same game (same snapshot), and says the game resumed until the first press.

A press counts as acknowledged once the console has answered the next command: the loop
takes events in order, so by then the press was applied, journaled, drawn and saved.
The UI state is saved with each action, in the action's own commit, never for a menu
move alone (no SD writes while a player only moves in menus): so the box comes
back on the screen shown right after the last action, with that action's game.
"""
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest

from engines.maxibourse.game import MaxiBourse
from firmware.journal.reader import JournalReader

ROOT = Path(__file__).resolve().parents[2]

# A game from its setup: Maxi Bourse, Junior, 3 players, 2 rounds; then picks, a titre, a sale...
KEYS = (["ok", "ok", "ok", "ok", "down", "down", "ok", "ok", "ok"]     # setup
        + ["ok", "ok"] * 15                                            # 15 starting picks
        + ["ok",                                                       # Rouge starts
           "ok", "down", "down", "ok", "down", "down", "down", "ok",   # dice 3 and 4
           "ok", "ok",                                                 # Titre: the board's square, au cours
           "ok",                                                       # 1 000 (the list starts there)
           "ok",                                                       # settle
           "ok", "ok", "ok",                                           # passes
           "ok",                                                       # end of turn (no confirmation)
           "ok", "down", "ok", "down", "down", "down", "down", "ok",   # Bleu: dice 2 and 5
           "down", "ok", "ok", "ok", "ok"])                            # a price card


class Box:
    """`corbeille run` in a subprocess, its serial console on a pty."""

    def __init__(self, tmp_path, game_config=""):
        self.tmp = tmp_path
        self.game_config = game_config    # more lines of the configuration's [game] table, then tables
        self.state = tmp_path / "state"
        self.proc = None
        self.master = None
        self.env = {}                     # more environment for the box (tests/faults.py: the shim)
        self.wrap = list                  # argv -> the argv run (tests/faults.py: a read-only folder)
        self.preexec = None               # run in the child before the box (a file-size limit)

    def start(self):
        master, slave = os.openpty()
        tty.setraw(slave)                 # no echo before the box opens its end
        self.master, self.slave = master, slave
        config = self.tmp / "corbeille.toml"
        config.write_text(
            f'[game]\nrounds = 2\n{self.game_config}[state]\ndir = "{self.state}"\n[operator]\ntype = "png"\n'
            f'[console]\nenabled = true\nport = "{os.ttyname(slave)}"\n')
        env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT), **self.env)
        env.pop("NOTIFY_SOCKET", None)
        self.proc = subprocess.Popen(self.wrap([sys.executable, "-m", "firmware.cli", "--config", str(config), "run"]),
                                     cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     preexec_fn=self.preexec)
        self.buffer = b""
        deadline = time.monotonic() + 30
        self._console_opened(os.ttyname(slave), deadline)
        if "==" in self.ask("screen", timeout=2, done=b"]\r\n"):    # heard, unless sent as the open flushed
            return self
        while time.monotonic() < deadline:             # until the console answers
            reply = self.ask("screen", timeout=0.5)
            if reply and "==" in reply:
                return self
        self.stop()        # never leave a box behind: it would reopen a later test's pty
        raise AssertionError("the box did not answer on its console: "
                             + self.proc.stderr.read().decode(errors="replace"))

    def _console_opened(self, port, deadline):
        """Wait until the box has opened its console: what is written before is flushed
        when it opens it, so the first question is asked once it can be heard."""
        fds = Path(f"/proc/{self.proc.pid}/fd")
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if any(os.readlink(fd) == port for fd in fds.iterdir()):
                    return
            except OSError:                            # an fd closed while read: look again
                pass
            time.sleep(0.01)

    def send(self, line):
        os.write(self.master, (line + "\n").encode())

    def ask(self, line, timeout=10.0, done=None):
        """Send a line, return the reply: up to `done` (bytes it ends with), else up to a
        quiet moment after a line end."""
        self.buffer = b""
        self.send(line)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if done is not None and self.buffer.endswith(done):
                break
            ready, _, _ = select.select([self.master], [], [], 0.15)
            if ready:
                self.buffer += os.read(self.master, 65536)
            elif self.buffer.endswith(b"\r\n"):
                break
        return self.buffer.decode(errors="replace")

    def key(self, name):
        assert self.ask(f"key {name}", done=b"ok\r\n").strip() == "ok"

    def screen(self):
        return self.ask("screen", done=b"]\r\n")          # the footer line ends a screen

    def frame(self):
        return (self.state / "screens" / "operator-latest.png").read_bytes()

    def ui(self):
        with JournalReader(self.state / "journal.sqlite") as journal:
            raw = journal.get_meta("ui")
        return json.loads(raw) if raw else None

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc.stderr.close()
        os.close(self.master)
        os.close(self.slave)
        self.master = None

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.master is not None:
            self.proc.stderr.close()
            os.close(self.master)
            os.close(self.slave)
            self.master = None


def game_state(state_dir):
    with JournalReader(state_dir / "journal.sqlite") as journal:
        game_id = journal.last_game()
        header = journal.header(game_id)
        actions = [MaxiBourse.ACTIONS.from_json(a) for a in journal.actions(game_id)]
    return MaxiBourse.replay(header, actions).snapshot()


@pytest.fixture
def box(tmp_path):
    box = Box(tmp_path)
    yield box
    box.stop()


def test_killed_mid_game_the_box_comes_back_on_the_same_screen_with_the_same_game(box):
    box.start()
    kills = sorted(random.Random(3).sample(range(10, len(KEYS) - 2), 3))
    saved = None                 # (screen, frame, UI state, key index) of the last saved UI state
    for i, key in enumerate(KEYS):
        box.key(key)
        ui = box.ui()
        if saved is None or ui != saved[2]:
            saved = (box.screen(), box.frame(), ui, i)
        if i not in kills:
            continue
        state = game_state(box.state)
        box.screen()                                      # answered once the last key's frame is drawn
        shown = box.frame()
        box.kill()                                        # the plug is pulled
        box.start()
        lines = box.screen().split("\r\n")
        assert lines[1].startswith("Partie reprise : action "), lines     # said until the first press
        assert "\r\n".join(lines[:1] + lines[2:]) == saved[0], f"after key {i}"
        assert box.ui() == ui
        assert game_state(box.state) == state
        for lost in KEYS[saved[3] + 1:i + 1]:             # the menu moves since the last action
            box.key(lost)
        if i > saved[3]:
            box.screen()                                  # answered once the last key's frame is drawn
            assert box.frame() == shown                   # the note read, the frame of before the cut
    state = json.loads(box.ask("state"))
    assert state["turn"] == "Bleu" and state["squares"]["Rouge"] == "ESSO", state["squares"]   # 3 + 4 from ACTION
    assert state["players"][0]["lots"].get("ESSO") == 1


def test_killed_while_a_press_is_being_handled_the_game_is_consistent(box):
    box.start()
    for key in KEYS[:20]:
        box.key(key)
    with JournalReader(box.state / "journal.sqlite") as journal:
        before = len(journal.actions(journal.last_game()))
    box.send("key ok")                                    # not acknowledged: kill at once
    box.kill()
    box.start()
    with JournalReader(box.state / "journal.sqlite") as journal:
        after = len(journal.actions(journal.last_game()))
    assert after in (before, before + 1)
    assert json.loads(box.ask("state"))["actions"] == after
    assert "==" in box.screen()
