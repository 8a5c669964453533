"""`corbeille` as the start benchmark runs it: the real command line, plus a note taken by
the child itself when its first frame is shown (systemd's READY=1).

    python -m bench.start_child [--exit-at-first-frame] OUT.json corbeille-arguments...

At the first frame the child writes to OUT.json the modules it has imported (their
import, alone, is the floor of a start), its own memory from /proc/self/status
(VmHWM: its peak resident set so far; VmRSS) -- read in the child, not inherited from
the parent that spawned it -- and the CPU time it has used (`cpu`, seconds, all its
threads: less moved than the wall time by a machine shared with other work). It notes
the same at exit in OUT.json.exit. `--exit-at-first-frame`: the child ends there (no exit
note), so that what runs it (valgrind counting instructions: bench/resume_games.py) counts
the start alone.
"""
import json
import os
import sys
import time


def _memory() -> dict:
    out = {}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmHWM", "VmRSS"):
                    out[key] = int(value.split()[0])          # KiB
    except OSError:
        pass
    return out


def main() -> int:
    args = sys.argv[1:]
    stop = args[:1] == ["--exit-at-first-frame"]
    out, argv = args[stop], args[stop + 1:]
    import firmware.notify

    ready = firmware.notify.Notifier.ready
    noted = []

    def noting_ready(self):
        if not noted:
            noted.append(True)
            modules = sorted(name for name in sys.modules
                             if name != "__main__" and not name.startswith("bench"))
            with open(out, "w", encoding="utf-8") as file:
                json.dump({"modules": modules, "cpu": time.process_time(), **_memory()}, file)
            if stop:
                os._exit(0)
        return ready(self)

    firmware.notify.Notifier.ready = noting_ready
    from firmware.cli import main as corbeille

    try:
        return corbeille(argv)
    finally:
        with open(out + ".exit", "w", encoding="utf-8") as file:
            json.dump({"modules": sorted(sys.modules), **_memory()}, file)


if __name__ == "__main__":
    sys.exit(main())
