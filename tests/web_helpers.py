"""Helper module (no tests): the box and its web view as real processes, and a real browser.

`WebBox` starts `corbeille run` (the power-cut tests' `Box`: PNG operator display, mock
pins, its serial console on a pty) with [web] on, and `corbeille web` beside it, both on
one temporary state folder and one temporary run folder ($CORBEILLE_RUN). `browser()` is
Debian's Chromium driven by selenium through Debian's chromedriver, nothing downloaded
(`make test` installs both, and zbar, where it can: Makefile `test-deps`). Waits are
conditions with a deadline, never fixed sleeps.
"""
import contextlib
import json
import os
import random
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from engines import game_class
from engines.core.random_play import play_randomly
from firmware import tokens
from firmware.journal import Journal
from firmware.journal.reader import JournalReader
from firmware.session import Session
from test_game_contract import Drawer, header, state_key
from test_powercut import Box

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM, CHROMEDRIVER, ZBARIMG = "/usr/bin/chromium", "/usr/bin/chromedriver", "zbarimg"
INSTALL = "apt-get install -y chromium chromium-driver zbar-tools"
DEADLINE_S = 20.0          # how long a condition may take before the test fails (CI's slow moments)
POLL_S = 0.02              # how often a condition is asked again
# how often a condition asked of the browser (or of zbar) is asked again: each asking costs a
# few milliseconds of CPU in the test, chromedriver and Chromium, that the other tests wait for
PAGE_POLL_S = 0.1


def require_browser():
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(path)]
    if shutil.which(ZBARIMG) is None:
        missing.append(ZBARIMG)
    assert not missing, f"missing {', '.join(missing)}: `make test` installs them as root; else run: sudo {INSTALL}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition, what: str, deadline: float = DEADLINE_S, pause: float = POLL_S):
    """condition() every `pause` seconds until it returns something true, or fail after
    `deadline` seconds."""
    end = time.monotonic() + deadline
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < end, f"waited {deadline} s for {what}"
        time.sleep(pause)


def wait_for_page(condition, what: str, deadline: float = DEADLINE_S):
    """`wait_for` a condition asked of the browser or of zbar (PAGE_POLL_S)."""
    return wait_for(condition, what, deadline, PAGE_POLL_S)


def recorded_game(name: str, actions: int, seed: int = 3):
    """A game of `name` for 3 players (4 for Maxi Bourse's speaking rounds to matter), played
    `actions` random legal actions from its decisions, never to its end."""
    game = game_class(name)(header(name, 3, seed))
    play_randomly(game, Drawer(random.Random(f"web-{name}-{seed}")), max_actions=actions, state_key=state_key,
                  verify=False, finished=lambda g: g.over, max_refusals=3000)
    return game


def write_journal(state: Path, game, count: int) -> int:
    """The game's header and first `count` actions in a journal of `state`, as a box that
    played them before leaves it; returns the game id."""
    state.mkdir(parents=True, exist_ok=True)
    with Journal(state / "journal.sqlite") as journal:
        session = Session.new(game.header, journal)
        for act in game.log[:count]:
            session.apply(act)
        return session.game_id


