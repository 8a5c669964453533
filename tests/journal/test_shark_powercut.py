"""Shark and power cuts: a cut between the placement and its payments resumes consistently.

A placement and its payments (success bonus, rises, the falls the holders can pay) are one
action of the journal, applied and committed together: a cut leaves the journal either
without the placement (the box resumes on the placement screen, nothing paid) or with it
(the box resumes on what follows, everything of it paid once). A holder short of cash is
a decision of its own (the forced sale, SH9): a cut there resumes on that decision, the
bonus and rises already paid, the fall still owed.

The "plug pulled" is the state directory copied as it is on disk right after (or during)
the press, and a new box started on the copy.
"""
import shutil

import pytest

import e2e_box
from e2e_box import E2EBox, journal_script
from engines.shark.game import Shark
from firmware.journal.reader import JournalReader
from firmware.script import run_script

SCRIPT = """game shark
players Rouge Bleu Vert
seed 1
deal RED GREEN RED
first Rouge
roll 1 YELLOW
place Rouge C2
done Rouge
roll 1 GREEN
place Bleu A1
buy Bleu YELLOW 1
done Bleu
roll 1 GREEN
place Vert B1
done Vert
roll 1 YELLOW
place Rouge D2
done Rouge
buy Bleu GREEN 1
roll 6 BLUE
place Bleu I6
buy Bleu GREEN 1
done Bleu
roll 1 YELLOW
"""
PLACE = "place Vert C1"          # yellow 3 removes Bleu's green pair: 2 -> 0, Bleu owes 6 000
AFTER = ["forced_sale Bleu YELLOW", "done Vert"]


def pulled_plug(tmp_path, box, name):
    """The state directory as it is on disk now, copied: what a restart after a cut finds."""
    copy = tmp_path / name
    shutil.copytree(tmp_path / "state", copy / "state")
    return copy


def actions_in(state_dir):
    with JournalReader(state_dir / "journal.sqlite") as journal:
        game_id = journal.last_game()
        return journal.header(game_id), [Shark.ACTIONS.from_json(a) for a in journal.actions(game_id)]


def expected(lines):
    return run_script(SCRIPT + "".join(line + "\n" for line in lines)).snapshot()


@pytest.fixture
def journaled(tmp_path, monkeypatch):
    monkeypatch.setattr(e2e_box, "REFERENCES", "e2e_shark")
    journal_script(tmp_path, SCRIPT)
    return tmp_path


def test_a_cut_after_the_placement_resumes_on_the_forced_sale_with_the_bonus_and_rises_paid_once(journaled):
    box = E2EBox(journaled)
    try:
        assert box.c.stack[-1]["t"] == "placement"          # resumed on the placement screen
        vert = box.game.cash(2)
        while box.c.stack[-1].current(box.c) != "C1":
            box.press("down")
        box.press("ok")
        copy = pulled_plug(journaled, box, "cut-after")
    finally:
        box.close()
    header, actions = actions_in(copy / "state")
    assert Shark.ACTIONS.format(actions[-1], header["players"]) == PLACE
    again = E2EBox(copy)
    try:
        game = again.game
        assert game.snapshot() == expected([PLACE])
        assert game.decision().prompt == "prompt.sh.debt" and game.decision().actor == 1
        assert game.cash(2) == vert + 3000                  # Vert's bonus, paid once
        assert game.cash(1) == 1000                         # Bleu's yellow rise paid, the fall still owed
        again.press("ok")                                   # Bleu gives his yellow share, then leaves
        assert game.eliminated(1)
        again.choose("Fin du tour")
        assert game.snapshot() == expected([PLACE] + AFTER)
    finally:
        again.close()


def test_a_cut_while_the_placement_is_written_leaves_it_undone(journaled, monkeypatch):
    box = E2EBox(journaled)
    try:
        game = box.game
        before = game.snapshot()
        while box.c.stack[-1].current(box.c) != "C1":
            box.press("down")

        def cut(*args, **kwargs):
            raise OSError("power cut")

        monkeypatch.setattr(box.app.journal, "append", cut)
        box.press("ok")                                     # the write fails: not journaled, not done
        assert game.snapshot() == before
        copy = pulled_plug(journaled, box, "cut-during")
    finally:
        monkeypatch.undo()
        box.close()
    _, actions = actions_in(copy / "state")
    assert actions[-1].kind == "roll"
    again = E2EBox(copy)
    try:
        assert again.c.stack[-1]["t"] == "placement" and again.game.snapshot() == expected([])
        while again.c.stack[-1].current(again.c) != "C1":
            again.press("down")
        again.press("ok")
        assert again.game.snapshot() == expected([PLACE])
    finally:
        again.close()
