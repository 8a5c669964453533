"""An append takes the previous checksum from the row it appended last (Journal._tail)
instead of reading it back (one statement less per applying press). Kept only
while no other row changed: whatever happens between two appends (the box's UI row, an
undo, a rollback, a failed commit), the hash chain a reopen verifies stays whole."""
import sqlite3

import pytest

from firmware.journal import Journal, JournalError

HEADER = {"game": "maxibourse", "format": "junior", "players": ["Ana", "Ben"], "seed": 1}


def act(i):
    return {"kind": "receive", "player": i % 2, "amount": 1000 * (i + 1)}


class Statements:
    """The SQL the journal's connection runs (sqlite3's trace callback)."""

    def __init__(self, journal):
        self.sql = []
        journal._conn.set_trace_callback(self.sql.append)

    def reads_of_the_last_row(self):
        return [s for s in self.sql if s.startswith("SELECT seq, checksum FROM actions")]


def reopened(path, game):
    """The game's actions as a fresh writer finds them after checking every chain."""
    with Journal(path) as journal:
        assert journal.repairs == []
        return journal.actions(game)


def second_action_held(path):
    """A journal at `path` with a game whose first action is committed and whose second is
    appended in a held step, not yet committed: (journal, game id)."""
    journal = Journal(path)
    game = journal.new_game(HEADER)
    journal.append(game, act(0))
    journal.hold()
    journal.append(game, act(1))
    return journal, game


def test_appends_as_the_box_makes_them_read_no_row_back_and_keep_the_chain(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    game = journal.new_game(HEADER)
    journal.append(game, act(0))                 # the first reads the header's checksum
    seen = Statements(journal)
    for i in range(1, 6):                        # one step each: action, UI row, one commit
        journal.hold()
        journal.append(game, act(i))
        journal.set_meta("ui", f'{{"step": {i}}}')
        journal.commit()
    assert seen.reads_of_the_last_row() == []
    journal.close()
    assert reopened(path, game) == [act(i) for i in range(6)]


def test_after_an_undo_the_next_append_reads_the_last_row_again(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    game = journal.new_game(HEADER)
    for i in range(4):
        journal.append(game, act(i))
    journal.undo(game, 2)
    seen = Statements(journal)
    assert journal.append(game, act(9)) == 2
    assert len(seen.reads_of_the_last_row()) == 1
    journal.close()
    assert reopened(path, game) == [act(0), act(1), act(9)]


def test_a_rolled_back_append_is_not_the_tail(tmp_path):
    path = tmp_path / "j.sqlite"
    journal, game = second_action_held(path)
    journal.set_meta("ui", "{}")
    journal.rollback()                           # the step's commit failed: nothing of it stays
    assert journal.append(game, act(2)) == 1
    journal.close()
    assert reopened(path, game) == [act(0), act(2)]


def test_a_failed_commit_forgets_the_tail(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    journal, game = second_action_held(path)
    real = journal._conn

    class Failing:                               # COMMIT refused, as a full disk would
        def __getattr__(self, name):
            return getattr(real, name)

        def execute(self, sql, *args):
            if sql == "COMMIT":
                raise sqlite3.OperationalError("disk I/O error")
            return real.execute(sql, *args)

    monkeypatch.setattr(journal._commits, "conn", Failing())
    with pytest.raises(JournalError, match="disk I/O error"):
        journal.commit()
    monkeypatch.setattr(journal._commits, "conn", real)
    assert journal._tail is None
    assert journal.append(game, act(2)) == 1
    journal.close()
    assert reopened(path, game) == [act(0), act(2)]


def test_each_game_chains_its_own_rows(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    first = journal.new_game(HEADER)
    journal.append(first, act(0))
    second = journal.new_game(HEADER)
    assert journal.append(second, act(1)) == 0
    assert journal.append(first, act(2)) == 1
    journal.close()
    assert reopened(path, first) == [act(0), act(2)]
    assert reopened(path, second) == [act(1)]
