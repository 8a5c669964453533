"""`corbeille run` shows its first frame before loading what that frame does not need
(issue 11: start -> first frame): the GPIO parts (gpiozero) come after it, and still come."""
import json
import os
import queue
import signal
import socket
import subprocess
import sys
from pathlib import Path

from firmware.config import config_from_dict
from firmware.parts import add_gpio_parts, build_hardware

ROOT = Path(__file__).resolve().parent.parent


def test_the_first_frame_comes_before_gpiozero_and_the_buttons_after_it(tmp_path):
    config = tmp_path / "corbeille.toml"
    config.write_text(f'[state]\ndir = "{tmp_path}"\n[operator]\ntype = "dummy"\n[seats]\ncount = 3\n'
                      '[buzzer]\nenabled = true\n')
    sock_path, note = tmp_path / "notify.sock", tmp_path / "child.json"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(60)
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", NOTIFY_SOCKET=str(sock_path), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "bench.start_child", str(note), "--config", str(config), "run"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert sock.recv(100) == b"READY=1"
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        sock.close()
    assert proc.returncode == 0, err.decode()
    first = json.loads(note.read_text())["modules"]
    at_exit = json.loads(Path(f"{note}.exit").read_text())["modules"]
    assert "firmware.render" in first and "PIL.ImageDraw" in first
    assert not [m for m in first if m.split(".")[0] == "gpiozero"]
    assert "gpiozero" in at_exit and "drivers.inputs" in at_exit
    assert "_hashlib" not in at_exit     # OpenSSL: 3.4 MiB of RSS (firmware/journal_rows.py)


def test_gpio_parts_are_added_to_the_same_hardware(tmp_path):
    from gpiozero.pins.mock import MockFactory

    config = config_from_dict({"state": {"dir": str(tmp_path)}, "operator": {"type": "dummy"},
                               "seats": {"count": 2}, "buzzer": {"enabled": True}})
    pins = MockFactory()
    try:
        hw = build_hardware(config, queue.Queue(), pin_factory=pins, gpio=False)
        assert hw.inputs == [] and hw.beeper is None and hw.operator is not None
        add_gpio_parts(hw, config, queue.Queue(), pin_factory=pins)
        assert len(hw.inputs) == 2 and hw.beeper is not None
        assert [p.key for p in hw.parts] == ["display", "buzzer"]
        hw.close()
    finally:
        pins.close()
