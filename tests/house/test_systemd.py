"""systemd/: the unit passes `systemd-analyze verify`, keeps its hardening, and the
installer's --dry-run shows every step without changing anything."""
import atexit
import functools
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cli_helpers import call

from firmware.config import config_from_dict, load_config

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "corbeille.service"
WEB_UNIT = ROOT / "systemd" / "corbeille-web.service"
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


def unit_for_analyze(tmp_path: Path, unit: Path = UNIT) -> Path:
    # /opt/corbeille/venv/bin/corbeille does not exist here and verify would stop at it;
    # everything else is checked as written.
    text = unit.read_text()
    text, n = re.subn(r"(?m)^(ExecStart|ExecCondition)=\S+.*$", r"\1=/bin/true", text)
    assert n >= 1
    path = tmp_path / unit.name
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
def test_poweroff_helper_units_pass_systemd_analyze_verify():
    units = [str(ROOT / "systemd" / name) for name in ("corbeille-poweroff.path", "corbeille-poweroff.service")]
    result = analyze("verify", *units)
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if "corbeille-poweroff" in line] == []


def test_poweroff_helper_watches_the_services_runtime_directory():
    path = options((ROOT / "systemd" / "corbeille-poweroff.path").read_text())
    service = options((ROOT / "systemd" / "corbeille-poweroff.service").read_text())
    from drivers.power import REQUEST_NAME

    runtime = options(UNIT.read_text())["RuntimeDirectory"][0]
    assert path["PathExists"] == [f"/run/{runtime}/{REQUEST_NAME}"]
    assert path["Unit"] == ["corbeille-poweroff.service"]
    assert service["Type"] == ["oneshot"]
    assert service["ExecStart"] == ["/usr/bin/systemctl --no-block poweroff"]


def exposure(tmp_path, unit: Path) -> float:
    """`systemd-analyze security`'s overall exposure of a unit file, offline."""
    result = analyze("security", "--offline=true", str(unit_for_analyze(tmp_path, unit)))
    if "--offline" in result.stderr:
        pytest.skip("systemd-analyze security has no --offline (systemd < 250)")
    score = re.search(rf"Overall exposure level for {re.escape(unit.name)}: ([\d.]+)", result.stdout)
    assert score, result.stdout + result.stderr
    return float(score.group(1))


@needs_analyze
def test_security_exposure_stays_low(tmp_path):
    assert exposure(tmp_path, UNIT) <= 1.0   # 0.6 when written; see docs/service.md


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
        "+ python3 -m venv --system-site-packages /opt/corbeille/venv",
        f"+ /opt/corbeille/venv/bin/pip install --use-pep517 --upgrade --upgrade-strategy only-if-needed {ROOT}[pi,web,venue]",
        "+ /opt/corbeille/venv/bin/pip install --upgrade --no-deps waveshare-epaper>=1.3",
        "+ install -m 0644 ", "/etc/systemd/system/corbeille.service",
        "/etc/systemd/system/corbeille-poweroff.path", "/etc/systemd/system/corbeille-web.service",
        "+ systemctl daemon-reload",
        "+ systemctl enable corbeille.service corbeille-poweroff.path corbeille-web.service corbeille-publish.service",
        "+ systemctl restart corbeille.service corbeille-web.service corbeille-publish.service",
        "/etc/systemd/system/corbeille-publish.service",
    ]:
        assert step in out
    # apt installs only what this machine lacks (the fake roots below check the lists).
    assert "+ apt-get install -y --no-install-recommends" in out or "ok: installed: python3-venv" in out
    assert ("+ useradd --system" in out) != ("+ usermod --append --groups gpio,i2c,spi,dialout" in out) \
        or "ok: user corbeille in gpio i2c spi dialout" in out
    assert ("+ write /etc/corbeille/corbeille.toml" in out) != ("keeping /etc/corbeille" in out)
    assert "steps would change this system" in out
    assert [p.exists() for p in watched] == before


# ---- Facts read under CORBEILLE_SYSROOT: a folder laid out like a Pi's root.

PI_PYTHON = ["python3-lgpio", "python3-rpi-lgpio", "python3-spidev", "python3-smbus2", "python3-serial"]
WEB = ["python3-starlette", "python3-uvicorn", "python3-jinja2", "python3-segno", "python3-paho-mqtt"]


