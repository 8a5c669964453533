"""`corbeille` run by a test, two ways. `run`: in its own process, for what only a process
shows (its exit status, a standard input that is not a terminal, argparse leaving by
sys.exit). `call`: the same `firmware.cli.main` in this process, its standard output and
error captured, without starting an interpreter and importing the box at every command."""
import contextlib
import io
import logging
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args, stdin=None) -> subprocess.CompletedProcess:
    """`python -m firmware.cli ARGS` from the project's folder."""
    return subprocess.run([sys.executable, "-m", "firmware.cli", *map(str, args)], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def call(*args, stdin=None) -> subprocess.CompletedProcess:
    """What `run` gives, from `firmware.cli.main` called here: from the project's folder, `stdin`
    as standard input, warnings logged to standard error bare as in a process that set up no
    logging, help wrapped at 80 columns as when the output is not a terminal, and an argparse
    exit's status as the process's."""
    from firmware.cli import main

    argv = [str(arg) for arg in args]
    out, err = io.StringIO(), io.StringIO()
    log = logging.StreamHandler(err)
    log.setLevel(logging.WARNING)
    logging.getLogger().addHandler(log)
    set_columns = "COLUMNS" not in os.environ
    if set_columns:
        os.environ["COLUMNS"] = "80"
    try:
        with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                _stdin(stdin):
            try:
                code = main(argv)
            except SystemExit as exit_:
                code = _exit_status(exit_.code, err)
    finally:
        logging.getLogger().removeHandler(log)
        if set_columns:
            del os.environ["COLUMNS"]
    return subprocess.CompletedProcess(["corbeille", *argv], code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _stdin(text: str | None):
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO((text or "").encode("utf-8")), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved


def _exit_status(code, err) -> int:
    """The status sys.exit(code) gives a process: None is 0, a number itself, else the
    message printed to standard error and 1."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=err)
    return 1
