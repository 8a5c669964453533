"""The box's benchmark: press -> frame, process start -> first frame, memory, and presses.

    .venv/bin/python -m bench.press_bench               # writes docs/performance.md (## Box)
                                                        # and docs/presses.md
    .venv/bin/python -m bench.press_bench --no-write    # print only

* Press -> frame: the real loop (`App.step`) with the real controller, engine, journal
  (SQLite on disk, one fsync per action) and renderer; the clock stops when the operator
  frame is handed to the display driver (`App.on_frame`, right after `Display.show`).
  Menu moves, presses that apply an action, and undo (a replay) are measured apart.
* Start -> first frame: `corbeille run` in a subprocess (mock GPIO pins, dummy display),
  timed from spawn to its READY=1 on a notify socket, which it sends once the first frame
  is shown; fresh (setup screen) and resuming a long game from its journal. The child's
  peak RSS comes from wait4().
* Presses: common actions entered on the controller by the shortest key sequence (the
  way `choose` in the tests reads the screen), counted per operator key and seat press.

Nothing here is asserted: benchmarks inform, tests check.
"""
from __future__ import annotations

import argparse
import gc
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

from drivers.display import DummyDisplay
from drivers.events import InputEvent
from bench import targets
from bench.doc import write_section
from bench.frames import best_of, paired
from bench.targets import PI_FACTOR
from engines.maxibourse.game import MaxiBourse
from firmware.app import App, Hardware
from firmware.controller import Controller, Timing
from firmware.journal import Journal
from firmware.session import Session

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
PRESSES_DOC = ROOT / "docs" / "presses.md"
SECTION = "## Box"
PLAYERS = ["Ana", "Ben", "Cid"]
TIMING = Timing(speaking_window_s=3.0, press_gap_s=0.5, auction_step_s=1.0, auction_lead_s=1.0)


# ----------------------------------------------------------------- helpers
def started_game(players=PLAYERS, **settings):
    """A Junior game past its starting picks, as the engine deals them (first choices)."""
    game = MaxiBourse({"game": "maxibourse", "format": "junior", "players": list(players), "seed": 1,
                       "settings": settings})
    while game.decision().prompt == "prompt.mb.pick":
        option = game.decision().option("pick")
        company = option.fields["company"].values[0]
        game.apply(game.ACTIONS.classes["pick"](player=option.fields["player"].value, company=company))
    game.apply(game.ACTIONS.classes["first"](player=0))
    return game


def journaled(game, journal):
    game_id = journal.new_game(game.header)
    for act in game.log:
        journal.append(game_id, act.to_json())
    return Session(game, journal, game_id)


class Driver:
    """Presses keys on a controller (or an app), counting them; time moves 50 ms a press."""

    def __init__(self, target):
        self.target = target                       # an App or a Controller
        self.c = target.controller if isinstance(target, App) else target
        self.t = 0.0
        self.operator = 0
        self.seat_presses = 0

    def send(self, name, kind="press"):
        self.t += 0.05
        event = InputEvent(name, kind, self.t)
        if isinstance(self.target, App):
            self.target.step(event)
        else:
            self.c.handle(event)

    def key(self, name, long=False):
        self.operator += 1
        self.send(name, "long_press" if long else "press")
        return self

    def seat(self, n, times=1):
        for _ in range(times):
            self.seat_presses += 1
            self.send(f"seat{n}")
        return self

    def wait(self, seconds):
        self.t += seconds
        self.c.handle(InputEvent("clock", "tick", self.t))
        return self

    def items(self):
        return [str(i).split("\t")[0] for i in self.c.screen().items]

    def choose(self, label):
        items = self.items()
        target = next(i for i, text in enumerate(items) if text.startswith(label))
        now, n = self.c.screen().selected, len(items)
        down = (target - now) % n
        for _ in range(min(down, n - down)):
            self.key("down" if down <= n - down else "up")
        return self.key("ok")


# ------------------------------------------------------------------ the bus
class BusRecorder:
    """A luma serial interface that sends nothing and counts what would cross the I2C bus.

    On the box luma opens the bus itself (smbus2): each ``command`` and each ``data`` call
    is one I2C message, framed by the address byte and a control byte. ``wire`` counts
    those too; at 400 kHz a byte takes 9 clocks (8 bits and the acknowledge)."""

    def __init__(self):
        self.payload = self.messages = 0

    def command(self, *cmd):
        self.payload += len(cmd)
        self.messages += 1

    def data(self, data):
        self.payload += len(data)
        self.messages += 1

    def cleanup(self):
        pass

    @property
    def wire(self):
        return self.payload + 2 * self.messages

    def reset(self):
        self.payload = self.messages = 0


def i2c_ms(wire_bytes, hz=400_000):
    return wire_bytes * 9 / hz * 1000


def box_displays(board=True):
    """The box's two displays, as on the box: the 128x64 SSD1306 operator OLED (luma's
    real device, on a recording bus) and the 800x480 e-ink board (the real QuotationBoard
    and its refresh thread, on the stand-in panel)."""
    from drivers.display import OledDisplay
    from drivers.eink import QuotationBoard

    bus = BusRecorder()
    operator = OledDisplay.from_config({"display": "ssd1306", "interface": "i2c"}, serial_interface=bus)
    if board:
        board = QuotationBoard.from_config({"type": "eink", "panel": "stand-in", "width": 800, "height": 480})
    return operator, board or None, bus


def fdatasync_floor(directory: Path, n: int = 200):
    """Median seconds of one small write and fdatasync in ``directory`` (the journal's
    filesystem): what any durable action costs at least."""
    path = directory / "fdatasync-floor.bin"
    times = []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for i in range(n):
            os.pwrite(fd, b"x" * 135, i * 135)
            start = time.perf_counter()
            os.fdatasync(fd)
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times)


