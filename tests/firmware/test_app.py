"""The loop around the controller: frames only when they change, the quotation board,
faults that degrade a part without stopping the game, systemd notify/watchdog on a real
unix socket, the parts built from the configuration, selftest, and the command line."""
import os
import pty
import queue
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from drivers.clock import ManualClock
from drivers.display import Display, DummyDisplay, PngDisplay
from drivers.events import InputEvent
from drivers.faults import Backoff, GuardedDisplay
from drivers.outputs import Beeper, SeatLights
from firmware.app import App, Hardware, Part
from firmware.config import config_from_dict
from firmware.controller import Controller
from firmware.notify import Notifier
from firmware.parts import build_hardware
from firmware.selftest import run_selftest
from firmware.session import Session
from maxibourse_helpers import started
from e2e_box import E2EBox

ROOT = Path(__file__).resolve().parents[2]
CORBEILLE = [sys.executable, "-m", "firmware.cli"]


class Flaky(Display):
    """A display whose bus fails while `broken` is set."""

    def __init__(self, size=(128, 64), mode="1", name="flaky"):
        super().__init__(size, mode, name)
        self.broken = False
        self.received = []

    def _send(self, frame):
        if self.broken:
            raise OSError(121, "Remote I/O error")
        self.received.append(frame.copy())


def app_for(game, operator=None, board=None, clock=None):
    c = Controller(None)
    c.attach(Session(game))
    hw = Hardware(operator=operator or DummyDisplay(), board=board,
                  parts=[Part("display", operator)] + ([Part("board", board)] if board else []))
    app = App(c, hw, clock=clock or ManualClock(), strict=True)
    app.refresh()
    return app


def test_a_frame_goes_to_the_display_only_when_it_changes():
    display = PngDisplay(keep=10)
    app = app_for(started(["Ana", "Ben"]), display)
    assert display.frames_sent == 1
    app.step(InputEvent("back", "press", 1.0))          # Back on the root: nothing to change
    app.step(InputEvent("clock", "tick", 2.0))
    assert display.frames_sent == 1
    app.step(InputEvent("down", "press", 3.0))
    assert display.frames_sent == 2


def test_the_board_follows_the_game_and_pages_on_a_small_panel():
    clock = ManualClock()
    board = PngDisplay((128, 64), keep=50, name="board")
    game = started(["Ana", "Ben"])
    app = app_for(game, board=board, clock=clock)
    first = board.last_frame.tobytes()
    assert board.frames_sent == 1 and app.board_pages.pages > 1
    for t in (1.0, 7.5, 14.0):
        app.step(InputEvent("clock", "tick", t))
    assert app.board_pages.page == 2 and board.last_frame.tobytes() != first
    app.controller.console("set_price BARCLAYS 500 x")
    app.refresh()
    assert board.frames_sent >= 3


def test_a_display_failing_for_a_while_degrades_then_comes_back(tmp_path):
    """Fault injection: the board's bus fails, the game goes on (applied and journaled),
    the operator screen names the part, and the board catches up when it answers again."""
    inner = Flaky((128, 64), name="board")
    box = None
    try:
        clock = ManualClock(start=1000.0)
        board = GuardedDisplay(inner, clock=clock, backoff=Backoff(0.5, 2.0, 4.0))
        box = E2EBox(tmp_path, seats=0, board=board)
        assert box.clock is not clock
        board._clock = box.clock                             # one clock for the whole box
        box.choose("Maxi Bourse").choose("Junior").choose("2 joueurs").choose("Couleurs").choose("Sans limite")
        box.choose("Continuer").choose("Jouer")
        inner.broken = True
        box.pick("Banques", "BARCLAYS").pick("Banques", "CHASE")
        assert board.degraded and box.screen.status == "! tableau"
        assert len(box.app.journal.actions(box.app.journal.last_game())) == 2   # the game went on
        sent = len(inner.received)
        box.wait(3.0)                                        # retried with backoff, still broken
        assert len(inner.received) == sent and box.screen.status == "! tableau"
        inner.broken = False
        box.wait(5.0)
        assert not board.degraded and box.screen.status == ""
        from firmware.games.maxibourse_board import render_board
        session = box.c.session
        expected = render_board(session.snapshot(), session.game.box, (128, 64), "1", "fr", box.app.board_pages.page)
        assert inner.received[-1].tobytes() == expected.tobytes()
        assert box.screen.title == "Rouge : lot 2/5"       # Rouge again, her second pick
    finally:
        if box is not None:
            box.close()


