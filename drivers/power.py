"""Powering the box off from its buttons, with no privilege in the service.

The service is hardened (systemd/corbeille.service: no capabilities, read-only system) and
cannot power anything off. It asks instead: ``PowerSwitch.request()`` creates the file
``poweroff`` in its runtime directory (/run/corbeille, ``$RUNTIME_DIRECTORY``), and the
root units systemd/corbeille-poweroff.path and .service, installed beside it, see the file
and run ``systemctl poweroff``. systemd then stops the service like any shutdown (SIGTERM;
every action is already in the journal).

Run by hand (no ``$RUNTIME_DIRECTORY``), there is nobody to ask: ``request`` raises
``PowerOffUnavailable`` and the box keeps running.
"""
from __future__ import annotations

import os
from pathlib import Path

REQUEST_NAME = "poweroff"


class PowerOffUnavailable(OSError):
    """No helper to power off through (not run as the installed service)."""


class PowerSwitch:
    def __init__(self, runtime_dir: str | os.PathLike | None = None):
        if runtime_dir is None:
            # systemd may list several directories separated by colons; the first is ours.
            runtime_dir = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0] or None
        self.runtime_dir = Path(runtime_dir) if runtime_dir else None

    @property
    def available(self) -> bool:
        return self.runtime_dir is not None and self.runtime_dir.is_dir()

    def request(self) -> Path:
        """Ask for a clean power-off; returns the request file."""
        if not self.available:
            raise PowerOffUnavailable("power off from the buttons works only in the installed "
                                      "service (systemd/install.sh): no $RUNTIME_DIRECTORY here")
        path = self.runtime_dir / REQUEST_NAME
        path.touch()
        return path
