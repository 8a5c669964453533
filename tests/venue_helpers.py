"""Helper module (no tests): a venue's broker, in memory and for real.

`MemoryBroker` keeps retained messages and delivers to subscribers the way a broker does
(QoS 1 on one connection: in order), and can go down, or stop acknowledging after a given
number of messages (a box killed mid-publish: what reached the broker stays). `Mosquitto`
starts Debian's mosquitto on a free local port from the shipped configuration
(systemd/mosquitto/), with an account per table and the venue's, the shipped ACL.
"""
import os
import pwd
import queue
import random
import shutil
import subprocess
import threading
from pathlib import Path

from paho.mqtt.client import topic_matches_sub

from engines import game_class
from engines.core.random_play import play_randomly
from firmware.journal import Journal
from firmware.session import Session
from test_game_contract import Drawer, header, state_key
from web_helpers import free_port, wait_for

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "systemd" / "mosquitto"
MOSQUITTO = "/usr/sbin/mosquitto"
INSTALL = "apt-get install -y mosquitto"


def played(name: str, actions: int = 2000, seed: int = 3, players: int = 3, draws: str = ""):
    """A game of `name` played at random for at most `actions` actions (to its end when
    it comes first); other `draws`: the same game, played otherwise."""
    game = game_class(name)(header(name, players, seed))
    play_randomly(game, Drawer(random.Random(f"venue-{name}-{seed}{draws}")), max_actions=actions, state_key=state_key,
                  verify=False, finished=lambda g: g.over, max_refusals=3000)
    return game


class Box:
    """A box's journal, written the way the box writes it (a Session on a Journal)."""

    def __init__(self, state: Path, game, count: int = 0):
        state.mkdir(parents=True, exist_ok=True)
        self.path = state / "journal.sqlite"
        self.game = game
        self.journal = Journal(self.path)
        self.session = Session.new(game.header, self.journal)
        self.play(count)

    def play(self, count: int) -> None:
        start = len(self.session.game.log)
        for act in self.game.log[start:start + count]:
            self.session.apply(act)

    def new_game(self, game, count: int = 0) -> None:
        self.game = game
        self.session = Session.new(game.header, self.journal)
        self.play(count)

    def close(self):
        self.journal.close()


class MemoryLink:
    def __init__(self, broker):
        self.broker = broker
        self.connected = threading.Event()
        if broker.up:
            self.connected.set()
        self.messages = queue.Queue()
        self.subscriptions = []
        broker.links.append(self)

    def subscribe(self, name):
        self.subscriptions.append(name)
        for got, body in self.broker.retained.items():
            if topic_matches_sub(name, got):
                self.messages.put((got, body, True))

    def send(self, name, payload, retain=False, timeout=0):
        from firmware.mqtt_link import encode

        if not self.connected.is_set() or not self.broker.accept():
            self.connected.clear()
            return False
        self.broker.deliver(name, encode(payload), retain)
        return True

    def unsubscribe(self, name):
        self.subscriptions.remove(name)

    def close(self):
        self.connected.clear()
        self.broker.links.remove(self)


class MemoryBroker:
    def __init__(self):
        self.retained: dict[str, bytes] = {}
        self.links: list[MemoryLink] = []
        self.up = True
        self.budget = None            # messages still acknowledged before it "dies"
        self.sent = []                # every message published: (topic, body)

    def link(self):
        return MemoryLink(self)

    def accept(self) -> bool:
        if not self.up:
            return False
        if self.budget is not None:
            if self.budget == 0:
                self.go_down()
                return False
            self.budget -= 1
        return True

    def deliver(self, name, body, retain):
        self.sent.append((name, body))
        if retain:
            self.retained[name] = body
        for link in self.links:
            if any(topic_matches_sub(sub, name) for sub in link.subscriptions):
                link.messages.put((name, body, False))

    def go_down(self):
        self.up = False
        for link in self.links:
            link.connected.clear()

    def come_back(self):
        """Up again; the links connect again by themselves, as paho's do."""
        self.up, self.budget = True, None
        for link in self.links:
            link.connected.set()


def drain(link, board) -> int:
    """Every message the venue's link received, handed to the board."""
    count = 0
    while True:
        try:
            name, body, _ = link.messages.get_nowait()
        except queue.Empty:
            return count
        board.handle(name, body)
        count += 1


def require_mosquitto():
    assert os.path.exists(MOSQUITTO) and shutil.which("mosquitto_passwd"), \
        f"missing mosquitto: `make test` installs it as root; else run: sudo {INSTALL}"


class Mosquitto:
    """Debian's mosquitto on a free port of 127.0.0.1, configured from the shipped files:
    its persistence in a folder of its own, one account per table, the venue's account."""

    def __init__(self, folder: Path, tables=("t1", "t2", "t3"), venue_user="venue"):
        require_mosquitto()
        self.folder = folder
        self.port = free_port()
        self.data = folder / "data"
        self.data.mkdir(parents=True, exist_ok=True)
        self.passwords = {name: f"pw-{name}" for name in (*tables, venue_user)}
        passwd = folder / "passwd"
        passwd.touch()
        for name, password in self.passwords.items():
            subprocess.run(["mosquitto_passwd", "-b", str(passwd), name, password], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        user = pwd.getpwuid(os.getuid()).pw_name
        conf = (SHIPPED / "corbeille.conf").read_text()
        conf = (conf.replace("listener 1883", f"listener {self.port} 127.0.0.1")
                .replace("/var/lib/mosquitto/", f"{self.data}/")
                .replace("/etc/mosquitto/corbeille.passwd", str(passwd))
                .replace("/etc/mosquitto/corbeille.acl", str(SHIPPED / "corbeille.acl"))
                .replace("user mosquitto", f"user {user}")
                .replace("log_dest syslog", f"log_dest file {folder}/mosquitto.log"))
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(conf)
        for path in (passwd, self.conf):
            path.chmod(0o600)
        self.process = None

    def start(self):
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        wait_for(self._listening, "mosquitto to listen")
        return self

    def _listening(self) -> bool:
        import socket

        assert self.process.poll() is None, self.process.stderr.read().decode(errors="replace")
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process.stderr.close()
        self.process = None

    def link(self, user: str, password: str | None = None):
        from firmware.mqtt_link import Link

        return Link("127.0.0.1", self.port, user, self.passwords.get(user, "") if password is None else password,
                    name=user)

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