# ------------------------------------------------------------ press -> frame
def press_latency(journal_dir: Path, moves: int = 2000, actions: int = 300, memory: bool = False):
    """Press -> frame through the real loop with the box's displays. With ``memory`` the
    loop runs under tracemalloc (a separate, shorter run: tracing slows every allocation)."""
    from bench.frames import record
    from firmware.render import render_screen

    path = journal_dir / ("press-memory.sqlite" if memory else "press-bench.sqlite")
    for leftover in journal_dir.glob(path.name + "*"):
        leftover.unlink()
    journal = Journal(path)
    operator, board, bus = box_displays()
    try:
        controller = Controller(journal, timing=TIMING)
        controller.attach(journaled(started_game(), journal))
        app = App(controller, Hardware(operator=operator, board=board), journal=journal)
        app.refresh()
        marks = []
        app.on_frame = lambda: marks.append(time.perf_counter())
        d = Driver(app)

        def timed_key(name, long=False):
            marks.clear()
            bus.reset()
            start = time.perf_counter()
            d.key(name, long)
            end = time.perf_counter()
            return (marks[0] - start if marks else None), end - start, bus.wire

        d.choose("Saisir les dés").choose("1").choose("2")          # the square menu
        if memory:
            gc.collect()
            tracemalloc.start()
        menu, menu_total, menu_bus, menu_screens, floor_samples = [], [], [], [], []
        floors = []
        for i in range(moves):
            frame, total, wire = timed_key("down" if i % 2 == 0 else "up")
            menu.append(frame)
            menu_total.append(total)
            menu_bus.append(wire)
            if i < 2:
                menu_screens.append(app._last_screen)
            if i == 1 and not memory:
                floors = [record(render_screen, s, operator.size, operator.mode)[1] for s in menu_screens]
            if floors and i % 100 == 1:
                # The floor, sampled all along the presses: a busy machine weighs on both alike.
                floor_samples.append(best_of(lambda: (floors[0].floor(), floors[1].floor()), 20, 1) / 2)
        applied, applied_total, applied_bus, undo = [], [], [], []
        for i in range(actions):
            d.choose("Carte : recevoir").key("ok")                  # the player: whose turn it is
            frame, total, wire = timed_key("ok")                    # applies: engine + journal commit
            applied.append(frame)
            applied_total.append(total)
            applied_bus.append(wire)
            if i % 10 == 9:
                d.key("back", long=True)
                frame, _, _ = timed_key("ok")
                undo.append(frame)
        applied_screen = app._last_screen
        peak = None
        if memory:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        result = {"menu": menu, "menu_total": menu_total, "menu_bus": menu_bus, "applied": applied,
                  "applied_total": applied_total, "applied_bus": applied_bus, "undo": undo,
                  "actions_in_game": len(controller.session.game.log), "tracemalloc_peak": peak,
                  "frames": operator.frames_sent}
        if not memory:
            # The floors, from the frames these presses showed.
            result["menu_floor"] = statistics.median(floor_samples)
            # Where a menu move goes: drawing its frame, and handing it to the display.
            frames = [render_screen(screen, operator.size, operator.mode) for screen in menu_screens]
            result["menu_render"] = statistics.mean(
                best_of(lambda s=s: render_screen(s, operator.size, operator.mode)) for s in menu_screens)
            spare, _, _ = box_displays(board=False)
            result["menu_show"] = best_of(lambda: (spare.show(frames[0]), spare.show(frames[1]))) / 2

            def two_moves(c=controller):              # down then up: back where it was
                c.handle(InputEvent("down", "press", d.t))
                c.screen()
                c.handle(InputEvent("up", "press", d.t))
                c.screen()
            result["menu_controller"] = best_of(two_moves) / 2
            result["menu_blit"] = statistics.mean(best_of(lambda f=f: f.floor(blit=True)) for f in floors)
            _, frame = record(render_screen, applied_screen, operator.size, operator.mode)
            result["applied_frame_floor"] = best_of(frame.floor)
            result["fdatasync"] = fdatasync_floor(journal_dir)
            result["full_frame_wire"] = full_frame_wire()
        return result
    finally:
        board.close()
        journal.close()


def full_frame_wire():
    """Bytes on the bus for one frame sent whole, as luma's own ssd1306.display does."""
    from PIL import Image

    from drivers.display import OledDisplay

    bus = BusRecorder()
    oled = OledDisplay.from_config({"display": "ssd1306", "interface": "i2c"}, serial_interface=bus)
    bus.reset()
    oled.device.display(Image.new("1", (128, 64)))
    return bus.wire


def board_render(game, size=(800, 480)):
    """(render seconds, Pillow-alone floor, blit floor) of ``game``'s quotation board."""
    from bench.frames import record
    from firmware.games import adapter_of

    session = Session(game)
    ui = adapter_of(session)
    snap = session.public_snapshot()
    draw = lambda: ui.render_board(snap, game.box, size, "1", "fr", 0)  # noqa: E731
    _, frame = record(draw)
    render, floor = paired(draw, frame.floor, 10)
    return render, floor, best_of(lambda: frame.floor(blit=True), 20)


def undo_long_game(journal_dir: Path, target: int = 2000):
    """Press -> frame for an undo (a replay of the whole game) at the end of a long game."""
    from bench.randomgame import long_game

    _, header, actions, _ = long_game(target)
    path = journal_dir / "undo-bench.sqlite"
    for leftover in journal_dir.glob(path.name + "*"):
        leftover.unlink()
    with Journal(path) as journal:
        game = MaxiBourse.replay(header, actions)
        controller = Controller(journal, timing=TIMING)
        controller.attach(journaled(game, journal))
        app = App(controller, Hardware(operator=DummyDisplay()), journal=journal)
        app.refresh()
        marks = []
        app.on_frame = lambda: marks.append(time.perf_counter())
        d = Driver(app)
        times = []
        for _ in range(5):
            d.key("back", long=True)
            marks.clear()
            start = time.perf_counter()
            d.key("ok")
            times.append(marks[0] - start)
        return len(actions), times, game


# ------------------------------------------------------------------ SD card
def sd_cost(journal_dir: Path, count: int = 200):
    """fdatasync/fsync calls (counted by strace) and storage bytes (/proc/self/io, read by
    the child) per menu move and per action entered, in children running the real loop
    (bench/sync_child.py). None when strace is not installed."""
    import json
    import re
    import shutil

    if shutil.which("strace") is None:
        return None
    out = {}
    for phase in ("setup", "menu", "apply"):
        trace, note = journal_dir / f"strace-{phase}.txt", journal_dir / f"sync-{phase}.json"
        subprocess.run(["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", str(trace), sys.executable,
                        "-m", "bench.sync_child", str(journal_dir), phase, str(count), str(note)],
                       cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
        syncs = sum(int(m.group(1)) for m in re.finditer(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?f(?:data)?sync$",
                                                            trace.read_text(), re.M))
        out[phase] = {**json.loads(note.read_text()), "syncs": syncs}
        trace.unlink()
        note.unlink()
    base = out["setup"]["syncs"]
    menu, apply = out["menu"], out["apply"]
    return {"menu_syncs": (menu["syncs"] - base) / count, "menu_bytes": menu["write_bytes"] / count,
            "action_syncs": (apply["syncs"] - base) / count, "action_bytes": apply["write_bytes"] / count,
            "action_presses": apply["presses"] / count, "count": count}


# ------------------------------------------------------------ start -> frame
STANDIN = ROOT / "drivers" / "standin"     # the stand-in `epaper` package: the e-ink board off a Pi


def start_once(state_dir: Path, root: Path = ROOT):
    """`corbeille run` as on the box (mock pins, the operator display, the 800x480 e-ink
    board on a stand-in panel), from spawn to its READY=1. Returns (seconds, what the
    child noted at its first frame, what it noted at exit). `root`: the tree whose code
    runs (another checkout, to compare two versions start by start: bench/resume_games.py);
    the child is this tree's bench/start_child.py either way."""
    import json

    config = state_dir / "corbeille.toml"
    config.write_text(f'[state]\ndir = "{state_dir}"\n[operator]\ntype = "dummy"\n[board]\ntype = "eink"\n')
    sock_path = state_dir / "notify.sock"
    note = state_dir / "child.json"
    for stale in (sock_path, note, Path(str(note) + ".exit")):
        if stale.exists():
            stale.unlink()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(60)
    # PYTHONSAFEPATH: the child script's own folder is not searched, so `root`'s modules run
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", NOTIFY_SOCKET=str(sock_path), PYTHONSAFEPATH="1",
               PYTHONPATH=f"{STANDIN}{os.pathsep}{root}")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "start_child.py"), str(note), "--config",
                             str(config), "run"], cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        while sock.recv(100) != b"READY=1":
            pass
        elapsed = time.perf_counter() - start
    except socket.timeout:
        proc.kill()
        raise RuntimeError("corbeille run sent no READY=1: " + proc.communicate()[1].decode()[-2000:])
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.communicate()
        sock.close()
    return elapsed, json.loads(note.read_text()), json.loads(Path(str(note) + ".exit").read_text())


def imports_once(modules):
    """Seconds for a fresh interpreter to import ``modules`` and exit: the floor of a start."""
    code = ("import importlib\nfor name in %r:\n    try:\n        importlib.import_module(name)\n"
            "    except Exception:\n        pass\n" % (list(modules),))
    env = dict(os.environ, PYTHONPATH=f"{STANDIN}{os.pathsep}{ROOT}")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)
    return time.perf_counter() - start


