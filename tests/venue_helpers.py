"""Helper module (no tests): a venue's broker, in memory and for real.

`MemoryBroker` keeps retained messages and delivers to subscribers the way a broker does
(QoS 1 on one connection: in order), and can go down, or stop acknowledging after a given
number of messages (a box killed mid-publish: what reached the broker stays). `Mosquitto`
is Debian's mosquitto on a free local port from the shipped configuration
(systemd/mosquitto/, bench/broker.py), an account per table and the venue's, the shipped ACL.
"""
import queue
import random
import threading
from pathlib import Path

from paho.mqtt.client import topic_matches_sub

from engines import game_class
from engines.core.random_play import play_randomly
from firmware.journal import Journal
from firmware.session import Session
from bench.broker import Broker
from test_game_contract import Drawer, header, state_key


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


Mosquitto = Broker        # the shipped broker's configuration on a free port (bench/broker.py)
