"""The import rules of DESIGN.md: drivers never import engines or firmware, and importing
any driver module works on a desktop (hardware libraries are loaded lazily)."""
import ast
import pathlib
import subprocess
import sys

import pytest

DRIVERS = pathlib.Path(__file__).resolve().parents[2] / "drivers"
MODULES = sorted(p.stem for p in DRIVERS.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("module", MODULES)
def test_no_engine_or_firmware_imports(module):
    tree = ast.parse((DRIVERS / f"{module}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            assert name.split(".")[0] not in ("engines", "firmware"), f"{module} imports {name}"


def test_importing_every_driver_loads_no_hardware_library():
    code = ("import sys\n"
            f"for m in {MODULES!r}: __import__('drivers.' + m)\n"
            "heavy = [m for m in ('pygame', 'epaper', 'inky', 'RPi', 'smbus2', 'luma.emulator',"
            " 'serial', 'gpiozero', 'luma.oled') if m in sys.modules]\n"
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