def start_figures(fresh_dir: Path, resume_dir: Path, runs: int = 11):
    """Fresh start, its floor (the imports it had made by its first frame), a bare
    interpreter and a resume, interleaved run by run so that a busy machine weighs on
    each alike (one warm-up round first). The resume runs right after the fresh start it
    is compared with, the order of the two flipped every run (a start's time moves by
    +-15 % here from one run to the next: docs/performance.md).
    Returns the times of each kind and the children's notes."""
    _, fresh_first, _ = start_once(fresh_dir)
    start_once(resume_dir)
    modules = [m for m in fresh_first["modules"] if m != "bench"]
    times = {"fresh": [], "floor": [], "bare": [], "resume": []}
    notes = {}
    for n in range(runs):
        for kind in (("fresh", "resume") if n % 2 == 0 else ("resume", "fresh")):
            t, notes[f"{kind}_first"], notes[f"{kind}_exit"] = start_once(fresh_dir if kind == "fresh" else resume_dir)
            times[kind].append(t)
        times["floor"].append(imports_once(modules))
        times["bare"].append(imports_once([]))
    return times, notes


def long_journal(state_dir: Path, target: int = 2000):
    """A long game journaled as the box journals it: through a session, which records the
    rules it checked the actions under and keeps a snapshot every 100 actions
    (firmware/journal/snapshots.py), so a resume of it is the box's resume."""
    from bench.randomgame import long_game
    from firmware.session import Session

    from engines.core.files import keep_parsed_in

    _, header, actions, _ = long_game(target)
    keep_parsed_in(state_dir / "parsed")    # as `corbeille run` creates a game: its box file parsed there once
    try:
        with Journal(state_dir / "journal.sqlite") as journal:
            session = Session.new(header, journal)
            for act in actions:
                session.apply(act)
    finally:
        keep_parsed_in(None)
    return header, actions


def replay_from_journal(path: Path, runs: int = 3):
    """Seconds to open the journal, read a game's actions and replay them without the
    check (what a resume does besides starting, under the rules that accepted them), best
    of ``runs``.

    The box file is read as `corbeille run` reads it: from the parsed copy the box keeps
    in the `parsed` folder beside its journal (`keep_parsed_in(config.state.parsed)`,
    filled when the game was created: `long_journal`), not parsed by tomllib again."""
    from engines import game_class
    from engines.core.files import keep_parsed_in

    best = None
    keep_parsed_in(Path(path).parent / "parsed")
    try:
        for _ in range(runs):
            start = time.perf_counter()
            with Journal(path) as journal:
                game_id = journal.last_game()
                header = journal.header(game_id)
                cls = game_class(header.get("game", "maxibourse"))
                # unchecked, as a resume under the rules that accepted them (firmware/session.py)
                cls.replay(header, [cls.ACTIONS.from_json(a) for a in journal.actions(game_id)], checked=False)
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
    finally:
        keep_parsed_in(None)
    return best


# ------------------------------------------------------------------ presses
# The counts at commit 1515e6e, before the presses were cut, by row: (operator, seat) presses. The setup
# was counted by the same `junior_setup` on that commit (no counter, no deal, no same table).
BEFORE = {
    "Titre purchase au cours without a board in the box file (SONY: sector, company, au cours, 1 000, settle)": [(9, 1), (11, 0)],
    "Titre purchase au cours with a board in the box file (the box knows DEUTSCHE)": [(9, 1), (11, 0), (9, 1)],
    "End of turn (after a card)": [(2, 0)],
    "Whole Junior setup, 3 players, picks chosen": [(81, 0)],
    "Payday (breakdown on screen, one confirmation)": [(1, 0)],
    "Undo the last action": [(2, 0)],
}


def before_of(action, index):
    """The count at commit 1515e6e of the `index`-th row named `action`, as text ("" when none)."""
    counts = BEFORE.get(action, [])
    if not counts:
        return ""
    op, seat = counts[min(index, len(counts) - 1)]
    return f"{op}" + (f" + {seat} seat" if seat else "")


def presses_table():
    """[(action, operator presses, seat presses, how)] for the common actions."""
    rows = []

    def fresh(seats=(0, 1, 2), game=None, **settings):
        c = Controller(None, timing=TIMING, seat_buttons=seats)
        c.attach(Session(game or started_game(**settings)))
        return Driver(c)

    def count(d, run):
        before = (d.operator, d.seat_presses)
        run(d)
        return d.operator - before[0], d.seat_presses - before[1]

    def after_roll(seats=(0, 1, 2)):
        d = fresh(seats)
        d.c.apply(d.c.session.actions.classes["roll"](d1=1, d2=2))
        d.c.flow.sync()
        return d

    # Titre au cours: from the square menu to the lander's 1 000 settled.
    def titre_au_cours(d, with_seats):
        d.choose("Case Titre").choose("Informatique").choose("SONY").choose("Au cours")
        if with_seats:
            d.seat(1).wait(0.6)
        else:
            d.choose("1 lot")
        d.choose("Régler")
        assert d.c.session.game.s.lots.of("SONY", 0) == 1
    for seats, how in (((0, 1, 2), "lander presses her seat button once"), ((), "operator answers for her")):
        with box_without_board():                 # an owner who deleted the board: the square is asked
            d = after_roll(seats)
        op, seat = count(d, lambda d: titre_au_cours(d, bool(seats)))
        rows.append(("Titre purchase au cours without a board in the box file (SONY: sector, company, au cours, 1 000, settle)", op, seat, how))

    # An au-mieux round of three players: 1 000, pass, 2 000, then the settlement.
    def au_mieux(d, with_seats):
        d.c.apply(d.c.session.actions.classes["titre"](square="BP", company="SONY"))
        d.c.flow.sync()
        if with_seats:     # Cid answers ahead of Ben, who says nothing: one silence passes him
            d.seat(1).seat(3, 2).wait(0.6).wait(3.1)
        else:
            for answer in ("1 lot", "Passe", "2 lot"):
                d.choose(answer)
        d.choose("Régler")
        assert d.c.session.game.s.lots.of("SONY", 2) == 2
    for seats, how in (((0, 1, 2), "each player on their seat button; a pass is silence"),
                       ((), "operator answers for each player")):
        d = after_roll(seats)
        op, seat = count(d, lambda d: au_mieux(d, bool(seats)))
        rows.append(("Au-mieux round of 3 players (1 000, pass, 2 000) and settlement", op, seat, how))

    # A card moving one company's price: ELF +30.
    d = after_roll()
    op, seat = count(d, lambda d: (d.choose("Carte : cours").choose("Énergie").choose("ELF"),
                                   d.key("up"), d.key("up"), d.key("ok")))
    assert d.c.session.game.price("ELF") == 230
    rows.append(("Price change from a card (ELF +30)", op, seat, "card menu, sector, company, +10 steps"))
    d = after_roll()
    op, seat = count(d, lambda d: (d.choose("Carte : cours").choose("Énergie").choose("Tout le secteur"),
                                   d.key("down"), d.key("down"), d.key("ok")))
    rows.append(("Price change from a card (whole sector -20)", op, seat, "card menu, sector, whole sector"))

    # Payday at the end of a round.
    g = started_game(players=["Ana", "Ben"])
    for _ in range(2):
        g.apply(g.ACTIONS.classes["roll"](d1=1, d2=2))
        g.apply(g.ACTIONS.classes["end"]())
    d = fresh(game=g)
    op, seat = count(d, lambda d: d.key("ok"))
    assert g.log[-1].kind == "payday"
    rows.append(("Payday (breakdown on screen, one confirmation)", op, seat, "OK"))

    # A sale nobody takes: offered, two rounds of declines, the bank buys.
    def sale(d, with_seats):
        held = d.c.session.snapshot()["players"][0]["lots"]
        company = sorted(held)[0]
        d.choose("Vendre").choose(company).choose("1 lot").choose("Oui")
        for _ in range(2 if with_seats else 4):   # one silence a round on the seat buttons
            if with_seats:
                d.wait(3.1)
            else:
                d.choose("Passe")
        assert d.c.session.decision().prompt == "prompt.mb.turn_start"
    for seats, how in (((0, 1, 2), "the others stay silent (window runs out)"),
                       ((), "operator enters each decline")):
        d = fresh(seats)
        op, seat = count(d, lambda d: sale(d, bool(seats)))
        rows.append(("Sale with no buyer (offer, 2 rounds of declines, bank buys)", op, seat, how))

    # Undo the last action.
    d = after_roll()
    op, seat = count(d, lambda d: (d.key("back", long=True), d.key("ok")))
    assert d.c.session.game.log[-1].kind == "first"
    rows.append(("Undo the last action", op, seat, "long Back, OK"))

    # The end of a turn after a card (no confirmation: an undo covers a slip).
    d = after_roll()
    d.c.apply(d.c.session.actions.classes["receive"](player=0, amount=100_000))
    d.c.flow.sync()
    op, seat = count(d, lambda d: d.choose("Fin du tour"))
    assert d.c.session.game.log[-1].kind == "end"
    rows.append(("End of turn (after a card)", op, seat, "OK: \"Fin du tour\" is the first entry once "
                                                         "something happened; no confirmation"))
    rows += board_rows(count)
    rows += setup_rows()
    rows += dividends_rows(fresh, count)
    rows += avendre_rows(fresh, count)
    from bench import sh_presses, table_presses
    rows += sh_presses.rows(fresh, count)
    rows += richesses_rows(count)
    rows += table_presses.rows(fresh, count, TIMING, Driver)
    return rows


