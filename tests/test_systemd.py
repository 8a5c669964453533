"""systemd/: the unit passes `systemd-analyze verify`, keeps its hardening, and the
installer's --dry-run shows every step without changing anything."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware.config import config_from_dict, load_config

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "corbeille.service"
INSTALL = ROOT / "systemd" / "install.sh"

needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed")


def options(text: str) -> dict[str, list[str]]:
    """Key -> values (a key may repeat, like DeviceAllow=) over all sections."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def unit_for_analyze(tmp_path: Path) -> Path:
    # /opt/corbeille/venv/bin/corbeille does not exist here and verify would stop at it;
    # everything else is checked as written.
    text = UNIT.read_text()
    text, n = re.subn(r"(?m)^ExecStart=\S+", "ExecStart=/bin/true", text)
    assert n == 1
    path = tmp_path / "corbeille.service"
    path.write_text(text)
    return path


def analyze(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["systemd-analyze", *args], capture_output=True, text=True, timeout=60)


@needs_analyze
def test_unit_passes_systemd_analyze_verify(tmp_path):
    path = unit_for_analyze(tmp_path)
    result = analyze("verify", str(path))
    # verify exits 0 on unknown keys, so read what it says about this file.
    about_us = [line for line in result.stderr.splitlines() if path.name in line]
    assert result.returncode == 0, result.stderr
    assert about_us == [], "\n".join(about_us)


@needs_analyze
def test_security_exposure_stays_low(tmp_path):
    result = analyze("security", "--offline=true", str(unit_for_analyze(tmp_path)))
    if "--offline" in result.stderr:
        pytest.skip("systemd-analyze security has no --offline (systemd < 250)")
    score = re.search(r"Overall exposure level for corbeille\.service: ([\d.]+)", result.stdout)
    assert score, result.stdout + result.stderr
    assert float(score.group(1)) <= 1.0   # 0.6 when written; see docs/service.md


def test_unit_has_the_required_options():
    found = options(UNIT.read_text())
    single = {k: v[-1] for k, v in found.items()}
    expected = {
        "Type": "notify", "NotifyAccess": "main", "WatchdogSec": "10",
        "Restart": "on-failure", "RestartSec": "2",
        "User": "corbeille", "StateDirectory": "corbeille", "ConfigurationDirectory": "corbeille",
        "ExecStart": "/opt/corbeille/venv/bin/corbeille run",
        "DevicePolicy": "closed", "ProtectSystem": "strict", "ProtectHome": "yes",
        "NoNewPrivileges": "yes", "PrivateTmp": "yes", "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes", "ProtectControlGroups": "yes",
        "RestrictAddressFamilies": "AF_UNIX", "RestrictNamespaces": "yes",
        "LockPersonality": "yes", "MemoryDenyWriteExecute": "yes",
        "SystemCallArchitectures": "native", "CapabilityBoundingSet": "",
    }
    assert {k: single.get(k) for k in expected} == expected
    assert set(single["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi", "dialout"}
    assert set(found["DeviceAllow"]) >= {"char-gpiochip rw", "char-i2c rw", "char-spi rw",
                                         "char-ttyS rw", "char-ttyAMA rw", "/dev/gpiomem rw"}
    # PrivateDevices=yes would hide the GPIO, I2C, SPI and serial devices.
    assert single.get("PrivateDevices", "no") not in ("yes", "true", "1", "on")


def test_every_option_says_why():
    # Each run of option lines opens with a comment (Phoniebox style).
    previous = ""
    for number, line in enumerate(UNIT.read_text().splitlines(), 1):
        is_option = "=" in line and not line.startswith("#")
        opens_a_run = previous.strip() == "" or previous.startswith("[")
        if is_option and opens_a_run:
            pytest.fail(f"corbeille.service:{number}: {line} has no comment saying why")
        previous = line


def test_installer_and_unit_agree_on_the_venv():
    venv = re.search(r"(?m)^VENV=(\S+)$", INSTALL.read_text()).group(1)
    assert options(UNIT.read_text())["ExecStart"][0].startswith(f"{venv}/bin/")


def test_installer_parses():
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)


def run_install(*args):
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60)


def test_installer_dry_run_shows_every_step_and_changes_nothing():
    watched = [Path("/opt/corbeille"), Path("/etc/corbeille"),
               Path("/etc/systemd/system/corbeille.service")]
    before = [p.exists() for p in watched]
    result = run_install("--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for step in [
        "+ apt-get install -y --no-install-recommends python3-venv python3-dev",
        f"+ /opt/corbeille/venv/bin/pip install --upgrade {ROOT}[pi]",
        "+ install -m 0644 ", "/etc/systemd/system/corbeille.service",
        "+ systemctl daemon-reload", "+ systemctl enable corbeille.service",
        "+ systemctl restart corbeille.service",
    ]:
        assert step in out
    assert ("+ useradd --system" in out) != ("+ usermod --append --groups gpio,i2c,spi,dialout" in out)
    assert ("raspi-config nonint do_i2c 0" in out) != ("raspi-config not found" in out)
    assert ("+ write /etc/corbeille/corbeille.toml" in out) != ("keeping /etc/corbeille" in out)
    assert [p.exists() for p in watched] == before


def test_installer_refuses_unknown_options():
    result = run_install("--force")
    assert result.returncode == 2 and "--dry-run" in result.stderr


def test_installer_needs_root():
    # As root (CI containers), drop to nobody with setpriv so a real install cannot start.
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    result = subprocess.run([*drop, "bash", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "must run as root" in result.stderr


def test_installed_config_is_the_example_with_the_oled_on(tmp_path):
    # The installer sources cleanly (main runs only when executed) and writes this.
    text = subprocess.run(["bash", "-c", f'source "{INSTALL}"; pi_config'],
                          capture_output=True, text=True, check=True).stdout
    path = tmp_path / "corbeille.toml"
    path.write_text(text)
    config = load_config(path)
    assert config.operator.type == "oled" and config.operator.interface == "i2c"
    expected = config_from_dict({"operator": {"type": "oled"}})
    assert (config.operator, config.game, config.seats) == (expected.operator, expected.game, expected.seats)
