"""Storage faults for tests, each made for real in a child process: the code under test is
the real code, and nothing of the journal is patched.

- `read_only(folder, argv)`: argv run with `folder` read-only. As root (who writes through
  any permission bit) the folder is bound read-only in a private mount namespace of the
  child (`unshare --mount`): writes there fail with EROFS, as on a card the kernel
  remounted read-only; otherwise its write permissions are taken away for the run.
- `Shim`: a small LD_PRELOAD library, built here with the system's C compiler, that makes
  the journal's files fail the way a failing card does, switched on and off while the
  child runs (see `SHIM_C`).
"""
from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
from pathlib import Path


@functools.lru_cache(maxsize=1)
def _unshare() -> str | None:
    """Why a private read-only bind mount cannot be made here, or None when it can."""
    if shutil.which("unshare") is None:
        return "no unshare command"
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "mount", "--bind", "/tmp", "/tmp"],
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"unshare --mount refused: {probe.stderr.strip() or probe.stdout.strip()}"


def read_only_reason() -> str | None:
    """Why `read_only` cannot run here, or None."""
    return _unshare() if os.geteuid() == 0 else None


@contextlib.contextmanager
def read_only(folder: Path):
    """Yields a function argv -> argv that runs argv with `folder` read-only (see above)."""
    folder = Path(folder)
    if os.geteuid() == 0:
        def wrap(argv):
            script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
            return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(folder), *argv]
        yield wrap
        return
    modes = {p: p.stat().st_mode for p in [folder, *folder.iterdir()]}
    try:
        for p in modes:
            p.chmod(modes[p] & ~0o222)
        yield lambda argv: list(argv)
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


def tree(folder: Path) -> dict:
    """Every file of `folder` and its bytes: what `read only` must leave exactly as it was."""
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()}