def richesses_rows(count):
    """Richesses du Monde with the device's dice: a landing with royalties and no purchase,
    a country purchase of two titles on the checklist, an auction lot with two bids on the
    seat buttons, a free sale with an overbid accepted on the seller's button."""
    from engines.core.chance import chance_rng
    from engines.richesses.actions import Buy, Done, First, Lots, Plaques, Roll
    from engines.richesses.game import Richesses

    rows = []

    def box(game):
        c = Controller(None, timing=TIMING, seat_buttons=(0, 1, 2))
        c.attach(Session(game))
        return Driver(c)

    def new_game(at=None, seed=1):
        game = Richesses({"game": "richesses", "players": list(PLAYERS), "seed": seed, "settings": {"dice": "device"}})
        items = [p for p in game.box.productions for _ in range(2)]
        squares = list(game.box.plaque_squares())
        for square, production in (at or {}).items():   # this production's plaque on this square
            i, j = squares.index(square), max(k for k, p in enumerate(items) if p == production)
            items[i], items[j] = items[j], items[i]
        game.apply(Plaques(tuple(items)))
        game.apply(First(0))
        return game

    # Cid lands where Ana's silver (35 %) is owed royalties: the device's dice, then "nothing".
    for seed in range(1, 50):
        probe = new_game(seed=seed)
        dice = probe.fill_chance(Roll(), chance_rng(seed, 6))     # Cid's dice: the seventh action
        square = dice.white + dice.red
        if dice.white != dice.red and square in probe.box.plaque_squares() and square != 3:
            break
    game = new_game({square: "ARGENT"}, seed)
    for act in (Roll(1, 2), Buy(0, ("ARGENT-CANADA",)), Roll(1, 2), Done(1)):
        game.apply(act)
    d = box(game)
    before = game.cash(0)
    op, seat = count(d, lambda d: (d.key("ok"), d.key("ok") if d.c.session.decision().actor == 2 else None))
    assert game.cash(0) == before + game.box.productions["ARGENT"].royalty(35)     # Ana's royalties
    rows.append(("Richesses: a landing with royalties, nothing bought (device dice)", op, seat,
                 "OK on the dice, OK on \"nothing\""))

    game = new_game()
    game.apply(Roll(1, 2))
    d = box(game)

    def purchase(d):
        d.choose("Acheter").key("ok").key("down").key("ok")
        d.choose("Valider")
    op, seat = count(d, purchase)
    assert len(game.s.deeds.owned_by(0)) == 2
    rows.append(("Richesses: a country purchase of 2 titles (checklist)", op, seat, "Acheter, tick, tick, Valider"))

    game = new_game()
    for act in (Roll(1, 2), Buy(0, ("ARGENT-CANADA",)), Roll(2, 3), Done(1), Roll(3, 3)):
        game.apply(act)
    game.apply(game.ACTIONS.parse('set_pawn Ana 4 1 "a world tour"', game.players))
    game.apply(Roll(6, 3))
    game.apply(Lots(0, ("ARGENT",)))
    d = box(game)
    op, seat = count(d, lambda d: (d.seat(2).seat(3).wait(7.1)))
    assert game.trusts(2) == ("ARGENT",)
    rows.append(("Richesses: an auction lot, 2 bids on the seat buttons (7 s of silence sells)", op, seat,
                 "each bidder on their seat button"))

    game = new_game()
    game.apply(Roll(1, 2))
    game.apply(Buy(0, ("ARGENT-CANADA",)))
    d = box(game)

    def sale(d):
        d.key("ok", long=True)
        d.choose("Vente libre").choose("Ben").key("ok").key("ok")
        d.seat(3).wait(7.1).wait(1.0).seat(1)      # the window closed, its result shown: Ana accepts
    op, seat = count(d, sale)
    assert game.trusts(2) == ("ARGENT",)
    rows.append(("Richesses: a free sale with an overbid, accepted on the seller's button", op, seat,
                 "menu, free sale, buyer, amount, OK; overbid and acceptance on seat buttons"))
    rows += richesses_mode_rows(count, box)
    return rows


def richesses_mode_rows(count, box):
    """Richesses du Monde's two table modes: a box file without the square order (RM8: the
    operator says where the pawn landed), and strict_claims (RM2: a holder claims on his
    seat button)."""
    import tempfile
    from engines.richesses.actions import First, Land, Roll
    from engines.richesses.box import DEFAULT_BOX
    from engines.richesses.game import Richesses

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "noorder.toml"
        path.write_text(DEFAULT_BOX.read_text(encoding="utf-8").partition("[[squares]]")[0], encoding="utf-8")

        def no_order(*acts):
            game = Richesses({"game": "richesses", "players": list(PLAYERS), "seed": 1, "box": str(path),
                              "settings": {"dice": "device"}})
            game.apply(First(0))
            for act in acts:
                game.apply(act)
            return game

        def landing(d, continent, country):
            d.key("ok")                                    # the device's dice
            d.choose(continent)
            if d.c.session.decision().prompt == "prompt.rm.land":
                d.choose(country)
            d.key("ok")                                    # "Rien", where the menu starts
        # every country of the box once: the presses of the shortest way to each, averaged
        counts = []
        probe = no_order()
        for cid, (name, continent) in probe.box.countries.items():
            d = box(no_order())
            from firmware.texts import t
            op, seat = count(d, lambda d: landing(d, t("rm.continent." + continent, "fr"), name))
            assert d.c.session.game.log[-2] == Land(0, cid) and d.c.session.decision().params["player"] == "Ben"
            counts.append(op)
        rows.append(("Richesses without the square order: a country landing, nothing owed, nothing bought "
                     f"(device dice; mean of the {len(counts)} countries, {min(counts)} to {max(counts)})",
                     round(sum(counts) / len(counts), 1), 0, "OK on the dice, continent, country, OK on \"nothing\""))

        # a landing where the lander owes royalties: the plaque asked among the owed productions
        game = no_order(Roll(1, 2), Land(0, "CANADA"), game_buy("ARGENT-CANADA"))
        d = box(game)
        op, seat = count(d, lambda d: (d.key("ok"), d.choose("Amérique"), d.choose("Canada"), d.choose("Argent"),
                                       d.key("ok")))
        assert game.log[-2] == Land(1, "CANADA", "ARGENT")
        rows.append(("Richesses without the square order: Canada, its silver plaque owed to Ana, nothing bought",
                     op, seat, "OK on the dice, continent, country, plaque (only those owed), OK on \"nothing\""))

    # strict_claims: Ben's device dice land him on the silver plaque; Ana claims on her seat button
    from engines.core.chance import chance_rng
    from engines.richesses.actions import Plaques

    def strict(seed, square=None):
        game = Richesses({"game": "richesses", "players": list(PLAYERS), "seed": seed,
                          "settings": {"dice": "device", "strict_claims": True}})
        items = [p for p in game.box.productions for _ in range(2)]
        if square is not None:
            squares = list(game.box.plaque_squares())
            i, j = squares.index(square), max(k for k, p in enumerate(items) if p == "ARGENT")
            items[i], items[j] = items[j], items[i]
        for act in (Plaques(tuple(items)), First(0), Roll(1, 2), game_buy("ARGENT-CANADA")):
            game.apply(act)
        return game
    for seed in range(1, 50):
        probe = strict(seed)
        dice = probe.fill_chance(Roll(), chance_rng(seed, 4))     # Ben's dice: the fifth action
        square = dice.white + dice.red
        if dice.white != dice.red and square in probe.box.plaque_squares() and square != 3:
            break
    game = strict(seed, square)
    d = box(game)
    op, seat = count(d, lambda d: (d.key("ok"), d.seat(1), d.key("ok") if d.c.session.decision().actor == 1 else None))
    assert [a.kind for a in game.log].count("claim") == 1, game.log[-4:]
    rows.append(("Richesses with strict_claims: a landing on a plaque owed to Ana, her claim, nothing bought", op, seat,
                 "OK on the dice, Ana's seat button, OK on \"nothing\""))
    return rows


