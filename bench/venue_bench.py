"""A venue's evening at scale (docs/venue.md, docs/performance.md "## Venue").

    .venv/bin/python -m bench.venue_bench               # writes docs/performance.md (## Venue)
    .venv/bin/python -m bench.venue_bench --no-write    # print only
    .venv/bin/python -m bench.venue_bench --tables 50 --per-hour 600 --seconds 120

* One real Mosquitto from the shipped configuration (bench/broker.py), TABLES simulated
  tables: each a journal written the way the box writes it (a Session on a Journal, one
  commit an action) at PER_HOUR actions an hour (exponential gaps, so bursts happen), and
  its publisher (firmware/publish.py, the same code as `corbeille publish`) on its own
  account, all in this process's threads.
* `corbeille venue` as its own process, its page's event stream read as a browser reads
  it: action to page is from the moment an action's commit returned at a table to the
  moment the venue page's stream carried that table's new action count.
* The venue process's resident memory (VmRSS) before the tables and after, and its CPU
  time (user + system, /proc) over the run: per table.

Nothing here is asserted: benchmarks inform, tests check.
"""
from __future__ import annotations

import argparse
import heapq
import os
import random
import re
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.broker import ROOT, Broker, free_port
from bench.doc import write_section
from bench.host import machine

SECTION = "## Venue"
GAMES = ("maxibourse", "shark", "avendre", "richesses", "dividends")
started = threading.Event()   # every table's journal made: the publishers may start
go = threading.Event()        # every publisher connected: the tables start playing
PI4_SLOWER = 3.0           # a Pi 4 core against this machine's, for the estimate (see the report)


def played_game(name: str, seed: int, actions: int):
    from engines import game_class
    from engines.core.random_play import play_randomly

    sys.path.insert(0, str(ROOT / "tests"))
    from test_game_contract import Drawer, header, state_key

    game = game_class(name)(header(name, 4, seed))
    play_randomly(game, Drawer(random.Random(f"venue-bench-{seed}")), max_actions=actions, state_key=state_key,
                  verify=False, finished=lambda g: g.over, max_refusals=3000)
    return game


class Stream:
    """The venue page's event stream: when each (table, action count) first showed."""

    def __init__(self, port: int):
        self.conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.conn.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.conn.setblocking(False)
        self.seen: dict[tuple[str, int], float] = {}
        self.stopping = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        buffer = b""
        shown = re.compile(rb'data-table="([^"]+)" data-actions="(\d+)"')
        while not self.stopping:
            ready, _, _ = select.select([self.conn], [], [], 0.05)
            if not ready:
                continue
            now = time.perf_counter()
            buffer += self.conn.recv(1 << 22)
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                if b"event: main" in event:
                    for table, count in shown.findall(event):
                        self.seen.setdefault((table.decode(), int(count)), now)

    def close(self):
        self.stopping = True
        self.thread.join()
        self.conn.close()


def venue_process(folder: Path, broker: Broker, port: int) -> subprocess.Popen:
    config = folder / "venue.toml"
    config.write_text(f'[state]\ndir = "{folder / "venue"}"\n[venue]\nbroker = "127.0.0.1"\nport = {broker.port}\n'
                      f'password = "{broker.passwords["venue"]}"\nhost = "127.0.0.1"\nserve_port = {port}\n')
    process = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--config", str(config), "venue"], cwd=ROOT,
                               env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("corbeille venue did not start")
            time.sleep(0.1)


def proc_figures(pid: int) -> tuple[int, float]:
    """(VmRSS in KiB, CPU seconds used so far) of a process."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return rss, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(folder: Path, tables: int, per_hour: float, seconds: float, commits: dict, stop: threading.Event):
    """Every table's box: its actions at their times (one thread: the journals are its own)."""
    from firmware.journal import Journal
    from firmware.session import Session

    rng = random.Random(50)
    need = int(per_hour * seconds / 3600 * 3) + 20
    boxes, due = {}, []
    for i in range(tables):
        name = f"t{i + 1}"
        game = played_game(GAMES[i % len(GAMES)], i, need)
        (folder / name).mkdir()
        journal = Journal(folder / name / "journal.sqlite")
        boxes[name] = (game, Session.new(game.header, journal), journal)
        heapq.heappush(due, (rng.expovariate(per_hour / 3600), name))
    started.set()
    go.wait()
    start = time.perf_counter()
    while due and not stop.is_set():
        at, name = heapq.heappop(due)
        if at > seconds:
            break
        wait = start + at - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        game, session, _ = boxes[name]
        n = len(session.game.log)
        if n < len(game.log):
            session.apply(game.log[n])
            commits[(name, n + 1)] = time.perf_counter()
        heapq.heappush(due, (at + rng.expovariate(per_hour / 3600), name))
    for _, _, journal in boxes.values():
        journal.close()


