"""What the box does with a card that refuses a write, in one process:
the box's loop on the journal it runs on when its card cannot be written
(`ReadOnlyJournal`, whose every write is refused as such a card refuses it), and what a
full card gets freed (`storage.free`). The faults made for real, in child processes, are
tests/journal/test_storage_faults.py."""
import json
import os

import pytest

from drivers.display import DummyDisplay
from drivers.events import InputEvent
from drivers.outputs import RecordingBeeper, RecordingSeatLights
from engines.core.files import keep_parsed_in, read_toml
from firmware.journal import snapshots, storage
from firmware.app import App, Hardware, attach_journal
from firmware.controller import Controller
from firmware.journal import Journal, JournalError
from firmware.journal.readonly import ReadOnlyJournal
from test_inputs_fuzz import Console
from test_journal_box import holder  # noqa: F401 - a fixture
from test_storage_faults import random_game


def test_a_refused_action_is_not_answered_shown_lit_nor_buzzed_as_done(tmp_path, holder):
    head, lines, actions = random_game("maxibourse", 105)
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game = journal.new_game(head)
        for action in actions[:30]:
            journal.append(game, action)
    holder(path)        # the box cannot open it for writing again: every press keeps finding so
    journal = ReadOnlyJournal(path, storage.Fault("read_only", "the card is read-only"))
    controller = Controller(None, lang="fr", seat_buttons=range(3))
    attach_journal(controller, journal, tmp_path)
    controller.boot()
    lights, beeper, console = RecordingSeatLights(), RecordingBeeper(), Console()
    app = App(controller, Hardware(operator=DummyDisplay((128, 64), "1"), lights=lights, beeper=beeper,
                                   console=console), journal=journal, strict=True, state_dir=tmp_path)
    app.refresh()
    lit, shown = dict(lights.state), app.controller.screen()
    for n in range(3):                               # whatever it would light or buzz: nothing of it
        app.step(InputEvent("console", "line", 1.0 + n, lines[30]))
        assert console.replies[-1].startswith("Carte SD en lecture seule : l'action n'est pas enregistrée.")
        assert "La partie est sûre jusqu'à l'action 30." in console.replies[-1]
        assert len(app.controller.session.game.log) == 30
        assert beeper.calls[-1] == "error" and set(beeper.calls) == {"error"}
        assert lights.state == lit
        assert app.controller.screen().title == "Lecture seule" and app.status_text() == "! carte SD"
        app.step(InputEvent("ok", "press", 1.5 + n))   # the message read: the game as it was
        screen = app.controller.screen()
        assert (screen.title, screen.items, screen.lines[-1]) == (shown.title, shown.items, shown.lines[-1])
    app.step(InputEvent("ok", "long_press", 10.0))     # the menus and the history still work
    menu = app.controller.screen()
    for t in range(menu.items.index("Historique")):
        app.step(InputEvent("down", "press", 11.0 + t))
    app.step(InputEvent("ok", "press", 20.0))
    history = app.controller.screen()
    assert history.title == "Historique" and len(history.items) == 30 and console.replies[-1] != "ok"
    journal.close()


def test_a_full_card_gets_what_the_box_owns_freed(tmp_path):
    # The parsed box files (parsed again at the next start), the -wal copied into the file
    # and cut to nothing, the snapshots of every game but the one the box plays.
    head, _, actions = random_game("maxibourse", 105)
    keep_parsed_in(tmp_path / "parsed")
    try:
        read_toml(os.path.join(os.path.dirname(__file__), "..", "..", "firmware", "corbeille.example.toml"), "t")
    finally:
        keep_parsed_in(None)
    assert list((tmp_path / "parsed").iterdir())
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        games = [journal.new_game(head) for _ in range(2)]
        for game in games:
            for action in actions:
                journal.append(game, action)
            snapshots.write(journal, game, 100, b"state", "rules")
        wal = os.path.getsize(f"{journal.path}-wal")
        freed = storage.free(tmp_path, journal, games[-1])
        assert freed >= wal > 0 and os.path.getsize(f"{journal.path}-wal") == 0
        assert not list((tmp_path / "parsed").iterdir())
        assert journal.get_meta(snapshots.KEY.format(games[0])) is None
        assert json.loads(journal.get_meta(snapshots.KEY.format(games[1])))["n"] == 100
        assert len(journal.actions(games[0])) == len(actions)      # the actions are the journal
    finally:
        journal.close()


def test_a_box_on_a_card_it_cannot_write_and_no_journal_yet_reads_an_empty_one(tmp_path):
    journal = ReadOnlyJournal(tmp_path / "journal.sqlite", storage.Fault("read_only", "the card is read-only"))
    try:
        assert journal.games() == [] and journal.last_game() is None and journal.get_meta("ui") is None
        journal.hold()
        with pytest.raises(JournalError, match="cannot be written .the card is read-only."):
            journal.new_game({"game": "maxibourse"})
        assert journal.pending
        with pytest.raises(JournalError):
            journal.commit()                            # the box's commit says it
        assert not journal.pending and not list(tmp_path.iterdir())
    finally:
        journal.close()