def game_buy(title):
    from engines.richesses.actions import Buy
    return Buy(0, (title,))


@contextmanager
def box_without_board():
    """The shipped box file without its `[board]` table, as the default box file for what
    runs inside (the table, as an owner who deletes it has it: the square is asked)."""
    import engines.maxibourse.box as box_module

    saved = box_module.DEFAULT_BOX
    head = saved.read_text(encoding="utf-8").split("\n[board]\n")[0] + "\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "box-without-board.toml"
        path.write_text(head, encoding="utf-8")
        box_module.DEFAULT_BOX = path
        try:
            yield path
        finally:
            box_module.DEFAULT_BOX = saved


def board_rows(count):
    """A Titre purchase au cours with the shipped board (on by default): the box knows the
    square."""
    rows = []
    for seats, how in (((0, 1, 2), "Titre entry, au cours, her seat button once, settle"),
                       ((), "Titre entry, au cours, 1 lot (the list starts there), settle")):
        c = Controller(None, timing=TIMING, seat_buttons=seats)
        c.attach(Session(started_game()))
        assert c.session.game.box.board, "the shipped box file has its board"
        d = Driver(c)
        c.apply(c.session.actions.classes["roll"](d1=1, d2=2))
        c.flow.sync()

        held = c.session.game.s.lots.of("DEUTSCHE", 0)

        def titre(d, with_seats=bool(seats), held=held):
            d.choose("Case Titre").choose("Au cours")
            if with_seats:
                d.seat(1).wait(0.6)
            else:
                d.key("ok")
            d.choose("Régler")
            assert d.c.session.game.s.lots.of("DEUTSCHE", 0) == held + 1
        op, seat = count(d, titre)
        rows.append(("Titre purchase au cours with a board in the box file (the box knows DEUTSCHE)",
                     op, seat, how))
    # The same with the next speaker's press settling it (their first press, also their answer).
    c = Controller(None, timing=TIMING, seat_buttons=(0, 1, 2))
    c.attach(Session(started_game()))
    d = Driver(c)
    c.apply(c.session.actions.classes["roll"](d1=1, d2=2))
    c.flow.sync()
    held = c.session.game.s.lots.of("DEUTSCHE", 0)

    def titre_then_next(d):
        d.choose("Case Titre").choose("Au cours")
        d.seat(1).wait(0.6)
        d.seat(2)
        assert d.c.session.game.s.lots.of("DEUTSCHE", 0) == held + 1
    op, seat = count(d, titre_then_next)
    rows.append(("Titre purchase au cours with a board in the box file (the box knows DEUTSCHE)", op, seat,
                 "Titre entry, au cours, her seat button once; the next speaker's first press settles it"))
    return rows


# The picks of a whole Junior setup (3 players, 5 lots each), as tests/firmware/test_e2e_maxibourse.py plays them.
JUNIOR_PICKS = [("Banques", "BARCLAYS", "CHASE", "DEUTSCHE"), ("Énergie", "BP", "ELF", "ESSO"),
                ("Automobile", "LEYLAND", "FIAT", "GM"), ("Alimentaire", "BSN", "COCA-COLA", "NESTLE"),
                ("Cosmétiques", "COLGATE", "LOREAL", "UNILEVER")]


def junior_setup(d, dealt=False):
    """From the first setup screen to the first turn: game, format, players, names, rounds,
    the unverified box file, the summary ("Jouer", or "Donner" for dealt picks), the 15
    picks (or the deal), who starts."""
    d.choose("Maxi Bourse").choose("Junior").choose("3 joueurs").choose("Couleurs").choose("Sans limite")
    d.choose("Continuer")
    d.choose("Donner" if dealt else "Jouer")
    finish_setup(d, dealt)


def finish_setup(d, dealt):
    if dealt:
        d.key("ok")                                             # the deal, shown, one OK
    else:
        for sector, *companies in JUNIOR_PICKS:
            for company in companies:
                d.choose(sector).choose(company)
    d.choose("Rouge")
    assert d.c.session.decision().prompt == "prompt.mb.turn_start"


