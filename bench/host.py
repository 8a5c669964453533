"""The machine a benchmark ran on, printed beside its figures.

Apart from the benchmarks themselves so each can name its machine and filesystem without
importing another benchmark (mb_bench runs the journal benchmark: importing it for
these would make an import circle).
"""
from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path


def machine() -> dict:
    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware", "cpu model") and value.strip():
                cpu = value.strip()
                if key.strip() in ("model name", "Model"):
                    break
    except OSError:
        pass
    return {
        "cpu": cpu or platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "system": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "date": datetime.date.today().isoformat(),
    }


def filesystem(directory: Path) -> str:
    """The filesystem type holding `directory` (from /proc/mounts), for the journal lines."""
    try:
        best, kind = "", "?"
        target = str(directory.resolve())
        for line in Path("/proc/mounts").read_text().splitlines():
            _, mount, fstype, *_ = line.split()
            if target.startswith(mount) and len(mount) > len(best):
                best, kind = mount, fstype
        return kind
    except OSError:
        return "?"
