"""A venue's MQTT side: its topics and one connection to the broker (paho-mqtt).

Topics, all under `corbeille/<venue>/<table>/` (docs/venue.md):

* `events`: each public event of the table, QoS 1, not retained: `game`, `action`, `undo`,
  each with the game's key and an id that only grows within that game;
* `state`: the table's public state now, QoS 1, retained (a venue that starts late has it);
* `cursor`: where the table's publisher got to, retained: the last event it sent, whole,
  with what it needs to resume after a restart with no gap (firmware/publish.py). It lives
  on the broker, never on the box's SD card.

paho-mqtt is written to here as Raspberry Pi OS Bookworm ships it (1.6) and as it is today
(2.x): the client is made with the callback API of 2.x when there is one, and each callback
takes its arguments loosely, since 1.6 and 2.x pass them differently.
"""
from __future__ import annotations

import json
import logging
import queue
import ssl
import threading
import uuid

log = logging.getLogger("corbeille.mqtt")

ROOT = "corbeille"
LEAVES = ("events", "state", "cursor")
KEEPALIVE_S = 15          # a broker gone quiet is noticed within 1.5 times this
SEND_S = 10.0             # a message not acknowledged within this: the link is dropped and made again
RECONNECT_S = 5         # the longest wait between two tries of a broker that is gone


def topic(venue: str, table: str, leaf: str) -> str:
    return f"{ROOT}/{venue}/{table}/{leaf}"


def parse_topic(name: str) -> tuple[str, str, str] | None:
    """(venue, table, leaf) of one of the venue's topics, None for any other."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in LEAVES or not all(parts[1:3]):
        return None
    return parts[1], parts[2], parts[3]


def encode(payload: dict) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def new_client(client_id: str, clean: bool = True):
    """A paho client, on 1.6 and 2.x alike. A publisher's session is clean each time: what
    it still had to send is in the journal, not on the broker. The venue's is kept
    (`clean` false, a fixed client id): the broker queues the tables' events while the
    venue is away and hands them over when it is back."""
    from paho.mqtt import client as mqtt

    api = getattr(mqtt, "CallbackAPIVersion", None)
    if api is not None:
        return mqtt.Client(api.VERSION2, client_id=client_id, clean_session=clean)
    return mqtt.Client(client_id=client_id, clean_session=clean)


def reason(code) -> int:
    """A CONNACK's or DISCONNECT's code as a number (2.x gives a ReasonCode object)."""
    return int(getattr(code, "value", code))


class Link:
    """One connection to the broker, kept up by paho's own thread (it reconnects by itself).
    `messages` receives (topic, payload) of the subscriptions; `send` waits for the broker's
    acknowledgement (QoS 1)."""

    def __init__(self, broker: str, port: int, username: str = "", password: str = "", *,
                 tls: bool = False, ca_file: str = "", name: str = "corbeille", keep_session: bool = False):
        self.client = new_client(name if keep_session else f"{name}-{uuid.uuid4().hex[:8]}", clean=not keep_session)
        if username:
            self.client.username_pw_set(username, password or None)
        if tls:
            self.client.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        self.client.reconnect_delay_set(1, RECONNECT_S)
        self.client.max_inflight_messages_set(20)
        self.connected = threading.Event()
        self.refused: str | None = None        # why the broker turned the connection down
        self.messages: queue.Queue = queue.Queue()
        self.subscriptions: list[str] = []
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.where = f"{broker}:{port}"
        self.client.connect_async(broker, port, keepalive=KEEPALIVE_S)
        self.client.loop_start()

    # paho's thread ----------------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, code, *properties) -> None:
        if reason(code) != 0:
            self.refused = f"the broker at {self.where} refused the connection ({code})"
            log.warning("%s", self.refused)
            return
        self.refused = None
        for name in self.subscriptions:
            client.subscribe(name, qos=1)
        self.connected.set()
        log.info("connected to %s", self.where)

    def _on_disconnect(self, client, userdata, *rest) -> None:
        if self.connected.is_set():
            log.warning("lost the broker at %s", self.where)
        self.connected.clear()

    def _on_message(self, client, userdata, message) -> None:
        self.messages.put((message.topic, message.payload, bool(message.retain)))

    # the caller's thread ---------------------------------------------------------------------
    def subscribe(self, name: str) -> None:
        self.subscriptions.append(name)
        if self.connected.is_set():
            self.client.subscribe(name, qos=1)

    def unsubscribe(self, name: str) -> None:
        if name in self.subscriptions:
            self.subscriptions.remove(name)
        self.client.unsubscribe(name)

    def send(self, name: str, payload: dict, retain: bool = False, timeout: float = SEND_S) -> bool:
        """Publish at QoS 1 and wait for the broker's acknowledgement; False when it did not
        come (not connected, refused, too slow): the caller drops this link."""
        if not self.connected.is_set():
            return False
        try:
            info = self.client.publish(name, encode(payload), qos=1, retain=retain)
            info.wait_for_publish(timeout)
            return info.is_published()
        except (RuntimeError, ValueError, OSError) as error:
            log.warning("publishing to %s failed: %s", name, error)
            return False

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self.connected.clear()