def setup_rows():
    """A whole Junior setup of 3 players on the box: picks chosen, dealt, and the previous
    game's table offered first."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for dealt, how in ((False, "setup lists, 15 picks by sector and company, who starts"),
                           (True, "setup lists, the summary's \"Donner\" (picks dealt), the deal (one OK), "
                                  "who starts")):
            with Journal(Path(folder) / f"setup-{dealt}.sqlite") as journal:
                c = Controller(journal, timing=TIMING, seed_source=lambda: 1)
                c.boot(0.0)
                d = Driver(c)
                junior_setup(d, dealt)
                rows.append((f"Whole Junior setup, 3 players, picks {'dealt' if dealt else 'chosen'}",
                             d.operator, d.seat_presses, how))
                if dealt:               # the next game: the same table, offered first
                    d.key("ok", long=True).choose("Nouvelle partie").choose("Oui").choose("Nouvelle partie")
                    before = d.operator
                    d.choose("Même table").choose("Continuer")   # the box file, still unverified
                    d.choose("Jouer")
                    finish_setup(d, True)
                    rows.append(("Whole Junior setup of the same table as the previous game (picks dealt)",
                                 d.operator - before, 0,
                                 "\"Même table\" (first), unverified box: Continuer, Jouer, the deal, who starts"))
    return rows


def dividends_rows(fresh, count):
    """Dividends: the yearly dice with the device's dice, the turn-order auction on the
    seat buttons, the event tile (drawn by the device, or chosen from the cup)."""
    import random

    from engines.dividends.game import Dividends
    from engines.dividends.random_play import random_game

    rows = []

    def new_game(dice):
        return Dividends({"game": "dividends", "players": list(PLAYERS), "seed": 1, "settings": {"dice": dice}})

    d = fresh(game=new_game("device"))
    op, seat = count(d, lambda d: d.key("ok"))
    assert d.c.session.game.log[-1].kind == "dice"
    rows.append(("Dividends: the year's dice with device dice (outcome on screen)", op, seat, "OK"))

    # Three bidders: 50, 100, 150 on the first token (silence sells), 50, 100 on the second;
    # the last token goes to the one left.
    def auction(d):
        d.seat(1).seat(2).seat(3).wait(TIMING.silence_s + 0.1)
        d.seat(1).seat(2).wait(TIMING.silence_s + 0.1)
        assert d.c.session.game.s.tokens == [3, 2, 1]
    op, seat = count(d, auction)
    rows.append(("Dividends: turn-order auction of 3 bidders (3 bids, then 2; silence sells)", op, seat,
                 "each bidder on their seat button"))

    for dice, how, run in (("device", "OK", lambda d: d.key("ok")),
                           ("physical", "tile list, OK (Buy In)", lambda d: d.choose("Buy In").key("ok"))):
        header, actions, _ = random_game(random.Random(7), players=len(PLAYERS), verify=False,
                                         settings={"dice": dice}, header={**new_game(dice).header})
        game = Dividends(header)
        for act in actions:
            if game.decision().prompt == "prompt.dv.event":
                break
            game.apply(act)
        d = fresh(game=game)
        op, seat = count(d, run)
        assert game.log[-1].kind == "event"
        what = "drawn by the device" if dice == "device" else "chosen from the cup"
        rows.append((f"Dividends: the event tile {what} (outcome on screen)", op, seat, how))
    return rows


def avendre_rows(fresh, count):
    """A Vendre!: a common turn (the device's die, a blue square, buy, a card with no
    effect) with the box file's board and without a board, and a shop auction on the seat
    buttons. The seed is the first whose die lands Ana on a blue square she can buy."""
    from engines.avendre.game import AVendre
    from engines.core.errors import IllegalAction

    rows = []

    def new_game(seed, **settings):
        game = AVendre({"game": "avendre", "players": list(PLAYERS), "seed": seed,
                        "settings": {"dice": "device", **settings}})
        game.apply(game.ACTIONS.parse(f"first {PLAYERS[0]}", game.players))
        return game

    def turn_on_blue(d):
        d.key("ok")                                          # the device's die, shown
        if d.c.session.decision().prompt != "prompt.av.blue":
            raise IllegalAction("error.av.waiting", player="-")   # another square: next seed
        d.choose("Acheter").key("ok")                        # buy, confirmed
        d.choose("Carte sans effet")

    for seed in range(1, 50):
        d = fresh(game=new_game(seed))
        try:
            op, seat = count(d, turn_on_blue)
        except IllegalAction:
            continue
        assert d.c.session.game.log[-1].kind == "card_none"
        rows.append(("A Vendre!: a turn with a board (device die, blue square, buy, card with no effect)", op, seat,
                     "OK, buy, OK, card"))
        break

    def turn_no_board(read_before):
        """The die, the title read on the square (not when the square was read before), the
        purchase at the PA read, a card with no effect."""
        def run(d):
            from engines.avendre.random_play import TEMPLATE
            d.key("ok")                                      # the device's die, shown
            square = TEMPLATE.square(d.c.session.game.s.track.positions[d.c.session.decision().actor])
            title = TEMPLATE.titles[square.title]
            if not read_before:
                enter_amount(d, title.number)                # the title number read on the square
            d.choose("Acheter")
            enter_amount(d, title.pa)                        # its PA, with the purchase
            d.choose("Carte sans effet")
        return run

    from engines.avendre.actions import Roll
    from engines.avendre.random_play import TEMPLATE
    from engines.core.chance import chance_rng

    def die(game):
        return game.fill_chance(Roll(), chance_rng(game.seed, len(game.log))).die

    for read_before in (False, True):
        for seed in range(1, 400):
            game = new_game(seed, board="none")
            d1 = die(game)
            square = TEMPLATE.square(d1)
            if square.colour != "blue":
                continue
            if read_before:   # Ana reads the square and pays the tax; Ben's die must bring him there too
                title = TEMPLATE.titles[square.title]
                for line in (f"roll {d1}", f"square {title.number}", f"tax {PLAYERS[0]} {title.r}",
                             f"card_none {PLAYERS[0]}"):
                    game.apply(game.ACTIONS.parse(line, game.players))
                if die(game) != d1:
                    continue
            d = fresh(game=game)
            op, seat = count(d, turn_no_board(read_before))
            assert d.c.session.game.log[-1].kind == "card_none" and d.c.session.game.owner(str(square.title)) >= 0
            if read_before:
                rows.append(("A Vendre!: the same turn without a board (the square read before, by a player who "
                             "paid the tax: its PA with the purchase)", op, seat, "OK, Acheter, PA by banknotes, card (8 "
                             "before squares were remembered: the title's number asked at every landing)"))
            else:
                n, mean, most, within = no_board_spread()
                rows.append(("A Vendre!: the same turn without a board (a square reached for the first time: the "
                             "title's number, then its PA with the purchase)", op, seat,
                             f"OK, title (starts on the likeliest number), Acheter, PA by banknotes, card; over the "
                             f"{n} such purchases of 10 random games: {mean:.1f} on average, {within} of them in 10 or "
                             f"fewer, at most {most} (26 when every value was read at the first landing: number, colour, PA and R at the first landing)"))
            break

    # The debtor's shop on the seat buttons: two bidders, then the silence sells.
    game = new_game(1)
    for line in (f'give_title {PLAYERS[0]} 1 "bench"', f'adjust_cash {PLAYERS[0]} -5100 "bench"',
                 f"roll 3", f"auction_shop {PLAYERS[0]} 1"):
        game.apply(game.ACTIONS.parse(line, game.players))
    d = fresh(game=game)
    op, seat = count(d, lambda d: d.seat(2).seat(3).wait(TIMING.silence_s + 0.1))
    assert d.c.session.game.owner("1") == 2
    rows.append(("A Vendre!: a shop auction of 2 bidders (2 bids; silence sells)", op, seat,
                 "each bidder on their seat button"))
    return rows


def enter_amount(d, target):
    """An amount question answered by its shortest key sequence: Up/Down by the current
    step, a long Up/Down to the next step, OK (a breadth-first search over value and step)."""
    from collections import deque
    frame = d.c.stack[-1]
    q = frame.question(d.c)
    start = (frame.amt if frame.amt is not None else q.start, frame.si)
    moves = {start: []}
    todo = deque([start])
    while todo:
        value, si = todo.popleft()
        if value == target:
            break
        step = q.steps[si]
        for key, nxt in (("up", (min(q.hi, value + step), si)), ("down", (max(q.lo, value - step), si)),
                         ("long_up", (value, min(si + 1, len(q.steps) - 1))),
                         ("long_down", (value, max(si - 1, 0)))):
            if nxt not in moves:
                moves[nxt] = moves[(value, si)] + [key]
                todo.append(nxt)
    else:
        raise AssertionError(f"{target} cannot be entered on {q}")
    for key in moves[(value, si)]:
        d.key(key.removeprefix("long_"), long=key.startswith("long_"))
    d.key("ok")


def no_board_spread(games=10):
    """(purchases, average, most) operator presses of the first-meeting turn without a
    board, over every purchase of a title met for the first time in `games` random
    4-player games (engines/avendre/random_play.py, the template read as the table's board):
    each entered on the controller from the square's question, as the operator would, plus
    the OK on the device's die. The squares come in the order the pawns reach them, so the
    title question starts wherever the readings so far place it."""
    from engines.avendre.game import AVendre
    from engines.avendre.random_play import random_game
    costs = []
    for seed in range(games):
        game = random_game(players=4, seed=seed, settings={"board": "none", "dice": "device"}, verify=False)
        for i, act in enumerate(game.log[:-1]):
            after = game.log[i + 1]
            if act.kind != "learn_square" or not act.title or after.kind != "buy_at":
                continue
            trial = AVendre.replay(game.header, game.log[:i], checked=False)
            c = Controller(None, timing=TIMING, seat_buttons=())
            c.attach(Session(trial))
            d = Driver(c)
            enter_amount(d, act.title)
            d.choose("Acheter")
            enter_amount(d, after.pa)
            d.choose("Carte sans effet")
            assert trial.log[-1].kind == "card_none" and trial.log[-2] == after
            costs.append(d.operator + 1)                  # and the OK on the device's die
    return len(costs), sum(costs) / len(costs), max(costs), sum(c <= 10 for c in costs)


def company_choice_cost():
    """Average presses to reach a company: sector then company, against one list with
    sector headers (Up/Down wrap around; +1 OK per list)."""
    from engines.maxibourse.box import load_box

    box = load_box()
    sectors = [s.companies for s in box.sectors]
    two_level, flat = [], []
    flat_list = []
    for companies in sectors:
        flat_list.append(None)                     # the sector's header line
        flat_list.extend(companies)
    n = len(flat_list)
    for si, companies in enumerate(sectors):
        for ci, company in enumerate(companies):
            two_level.append(min(si, len(sectors) - si) + 1 + min(ci, len(companies) - ci) + 1)
            k = flat_list.index(company)
            flat.append(min(k, n - k) + 1)
    return statistics.mean(two_level), max(two_level), statistics.mean(flat), max(flat), len(flat)


# -------------------------------------------------------------------- report
def ms(seconds):
    return f"{seconds * 1000:.2f} ms" if seconds >= 0.001 else f"{seconds * 1e6:.0f} µs"


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]




def best_run(lats: list[dict]) -> dict:
    """The best of several `press_latency` runs: for each kind of press, the presses of the
    run whose p99 was lowest; each floor and part, the lowest of the runs' (a loaded machine
    only ever adds time)."""
    best = {}
    for key, value in lats[0].items():
        if isinstance(value, list) and value and not isinstance(value[0], int):
            best[key] = min((lat[key] for lat in lats), key=lambda values: pct(values, 0.99))
        elif isinstance(value, float):
            best[key] = min(lat[key] for lat in lats)
        else:
            best[key] = value
    return best


def target_figures(lat, starts, sd, resume_exit) -> dict:
    """The figures bench/targets.py sets beside PRODUCT.md's targets."""
    med = statistics.median
    fresh, resume = med(starts["fresh"]), med(starts["resume"])
    applied_p99 = pct(lat["applied"], 0.99)
    figures = {"menu_ratio": med(lat["menu"]) / lat["menu_floor"], "applied_p99_ms": applied_p99 * 1000,
               "pi_panel_ms": applied_p99 * 1000 * PI_FACTOR + i2c_ms(med(lat["applied_bus"])),
               "start_ratio": fresh / med(starts["floor"]), "resume_ratio": resume / fresh,
               "pi_start_s": fresh * PI_FACTOR, "peak_mib": resume_exit.get("VmHWM", 0) / 1024}
    if sd is not None:
        figures.update(action_syncs=sd["action_syncs"], menu_syncs=sd["menu_syncs"],
                       hour_mib=600 * sd["action_bytes"] / 1024 / 1024)
    return figures


