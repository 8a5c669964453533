"""The box's benchmark: press -> frame, process start -> first frame, memory, and presses.

    .venv/bin/python -m bench.press_bench               # writes docs/benchmarks.md (## Box)
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
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from drivers.display import DummyDisplay
from drivers.events import InputEvent
from bench.doc import write_section
from engines.maxibourse.game import MaxiBourse
from firmware.app import App, Hardware
from firmware.controller import Controller, Timing
from firmware.journal import Journal
from firmware.session import Session

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
PRESSES_DOC = ROOT / "docs" / "presses.md"
SECTION = "## Box"
PLAYERS = ["Ana", "Ben", "Cid"]
TIMING = Timing(speaking_window_s=3.0, press_gap_s=0.5, auction_step_s=1.0, auction_lead_s=1.0)


# ----------------------------------------------------------------- helpers
def started_game(players=PLAYERS, **settings):
    """A Junior game past its starting picks, as the engine deals them (first choices)."""
    game = MaxiBourse({"game": "maxibourse", "format": "junior", "players": list(players), "seed": 1,
                       "settings": settings})
    while game.decision().prompt == "prompt.pick":
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


# ------------------------------------------------------------ press -> frame
def press_latency(journal_dir: Path, moves: int = 2000, actions: int = 300):
    journal = Journal(journal_dir / "press-bench.sqlite")
    try:
        controller = Controller(journal, timing=TIMING)
        controller.attach(journaled(started_game(), journal))
        display = DummyDisplay((128, 64), "1")
        app = App(controller, Hardware(operator=display), journal=journal)
        app.refresh()
        marks = []
        app.on_frame = lambda: marks.append(time.perf_counter())
        d = Driver(app)

        def timed_key(name, long=False):
            marks.clear()
            start = time.perf_counter()
            d.key(name, long)
            end = time.perf_counter()
            return (marks[0] - start if marks else None), end - start

        d.choose("Entrer les dés").choose("1").choose("2")          # the square menu
        gc.collect()
        tracemalloc.start()
        menu, menu_total = [], []
        for i in range(moves):
            frame, total = timed_key("down" if i % 2 == 0 else "up")
            menu.append(frame)
            menu_total.append(total)
        applied, applied_total, undo = [], [], []
        for i in range(actions):
            d.choose("Carte : recevoir").key("ok")                  # the player: whose turn it is
            frame, total = timed_key("ok")                          # applies: engine + journal commit
            applied.append(frame)
            applied_total.append(total)
            if i % 10 == 9:
                d.key("back", long=True)
                frame, _ = timed_key("ok")
                undo.append(frame)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return {"menu": menu, "menu_total": menu_total, "applied": applied, "applied_total": applied_total,
                "undo": undo, "actions_in_game": len(controller.session.game.log), "tracemalloc_peak": peak,
                "frames": display.frames_sent}
    finally:
        journal.close()


def undo_long_game(journal_dir: Path, target: int = 2000):
    """Press -> frame for an undo (a replay of the whole game) at the end of a long game."""
    from bench.mb_bench import long_game

    _, header, actions, _ = long_game(target)
    path = journal_dir / "undo-bench.sqlite"
    if path.exists():
        path.unlink()
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
        return len(actions), times


# ------------------------------------------------------------ start -> frame
def start_to_ready(state_dir: Path, runs: int = 5):
    """Seconds from spawning `corbeille run` to its READY=1, and the child's peak RSS (KiB)."""
    config = state_dir / "corbeille.toml"
    config.write_text(f'[state]\ndir = "{state_dir}"\n[operator]\ntype = "dummy"\n')
    times, rss = [], []
    for _ in range(runs):
        sock_path = state_dir / "notify.sock"
        if sock_path.exists():
            sock_path.unlink()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(sock_path))
        sock.settimeout(30)
        env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", NOTIFY_SOCKET=str(sock_path), PYTHONPATH=str(ROOT))
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--config", str(config), "run"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while sock.recv(100) != b"READY=1":
                pass
            times.append(time.perf_counter() - start)
        finally:
            proc.send_signal(signal.SIGTERM)
            _, _, usage = os.wait4(proc.pid, 0)
            proc.returncode = 0
            sock.close()
        rss.append(usage.ru_maxrss)
    return times, rss


def long_journal(state_dir: Path, target: int = 2000) -> int:
    from bench.mb_bench import long_game

    _, header, actions, _ = long_game(target)
    with Journal(state_dir / "journal.sqlite") as journal:
        game_id = journal.new_game(header)
        for act in actions:
            journal.append(game_id, act.to_json())
    return len(actions)