def test_the_operator_display_failing_does_not_stop_the_game(tmp_path):
    inner = Flaky()
    box = None
    try:
        box = E2EBox(tmp_path, seats=0, operator=None)
        box.operator = GuardedDisplay(inner, clock=box.clock, backoff=Backoff(0.5, 2.0, 2.0))
        box.hw.operator = box.operator
        box.hw.parts = [Part("display", box.operator)]
        box.app.refresh()
        inner.broken = True
        box.choose("Maxi Bourse").choose("Junior").choose("2 joueurs").choose("Couleurs").choose("Sans limite")
        box.choose("Continuer").choose("Jouer")
        box.pick("Banques", "BARCLAYS")
        assert box.operator.degraded and box.c.session.game.log[-1].kind == "pick"
        inner.broken = False
        box.wait(3.0)
        assert not box.operator.degraded
        from firmware.render import render_screen
        assert inner.received[-1].tobytes() == render_screen(box.screen).tobytes()
    finally:
        if box is not None:
            box.close()


# ------------------------------------------------------------------- notify
class ReadyChecker(DummyDisplay):
    """Fails the test if READY=1 reached the socket before the first frame."""

    def __init__(self, sock):
        super().__init__()
        self.sock = sock
        self.early = []

    def _send(self, frame):
        try:
            self.early.append(self.sock.recv(100))
        except BlockingIOError:
            pass
        super()._send(frame)


def test_notify_ready_after_the_first_frame_and_watchdog_pings_from_the_loop(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.setblocking(False)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "100000"})
        assert notifier.watchdog_interval == pytest.approx(0.05)
        display = ReadyChecker(sock)
        c = Controller(None)
        c.attach(Session(started(["Ana", "Ben"])))
        app = App(c, Hardware(operator=display), notifier=notifier)
        threading.Timer(0.4, lambda: app.queue.put(InputEvent("quit", "quit", 0))).start()
        app.run()
        assert display.early == [] and display.frames_sent == 1
        received = []
        while True:
            try:
                received.append(sock.recv(100).decode())
            except BlockingIOError:
                break
        assert received[0] == "READY=1" and received[-1] == "STOPPING=1"
        assert received.count("READY=1") == 1
        assert 3 <= received.count("WATCHDOG=1") <= 12
    finally:
        sock.close()


def test_notify_does_nothing_outside_systemd_and_accepts_abstract_sockets():
    quiet = Notifier({})
    assert not quiet.enabled and quiet.send("READY=1") is False
    quiet.watchdog(10.0)
    assert quiet.sent == []
    abstract = Notifier({"NOTIFY_SOCKET": "@corbeille-test-%d" % os.getpid()})
    assert abstract.address.startswith("\0")
    assert Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}).watchdog_interval is None


# -------------------------------------------------------------- parts, selftest
def config(tmp_path, **sections):
    data = {"state": {"dir": str(tmp_path / "state")}, "operator": {"type": "dummy"}}
    data.update(sections)
    return config_from_dict(data)


def test_parts_are_built_from_the_configuration_on_mock_pins(tmp_path):
    factory = MockFactory()
    events = queue.Queue()
    hw = build_hardware(config(tmp_path, seats={"count": 3}, console={"enabled": True, "port": "loop://"}),
                        events, pin_factory=factory)
    try:
        assert hw.operator.size == (128, 64) and hw.board is None
        assert [p.key for p in hw.parts] == ["display", "console"]
        factory.pin(13).drive_low()                         # button_ok in hardware/pinout.toml
        factory.pin(16).drive_low()                         # seat_button_3
        names = {events.get(timeout=1).name for _ in range(2)}
        assert names == {"ok", "seat3"}
    finally:
        hw.close()
        factory.close()


def test_a_missing_serial_part_starts_degraded_and_is_named(tmp_path):
    events = queue.Queue()
    hw = build_hardware(config(tmp_path, rfid={"enabled": True, "port": str(tmp_path / "no-such-tty")}),
                        events, pin_factory=MockFactory())
    try:
        c = Controller(None)
        c.attach(Session(started(["Ana", "Ben"])))
        app = App(c, hw)
        deadline = time.monotonic() + 5
        while not app.status_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.status_text() == "! lecteur RFID"
        app.refresh()
        assert c.screen().status == "! lecteur RFID"
    finally:
        hw.close()


