"""One journal, one writer: an advisory lock beside the journal file.

`JOURNAL-lock` is locked with flock(2) for as long as a writer has the journal open, and
holds the writer's pid so a refused process can say who holds it. The kernel drops the
lock when the holder dies, even by SIGKILL or a power cut, so a stale file never blocks
a restart; the file itself is never removed (removing a lock file races with the next
process taking it). SQLite's own locks only keep two transactions apart: they do not stop
two boxes from playing two games into one journal turn by turn.
"""
from __future__ import annotations

import fcntl
import os


class Held(Exception):
    """Another process holds the lock."""

    def __init__(self, pid: int | None, command: str):
        super().__init__(pid, command)
        self.pid = pid
        self.command = command

    def describe(self) -> str:
        if self.pid is None:
            return "another process"
        return f"process {self.pid}" + (f" ({self.command})" if self.command else "")


# The lock file's size: a pid (at most 7 digits on Linux, 4194304) and spaces, then a newline.
PID_WIDTH = 16


def lock_path(journal_path: str) -> str:
    return journal_path + "-lock"


def acquire(journal_path: str) -> int:
    """Take the lock (without waiting); returns the descriptor that holds it.

    Raises Held naming the holder, or OSError if the lock file cannot be created."""
    fd = os.open(lock_path(journal_path), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _read_pid(fd)
        os.close(fd)
        raise Held(pid, _command(pid)) from None
    except BaseException:
        os.close(fd)
        raise
    # Not synced: the pid only names the holder in a message, and the lock itself lives
    # in the kernel, so this costs the SD card nothing at each start but a page of cache.
    # Written over the last holder's in place, padded to a fixed width (any pid fits), so
    # nothing of it is left behind: truncating first would cost an ext4 metadata change
    # at every open; a longer file (written otherwise) is still cut.
    text = f"{os.getpid():<{PID_WIDTH - 1}}\n".encode()
    try:
        os.pwrite(fd, text, 0)
        if os.fstat(fd).st_size > len(text):
            os.ftruncate(fd, len(text))
    except OSError:
        pass        # a full or read-only card: the lock holds all the same, unnamed
    return fd


def holder(journal_path: str) -> Held | None:
    """Who holds the lock now, or None if nobody does (a peek: takes and drops it)."""
    try:
        fd = os.open(lock_path(journal_path), os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _read_pid(fd)
        return Held(pid, _command(pid))
    finally:
        os.close(fd)
    return None


def held(journal_path: str) -> bool | None:
    """Whether a writer holds the journal now, seen without touching its lock: `holder`
    takes the lock for a moment, and a box starting at that moment would be refused, so a
    reader that asks often (the web view) reads the kernel's list of locks instead
    (/proc/locks: a FLOCK on the lock file's device and inode). None when that list cannot
    be read (not Linux): the caller must then assume a writer may hold it."""
    try:
        info = os.stat(lock_path(journal_path))
    except FileNotFoundError:
        return False                   # every writer makes the lock file before it writes
    except OSError:
        return None
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            return any(line.split()[1:2] == ["FLOCK"] and where in line.split()[5:6] for line in f)
    except OSError:
        return None


def release(fd: int) -> None:
    os.close(fd)  # closing the last descriptor drops the flock


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() and text.isascii() else None
    except OSError:
        return None


def _command(pid: int | None) -> str:
    if pid is None:
        return ""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read(400).split(b"\0")
    except OSError:
        return ""
    words = [w.decode(errors="replace") for w in words if w]
    # "python -m firmware.cli run" or ".venv/bin/corbeille sim": keep what names it.
    for i, word in enumerate(words):
        if word.endswith(("corbeille", "firmware.cli")):
            return " ".join(["corbeille", *words[i + 1:i + 4]])
    return " ".join(os.path.basename(w) for w in words[:3])
