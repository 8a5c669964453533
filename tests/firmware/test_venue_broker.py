"""Several tables and a venue against a real Mosquitto (Debian's, started by the tests on a
free port from the shipped configuration, systemd/mosquitto/): every fault of a venue's
evening ends with nothing lost or duplicated at the venue. Waits are conditions with a
deadline (tests/web_helpers.py), never fixed sleeps, but for the pauses that make a fault
last."""
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from firmware.publish import Publisher
from firmware.venue.app import VenueHub, create_app
from firmware.venue.board import VenueBoard
from firmware.venue.league import League
from venue_helpers import Box, Mosquitto, drain, played
from bench.broker import ROOT, free_port
from web_helpers import wait_for

VENUE = "club"


@pytest.fixture
def broker(tmp_path):
    mosquitto = Mosquitto(tmp_path / "broker").start()
    yield mosquitto
    mosquitto.stop()


class Running:
    """A table's publisher in a thread of the test process, on the real broker."""

    def __init__(self, broker, box, table):
        self.publisher = Publisher(box.path, VENUE, table, lambda: broker.link(table))
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.publisher.run, args=(self.stop,), daemon=True)
        self.thread.start()

    def close(self):
        self.stop.set()
        self.thread.join(timeout=10)


class VenueSide:
    def __init__(self, broker, league=None, board=None):
        self.link = broker.link("venue", keep_session=True)      # as `corbeille venue` connects
        self.link.subscribe(f"corbeille/{VENUE}/+/events")
        self.link.subscribe(f"corbeille/{VENUE}/+/state")
        self.board = board or VenueBoard(VENUE, league)
        wait_for(self.link.connected.is_set, "the venue to connect")

    def whole(self, box, table) -> bool:
        drain(self.link, self.board)
        t = self.board.tables.get(table)
        n = len(box.session.game.log)
        return (t is not None and t.state is not None and t.position == n and t.state["n"] == n
                and t.state["id"] == t.last_id)

    def wait_whole(self, boxes: dict):
        for table, box in boxes.items():
            wait_for(lambda: self.whole(box, table), f"table {table} whole at the venue")
            assert self.board.tables[table].gaps == 0, f"table {table}: a gap"

    def close(self):
        self.link.close()


def venue_page_client(hub):
    """The venue's page served in this process. Starlette's test client (and httpx with it)
    is imported by the worker that runs these tests alone, not by every one collecting them."""
    from starlette.testclient import TestClient

    return TestClient(create_app(hub))


def test_several_tables_and_a_venue_with_a_finished_game_in_the_league(broker, tmp_path):
    games = {"t1": played("dividends"), "t2": played("maxibourse", 80), "t3": played("shark", 80)}
    boxes = {table: Box(tmp_path / table, game, 5) for table, game in games.items()}
    league = League(tmp_path / "league.sqlite")
    venue = VenueSide(broker, league)
    running = [Running(broker, box, table) for table, box in boxes.items()]
    rng = random.Random(32)
    for _ in range(30):
        table = rng.choice(list(boxes))
        boxes[table].play(rng.randint(1, 4))
    boxes["t1"].play(len(games["t1"].log))                   # to its end: the league has it
    venue.wait_whole(boxes)
    assert venue.board.duplicates == 0
    assert league.games() == 1 and venue.board.tables["t1"].state["over"]
    hub = VenueHub(venue.board, venue.link.messages, "fr")
    with venue_page_client(hub) as client:
        page = client.get("/").text
    assert "Championnat" in page and all(f'data-table="{t}"' in page for t in boxes)
    for r in running:
        r.close()
    venue.close()


def test_a_broker_stopped_while_tables_play_then_back_loses_nothing(broker, tmp_path):
    boxes = {t: Box(tmp_path / t, played(n, 80), 3) for t, n in (("t1", "avendre"), ("t2", "richesses"))}
    venue = VenueSide(broker)
    running = [Running(broker, box, table) for table, box in boxes.items()]
    venue.wait_whole(boxes)
    broker.stop()                                            # the broker restarts (persistence on)
    for box in boxes.values():
        box.play(15)
    boxes["t1"].session.undo()
    time.sleep(1.5)                                          # the fault lasts: the publishers retry
    broker.start()
    venue.wait_whole(boxes)
    for r in running:
        r.close()
    venue.close()