class WebBox:
    def __init__(self, tmp_path, monkeypatch):
        self.tmp = tmp_path
        self.port = free_port()
        self.run_dir = Path(tempfile.mkdtemp(prefix="corbeille-run-"))
        monkeypatch.setenv("CORBEILLE_RUN", str(self.run_dir))
        web = f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {self.port}\n'
        self.box = Box(tmp_path, game_config='language = "fr"\n' + web)
        self.state = self.box.state
        self.web = None
        self.url = f"http://127.0.0.1:{self.port}"

    # ---- processes -----------------------------------------------------------------------
    def start_box(self):
        self.box.start()
        return self

    def start_web(self):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.web = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--config", str(self.tmp / "corbeille.toml"),
                                     "web"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for(lambda: self._answers(), "the web view to answer")
        return self

    def _answers(self) -> bool:
        assert self.web.poll() is None, self.web.stderr.read().decode(errors="replace")
        try:
            return urllib.request.urlopen(self.url + "/", timeout=2).status == 200
        except OSError:
            return False

    def stop_web(self):
        if self.web is not None and self.web.poll() is None:
            self.web.send_signal(signal.SIGTERM)
            try:
                self.web.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.web.kill()
                self.web.wait()
        if self.web is not None:
            self.web.stderr.close()
        self.web = None

    def close(self):
        self.stop_web()
        self.box.stop()
        shutil.rmtree(self.run_dir, ignore_errors=True)

    # ---- the box's console -------------------------------------------------------------------
    def play(self, game, act):
        """An action through the box's serial console, in the command language."""
        line = game.ACTIONS.format(act, game.players)
        reply = self.box.ask(line, done=b"\r\n").strip()
        assert reply == "ok", f"{line!r}: {reply}"

    def undo(self):
        assert self.box.ask("undo", done=b"\r\n").strip() == "ok"

    def choose(self, label: str):
        """Down until the screen's selected item starts with `label`, then OK."""
        for _ in range(30):
            selected = [line for line in self.box.screen().splitlines() if line.startswith("> ")]
            if selected and selected[0][2:].startswith(label):
                self.box.key("ok")
                return
            self.box.key("down")
        raise AssertionError(f"{label!r} never selected: {self.box.screen()}")

    # ---- links ---------------------------------------------------------------------------
    def seat_url(self, seat: int) -> str:
        secret = tokens.read_secret(self.state)
        with JournalReader(self.state / "journal.sqlite") as journal:
            game_id = journal.last_game()
            head = journal.header(game_id)
        return f"{self.url}/s/{tokens.seat_token(secret, game_id, head, seat)}"

    def stream(self, path: str = "/events", seconds: float = 1.5) -> str:
        return read_stream(self.port, path, seconds)


def read_stream(port: int, path: str = "/events", seconds: float = 1.5) -> str:
    """What an event stream sends (the raw HTTP answer) until it has sent the page's state
    as it is, its `main` and then its `live` event (firmware/web/app.py `_stream`: later
    events only say a change), or in its first `seconds` if that takes longer."""
    sent = b""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0 and not _sent_state(sent):
            ready, _, _ = select.select([conn], [], [], left)
            if not ready:
                break
            chunk = conn.recv(65536)
            if not chunk:
                break
            sent += chunk
    return sent.decode(errors="replace")


def _sent_state(sent: bytes) -> bool:
    """The stream's `live` event has come whole (an event ends with a blank line)."""
    live = sent.find(b"event: live\n")
    return live != -1 and sent.find(b"\n\n", live) != -1


@contextlib.contextmanager
def serving(hub, app):
    """`app` served by uvicorn in a thread of the test process, on a free port (yielded):
    the streams read as a browser reads them (Starlette's test client of Bookworm's 0.26
    reads a whole answer first, which a stream never ends)."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, "uvicorn to start")
        yield port
    finally:
        hub.stop()
        server.should_exit = True
        thread.join(timeout=10)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    require_browser()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                 "--disable-dev-shm-usage", "--disable-renderer-backgrounding",
                 "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='corbeille-chromium-')}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def page_text(driver) -> str:
    return driver.execute_script("return document.body.innerText")


def history_numbers(driver) -> list[int]:
    return driver.execute_script("return [...document.querySelectorAll('.history li')].map(li => li.value)")


def decode_qr(png: Path) -> str | None:
    """The text of the QR code in a PNG, read by zbar from the image scaled 4x (as a
    camera sees a small screen from close); None when zbar finds none."""
    from PIL import Image

    image = Image.open(png).convert("L")
    big = png.with_name(png.stem + "-x4.png")
    image.resize((image.width * 4, image.height * 4), Image.NEAREST).save(big)
    result = subprocess.run([ZBARIMG, "--quiet", "--raw", str(big)], capture_output=True, text=True, timeout=60)
    return result.stdout.strip() if result.returncode == 0 else None


def screenshot(driver, url: str, size: tuple[int, int], path: Path) -> None:
    driver.set_window_size(*size)
    driver.get(url)
    wait_for_page(lambda: driver.execute_script("return document.body.dataset.link") == "up"
                  and driver.find_elements("css selector", "#main header, #main .problem"), "the page")
    driver.save_screenshot(str(path))


def load_json(path: Path):
    return json.loads(path.read_text())
