"""Journals written by earlier firmware still open.

tests/reference/journal/main-v1.sqlite was written by main at 7508aa0 (schema 1, 4 KiB pages,
before the journal's lock, tip file and page scanner) with `corbeille script examples/sony.txt
--journal ...`, then examples/twa.txt, then two meta rows.

tests/reference/journal/main-v2.sqlite was written by the journal2 branch at c9c5906 (schema 2:
header copies as action -1, 1 KiB pages, the rules fingerprint of game 2) the same way: the two
scripts, then `Session.resume` of game 2 and the same two meta rows.

Each must open without a repair, resume, append, and replay to the state the same scripts give
today.
"""
import json
import shutil
from pathlib import Path

import pytest

from firmware.cli import state_json
from firmware.journal import Journal
from firmware.script import run_script
from firmware.session import Session

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "reference" / "journal"


@pytest.mark.parametrize("fixture", ["main-v1.sqlite", "main-v2.sqlite"])
def test_a_journal_written_by_main_opens_replays_and_takes_new_actions(tmp_path, fixture):
    path = tmp_path / "journal.sqlite"
    shutil.copy(FIXTURES / fixture, path)
    with Journal(path) as journal:
        assert journal.repairs == []
        assert [gid for gid, _ in journal.games()] == [1, 2]
        assert [len(journal.actions(gid)) for gid in (1, 2)] == [29, 42]
        assert json.loads(journal.get_meta("ui")) == {"game": 2} and journal.get_meta("lang") == "fr"
        for gid, name in ((1, "sony.txt"), (2, "twa.txt")):
            script = ROOT / "examples" / name
            played = run_script(script.read_text(encoding="utf-8"), str(script))
            header = journal.header(gid)
            cls = type(played)
            replayed = cls.replay(header, [cls.ACTIONS.from_json(a) for a in journal.actions(gid)])
            assert state_json(replayed) == state_json(played), name
            resumed = Session.resume(journal, gid)
            assert resumed.messages == [] and state_json(resumed.game) == state_json(played), name
        assert journal.append(2, {"kind": "end"}) == 42
        third = journal.new_game({"game": "maxibourse", "players": ["Ana", "Ben"], "seed": 3})
        journal.append(third, {"kind": "roll"})
    with Journal(path) as journal:
        assert journal.repairs == [] and len(journal.actions(2)) == 43
        assert journal.actions(third) == [{"kind": "roll"}]
        # Marked schema 2 (its new games carry a header copy): older firmware refuses it.
        assert journal._conn.execute("PRAGMA user_version").fetchone()[0] == 2
