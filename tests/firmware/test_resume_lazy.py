"""A resume that does not grow with the game's length (PRODUCT.md: "resuming a
3-hour game at most 1.2x a fresh start"), without weakening what the journal guarantees:

* the actions before the snapshot are kept as their stored text and parsed only when
  something reads them (engines/core/log.py); an undo past the snapshot parses them and
  reaches the state of a full replay;
* the box's journal (open_for_box: defer_chain) checks the resumed game's chain from the
  snapshot's row on at resume, and the older rows after the first frame, before the first
  event (App._verify_journal); a damage found then is repaired and said exactly as at open;
* the rules fingerprint is kept in the journal with the stamp of the files it was computed
  from, and a changed file computes it again from the bytes.
"""
import json
import os
import queue
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from drivers.display import DummyDisplay
from drivers.events import InputEvent
from engines import game_class
from engines.core.log import Log
from engines.registry import names
from firmware import session as session_module
from firmware.journal import snapshots
from firmware.app import Hardware, start_app
from firmware.config import config_from_dict
from firmware.journal import Journal, JournalError
from firmware.session import RULES_FILES_KEY, RULES_KEY, Session, rules_fingerprint
from firmware.texts import t
from box_play import IN_MEMORY
from test_journal import tamper
from test_snapshots import counting_applies, journaled


@pytest.fixture
def tmp_path():
    """The journals in memory when there is a tmpfs (tests/box_play.py IN_MEMORY): what a
    resume reads and parses is tested here, not the card's syncs (tests/journal)."""
    with tempfile.TemporaryDirectory(prefix="resume_lazy_", dir=IN_MEMORY) as folder:
        yield Path(folder)


def snapshot_count(journal, game_id):
    return json.loads(journal.get_meta(snapshots.KEY.format(game_id)))["n"]


# ---- the log ---------------------------------------------------------------------------------

def test_a_log_parses_each_text_once_when_it_is_first_read():
    parsed = []

    def parse(text):
        parsed.append(text)
        return int(text)

    log = Log.of_texts(["1", "2", "3"], parse)
    log.append(4)
    assert len(log) == 4 and log.unparsed == 3 and parsed == []
    assert log[-1] == 4 and parsed == []
    tail = log[1:]
    assert isinstance(tail, Log) and tail.unparsed == 2 and parsed == []
    assert log[1] == 2 and parsed == ["2"] and log.unparsed == 2
    assert log[1] == 2 and parsed == ["2"]                      # kept parsed
    assert list(log) == [1, 2, 3, 4] and log == [1, 2, 3, 4] and [1, 2, 3, 4] == log
    assert log != [1, 2, 3] and log.unparsed == 0


@pytest.mark.parametrize("name", names())
def test_a_resume_parses_none_of_the_actions_before_its_snapshot(tmp_path, name):
    journal, session, actions = journaled(tmp_path, name)
    taken = snapshot_count(journal, session.game_id)
    resumed = Session.resume(journal, session.game_id)
    # the snapshot's own action is parsed: its row was checked with the snapshot, and a
    # game ending on it shows it (the last action) on its first frame
    assert isinstance(resumed.game.log, Log) and resumed.game.log.unparsed == taken - 1
    assert resumed.game.snapshot() == session.game.snapshot()
    assert resumed.history() == session.history()                # reads them: parsed now
    assert resumed.game.log.unparsed == 0 and resumed.game.log == actions
    journal.close()


@pytest.mark.parametrize("name", names())
def test_an_undo_past_the_snapshot_parses_the_older_actions_and_reaches_the_state_of_a_full_replay(
        tmp_path, name):
    journal, session, actions = journaled(tmp_path, name)
    taken = snapshot_count(journal, session.game_id)
    resumed = Session.resume(journal, session.game_id)
    back = taken - 7
    resumed.undo_to(back)
    replayed = type(resumed.game).replay(resumed.game.header, actions[:back])
    assert resumed.game.snapshot() == replayed.snapshot() and resumed.game.log == actions[:back]
    assert len(journal.actions(session.game_id)) == back
    resumed.apply(actions[back])                                  # and play on from there
    assert resumed.game.snapshot() == type(resumed.game).replay(resumed.game.header, actions[:back + 1]).snapshot()
    journal.close()


# ---- the chain check deferred at open ------------------------------------------------------------

def long_journal(tmp_path):
    """A closed journal of a Maxi Bourse game of 250-odd actions (snapshot at 200); path,
    actions, snapshot count."""
    journal, session, actions = journaled(tmp_path, "maxibourse")
    taken = snapshot_count(journal, session.game_id)
    game_id = session.game_id
    journal.close()
    return tmp_path / "maxibourse.sqlite", game_id, actions, taken