def test_a_venue_away_for_a_while_gets_every_event_it_missed(broker, tmp_path):
    box = Box(tmp_path / "t1", played("avendre", 60), 5)
    venue = VenueSide(broker)
    running = Running(broker, box, "t1")
    venue.wait_whole({"t1": box})
    venue.close()                                            # the venue's host restarts, say
    box.play(12)
    box.session.undo()
    wait_for(lambda: running.publisher.feed.session is not None
             and len(running.publisher.feed.session.game.log) == len(box.session.game.log), "the publisher")
    back = VenueSide(broker, board=venue.board)              # its session kept: the missed events queued
    back.wait_whole({"t1": box})
    assert back.board.tables["t1"].gaps == 0 and back.board.duplicates == 0
    running.close()
    back.close()


def test_the_broker_keeps_states_and_cursors_across_a_restart(broker, tmp_path):
    box = Box(tmp_path / "t1", played("maxibourse", 40), 12)
    publisher = Publisher(box.path, VENUE, "t1", lambda: broker.link("t1"))
    wait_for(lambda: publisher.step() and publisher.feed is not None and publisher.sent == 13, "13 events sent")
    publisher.link.close()
    broker.stop()
    broker.start()
    venue = VenueSide(broker)                                # a venue started after: the retained state
    wait_for(lambda: drain(venue.link, venue.board) or venue.board.tables.get("t1"), "t1's retained state")
    assert venue.board.tables["t1"].state["n"] == 12
    box.play(4)
    again = Publisher(box.path, VENUE, "t1", lambda: broker.link("t1"))
    wait_for(lambda: again.step() and again.sent == 4, "the 4 new actions")
    drain(venue.link, venue.board)
    assert again.feed.next_id == 18                          # 13 before the restart, then 14..17
    venue.close()


def test_a_publisher_process_killed_mid_publish_leaves_no_gap_and_no_duplicate(broker, tmp_path):
    box = Box(tmp_path / "state", played("maxibourse", 200), 2)
    config = tmp_path / "corbeille.toml"
    config.write_text(f'[state]\ndir = "{tmp_path / "state"}"\n[venue]\nenabled = true\nbroker = "127.0.0.1"\n'
                      f'port = {broker.port}\ntable = "t1"\npassword = "{broker.passwords["t1"]}"\n')
    venue = VenueSide(broker)
    rng = random.Random(7)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(3):
        process = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--config", str(config), "publish"],
                                   cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: venue.whole(box, "t1"), "the publisher to catch up")
        box.play(rng.randint(20, 40))                        # a burst, killed in the middle of it
        time.sleep(rng.uniform(0.05, 0.3))
        process.send_signal(signal.SIGKILL)
        process.wait()
    process = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--config", str(config), "publish"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    venue.wait_whole({"t1": box})
    process.terminate()
    process.wait(timeout=10)
    venue.close()


def test_the_acl_lets_a_table_publish_only_under_its_own_topic(broker, tmp_path):
    venue = VenueSide(broker)
    t1, t2 = broker.link("t1"), broker.link("t2")
    wait_for(lambda: t1.connected.is_set() and t2.connected.is_set(), "two tables connected")
    state = {"game": "1-x", "id": 1, "players": [], "n": 0}
    t1.send("corbeille/club/t2/state", {**state, "n": 666})   # as another table: refused
    venue.link.send("corbeille/club/t3/state", {**state, "n": 667})   # the venue writes nothing
    t2.send("corbeille/club/t2/state", state)                 # its own: delivered
    wait_for(lambda: drain(venue.link, venue.board) or "t2" in venue.board.tables, "t2's own state")
    time.sleep(0.3)
    drain(venue.link, venue.board)
    assert venue.board.tables["t2"].state["n"] == 0 and set(venue.board.tables) == {"t2"}
    t1.subscribe("corbeille/club/t2/state")                  # nor read another table
    time.sleep(0.5)
    assert t1.messages.empty()
    wrong = broker.link("t1", password="not-it")
    wait_for(lambda: wrong.refused, "the wrong password refused")        # the broker's answer, a CONNACK
    assert not wrong.connected.is_set() and wrong.refused
    for link in (t1, t2, wrong):
        link.close()
    venue.close()


