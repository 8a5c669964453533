"""Cut a journal at given offsets and replay each cut, one line of output per cut.

Run as a child process by tests/journal/test_journal_cuts.py, which gives every cut its own
timeout: a cut that hangs (a salvage walk that never moves on) fails the test naming its
offset instead of hanging the suite.

    python tests/journal_cuts.py JOURNAL WORKDIR OFFSET...

Each line: "OFFSET RC GAMES ACTIONS FIRST-LINE-OF-STDERR" where RC is `corbeille replay`'s
exit code (0: replayed, 1: refused with a message); any other outcome (a traceback) ends
the child with the traceback on stderr. The engine's replay of a journal content already
replayed by an earlier cut is skipped (`--once`): the journal is still opened, verified and
read for every cut, and the engine replays each distinct content once.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys


def main(argv: list[str]) -> int:
    from firmware.cli import cmd_replay
    from firmware.journal import Journal
    from firmware.journal.reader import JournalReader

    once = argv[0] == "--once"
    source, workdir, *offsets = argv[1:] if once else argv
    replayed = set()
    data = open(source, "rb").read()
    wal = source + "-wal"
    for offset in map(int, offsets):
        case = os.path.join(workdir, f"cut-{offset}")
        os.mkdir(case)
        path = os.path.join(case, "journal.sqlite")
        with open(path, "wb") as f:
            f.write(data[:offset])
        if os.path.exists(wal):
            shutil.copy(wal, path + "-wal")
        out, err = io.StringIO(), io.StringIO()
        content = None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            # What `corbeille replay --journal PATH` runs, less the argument parsing.
            try:
                if once:
                    with Journal(path) as journal:   # opens, salvages, verifies: the part that hung
                        for message in journal.repairs:
                            print(f"corbeille: {message}", file=sys.stderr)
                        content = repr([(h, journal.actions(g)) for g, h in journal.games()])
                if content is None or content not in replayed:
                    rc = cmd_replay(argparse.Namespace(journal=path, game=None, config=None))
                    replayed.add(content)
                else:
                    rc = 0 if content != "[]" else _message(ValueError(f"{path}: no game recorded"))
            except Exception as error:  # noqa: BLE001 - cli.main turns these into messages
                rc = _message(error)
        games = actions = 0
        if rc == 0:
            with JournalReader(path) as journal:
                games = len(journal.games())
                actions = sum(len(journal.actions(g)) for g, _ in journal.games())
        message = (err.getvalue().strip().splitlines() or [""])[0]
        print(offset, rc, games, actions, message, flush=True)
        shutil.rmtree(case)
    return 0


def _message(error: Exception) -> int:
    from engines.core.errors import CorbeilleError

    if isinstance(error, (CorbeilleError, ValueError, OSError)):
        print(f"corbeille: {error}", file=sys.stderr)  # what cli.main prints
        return 1
    raise error


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(main(sys.argv[1:]))