def test_a_damaged_old_row_found_by_the_deferred_check_is_repaired_and_said_as_at_open(tmp_path):
    path, game_id, actions, taken = long_journal(tmp_path)
    tamper(path, ("UPDATE actions SET body=? WHERE seq=40", '{"kind":"buy","lots":999}'))
    shutil.copy(path, tmp_path / "today.sqlite")
    with Journal(tmp_path / "today.sqlite") as today:                # every chain walked at open
        expected = [r.replace("today.sqlite", "maxibourse.sqlite") for r in today.repairs]
        assert len(expected) == 1 and "cut back to action 40 of" in expected[0]
    with Journal(path, defer_chain=True) as journal:
        assert journal.repairs == [] and journal.deferred
        resumed = Session.resume(journal, game_id)               # from its snapshot
        assert resumed.game.log.unparsed == taken - 1 and len(resumed.game.log) == len(actions)
        assert journal.deferred                                  # rows before the snapshot: not yet
        assert journal.verify_deferred() == expected == journal.repairs
        assert not journal.deferred and len(journal.actions(game_id)) == 40
        assert journal.checksum(game_id, taken - 1) is None     # the snapshot is stale now


def test_a_damaged_row_after_the_snapshot_is_found_at_resume_as_at_open(tmp_path):
    path, game_id, actions, taken = long_journal(tmp_path)
    tamper(path, ("UPDATE actions SET body=? WHERE seq=?", '{"kind":"buy","lots":999}', taken + 3))
    with Journal(path, defer_chain=True) as journal:
        resumed = Session.resume(journal, game_id)
        assert len(journal.repairs) == 1 and f"cut back to action {taken + 3} of {len(actions)}" in journal.repairs[0]
        assert not journal.deferred                               # the whole chain was walked
        assert resumed.game.snapshot() == type(resumed.game).replay(resumed.game.header, actions[:taken + 3]).snapshot()


def test_an_unverified_row_is_never_parsed_into_the_game(tmp_path):
    """Outside the box's loop (which checks before its first event), the first read of an
    older action runs the deferred check first; a damage is raised, never passed over."""
    path, game_id, actions, taken = long_journal(tmp_path)
    with Journal(path, defer_chain=True) as journal:
        resumed = Session.resume(journal, game_id)
        assert resumed.game.log[0] == actions[0] and not journal.deferred    # checked, then parsed
    tamper(path, ("UPDATE actions SET body=? WHERE seq=10", '{"kind":"buy","lots":999}'))
    shutil.copy(path, tmp_path / "copy.sqlite")
    with Journal(path, defer_chain=True) as journal:
        resumed = Session.resume(journal, game_id)
        with pytest.raises(JournalError, match="cut back to action 10 of"):
            resumed.game.log[0]
    with Journal(tmp_path / "copy.sqlite", defer_chain=True) as journal:   # any read of the rows: checked first
        assert journal.deferred and journal.repairs == []
        assert len(journal.actions(game_id)) == 10 and "cut back to action 10" in journal.repairs[0]


def box(tmp_path):
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    config = config_from_dict({"state": {"dir": str(state)}, "operator": {"type": "dummy"}})
    return state, config


def test_the_box_checks_the_older_rows_after_its_first_frame_and_says_what_it_repaired(tmp_path):
    path, game_id, actions, taken = long_journal(tmp_path)
    state, config = box(tmp_path)
    shutil.copy(path, state / "journal.sqlite")
    tamper(state / "journal.sqlite", ("UPDATE actions SET body=? WHERE seq=40", '{"kind":"buy","lots":999}'))
    app = start_app(config, Hardware(operator=DummyDisplay((128, 64), "1")), queue=queue.Queue(), strict=True)
    try:
        c = app.controller
        assert app.journal.deferred and len(c.session.game.log) == len(actions)
        app.refresh()                                           # the first frame: the game as resumed
        assert app.frames_shown == 1 and app.journal.deferred
        app.step(InputEvent("clock", "tick", 1.0))               # the loop's first event: checked before it
        assert not app.journal.deferred
        assert len(app.journal.repairs) == 1 and "cut back to action 40 of" in app.journal.repairs[0]
        assert len(c.session.game.log) == 40 and len(app.journal.actions(game_id)) == 40
        assert c.session.game.snapshot() == type(c.session.game).replay(c.session.game.header, actions[:40]).snapshot()
        assert c.screen().title == t("title.repaired", c.lang)  # said on screen, as at open
    finally:
        app.journal.close()