def ratio_row(label, value, floor, floor_label):
    r = value / floor if floor else float("nan")
    return f"| {label} | {ms(value)} | {floor_label}: {ms(floor)} | {r:.2f}x |"


def presses_doc() -> str:
    """docs/presses.md: the presses table (with the counts at commit 1515e6e) and the company choice."""
    rows = presses_table()
    two_avg, two_max, flat_avg, flat_max, n_companies = company_choice_cost()
    presses = [
        "# Presses for the common actions", "",
        "Counted by `bench/press_bench.py`, which enters each action on the controller with the "
        "shortest key sequence (Up/Down wrap around), reading the screens as a person does. "
        "Operator presses are the four buttons (a long press counts one); seat presses are the "
        "players' own buttons. Regenerate with `.venv/bin/python -m bench.press_bench --presses` "
        "(this page only; without `--presses` the timings of docs/performance.md too).", "",
        "The column \"before\" gives the count at commit 1515e6e, before the presses were cut, where "
        "it changed; a board in the box file is new (the shipped file has one, "
        "marked unverified): its row compares with the Titre purchase without one.", "",
        "| action | operator presses | seat presses | before | how |", "|---|---:|---:|---:|---|",
    ]
    seen = {}
    for action, op, seat, how in rows:
        index = seen[action] = seen.get(action, -1) + 1
        presses.append(f"| {action} | {op} | {seat} | {before_of(action, index)} | {how} |")
    presses += [
        "", "## Choosing a company", "",
        f"The {n_companies} companies are chosen in two short lists, sector then company. Reaching a "
        f"company (Up/Down wrapping, +1 OK per list) takes {two_avg:.1f} presses on average and "
        f"{two_max} at most; one long list with a header per sector would take {flat_avg:.1f} on "
        f"average and {flat_max} at most. The counts above use SONY (Informatique, 8th of 10 "
        "sectors; 5th of 5 companies), which the wrap-around reaches from the bottom.", "",
        "Other choices that save presses: the square menu puts \"end of turn\" first once "
        "something happened this turn; a card's player defaults to the one whose turn it is; "
        "a settlement, a payday and \"who starts\" with device dice are one OK; the dice can be "
        "rolled by the box (`game.dice = \"device\"`: one press instead of about five); with a "
        "`[board]` in the box file the square menu's Titre entry offers the square the pawn reached "
        "(au cours first); the starting lots can be dealt by the box (the summary's \"Donner\", or "
        "`picks = \"dealt\"`: one OK for all of them, see the setup rows); the previous game's table "
        "is the setup's first entry.", "",
    ]
    return "\n".join(presses)


