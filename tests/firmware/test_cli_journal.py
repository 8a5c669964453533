"""The command line around the journal: `corbeille script --journal` records a game,
`corbeille export` prints it in the command language, which `corbeille script` reads back
to the same state, and `corbeille replay` rebuilds the same state from the journal."""
import json
import sqlite3
from pathlib import Path

from cli_helpers import call as corbeille
from cli_helpers import run

ROOT = Path(__file__).resolve().parents[2]
SONY = ROOT / "examples" / "sony.txt"


def test_script_journal_export_replay_round_trip(tmp_path):
    """The round trip in real processes, the script read from standard input; the tests after
    call the same commands in the test's process."""
    journal = tmp_path / "journal.sqlite"
    played = run("script", SONY, "--journal", journal)
    assert played.returncode == 0, played.stderr
    exported = run("export", "--journal", journal)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.splitlines()[:3] == ["game maxibourse", "format junior",
                                                "players Sophie Thierry Didier Dominique"]
    assert "declare Didier 2" in exported.stdout and "set_price SONY 350 " in exported.stdout
    again = run("script", "-", stdin=exported.stdout)
    assert again.returncode == 0, again.stderr
    replayed = run("replay", "--journal", journal)
    assert replayed.returncode == 0, replayed.stderr
    state = json.loads(played.stdout)
    assert json.loads(again.stdout) == state == json.loads(replayed.stdout)
    assert state["companies"]["SONY"]["price"] == 400


def test_undo_in_a_script_is_undone_in_the_journal(tmp_path):
    journal = tmp_path / "journal.sqlite"
    text = SONY.read_text(encoding="utf-8") + "undo\n"
    assert corbeille("script", "-", "--journal", journal, stdin=text).returncode == 0
    exported = corbeille("export", "--journal", journal).stdout
    assert exported.rstrip().splitlines()[-1] == "declare Dominique 1"  # the settle was undone


def test_a_damaged_tail_is_cut_back_with_a_message(tmp_path):
    journal = tmp_path / "journal.sqlite"
    assert corbeille("script", SONY, "--journal", journal).returncode == 0
    with sqlite3.connect(journal) as db:  # behind the journal's back: the last row changes
        db.execute("""UPDATE actions SET body = '{"kind":"end"}' WHERE seq = (SELECT max(seq) FROM actions)""")
    replayed = corbeille("replay", "--journal", journal)
    assert replayed.returncode == 0, replayed.stderr
    assert "cut back" in replayed.stderr
    assert json.loads(replayed.stdout)["pending"]["prompt"] == "prompt.mb.settle"  # the settle is gone


def test_journal_errors_are_messages_not_tracebacks(tmp_path):
    missing = corbeille("export", "--journal", tmp_path / "nowhere" / "journal.sqlite")
    assert missing.returncode == 1 and "does not exist" in missing.stderr and "Traceback" not in missing.stderr
    absent = corbeille("replay", "--journal", tmp_path / "absent.sqlite")     # a reader makes no file
    assert absent.returncode == 1 and "does not exist" in absent.stderr and not list(tmp_path.iterdir())
    from firmware.journal import Journal
    Journal(tmp_path / "empty.sqlite").close()
    empty = corbeille("replay", "--journal", tmp_path / "empty.sqlite")
    assert empty.returncode == 1 and "no game recorded" in empty.stderr
