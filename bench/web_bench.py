"""The web view's cost and speed (docs/web.md, docs/performance.md "## Web view").

    .venv/bin/python -m bench.web_bench               # writes docs/performance.md (## Web view)
    .venv/bin/python -m bench.web_bench --no-write    # print only

* The box's presses side by side, without and with the web view: the real loop (`App.step`:
  controller, engine, journal with one fsync an action, renderer) plays the same presses
  (menu moves, applied actions) in alternating runs A B A B: A with no web view, B with the
  box's live channel written and `corbeille web` running beside it with ten pages open (ten
  event streams, public and seats', read as a browser reads them).
* Action to page: from the moment an applied press has committed (the step returned) to
  the moment each open stream has received the page showing that action.
* The web process's memory with the ten streams open: its resident set (VmRSS) and peak
  (VmHWM) from /proc, after the actions above.

Nothing here is asserted: benchmarks inform, tests check.
"""
from __future__ import annotations

import argparse
import os
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.doc import write_section
from bench.host import machine
from bench.press_bench import TIMING, Driver, box_displays, journaled, started_game
from firmware import tokens
from firmware.app import App, Hardware
from firmware.channel import LiveChannel, live_path
from firmware.controller import Controller
from firmware.journal import Journal

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## Web view"
PAGES = 10
PORT = 8719


class Streams:
    """Ten event streams read in one thread as browsers read them: each `main` event's
    arrival time is noted with the last action number it shows."""

    def __init__(self, port: int, paths: list[str]):
        self.socks = []
        for path in paths:
            conn = socket.create_connection(("127.0.0.1", port), timeout=10)
            conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            conn.setblocking(False)
            self.socks.append(conn)
        self.seen: dict[int, list[float]] = {}      # action number -> arrival times
        self.buffers = {conn: b"" for conn in self.socks}
        self.stopping = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        marker = b'<li value="'
        while not self.stopping:
            ready, _, _ = select.select(self.socks, [], [], 0.05)
            now = time.perf_counter()
            for conn in ready:
                chunk = conn.recv(1 << 20)
                buffer = self.buffers[conn] + chunk
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    if b"event: main" in event and marker in event:
                        start = event.index(marker) + len(marker)
                        number = int(event[start:event.index(b'"', start)])
                        self.seen.setdefault(number, []).append(now)
                self.buffers[conn] = buffer

    def close(self):
        self.stopping = True
        self.thread.join()
        for conn in self.socks:
            conn.close()


def web_process(config: Path) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--config", str(config), "web"], cwd=ROOT,
                               env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("corbeille web did not start")
            time.sleep(0.1)


