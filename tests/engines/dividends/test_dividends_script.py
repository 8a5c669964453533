"""Dividends in the command language: the documented script runs with the figures the
documentation gives, and `corbeille script` prints the state as JSON."""
import json
import re
from pathlib import Path

from firmware.cli import main
from firmware.script import export_script, run_script

PROTOCOL = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


def documented_script():
    text = PROTOCOL.read_text(encoding="utf-8")
    section = text[text.index("## Dividends"):]
    return re.search(r"```\n(game dividends\n.*?)```", section, re.S).group(1)


def test_the_documented_year_gives_the_documented_figures():
    game = run_script(documented_script(), "docs/protocol.md")
    s = game.snapshot()
    assert s["year"] == 2 and s["step"] == "dice"
    assert s["turn_order"] == ["Marie", "Sam", "Pierre", "Jean"]
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Jean": 2750, "Marie": 1450, "Pierre": 2200,
                                                            "Sam": 2950}
    assert s["last_payment"]["Marie"] == {"dividends": 800, "cards": 2}
    assert s["companies"]["DESERT-OIL"]["dividend"] == 400 and s["companies"]["DESERT-OIL"]["zone"] == "white"
    assert s["companies"]["TRANS-PACIFIC"]["majority"] == "Pierre"  # the Buy In he could not choose
    again = run_script(export_script(game.header, game.log))
    assert again.snapshot() == s


def test_corbeille_script_prints_the_dividends_state(tmp_path, capsys):
    path = tmp_path / "year1.txt"
    path.write_text(documented_script(), encoding="utf-8")
    assert main(["script", str(path)]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["game"] == "dividends" and s["private"] == ["players.*.cash"]
    marie = s["players"][1]
    assert marie == {"name": "Marie", "cash": 1450, "certificates": {"GLOBAL-MOBILE": 1, "DESERT-OIL": 2},
                     "influence_cards": 2, "token": 1, "majority_tiles": ["GLOBAL-MOBILE", "DESERT-OIL"]}
    desert = s["companies"]["DESERT-OIL"]
    assert (desert["certificates_left"], desert["buy_price"], desert["sell_price"]) == (8, 1400, 1200)
    assert s["pending"]["prompt"] == "prompt.dv.dice" and s["pending"]["actor"] is None


def test_a_refused_line_names_the_line_and_what_is_allowed(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("game dividends\nplayers Jean Marie\ndice +1 +2 +4\n", encoding="utf-8")
    assert main(["script", str(path)]) == 1
    err = capsys.readouterr().err
    assert "bad.txt:3:" in err and "DESERT-OIL is in the grey zone: its die cannot show +4; moves DESERT-OIL allowed: -3, -2, -1, 1, 2, 3" in err