def fake_root(tmp_path, *, model=None, raspios=True, config_txt="", cmdline="console=serial0,115200 "
              "console=tty1 root=PARTUUID=1234-02 rootwait", corbeille_toml=None, codename="bookworm"):
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    os_id = "debian"
    (root / "etc" / "os-release").write_text(f'ID={os_id}\nVERSION_CODENAME={codename}\n')
    if raspios:
        (root / "etc" / "rpi-issue").write_text("Raspberry Pi reference 2024-11-19\n")
        boot = root / "boot" / "firmware"
        boot.mkdir(parents=True)
        (boot / "config.txt").write_text(config_txt)
        (boot / "cmdline.txt").write_text(cmdline + "\n")
    if model:
        (root / "proc" / "device-tree").mkdir(parents=True)
        (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    if corbeille_toml is not None:
        (root / "etc" / "corbeille").mkdir()
        (root / "etc" / "corbeille" / "corbeille.toml").write_text(corbeille_toml)
    return root


# apt-cache, each answer kept for the rest of the run: every dry run asks this machine's apt
# the same question (what it can install), and apt building its cache, on a machine without
# one kept on disk, is most of a dry run's time. The answers are apt's own.
KEPT_APT_CACHE = """#!/bin/sh
kept="$(dirname "$0")/answer-$(printf '%s ' "$@" | cksum | tr ' ' -)"
if [ ! -f "$kept" ]; then
    PATH="$CORBEILLE_TEST_PATH" apt-cache "$@" > "$kept.$$" 2>/dev/null
    mv "$kept.$$" "$kept"
fi
cat "$kept"
"""


@functools.cache
def kept_apt_cache() -> Path:
    """A folder holding KEPT_APT_CACHE as `apt-cache`, removed when the run ends."""
    folder = Path(tempfile.mkdtemp(prefix="corbeille-apt-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    (folder / "apt-cache").write_text(KEPT_APT_CACHE)
    (folder / "apt-cache").chmod(0o755)
    return folder


def dry_run(root, machine="aarch64", *args):
    env = dict(os.environ, CORBEILLE_SYSROOT=str(root), CORBEILLE_MACHINE=machine,
               PATH=f"{kept_apt_cache()}{os.pathsep}{os.environ['PATH']}", CORBEILLE_TEST_PATH=os.environ["PATH"])
    return subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True,
                          timeout=60, env=env)


def apt_line(out):
    return next(line for line in out.splitlines() if line.startswith("+ apt-get install"))


def test_on_raspberry_pi_os_the_hardware_libraries_come_from_apt(tmp_path):
    root = fake_root(tmp_path, model="Raspberry Pi 4 Model B Rev 1.4")
    result = dry_run(root)
    assert result.returncode == 0, result.stderr
    assert "machine: Raspberry Pi 4 Model B Rev 1.4, aarch64, raspios bookworm" in result.stdout
    assert apt_line(result.stdout).split()[5:] == ["python3-venv", "i2c-tools", *WEB, *PI_PYTHON,
                                                    "libopenjp2-7", "libjpeg62-turbo", "libtiff6"]
    assert "from PyPI" not in result.stdout


def test_on_plain_debian_what_apt_lacks_comes_from_pypi(tmp_path):
    result = dry_run(fake_root(tmp_path, raspios=False))
    assert result.returncode == 0, result.stderr
    from_apt = apt_line(result.stdout).split()[5:]
    pypi = [line for line in result.stdout.splitlines() if "pip takes them from PyPI" in line]
    from_pypi = pypi[0].split(": ", 1)[1].split() if pypi else []
    # Each library exactly once, from one side or the other; Debian 12 has no lgpio.
    assert sorted(p for p in from_apt + from_pypi if p in PI_PYTHON) == sorted(PI_PYTHON)
    assert "python3-lgpio" in from_pypi and "python3-rpi-lgpio" in from_pypi
    assert "no config.txt under /boot/firmware or /boot" in result.stdout


def test_a_pi_zero_w_is_refused_with_the_reason(tmp_path):
    result = dry_run(fake_root(tmp_path, model="Raspberry Pi Zero W Rev 1.1"), "armv6l")
    assert result.returncode == 1
    assert "armv6l (Pi 1, Zero, Zero W) is not supported" in result.stderr


def test_another_release_is_warned_about(tmp_path):
    result = dry_run(fake_root(tmp_path, model="Raspberry Pi 4 Model B Rev 1.4", codename="trixie"))
    assert result.returncode == 0 and "warning: written and tested for Bookworm" in result.stdout


def test_dry_run_prints_the_config_txt_lines_once(tmp_path):
    root = fake_root(tmp_path, model="Raspberry Pi 4 Model B Rev 1.4",
                     config_txt="dtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n")
    out = dry_run(root).stdout
    assert "+ sh -c echo 'dtparam=i2c_arm=on' >> '/boot/firmware/config.txt'" in out
    assert "+ sh -c echo 'enable_uart=1' >> '/boot/firmware/config.txt'" in out
    assert "ok: /boot/firmware/config.txt has dtparam=spi=on" in out          # idempotent
    assert "ok: /boot/firmware/config.txt has dtparam=i2c_arm_baudrate=400000" in out
    assert "uart0" not in out                                                 # a Pi 5 line


def test_a_pi_5_gets_uart0_on_the_header(tmp_path):
    out = dry_run(fake_root(tmp_path, model="Raspberry Pi 5 Model B Rev 1.0")).stdout
    assert "+ sh -c echo 'dtparam=uart0=on' >> '/boot/firmware/config.txt'" in out


def test_the_login_console_leaves_the_uart_only_when_a_serial_device_needs_it(tmp_path):
    model = "Raspberry Pi 3 Model B Plus Rev 1.3"
    quiet = dry_run(fake_root(tmp_path / "a", model=model)).stdout
    assert "ok: serial login console left alone (no serial device configured)" in quiet
    assert "cmdline.txt" not in quiet
    reader = dry_run(fake_root(tmp_path / "b", model=model,
                               corbeille_toml="[rfid]\nenabled = true\n")).stdout
    assert "+ sed -i s/ *console=serial0,[0-9]*// /boot/firmware/cmdline.txt" in reader


def test_uninstall_removes_the_service_and_keeps_settings_and_journal(tmp_path):
    result = subprocess.run(["bash", str(INSTALL), "--uninstall", "--dry-run"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "+ systemctl disable --now corbeille.service corbeille-poweroff.path corbeille-web.service corbeille-publish.service" in out
    assert "kept: /etc/corbeille/corbeille.toml (your settings), /var/lib/corbeille (the game journal)" in out
    assert "apt-get" not in out and "useradd" not in out


def test_plain_debian_takes_the_web_view_from_apt_too(tmp_path):
    result = dry_run(fake_root(tmp_path, raspios=False))
    assert set(WEB) <= set(apt_line(result.stdout).split()[5:])


# ---- The web view's unit (corbeille-web.service, docs/web.md)

@needs_analyze
def test_web_unit_passes_systemd_analyze_verify(tmp_path):
    path = unit_for_analyze(tmp_path, WEB_UNIT)
    result = analyze("verify", str(path))
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if path.name in line] == []


@needs_analyze
def test_web_unit_is_sandboxed(tmp_path):
    assert exposure(tmp_path, WEB_UNIT) <= 2.0   # 1.1 when written; see docs/web.md


def test_web_unit_reads_the_box_and_writes_only_its_runtime_folder():
    found = options(WEB_UNIT.read_text())
    single = {k: v[-1] for k, v in found.items()}
    box = {k: v[-1] for k, v in options(UNIT.read_text()).items()}
    assert single["User"] == box["User"] and single["Group"] == box["Group"]     # the box's files
    assert single["ExecStart"] == "/opt/corbeille/venv/bin/corbeille web"
    assert single["ExecCondition"] == "/opt/corbeille/venv/bin/corbeille web --check"
    # The box's state folder, by the variable the configuration reads, never writable here.
    assert single["Environment"] != "" and "STATE_DIRECTORY=/var/lib/corbeille" in found["Environment"]
    assert "StateDirectory" not in single and "ReadWritePaths" not in single
    assert single["ProtectSystem"] == "strict" and single["PrivateDevices"] == "yes"
    # Both units agree on where the live channel is: the box's runtime folder under /run.
    assert "CORBEILLE_RUN=/run" in found["Environment"] and "CORBEILLE_RUN=/run" in options(UNIT.read_text())["Environment"]
    assert single["RuntimeDirectory"] == "corbeille-web" and box["RuntimeDirectory"] == "corbeille"


def test_web_unit_options_say_why():
    previous = ""
    for number, line in enumerate(WEB_UNIT.read_text().splitlines(), 1):
        is_option = "=" in line and not line.startswith("#")
        if is_option and (previous.strip() == "" or previous.startswith("[")):
            pytest.fail(f"corbeille-web.service:{number}: {line} has no comment saying why")
        previous = line


def test_the_avahi_service_and_the_access_point_come_from_the_configuration(tmp_path):
    config = tmp_path / "corbeille.toml"
    config.write_text('[web]\nenabled = true\nport = 8090\naccess_point = true\nap_ssid = "Table 3"\n'
                      'ap_password = "pass;word"\n')
    # What it prints, from the command called here; the check's exit status, which systemd's
    # ExecCondition reads, from a real process.
    said = lambda *args: call("--config", config, "web", *args).stdout
    run = lambda *args: subprocess.run([sys.executable, "-m", "firmware.cli", "--config", str(config), "web", *args],
                                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    service = said("--avahi-service")
    assert "<type>_http._tcp</type>" in service and "<port>8090</port>" in service
    command = shlex.split(said("--access-point"))
    assert command[:5] == ["nmcli", "connection", "add", "type", "wifi"]
    profile = dict(zip(command[5::2], command[6::2]))
    assert profile["con-name"] == "corbeille-ap" and profile["ssid"] == "Table 3"
    assert profile["802-11-wireless.mode"] == "ap" and profile["ipv4.method"] == "shared"
    assert profile["wifi-sec.key-mgmt"] == "wpa-psk" and profile["wifi-sec.psk"] == "pass;word"
    assert run("--check").returncode == 0
    config.write_text("[web]\nenabled = false\n")
    assert run("--check").returncode == 1


def test_the_installer_announces_the_page_and_makes_the_access_point_only_when_asked(tmp_path):
    quiet = dry_run(fake_root(tmp_path / "a", model="Raspberry Pi 4 Model B Rev 1.4")).stdout
    assert "ok: no access point asked for ([web] access_point)" in quiet
    root = fake_root(tmp_path / "b", model="Raspberry Pi 4 Model B Rev 1.4",
                     corbeille_toml="[web]\nenabled = true\naccess_point = true\n")
    (root / "etc" / "avahi" / "services").mkdir(parents=True)
    out = dry_run(root).stdout
    assert "+ write /etc/avahi/services/corbeille.service" in out
    assert "ok: no access point asked for" not in out


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


# ---- make test-arm64 (systemd/test-arm64.sh): its real run takes minutes and root, so CI
# runs it from .ci/run after make test; here only what decides whether it runs.

ARM64 = ROOT / "systemd" / "test-arm64.sh"


def test_arm64_script_parses():
    subprocess.run(["bash", "-n", str(ARM64)], check=True)


def test_arm64_script_skips_saying_why_where_it_cannot_run():
    # As root, drop to nobody: no root, no mounts, so it must skip and exit 0, never fail CI.
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    result = subprocess.run([*drop, "bash", str(ARM64)], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, HOME="/nonexistent"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "test-arm64: SKIPPED: needs root (debootstrap, chroot, mounts)"


def test_ci_runs_the_arm64_test_after_make_test():
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.index("make test") < ci.index("bash systemd/test-arm64.sh")


def test_make_run_installs_the_app_without_test_tools(tmp_path):
    # `make run` on a fresh checkout: the app alone (no pytest, hypothesis, pygame).
    result = subprocess.run(["make", "-n", "run", f"VENV={tmp_path / 'venv'}"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    installs = [line for line in result.stdout.splitlines() if "pip install" in line and "--upgrade pip" not in line]
    assert installs == [f"{tmp_path / 'venv'}/bin/python -m pip install --quiet -e ."]
    tests = subprocess.run(["make", "-n", "test", f"VENV={tmp_path / 'venv'}"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60).stdout
    assert "pip install --quiet -e '.[test]'" in tests


# ---- The venue's units (corbeille-publish.service on a box, corbeille-venue.service on the
# venue's host, docs/venue.md) and the broker's drop-in

VENUE_UNITS = [ROOT / "systemd" / "corbeille-publish.service", ROOT / "systemd" / "corbeille-venue.service"]


@needs_analyze
@pytest.mark.parametrize("unit", VENUE_UNITS, ids=lambda u: u.name)
def test_venue_units_pass_systemd_analyze_verify_and_are_sandboxed(tmp_path, unit):
    path = unit_for_analyze(tmp_path, unit)
    result = analyze("verify", str(path))
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if path.name in line] == []
    assert exposure(tmp_path, unit) <= 2.0


@pytest.mark.parametrize("unit", VENUE_UNITS, ids=lambda u: u.name)
def test_venue_units_options_say_why(unit):
    previous = ""
    for number, line in enumerate(unit.read_text().splitlines(), 1):
        is_option = "=" in line and not line.startswith("#")
        if is_option and (previous.strip() == "" or previous.startswith("[")):
            pytest.fail(f"{unit.name}:{number}: {line} has no comment saying why")
        previous = line


def test_the_publisher_reads_the_box_and_writes_nothing():
    found = options(VENUE_UNITS[0].read_text())
    single = {k: v[-1] for k, v in found.items()}
    box = {k: v[-1] for k, v in options(UNIT.read_text()).items()}
    assert single["User"] == box["User"] and single["ExecStart"] == "/opt/corbeille/venv/bin/corbeille publish"
    assert single["ExecCondition"] == "/opt/corbeille/venv/bin/corbeille publish --check"
    assert "STATE_DIRECTORY=/var/lib/corbeille" in found["Environment"]
    assert not {"StateDirectory", "ReadWritePaths", "RuntimeDirectory"} & set(single)
    assert single["ProtectSystem"] == "strict"
    venue = {k: v[-1] for k, v in options(VENUE_UNITS[1].read_text()).items()}
    assert venue["StateDirectory"] == "corbeille-venue" and venue["ExecStart"].endswith("corbeille venue")


def test_the_publish_check_follows_the_configuration(tmp_path):
    config = tmp_path / "corbeille.toml"
    run = lambda: subprocess.run([sys.executable, "-m", "firmware.cli", "--config", str(config), "publish", "--check"],
                                 capture_output=True, text=True, timeout=60, cwd=ROOT)
    config.write_text("[venue]\nenabled = false\n")
    assert run().returncode == 1
    config.write_text('[venue]\nenabled = true\ntable = "salon"\n')
    assert run().returncode == 0


def test_the_brokers_shipped_configuration_is_whole_and_the_drop_in_starts_it(tmp_path):
    shipped = ROOT / "systemd" / "mosquitto"
    lines = [line.split(None, 1) for line in (shipped / "corbeille.conf").read_text().splitlines()
             if line and not line.startswith("#")]
    conf = {key: value for key, value in lines}
    assert conf["user"] == "mosquitto" and conf["persistence"] == "true" and conf["allow_anonymous"] == "false"
    assert conf["acl_file"] == "/etc/mosquitto/corbeille.acl" and conf["password_file"] == "/etc/mosquitto/corbeille.passwd"
    drop_in = options((shipped / "mosquitto-override.conf").read_text())
    assert drop_in["ExecStart"] == ["", "/usr/sbin/mosquitto -c /etc/mosquitto/corbeille.conf"]


def test_installer_makes_a_venue_host_only_when_asked(tmp_path):
    root = fake_root(tmp_path, model="Raspberry Pi 4 Model B Rev 1.4")
    plain = dry_run(root).stdout
    assert "== Venue host" not in plain and "corbeille-venue" not in plain
    result = dry_run(root, "aarch64", "--venue")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for step in [
        "+ apt-get install -y --no-install-recommends mosquitto",
        f"+ install -m 0644 {ROOT}/systemd/mosquitto/corbeille.conf /etc/mosquitto/corbeille.conf",
        f"+ install -m 0644 {ROOT}/systemd/mosquitto/corbeille.acl /etc/mosquitto/corbeille.acl",
        f"+ install -D -m 0644 {ROOT}/systemd/mosquitto/mosquitto-override.conf "
        "/etc/systemd/system/mosquitto.service.d/corbeille.conf",
        "+ install -m 0600 -o mosquitto -g mosquitto /dev/null /etc/mosquitto/corbeille.passwd",
        f"+ install -m 0644 {ROOT}/systemd/corbeille-venue.service /etc/systemd/system/corbeille-venue.service",
        "+ systemctl enable mosquitto.service corbeille-venue.service",
        "+ systemctl restart mosquitto.service corbeille-venue.service",
    ]:
        assert step in out
    assert "mosquitto_passwd" in out                     # the accounts: said, never invented
