"""Debian's Mosquitto started from the shipped configuration (systemd/mosquitto/) on a free
port of 127.0.0.1: the venue's tests (tests/venue_helpers.py) and its bench use it.

The shipped file is used as it is but for what a test machine must change: the listener
(a free local port), the data, password and log paths (a folder of the caller's), and the
user it switches to (the one running it). The ACL is the shipped file itself. Accounts are
made with mosquitto_passwd, one per table and the venue's.
"""
from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "systemd" / "mosquitto"
MOSQUITTO = "/usr/sbin/mosquitto"
INSTALL = "apt-get install -y mosquitto"
START_S = 20.0


def require_mosquitto() -> None:
    assert os.path.exists(MOSQUITTO) and shutil.which("mosquitto_passwd"), \
        f"missing mosquitto: `make test` installs it as root; else run: sudo {INSTALL}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    def __init__(self, folder: Path, tables=("t1", "t2", "t3"), venue_user="venue"):
        require_mosquitto()
        self.folder = Path(folder)
        self.port = free_port()
        self.data = self.folder / "data"
        self.data.mkdir(parents=True, exist_ok=True)
        self.passwords = {name: f"pw-{name}" for name in (*tables, venue_user)}
        passwd = self.folder / "passwd"
        passwd.write_text("")
        passwd.chmod(0o600)
        for name, password in self.passwords.items():
            subprocess.run(["mosquitto_passwd", "-b", str(passwd), name, password], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        user = pwd.getpwuid(os.getuid()).pw_name
        conf = (SHIPPED / "corbeille.conf").read_text()
        for shipped, here in (("listener 1883", f"listener {self.port} 127.0.0.1"),
                              ("/var/lib/mosquitto/", f"{self.data}/"),
                              ("/etc/mosquitto/corbeille.passwd", str(passwd)),
                              ("/etc/mosquitto/corbeille.acl", str(SHIPPED / "corbeille.acl")),
                              ("user mosquitto", f"user {user}"),
                              ("log_dest syslog", f"log_dest file {self.folder}/mosquitto.log")):
            assert shipped in conf, f"systemd/mosquitto/corbeille.conf has no {shipped!r}"
            conf = conf.replace(shipped, here)
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text(conf)
        self.conf.chmod(0o600)
        self.process = None

    def start(self):
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + START_S
        while True:
            assert self.process.poll() is None, self.process.stderr.read().decode(errors="replace")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                assert time.monotonic() < deadline, f"mosquitto did not listen within {START_S} s"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None:
            self.process.stderr.close()
        self.process = None

    def link(self, user: str, password: str | None = None, keep_session: bool = False):
        from firmware.mqtt_link import Link

        return Link("127.0.0.1", self.port, user, self.passwords.get(user, "") if password is None else password,
                    name=user, keep_session=keep_session)

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""
