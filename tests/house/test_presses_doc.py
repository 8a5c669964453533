"""docs/presses.md holds what the box takes for the newer games' common actions: the rows
bench/table_presses.py counts on the controller (each setup from its first screen, Richesses
du Monde's joker square and "500 000" square, a pawn put back, A Vendre!'s cash corrected)
are the page's, and the screens fixed for the table keep them short."""
from pathlib import Path

from bench import table_presses
from bench.press_bench import TIMING, Driver
from firmware.controller import Controller
from firmware.session import Session

DOC = Path(__file__).resolve().parents[2] / "docs" / "presses.md"


def fresh(seats=(0, 1, 2), game=None):
    c = Controller(None, timing=TIMING, seat_buttons=seats)
    c.attach(Session(game))
    return Driver(c)


def count(d, run):
    before = (d.operator, d.seat_presses)
    run(d)
    return d.operator - before[0], d.seat_presses - before[1]


def test_the_newer_games_rows_are_the_pages_and_stay_short():
    rows = {action: (op, seat) for action, op, seat, _ in table_presses.rows(fresh, count, TIMING, Driver)}
    page = DOC.read_text(encoding="utf-8")
    for action, (op, seat) in rows.items():
        assert f"| {action} | {op} | {seat} |" in page, f"docs/presses.md is not what the box takes: {action} {op}"
    assert rows["Richesses: a joker square after the dice, no joker bought"] == (1, 0)
    assert rows["Richesses: a joker bought (3 000 000, confirmed)"] == (3, 0)
    assert rows["Richesses: a \"500 000\" square with the box's dice (the dice and the credit shown)"] == (1, 0)
    assert all(op <= 10 for action, (op, _) in rows.items() if "whole setup" in action)