def rss_kib(pid: int) -> tuple[int, int]:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def presses(state: Path, web: bool, moves: int, actions: int) -> dict:
    """One run: menu moves then applied actions through the loop; with `web`, the live
    channel is written and corbeille web serves ten streams beside it."""
    for leftover in state.glob("journal.sqlite*"):
        leftover.unlink()
    journal = Journal(state / "journal.sqlite")
    operator, board, _ = box_displays()
    process = streams = None
    try:
        controller = Controller(journal, timing=TIMING)
        session = journaled(started_game(), journal)
        controller.attach(session)
        app = App(controller, Hardware(operator=operator, board=board), journal=journal)
        if web:
            app.channel = LiveChannel(live_path(state))
            process = web_process(state / "corbeille.toml")
            secret = tokens.ensure_secret(state)
            seats = [f"/s/{tokens.seat_token(secret, session.game_id, session.game.header, s)}/events"
                     for s in range(len(session.players))]
            streams = Streams(PORT, ["/events"] * (PAGES - len(seats)) + seats)
        app.refresh()
        marks = []
        app.on_frame = lambda: marks.append(time.perf_counter())
        d = Driver(app)

        def timed(name, long=False):
            marks.clear()
            start = time.perf_counter()
            d.key(name, long)
            return (marks[0] if marks else time.perf_counter()) - start, time.perf_counter()

        d.choose("Saisir les dés").choose("1").choose("2")
        menu = [timed("down" if i % 2 == 0 else "up")[0] for i in range(moves)]
        applied, committed = [], {}
        for _ in range(actions):
            d.choose("Carte : recevoir").key("ok")
            frame, done = timed("ok")
            applied.append(frame)
            committed[len(controller.session.game.log)] = done
            time.sleep(0.3)          # a table's pace: the streams catch up between actions
        result = {"menu": menu, "applied": applied}
        if web:
            time.sleep(1.0)
            result["latency"] = [arrival - committed[n] for n, arrivals in streams.seen.items()
                                 if n in committed for arrival in arrivals]
            result["pages_reached"] = sum(len(streams.seen.get(n, [])) for n in committed)
            result["rss"] = rss_kib(process.pid)
        return result
    finally:
        if streams is not None:
            streams.close()
        if process is not None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
        board.close()
        journal.close()


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run(rounds: int, moves: int, actions: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="corbeille-web-bench-") as folder:
        state = Path(folder)
        (state / "corbeille.toml").write_text(
            f'[state]\ndir = "{state}"\n[web]\nenabled = true\nhost = "127.0.0.1"\nport = {PORT}\n')
        os.environ["CORBEILLE_RUN"] = str(state / "run")
        a, b = {"menu": [], "applied": []}, {"menu": [], "applied": [], "latency": [], "pages_reached": 0}
        for _ in range(rounds):                    # A B A B: a busy moment weighs on both
            for web, into in ((False, a), (True, b)):
                result = presses(state, web, moves, actions)
                into["menu"] += result["menu"]
                into["applied"] += result["applied"]
                if web:
                    into["latency"] += result["latency"]
                    into["pages_reached"] += result["pages_reached"]
                    into["rss"] = result["rss"]
        b["expected"] = rounds * actions * PAGES
        return {"a": a, "b": b}


def report(result: dict) -> str:
    a, b = result["a"], result["b"]
    ms = lambda seconds: f"{seconds * 1000:.2f} ms"
    rows = [("menu move, median", statistics.median(a["menu"]), statistics.median(b["menu"])),
            ("menu move, p99", percentile(a["menu"], 0.99), percentile(b["menu"], 0.99)),
            ("applied action, median", statistics.median(a["applied"]), statistics.median(b["applied"])),
            ("applied action, p99", percentile(a["applied"], 0.99), percentile(b["applied"], 0.99))]
    m = machine()
    host = f"{m['cpu']}, {m['cores']} cores, {m['python']}, {m['date']}"
    lines = [SECTION, "", f"`python -m bench.web_bench` ({host}). The box's press -> frame through the "
             f"real loop, in alternating runs: A without the web view, B with its live channel written and "
             f"`corbeille web` beside it serving {PAGES} open pages (event streams, public and seats').", "",
             "| press -> frame | A: no web view | B: ten pages open | B / A |", "|---|---|---|---|"]
    lines += [f"| {name} | {ms(x)} | {ms(y)} | {y / x:.2f} |" for name, x, y in rows]
    latency = b["latency"]
    rss, peak = b["rss"]
    lines += ["", f"Action to page (commit done -> the page's stream has it), over {len(latency)} page "
              f"updates of {b['expected']} expected: median {ms(statistics.median(latency))}, "
              f"p95 {ms(percentile(latency, 0.95))}, max {ms(max(latency))}.", "",
              f"The web process with {PAGES} streams open: {rss / 1024:.1f} MiB resident, "
              f"{peak / 1024:.1f} MiB at its peak (VmRSS, VmHWM)."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true", help="print only, do not rewrite docs/performance.md")
    parser.add_argument("--rounds", type=int, default=2, help="A B pairs of runs (default 2)")
    parser.add_argument("--moves", type=int, default=400, help="menu moves a run (default 400)")
    parser.add_argument("--actions", type=int, default=40, help="applied actions a run (default 40)")
    args = parser.parse_args(argv)
    text = report(run(args.rounds, args.moves, args.actions))
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
