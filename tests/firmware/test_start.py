"""`corbeille run` shows its first frame before loading what that frame does not need
(start -> first frame): the GPIO parts (gpiozero) come after it, and still come;
no game's engine is imported before its game is played (the setup and the configuration
check read what they need from the registry's declarations)."""
import json
import os
import queue
import signal
import socket
import subprocess
import sys
from pathlib import Path

from engines.registry import games
from firmware.config import config_from_dict
from firmware.parts import add_gpio_parts, build_hardware

ROOT = Path(__file__).resolve().parents[2]


def engine_modules(modules):
    """The modules of `modules` that belong to a game's engine: each registered engine's
    module, what it is built on (engines/core/game.py, steps.py), and every module of a game
    package but the declaration (`__init__`), its numbers (`rules`) and its box file's
    reader (`box`: the setup checks whether the box file is verified)."""
    engines = {entry.engine.partition(":")[0] for entry in games().values()} | {"engines.core.game", "engines.core.steps"}
    packages = {f"engines.{entry.engine.split('.')[1]}" for entry in games().values()}
    return sorted(m for m in modules if m in engines
                  or (m.rsplit(".", 1)[0] in packages and m.rsplit(".", 1)[1] not in ("rules", "box"))
                  or any(m.startswith(p + ".") and m.count(".") > 2 for p in packages))


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
    assert "engines.registry" in first and engine_modules(first) == []      # the setup, without an engine
    assert "gpiozero" in at_exit and "drivers.inputs" in at_exit
    assert "_hashlib" not in at_exit     # OpenSSL: 3.4 MiB of RSS (firmware/journal/rows.py)


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


# A fresh interpreter walks the setup of every playable game to its Options (the labels
# of every declared setting), after the configuration's check, then prints what it loaded.
SETUP_WALK = """
import json, sys
from firmware.config import config_from_dict
from firmware.controller import Controller, SetupDefaults
from firmware.games import PLAYABLE
from firmware.journal import Journal
from drivers.events import InputEvent

config = config_from_dict({"game": {"bid_step": 100}})
out = {"games": None, "options": {}}
for index, name in enumerate(PLAYABLE):
    with Journal(sys.argv[1] + f"/{name}.sqlite") as journal:
        c = Controller(journal, defaults=SetupDefaults.from_config(config.game), seed_source=lambda: 5)
        c.boot(0.0)
        t = 0.0
        def key(k):
            global t
            t += 0.05
            c.handle(InputEvent(k, "press", t))
        out["games"] = list(c.screen().items)
        for _ in range(index):
            key("down")
        for _ in range(12):
            key("ok")
            if c.screen().kind == "confirm":
                break
        key("down"); key("down"); key("ok")                 # the summary's third button: the Options
        out["options"][name] = [c.screen().title, *c.screen().items]
out["modules"] = sorted(sys.modules)
print(json.dumps(out))
"""


def test_the_setup_and_the_configuration_check_import_no_engine(tmp_path):
    """Every game's title in the setup's list, and every setting's label in its Options, come
    from the registry's declarations and the game's catalogs: walking the setup of each game
    to its Options, after the configuration check, loads no engine (they load when a game is
    played, replayed or checked)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", SETUP_WALK, str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["games"][:5] == ["Maxi Bourse", "Dividends", "À vendre !", "Shark", "Richesses du Monde"]
    assert seen["options"]["maxibourse"] == ["Options", "Paie : chaque tour", "Bonus V : par groupe", "Dés : joueurs",
                                             "Départ : choisis", "Partie en cours : Non", "Terminé"]
    assert seen["options"]["dividends"] == ["Options", "Dés : joueurs", "Pas d'enchère : 100", "Compagnies : par défaut",
                                            "Partie en cours : Non", "Terminé"]
    for name, items in seen["options"].items():
        assert items[0] == "Options" and len(items) >= 3, name
        assert not [i for i in items if "opt." in i or "ui." in i], (name, items)
    assert engine_modules(seen["modules"]) == []
    assert engine_modules(seen["modules"] + ["engines.shark.game", "engines.dividends.steps.auction"]) == \
        ["engines.dividends.steps.auction", "engines.shark.game"]     # what the check would catch
