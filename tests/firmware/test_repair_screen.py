"""What the operator screen says when the box starts on a repaired journal: how many
actions of the resumed game were kept, and from which action on they were lost, through
the real start (the journal opened by the box, the controller's boot, the frame drawn)."""
import sqlite3

import pytest

from e2e_box import E2EBox, journal_script
from firmware.texts import t

SCRIPT = "game maxibourse\nplayers Ana Ben\nseed 1\npick Ana SONY\npick Ben SONY\npick Ana CANON\n"


def start(tmp_path, lang):
    return E2EBox(tmp_path, seats=0, extra={"game": {"language": lang}})


def said(box):
    screen = box.screen
    assert screen.kind == "message" and screen.title == t("title.repaired", box.c.lang)
    return screen.lines


@pytest.mark.parametrize("lang, first_line", [
    ("fr", "2 actions gardées ; perte à partir de l'action 3."),
    ("en", "2 actions kept; lost from action 3 on.")])
def test_a_journal_cut_back_at_start_says_the_actions_kept_and_the_first_lost(tmp_path, lang, first_line):
    journal_script(tmp_path, SCRIPT)
    with sqlite3.connect(tmp_path / "state" / "journal.sqlite") as db:    # action 3's row edited
        db.execute("UPDATE actions SET body = replace(body, 'CANON', 'CANOM') WHERE seq = 2")
    box = start(tmp_path, lang)
    try:
        assert said(box) == (first_line, t("repaired.line", lang))
        assert len(box.game.log) == 2
    finally:
        box.close()


@pytest.mark.parametrize("lang, first_line", [("fr", "3 actions gardées."), ("en", "3 actions kept.")])
def test_a_salvaged_journal_says_every_action_was_kept(tmp_path, lang, first_line):
    journal_script(tmp_path, SCRIPT)
    path = tmp_path / "state" / "journal.sqlite"
    data = bytearray(path.read_bytes())
    data[3] ^= 4                                           # a bit of SQLite's magic flipped
    path.write_bytes(bytes(data))
    box = start(tmp_path, lang)
    try:
        assert said(box) == (first_line, t("repaired.line", lang))
        assert len(box.game.log) == 3
        assert list(path.parent.glob("journal.sqlite.damaged-*"))
    finally:
        box.close()


def test_a_salvage_that_loses_the_end_says_where_the_loss_starts(tmp_path):
    journal_script(tmp_path, SCRIPT)
    path = tmp_path / "state" / "journal.sqlite"
    with sqlite3.connect(path) as db:                      # action 2 rewritten, its checksum kept
        db.execute("UPDATE actions SET body = replace(body, 'SONY', 'SONI') WHERE seq = 1")
    with sqlite3.connect(path) as db:                      # its old version gone from the file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[3] ^= 4                                           # and the header damaged: a salvage
    path.write_bytes(bytes(data))
    box = start(tmp_path, "fr")
    try:
        assert said(box)[0] == "1 action gardée ; perte à partir de l'action 2."
        assert len(box.game.log) == 1
    finally:
        box.close()
