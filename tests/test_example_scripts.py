"""The example scripts shipped in examples/ run and give the rulebook's figures."""
from pathlib import Path

from engines.maxibourse.game import snapshot
from firmware.script import run_script

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(name):
    return snapshot(run_script((EXAMPLES / name).read_text(encoding="utf-8"), name))


def test_sony_example_script():
    s = run("sony.txt")
    assert s["companies"]["SONY"]["price"] == 400
    assert [p["cash"] for p in s["players"]] == [4_600_000, 4_600_000, 4_200_000, 4_600_000]


def test_twa_example_script():
    s = run("twa.txt")
    assert s["companies"]["TWA"]["price"] == 540
    assert [p["cash"] for p in s["players"]] == [5_000_000, 4_460_000, 4_460_000, 5_000_000]