def run(journal_dir: Path, runs: int = 5):
    from bench.host import filesystem, machine
    from bench.randomgame import long_game
    from engines.dividends.random_play import random_game as dv_random_game

    journal_dir.mkdir(parents=True, exist_ok=True)
    lat = best_run([press_latency(journal_dir) for _ in range(runs)])
    mem = press_latency(journal_dir, moves=200, actions=30, memory=True)
    n_long, undo_long, long_mb = undo_long_game(journal_dir)
    mb_board = board_render(long_mb)
    import random
    _, _, dv_game = dv_random_game(random.Random(2026), players=6, verify=False)
    dv_board = board_render(dv_game)
    with tempfile.TemporaryDirectory() as fresh_dir, tempfile.TemporaryDirectory() as resume_dir:
        _, long_actions = long_journal(Path(resume_dir))
        n_resume = len(long_actions)
        replay_s = replay_from_journal(Path(resume_dir) / "journal.sqlite")
        starts, notes = start_figures(Path(fresh_dir), Path(resume_dir))
    fresh_times, resume_times = starts["fresh"], starts["resume"]
    floor_import, bare = statistics.median(starts["floor"]), statistics.median(starts["bare"])
    fresh_first, fresh_exit = notes["fresh_first"], notes["fresh_exit"]
    resume_first, resume_exit = notes["resume_first"], notes["resume_exit"]
    sd = sd_cost(journal_dir)
    m = machine()
    fs = filesystem(journal_dir)
    med = statistics.median
    fresh, resume = med(fresh_times), med(resume_times)
    menu_bus = med(lat["menu_bus"])
    kib = lambda v: f"{v / 1024:.1f} MiB"  # noqa: E731 (VmHWM is in KiB)

    lines = [
        SECTION, "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['system']}, {m['python']}; run on {m['date']}. "
        f"Journal on {fs}. Presses: for each kind, the best of {runs} runs (lowest p99); floors: the lowest "
        "of those runs'. Each figure beside its floor, measured in the same run; memory in separate runs "
        "(tracemalloc slows the timed loops).", "",
        "| figure | measured | floor | ratio |", "|---|---:|---:|---:|",
        ratio_row("menu press -> frame (median)", med(lat["menu"]), lat["menu_floor"],
                  "same frame, Pillow alone"),
        ratio_row("applying press -> frame (p99)", pct(lat["applied"], 0.99),
                  lat["applied_frame_floor"] + lat["fdatasync"], "frame, Pillow alone + one fdatasync"),
        ratio_row(f"800x480 board, Maxi Bourse ({n_long} actions)", mb_board[0], mb_board[1],
                  "Pillow alone"),
        ratio_row(f"800x480 board, Dividends", dv_board[0], dv_board[1], "Pillow alone"),
        ratio_row("start -> first frame (fresh, board attached)", fresh, floor_import, "imports alone"),
        ratio_row(f"resume of a {n_resume}-action game -> first frame (paired with a fresh start: median "
                  f"{med(a / b for a, b in zip(resume_times, fresh_times)):.2f}x)", resume, fresh, "fresh start"),
        ratio_row(f"replay of that game from its journal (open, read, replay; its box file read as the box "
                  f"reads it, from the parsed copy beside the journal)", replay_s, fresh, "fresh start"),
        f"| peak RSS of `corbeille run` resuming that game, board drawn (VmHWM, read by the child) "
        f"| {kib(resume_exit.get('VmHWM', 0))} | fresh start: {kib(fresh_exit.get('VmHWM', 0))} | |",
        f"| I2C bytes per menu move, 128x64 SSD1306 (median; max {max(lat['menu_bus'])}) | {menu_bus:.0f} B "
        f"| whole frame (luma): {lat['full_frame_wire']} B | {menu_bus / lat['full_frame_wire']:.2f}x |",
        "",
        "Floors: *Pillow alone* draws the frame's recorded texts and shapes with one ImageDraw, the 6x9 "
        "font as a Pillow bitmap font (bench/frames.py; its pixels checked equal to the renderer's). "
        "From the renderer's ready-made text masks instead it takes "
        f"{ms(lat['menu_blit'])} for the menu frame and {ms(mb_board[2])} for the Maxi Bourse board. "
        f"*One fdatasync*: {ms(lat['fdatasync'])} for 135 bytes on the journal's filesystem. "
        f"*Imports alone*: a fresh interpreter importing the {len(fresh_first['modules'])} modules the "
        f"child had loaded at its first frame (a bare interpreter starts in {ms(bare)}).", "",
        f"A menu move, each part timed alone: drawing its frame {ms(lat['menu_render'])}, handing it to the "
        f"SSD1306 driver {ms(lat['menu_show'])} (only the changed pages sent, {i2c_ms(menu_bus):.1f} ms on the "
        f"bus at 400 kHz), the controller building the next Screen {ms(lat['menu_controller'])}.", "",
        "Press -> operator frame handed to the display driver (luma's SSD1306 on a recording I2C bus, "
        "only the changed pages sent: drivers/partial_pages.py), through the real loop (`App.step`): "
        "controller, engine, journal commit, renderer; the 800x480 e-ink board (QuotationBoard and "
        "its refresh thread, stand-in panel) is attached and redrawn after each action.", "",
        "| press | count | median | p99 | max | I2C bytes (median) |", "|---|---:|---:|---:|---:|---:|",
    ]
    for label, values, wire in (("menu move (Up/Down)", lat["menu"], lat["menu_bus"]),
                                ("OK applying an action (engine + journal fsync + frame)", lat["applied"],
                                 lat["applied_bus"]),
                                ("undo (long Back, OK): replay of ~%d actions" % lat["actions_in_game"], lat["undo"],
                                 None),
                                (f"undo at the end of a {n_long}-action game (replay)", undo_long, None)):
        lines.append(f"| {label} | {len(values)} | {ms(med(values))} | {ms(pct(values, 0.99))} "
                     f"| {ms(max(values))} | {'' if wire is None else f'{med(wire):.0f}'} |")
    lines += [
        "",
        f"Whole step (journal commit with the UI state, frame, board, lights) for an applying press: median "
        f"{ms(med(lat['applied_total']))}, p99 {ms(pct(lat['applied_total'], 0.99))}; for a menu move: median "
        f"{ms(med(lat['menu_total']))}, p99 {ms(pct(lat['menu_total'], 0.99))}.",
    ]
    if sd is not None:
        per_action_presses = sd["action_presses"]
        hour_syncs = 600 * sd["action_syncs"]
        hour_bytes = 600 * sd["action_bytes"]
        lines += [
            "",
            f"SD card (bench/sync_child.py under strace; storage bytes from the child's /proc/self/io; "
            f"{sd['count']} of each, the set-up's own calls subtracted):", "",
            "| what | fdatasync + fsync | storage writes |", "|---|---:|---:|",
            f"| a menu move (Up/Down) | {sd['menu_syncs']:.2f} | {sd['menu_bytes'] / 1024:.1f} KiB |",
            f"| an action entered: Carte : recevoir, its {per_action_presses:.1f} presses included "
            f"| {sd['action_syncs']:.2f} | {sd['action_bytes'] / 1024:.1f} KiB |",
            f"| an hour at 600 such actions | {hour_syncs:,.0f} | {hour_bytes / 1024 / 1024:.1f} MiB |",
        ]
    lines += [
        "",
        "Process start -> first frame: `corbeille run` (bench/start_child.py: the real command line; "
        "mock GPIO pins, dummy operator display, `board.type = \"eink\"` with drivers/standin/epaper as "
        "the Waveshare package), from spawn to its READY=1:", "",
        "| start | runs | median | max | modules at first frame | VmHWM at first frame | VmHWM at exit |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| fresh state (setup screen) | {len(fresh_times)} | {ms(fresh)} | {ms(max(fresh_times))} "
        f"| {len(fresh_first['modules'])} | {kib(fresh_first.get('VmHWM', 0))} | {kib(fresh_exit.get('VmHWM', 0))} |",
        f"| resuming a {n_resume}-action game (its journal snapshot, then the actions after it) | {len(resume_times)} | {ms(resume)} "
        f"| {ms(max(resume_times))} | {len(resume_first['modules'])} | {kib(resume_first.get('VmHWM', 0))} "
        f"| {kib(resume_exit.get('VmHWM', 0))} |",
        "",
        f"Memory of the press loop (a separate run under tracemalloc, {len(mem['menu']) + len(mem['applied'])} "
        f"presses): peak {mem['tracemalloc_peak'] / 1024:.0f} KiB.", "",
        "Presses for the common actions: see [presses.md](presses.md).", "",
        "Re-run with `.venv/bin/python -m bench.press_bench` (`--no-write` to only print).", "",
    ]
    box_text = "\n".join(lines)
    figures = target_figures(lat, starts, sd, resume_exit)
    return box_text, presses_doc(), targets.section(figures, runs)



def positive(text: str) -> int:
    """--runs: a whole number of runs, at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of runs, 1 or more")
    return int(text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.press_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--journal-dir", type=Path, default=ROOT / "bench" / "results",
                        help="where journal files go (default: bench/results)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave docs/ alone")
    parser.add_argument("--presses", action="store_true", help="only the presses (docs/presses.md): no timing")
    parser.add_argument("--runs", type=positive, default=5,
                        help="runs of the press loop; each press figure is the best of them (default 5)")
    args = parser.parse_args(argv)
    if args.presses:
        presses = presses_doc()
        print(presses)
        if not args.no_write:
            PRESSES_DOC.write_text(presses.rstrip("\n") + "\n", encoding="utf-8")
            print("written to docs/presses.md")
        return 0
    box_text, presses, targets_text = run(args.journal_dir, args.runs)
    print(targets_text)
    print(box_text)
    print(presses)
    if not args.no_write:
        write_section(targets.SECTION, targets_text)
        write_section(SECTION, box_text)
        PRESSES_DOC.write_text(presses.rstrip("\n") + "\n", encoding="utf-8")
        print(f"written to docs/performance.md ({targets.SECTION[3:]}, {SECTION[3:]}) and docs/presses.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