def run(tables: int, per_hour: float, seconds: float) -> dict:
    from firmware.publish import Publisher

    with tempfile.TemporaryDirectory(prefix="corbeille-venue-bench-") as name:
        folder = Path(name)
        broker = Broker(folder / "broker", tables=[f"t{i + 1}" for i in range(tables)]).start()
        port = free_port()
        venue = venue_process(folder, broker, port)
        stream = Stream(port)
        rss_empty, _ = proc_figures(venue.pid)
        commits: dict = {}
        stop = threading.Event()
        box_thread = threading.Thread(target=play, args=(folder, tables, per_hour, seconds, commits, stop))
        box_thread.start()
        started.wait()
        publishers, threads = [], []
        for i in range(tables):
            table = f"t{i + 1}"
            p = Publisher(folder / table / "journal.sqlite", "club", table, lambda t=table: broker.link(t))
            publishers.append(p)
            threads.append(threading.Thread(target=p.run, args=(stop,), daemon=True))
            threads[-1].start()
        deadline = time.monotonic() + 60
        while not all(p.feed is not None for p in publishers) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)                                   # their first states reach the venue
        rss0, cpu0 = proc_figures(venue.pid)
        broker_cpu0 = proc_figures(broker.process.pid)[1]
        go.set()
        t0 = time.perf_counter()
        box_thread.join()
        time.sleep(3)                                   # the last actions reach the page
        elapsed = time.perf_counter() - t0
        rss1, cpu1 = proc_figures(venue.pid)
        broker_rss, broker_cpu1 = proc_figures(broker.process.pid)
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        stream.close()
        venue.terminate()
        venue.wait(timeout=10)
        broker.stop()
        latency = shown_after(commits, stream.seen)
        return {"tables": tables, "per_hour": per_hour, "seconds": elapsed, "actions": len(commits),
                "latency": latency, "missing": len(commits) - len(latency), "rss": (rss_empty, rss0, rss1),
                "cpu": cpu1 - cpu0, "broker": (broker_rss, broker_cpu1 - broker_cpu0)}


def shown_after(commits: dict, seen: dict) -> list[float]:
    """For each action, from its commit to the first page showing its table at that count or
    more (two quick actions of a table may show together)."""
    first: dict[str, list[tuple[int, float]]] = {}
    for (table, count), at in seen.items():
        first.setdefault(table, []).append((count, at))
    out = []
    for (table, n), at in commits.items():
        times = [when for count, when in first.get(table, ()) if count >= n and when >= at]
        if times:
            out.append(min(times) - at)
    return out


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def report(r: dict) -> str:
    m = machine()
    host = f"{m['cpu']}, {m['cores']} cores, {m['python']}, {m['date']}"
    lat = r["latency"]
    ms = lambda s: f"{s * 1000:.0f} ms"
    rss_empty, rss0, rss1 = r["rss"]
    per_table_kib = (rss1 - rss_empty) / r["tables"]
    cpu_share = r["cpu"] / r["seconds"]                     # cores used by the venue process
    per_table_cpu = cpu_share / r["tables"]
    pi_cpu = int(0.5 / (per_table_cpu * PI4_SLOWER)) if per_table_cpu else 0
    pi_mem = int((1024 * 1024) / per_table_kib) if per_table_kib > 0 else 0
    lines = [SECTION, "",
             f"`python -m bench.venue_bench` ({host}). {r['tables']} simulated tables at {r['per_hour']:.0f} actions "
             f"an hour each, one real Mosquitto (the shipped configuration), each table's publisher on its own "
             f"account, `corbeille venue` as its own process with its page's event stream open.", "",
             f"Action to venue page (the table's commit returned -> the page's stream shows that table's new "
             f"action count), over {len(lat)} actions ({r['missing']} never shown): median {ms(statistics.median(lat))}, "
             f"p95 {ms(percentile(lat, 0.95))}, p99 {ms(percentile(lat, 0.99))}, max {ms(max(lat))}.", "",
             f"The venue process: {rss_empty / 1024:.1f} MiB resident before the tables, {rss0 / 1024:.1f} MiB "
             f"once each had sent its state, {rss1 / 1024:.1f} MiB after the run ({per_table_kib:.0f} KiB a "
             f"table); CPU {cpu_share * 100:.1f} % of one core over "
             f"{r['seconds']:.0f} s ({per_table_cpu * 100:.3f} % a table).", "",
             f"A Pi 4 as the venue's host, estimated: counting its core {PI4_SLOWER:.0f} times slower than this "
             f"one's and keeping the venue under half a core, about {pi_cpu} tables by CPU; memory is not the limit "
             f"(1 GiB would hold about {pi_mem}).", "",
             f"Mosquitto over the same run: {r['broker'][1] / r['seconds'] * 100:.1f} % of one core, "
             f"{r['broker'][0] / 1024:.1f} MiB resident."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.venue_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true", help="print only, do not rewrite docs/performance.md")
    parser.add_argument("--tables", type=int, default=50, help="simulated tables (default 50)")
    parser.add_argument("--per-hour", type=float, default=600, help="actions an hour at each table (default 600)")
    parser.add_argument("--seconds", type=float, default=120, help="how long the tables play (default 120)")
    args = parser.parse_args(argv)
    text = report(run(args.tables, args.per_hour, args.seconds))
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
