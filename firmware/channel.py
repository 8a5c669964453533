"""The box's live channel: what the journal does not hold, for the readers beside the box.

The web view (firmware/web/) reads the game from the journal, read-only; what is not in the
journal comes from here: the seat clock's line (what is asked or sold, who leads) and its
seconds, what the box asks now, the language, and whether the box is running at all. The
box writes it as one small JSON file, `live.json`, in its runtime folder: a tmpfs under /run
on the Pi (the unit's RuntimeDirectory), never the SD card. It is rewritten only when its
content changes, and touched once a second otherwise (the loop wakes at least that often:
firmware/app.py IDLE_WAKE_S), so a reader tells a box that stopped or hangs from a quiet
one by the file's age (STALE_S); a clean exit removes it.

The other way, the web process writes the addresses it serves on (`web.json` in its own
runtime folder): the box has no network of its own (PrivateNetwork=yes) and shows them
beside its QR codes (firmware/screens/phones.py).

Both processes find the folders from the state folder they share (`run_dir`): the units set
$CORBEILLE_RUN=/run (the box writes /run/corbeille, the web /run/corbeille-web); a desktop
uses the user's runtime folder, one subfolder per state folder, so two boxes on one machine
never read each other's files.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import time
from pathlib import Path

from engines.core.files import sha256

log = logging.getLogger("corbeille")

RUN_ENV = "CORBEILLE_RUN"
HEARTBEAT_S = 1.0      # an unchanged channel is touched this often
STALE_S = 4.0          # a channel untouched this long: the box is not running (or hangs)


def run_dir(state_dir) -> Path:
    """The tmpfs folder the box and the readers beside it share: $CORBEILLE_RUN, else the
    user's runtime folder (or the temporary folder) with one subfolder per state folder."""
    given = os.environ.get(RUN_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    key = sha256(str(Path(state_dir).resolve()).encode()).hexdigest()[:12]
    return Path(base) / f"corbeille-{key}"


def live_path(state_dir) -> Path:
    """The box's live channel (written by the box)."""
    return run_dir(state_dir) / "corbeille" / "live.json"


def web_info_path(state_dir) -> Path:
    """The addresses the web view serves on (written by the web process)."""
    return run_dir(state_dir) / "corbeille-web" / "web.json"


def write_json(path: Path, value) -> None:
    """`value` as the whole of `path` at once (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".live-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class LiveChannel:
    """The box's side: `publish(state, now)` after each refresh of the loop. A failure to
    write (a full tmpfs) is logged once and never reaches the game."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.box = os.urandom(6).hex()      # this run of the box: a reader sees a restart
        self._last = None
        self._written = None
        self._failed = False

    def publish(self, state: dict, now: float) -> None:
        state = {**state, "box": self.box}
        try:
            if state != self._last:
                write_json(self.path, state)
                self._last, self._written = state, now
            elif self._written is None or now - self._written >= HEARTBEAT_S:
                os.utime(self.path)
                self._written = now
            self._failed = False
        except OSError as error:
            if not self._failed:
                log.warning("live channel %s: %s", self.path, error)
            self._failed, self._last = True, None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()


class LiveReader:
    """The readers' side: the box's last state while the box runs, None when it does not."""

    def __init__(self, path: Path, clock=time.time):
        self.path = Path(path)
        self.clock = clock
        self._stamp = None
        self._state = None

    def read(self) -> dict | None:
        try:
            info = os.stat(self.path)
        except OSError:
            self._stamp = self._state = None
            return None
        if self.clock() - info.st_mtime > STALE_S:
            return None
        stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
        if stamp != self._stamp:
            try:
                with open(self.path, encoding="utf-8") as f:
                    self._state = json.load(f)
            except (OSError, ValueError):
                return self._state
            self._stamp = stamp
        return self._state


def read_json(path: Path):
    """The JSON in `path`, or None when there is none (yet) or it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def live_state(ctl) -> dict:
    """What the readers beside the box show that the journal does not hold
    (`LiveChannel`): the game and its length, the language, what is asked now,
    and the seat clock's public line (what is asked or sold, who leads) with its seconds."""
    session = ctl.session
    if session is None or (ctl.stack and ctl.stack[0]["t"] == "setup"):
        return {"lang": ctl.lang, "game": None}
    line = ctl.seat_clock.board_line(False)
    return {"lang": ctl.lang, "game": session.game_id, "actions": len(session.game.log),
            "asking": "" if session.over else ctl.kit.title(),
            "clock": None if line is None else {"line": line, "seconds": ctl.seat_clock.seconds()}}