@pytest.mark.parametrize("ending", ["after the snapshot", "on the snapshot"])
def test_the_box_resumes_an_intact_journal_without_a_message(tmp_path, ending):
    path, game_id, actions, taken = long_journal(tmp_path)
    if ending == "on the snapshot":              # the last action is the snapshot's own
        with Journal(path) as journal:
            journal.undo(game_id, len(actions) - taken)
    state, config = box(tmp_path)
    shutil.copy(path, state / "journal.sqlite")
    app = start_app(config, Hardware(operator=DummyDisplay((128, 64), "1")), queue=queue.Queue(), strict=True)
    try:
        app.refresh()
        assert app.journal.deferred                  # the first frame did not wait for the check
        first = app.controller.screen()
        app.step(InputEvent("clock", "tick", 1.0))
        assert not app.journal.deferred and app.journal.repairs == []
        assert app.controller.screen() == first and app.controller.session.game.log.unparsed == taken - 1
    finally:
        app.journal.close()


# ---- the rules fingerprint ---------------------------------------------------------------------

def test_the_kept_fingerprint_stands_while_the_files_are_the_same_and_a_changed_file_is_hashed_again(tmp_path):
    root = tmp_path / "engines"
    (root / "game").mkdir(parents=True)
    (root / "core.py").write_text("PRICE = 100\n")
    (root / "game" / "rules.py").write_text("START = 5\n")
    journal = Journal(tmp_path / "journal.sqlite")
    session_module._rules_files.cache_clear()
    first = rules_fingerprint(journal, keep=True, root=str(root))
    stamp, kept = journal.get_meta(RULES_FILES_KEY).split(" ")
    assert kept == first
    # the kept value stands for the bytes while the stamp is the same: they are not read
    journal.set_meta(RULES_FILES_KEY, f"{stamp} kept-value")
    assert rules_fingerprint(journal, root=str(root)) == "kept-value"
    # one rule changed, same size, its mtime put back: its change time still tells
    info = os.stat(root / "core.py")
    time.sleep(0.05)
    (root / "core.py").write_text("PRICE = 200\n")
    os.utime(root / "core.py", ns=(info.st_atime_ns, info.st_mtime_ns))
    session_module._rules_files.cache_clear()
    changed = rules_fingerprint(journal, root=str(root))
    assert changed not in (first, "kept-value")
    assert journal.get_meta(RULES_FILES_KEY) == f"{stamp} kept-value"     # not written without keep
    assert rules_fingerprint(journal, keep=True, root=str(root)) == changed
    assert journal.get_meta(RULES_FILES_KEY).endswith(" " + changed)
    session_module._rules_files.cache_clear()
    journal.close()


def test_a_kept_fingerprint_of_other_rules_makes_the_resume_check_every_action(tmp_path, monkeypatch):
    journal, session, actions = journaled(tmp_path, "maxibourse")
    stamp = journal.get_meta(RULES_FILES_KEY).split(" ")[0]
    assert journal.get_meta(RULES_KEY.format(session.game_id)) == rules_fingerprint()
    journal.set_meta(RULES_FILES_KEY, f"{stamp} other-rules")    # as if these files were other rules
    checked = []
    check = type(session.game).check
    monkeypatch.setattr(type(session.game), "check", lambda self, act: (checked.append(act), check(self, act)))
    resumed = Session.resume(journal, session.game_id)
    assert len(checked) == len(actions) and resumed.game.snapshot() == session.game.snapshot()
    # a stamp of other files: the fingerprint is hashed from the bytes, which are these rules
    journal.set_meta(RULES_FILES_KEY, "0" * 32 + " other-rules")
    journal.set_meta(RULES_KEY.format(session.game_id), rules_fingerprint())
    checked.clear()
    assert Session.resume(journal, session.game_id).game.snapshot() == session.game.snapshot()
    assert checked == []
    journal.close()


def test_a_game_resumed_and_played_keeps_the_fingerprint_in_its_next_snapshot_commit(tmp_path):
    journal, session, actions = journaled(tmp_path, "maxibourse", max_actions=150)
    assert journal.get_meta(RULES_FILES_KEY).split(" ")[1] == rules_fingerprint()
    journal.close()


def test_resume_reads_no_action_through_from_json_before_the_snapshot(tmp_path, monkeypatch):
    journal, session, actions = journaled(tmp_path, "maxibourse")
    taken = snapshot_count(journal, session.game_id)
    actions_set = game_class("maxibourse").ACTIONS
    read = []
    from_json = actions_set.from_json
    monkeypatch.setattr(actions_set, "from_json", lambda data: (read.append(data), from_json(data))[1])
    applied = counting_applies(monkeypatch)
    Session.resume(journal, session.game_id)
    assert len(read) == len(actions) - taken + 1 and len(applied) == len(actions) - taken
    journal.close()