def test_foreign_and_malformed_messages_are_ignored_and_the_venue_page_keeps_working(broker, tmp_path):
    box = Box(tmp_path / "t1", played("shark", 40), 6)
    venue = VenueSide(broker)
    running = Running(broker, box, "t1")
    venue.wait_whole({"t1": box})
    raw = broker.link("t1")
    wait_for(raw.connected.is_set, "t1 connected")
    for body in (b"\x00\xff", b"null", b'{"kind": "action"}', b'{"kind": "action", "id": 1e9, "game": 5}'):
        raw.client.publish("corbeille/club/t1/events", body, qos=1).wait_for_publish(5)
    raw.client.publish("corbeille/club/t1/state", b'{"players": "all"}', qos=1).wait_for_publish(5)
    wait_for(lambda: drain(venue.link, venue.board) or venue.board.ignored == 5, "the five ignored")
    box.play(3)
    venue.wait_whole({"t1": box})
    hub = VenueHub(venue.board, venue.link.messages, "en")
    with venue_page_client(hub) as client:
        answer = client.get("/")
    assert answer.status_code == 200 and 'data-table="t1"' in answer.text and "League" in answer.text
    raw.close()
    running.close()
    venue.close()


def certificates(folder):
    """A certificate authority and the broker's certificate for 127.0.0.1, made by openssl."""
    folder.mkdir()
    run = lambda *args: subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=venue-ca",
        "-keyout", "ca.key", "-out", "ca.crt")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr")
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", "san.cnf", "-out", "server.crt")
    return folder


def test_a_table_publishes_over_tls_with_the_venues_authority(tmp_path):
    from firmware.mqtt_link import Link

    certs = certificates(tmp_path / "certs")
    broker = Mosquitto(tmp_path / "broker")
    tls_port = free_port()
    with broker.conf.open("a") as conf:                       # a TLS listener beside the plain one
        conf.write(f"\nlistener {tls_port} 127.0.0.1\ncafile {certs}/ca.crt\ncertfile {certs}/server.crt\n"
                   f"keyfile {certs}/server.key\n")
    broker.start()
    try:
        box = Box(tmp_path / "t1", played("dividends", 20), 7)
        connect = lambda: Link("127.0.0.1", tls_port, "t1", broker.passwords["t1"], tls=True,
                               ca_file=str(certs / "ca.crt"), name="t1")
        venue = VenueSide(broker)
        publisher = Publisher(box.path, VENUE, "t1", connect)
        wait_for(lambda: publisher.step() and publisher.sent == 8, "8 events over TLS")
        venue.wait_whole({"t1": box})
        stranger = Link("127.0.0.1", tls_port, "t1", broker.passwords["t1"], tls=True, name="t1")
        time.sleep(1)                                         # the system's authorities do not know the venue's
        assert not stranger.connected.is_set()
        for link in (stranger, publisher.link):
            link.close()
        venue.close()
    finally:
        broker.stop()


def test_corbeille_publish_and_corbeille_venue_as_processes(broker, tmp_path):
    """The two commands as their units start them, from their configuration files."""
    import urllib.request

    box = Box(tmp_path / "box", played("richesses", 30), 4)
    port = free_port()
    (tmp_path / "box.toml").write_text(
        f'[state]\ndir = "{tmp_path / "box"}"\n[venue]\nenabled = true\nbroker = "127.0.0.1"\nport = {broker.port}\n'
        f'table = "t2"\npassword = "{broker.passwords["t2"]}"\n')
    (tmp_path / "venue.toml").write_text(
        f'[state]\ndir = "{tmp_path / "venue"}"\n[game]\nlanguage = "en"\n[venue]\nbroker = "127.0.0.1"\n'
        f'port = {broker.port}\npassword = "{broker.passwords["venue"]}"\nhost = "127.0.0.1"\nserve_port = {port}\n')
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = [subprocess.Popen([sys.executable, "-m", "firmware.cli", "--config", str(tmp_path / f"{name}.toml"),
                                 command], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for name, command in (("venue", "venue"), ("box", "publish"))]

    def page():
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read().decode()
        except OSError:
            return ""
    try:
        wait_for(lambda: 'data-table="t2" data-actions="4"' in page(), "the venue page to show t2's 4 actions")
        box.play(3)
        wait_for(lambda: 'data-table="t2" data-actions="7"' in page(), "then its 7 actions")
        assert "The club tonight" in page()
    finally:
        for process in started:
            process.terminate()
            process.wait(timeout=10)
    # Both stop on SIGTERM (uvicorn, once stopped, raises the signal again: -15 there).
    assert started[0].returncode in (0, -signal.SIGTERM) and started[1].returncode == 0
    assert (tmp_path / "venue" / "league.sqlite").exists()      # in the state folder, [venue] league = ""