def test_selftest_draws_lights_buzzes_and_reports_buttons():
    factory = MockFactory(pin_class=MockPWMPin)
    events = queue.Queue()
    from drivers.inputs import OperatorButtons
    clock = ManualClock()
    buttons = OperatorButtons(5, 6, 13, 19, queue=events, pin_factory=factory, clock=clock, hold_time=0.5)
    hw = Hardware(operator=DummyDisplay(), board=DummyDisplay((256, 64), "L", name="board"),
                  lights=SeatLights([22, 23, 24], pin_factory=factory),
                  beeper=Beeper(26, pin_factory=factory))
    try:
        for pin in (5, 13):
            factory.pin(pin).drive_low()
            clock.advance(0.05)
            factory.pin(pin).drive_high()
            clock.advance(0.05)
        events.put(InputEvent("back", "long_press", 0.0))
        out = []
        seen = run_selftest(hw, events, out=out.append, duration=5, sleep=lambda s: None)
        assert seen["displays"] == ["dummy", "board"]
        assert seen["leds"] == [1, 2, 3] and not any(hw.lights.is_lit(s) for s in (1, 2, 3))
        assert seen["buzzer"] == ["tick", "confirm", "error"]
        assert seen["buttons"] == ["up", "ok", "back (long)"]
        assert out[-1] == "Autotest terminé"
        assert hw.board.image.getbbox() is not None           # a test pattern was drawn
    finally:
        buttons.close()
        hw.close()
        factory.close()


# --------------------------------------------------------------- command line
def test_sim_without_a_terminal_says_so():
    result = subprocess.run(CORBEILLE + ["sim"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert "not a terminal" in result.stderr and "make run" in result.stderr


def test_run_without_gpio_pins_says_what_to_do(tmp_path):
    cfg = tmp_path / "corbeille.toml"
    cfg.write_text(f'[state]\ndir = "{tmp_path / "state"}"\n[operator]\ntype = "dummy"\n')
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    result = subprocess.run(CORBEILLE + ["--config", str(cfg), "run"], capture_output=True, text=True,
                            cwd=ROOT, timeout=60, env=env)
    assert result.returncode == 1
    assert "corbeille sim" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_sim_key_line_and_the_readme_name_every_letter_key(lang):
    """Every letter or digit the simulator reads as a button (firmware/sim.py, the long
    presses K, J, O and B among them) is named on the key line under the screen, in both
    languages, and in the README's table of keys."""
    from drivers.keyboard import SHORT
    from firmware.sim import SIM_KEYS
    from firmware.texts import t

    line = t("sim.help", lang)
    named = "".join(hint.split("=")[0] for hint in line.split("  "))   # what each hint says to press
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = "".join(row.split("|")[1] for row in readme.splitlines() if row.startswith("| ") and row.count("|") == 3)
    seen = {}
    for key, (button, how) in SIM_KEYS.items():
        if key.isascii() and key.isalnum():
            seen.setdefault((button, how), []).append(key)
    for (button, how), keys in seen.items():
        if button.startswith("seat"):
            continue                                          # the digits: "1-6" below
        assert any(k in named for k in keys), f"{button} {how} ({keys}) not on the key line: {line}"
        assert any(k in table for k in keys), f"{button} {how} ({keys}) not in the README's keys"
    assert "1-6" in named and "!@#$%^" in named and "1-6" in table
    assert len(line) <= 130                                   # the pixel view's width (firmware/sim.py)
    assert ("up", SHORT) in seen and ("ok", "long") in seen


def test_sim_runs_in_a_plain_80x24_terminal_and_quits_on_q(tmp_path):
    import fcntl
    import struct
    import termios

    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               CORBEILLE_CONFIG="", PYTHONPATH=str(ROOT))
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(sys.executable, CORBEILLE + ["sim"], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = b""

    def read_until(marker, timeout=20):
        nonlocal out
        end = time.monotonic() + timeout
        while marker not in out and time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return marker in out

    try:
        assert read_until("Quel jeu".encode())
        os.write(fd, b"\r")
        assert read_until("Quelle formule".encode())
        os.write(fd, b"\r")
        assert read_until("Combien de joueurs".encode())
        os.write(fd, b"q")
        read_until(b"\x1b[?25h")
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        assert (tmp_path / "data" / "corbeille" / "journal.sqlite").exists()
    finally:
        os.close(fd)