# ------------------------------------------------------------------ presses
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
        d.c._sync()
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
        d = after_roll(seats)
        op, seat = count(d, lambda d: titre_au_cours(d, bool(seats)))
        rows.append(("Titre purchase au cours (SONY: sector, company, au cours, 1 000, settle)", op, seat, how))

    # An au-mieux round of three players: 1 000, pass, 2 000, then the settlement.
    def au_mieux(d, with_seats):
        d.c.apply(d.c.session.actions.classes["titre"](square="BP", company="SONY"))
        d.c._sync()
        if with_seats:
            d.seat(1).wait(0.6).wait(3.1).seat(3, 2)
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
        for _ in range(4):
            if with_seats:
                d.wait(3.1)
            else:
                d.choose("Passe")
        assert d.c.session.decision().prompt == "prompt.turn_start"
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
    rows += dividends_rows(fresh, count)
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
                           ("physical", "tile list, OK (BUY-IN)", lambda d: d.choose("BUY-IN").key("ok"))):
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
    return f"{seconds * 1000:.2f} ms"


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run(journal_dir: Path):
    from bench.mb_bench import filesystem, machine

    journal_dir.mkdir(parents=True, exist_ok=True)
    for leftover in journal_dir.glob("press-bench.sqlite*"):
        leftover.unlink()
    lat = press_latency(journal_dir)
    n_long, undo_long = undo_long_game(journal_dir)
    with tempfile.TemporaryDirectory() as tmp:
        fresh_times, fresh_rss = start_to_ready(Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        n_resume = long_journal(Path(tmp))
        resume_times, resume_rss = start_to_ready(Path(tmp))
    rows = presses_table()
    two_avg, two_max, flat_avg, flat_max, n_companies = company_choice_cost()
    m = machine()
    own_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    fs = filesystem(journal_dir)

    lines = [
        SECTION, "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['system']}, {m['python']}; run on {m['date']}. "
        f"Journal on {fs}.", "",
        "Press -> operator frame handed to the display driver (128x64, 1-bit), through the real loop "
        "(`App.step`): controller, engine, journal commit, renderer.", "",
        "| press | count | median | p99 | max |", "|---|---:|---:|---:|---:|",
    ]
    for label, values in (("menu move (Up/Down)", lat["menu"]),
                          ("OK applying an action (engine + journal fsync + frame)", lat["applied"]),
                          ("undo (long Back, OK): replay of ~%d actions" % lat["actions_in_game"], lat["undo"]),
                          (f"undo at the end of a {n_long}-action game (replay)", undo_long)):
        lines.append(f"| {label} | {len(values)} | {ms(statistics.median(values))} | {ms(pct(values, 0.99))} "
                     f"| {ms(max(values))} |")
    lines += [
        "",
        f"Whole step (frame, board, lights, UI state saved with its own commit) for an applying press: median "
        f"{ms(statistics.median(lat['applied_total']))}, p99 {ms(pct(lat['applied_total'], 0.99))}.", "",
        "Process start -> first frame (`corbeille run`, mock pins, dummy display; spawn to READY=1):", "",
        "| start | runs | median | max | child peak RSS |", "|---|---:|---:|---:|---:|",
        f"| fresh state (setup screen) | {len(fresh_times)} | {ms(statistics.median(fresh_times))} | "
        f"{ms(max(fresh_times))} | {max(fresh_rss) / 1024:.1f} MiB |",
        f"| resuming a {n_resume}-action game (journal replay) | {len(resume_times)} | "
        f"{ms(statistics.median(resume_times))} | {ms(max(resume_times))} | {max(resume_rss) / 1024:.1f} MiB |",
        "",
        f"Memory of the press loop: tracemalloc peak {lat['tracemalloc_peak'] / 1024:.0f} KiB over "
        f"{len(lat['menu']) + len(lat['applied'])} presses; the benchmark process's ru_maxrss "
        f"{own_rss / 1024:.1f} MiB (it also holds the {n_long}-action game).", "",
        "Presses for the common actions: see [presses.md](presses.md).", "",
        "Re-run with `.venv/bin/python -m bench.press_bench` (`--no-write` to only print).", "",
    ]
    box_text = "\n".join(lines)

    presses = [
        "# Presses for the common actions", "",
        "Counted by `bench/press_bench.py`, which enters each action on the controller with the "
        "shortest key sequence (Up/Down wrap around), reading the screens as a person does. "
        "Operator presses are the four buttons (a long press counts one); seat presses are the "
        "players' own buttons. Regenerate with `.venv/bin/python -m bench.press_bench`.", "",
        "| action | operator presses | seat presses | how |", "|---|---:|---:|---|",
    ]
    for action, op, seat, how in rows:
        presses.append(f"| {action} | {op} | {seat} | {how} |")
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
        "rolled by the box (`game.dice = \"device\"`: one press instead of about five).", "",
    ]
    return box_text, "\n".join(presses)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.press_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--journal-dir", type=Path, default=ROOT / "bench" / "results",
                        help="where journal files go (default: bench/results)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave docs/ alone")
    args = parser.parse_args(argv)
    box_text, presses = run(args.journal_dir)
    print(box_text)
    print(presses)
    if not args.no_write:
        write_section(SECTION, box_text)
        PRESSES_DOC.write_text(presses.rstrip("\n") + "\n", encoding="utf-8")
        print("written to docs/benchmarks.md (## Box) and docs/presses.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
