"""systemd's notify protocol in a few lines, with the socket module (no dependency).

Under `Type=notify`, systemd passes `$NOTIFY_SOCKET`: a unix datagram socket (a path, or
an abstract name starting with "@"). The service sends "READY=1" once it is serving
(here: once the first frame is on the operator screen), "WATCHDOG=1" at least every
`$WATCHDOG_USEC` microseconds (we ping at half of it, from the main loop, so a hung loop
stops the pings and systemd restarts the box), and "STOPPING=1" on a clean exit.
Outside systemd there is no socket and every call does nothing.
"""
from __future__ import annotations

import os
import socket


class Notifier:
    def __init__(self, environ=None):
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET") or None
        if self.address and self.address.startswith("@"):
            self.address = "\0" + self.address[1:]          # abstract namespace
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        watched = usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid()))
        self.watchdog_interval = int(usec) / 2 / 1e6 if watched else None
        self.ready_sent = False
        self.next_ping = 0.0
        self.sent: list[str] = []          # what was sent, for tests and logs

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError:
            return False                    # systemd gone (shutdown): nothing to do
        self.sent.append(message)
        return True

    def ready(self) -> None:
        if not self.ready_sent:
            self.ready_sent = self.send("READY=1") or not self.enabled

    def status(self, text: str) -> None:
        self.send("STATUS=" + text.replace("\n", " "))

    def watchdog(self, now: float) -> None:
        """Ping if the half-period has passed (called from the main loop)."""
        if self.watchdog_interval is None or now < self.next_ping:
            return
        self.send("WATCHDOG=1")
        self.next_ping = now + self.watchdog_interval

    def stopping(self) -> None:
        self.send("STOPPING=1")
