"""The SD-card cost of presses, in a child process the bench runs under strace (which
counts its fsync/fdatasync calls): the real loop (`App.step`) with the real controller,
engine and journal, after a set-up it does not count.

    python -m bench.sync_child JOURNAL_DIR PHASE COUNT OUT.json

PHASE is "setup" (the set-up only: the baseline), "menu" (COUNT Up/Down presses) or
"apply" (COUNT presses that each apply an action: Carte : recevoir, the player, OK).
OUT.json gets the storage bytes the phase caused, read from /proc/self/io (write_bytes:
what this process sent towards the disk) around the phase alone.
"""
import json
import sys
from pathlib import Path


def write_bytes():
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    raise OSError("no write_bytes in /proc/self/io")


def main() -> int:
    from bench.press_bench import TIMING, Driver, journaled, started_game
    from drivers.display import DummyDisplay
    from firmware.app import App, Hardware
    from firmware.controller import Controller
    from firmware.journal import Journal

    directory, phase, count, out = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    path = directory / f"sync-{phase}.sqlite"
    for leftover in directory.glob(path.name + "*"):
        leftover.unlink()
    journal = Journal(path)
    try:
        controller = Controller(journal, timing=TIMING)
        controller.attach(journaled(started_game(), journal))
        app = App(controller, Hardware(operator=DummyDisplay()), journal=journal)
        app.refresh()
        d = Driver(app)
        d.choose("Saisir les dés").choose("1").choose("2")
        before, presses = write_bytes(), d.operator
        for i in range(count if phase != "setup" else 0):
            if phase == "menu":
                d.key("down" if i % 2 == 0 else "up")
            else:
                d.choose("Carte : recevoir").key("ok").key("ok")
        with open(out, "w", encoding="utf-8") as file:
            json.dump({"phase": phase, "count": count, "write_bytes": write_bytes() - before,
                       "presses": d.operator - presses,
                       "actions": len(controller.session.game.log)}, file)
    finally:
        journal.close()
        for leftover in directory.glob(path.name + "*"):
            leftover.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
