"""Resuming a journaled game replays its actions without the decision check only while the
journal says they were all checked under these same rules (firmware/session.py,
rules_fingerprint); after a change of rules every action is checked again, and one the
changed rules refuse ends the game there, as a refused action does in any replay."""
import random

import pytest

from bench.randomgame import random_game
from engines.core.errors import IllegalAction
from engines.maxibourse.game import MaxiBourse
from firmware.journal import Journal
from firmware.session import RULES_KEY, Session, rules_fingerprint


def journaled(tmp_path, max_actions=80):
    header, actions, game = random_game(random.Random(5), players=3, fmt="junior", max_actions=max_actions)
    journal = Journal(tmp_path / "journal.sqlite")
    session = Session.new(header, journal)
    for act in actions:
        session.apply(act)
    return journal, session.game_id, game


def refusing_check(monkeypatch):
    def check(self, act):
        raise AssertionError("the resume checked an action")
    monkeypatch.setattr(MaxiBourse, "check", check)


def test_a_new_game_records_the_rules_its_actions_are_checked_under(tmp_path):
    journal, game_id, _ = journaled(tmp_path, max_actions=5)
    assert journal.get_meta(RULES_KEY.format(game_id)) == rules_fingerprint()


def test_a_resume_under_the_same_rules_replays_without_the_check_to_the_same_state(tmp_path, monkeypatch):
    journal, game_id, game = journaled(tmp_path)
    refusing_check(monkeypatch)
    resumed = Session.resume(journal, game_id)
    assert resumed.messages == []
    assert resumed.game.snapshot() == game.snapshot() and resumed.game.log == game.log
    monkeypatch.undo()
    resumed.undo()                         # undo replays its own log unchecked too
    assert resumed.game.snapshot() == MaxiBourse.replay(game.header, game.log[:-1]).snapshot()
    resumed.apply(game.log[-1])
    assert resumed.game.snapshot() == game.snapshot()
    with pytest.raises(IllegalAction):      # a new action is checked as always
        resumed.apply(MaxiBourse.ACTIONS.from_json({"kind": "first", "player": 0}))


def test_after_a_change_of_rules_an_action_they_refuse_ends_the_game_there(tmp_path):
    journal, game_id, game = journaled(tmp_path)
    journal.append(game_id, {"kind": "first", "player": 0})    # refused at this point of the game
    journal.set_meta(RULES_KEY.format(game_id), "older rules")
    resumed = Session.resume(journal, game_id)
    n = len(game.log)
    assert resumed.messages and f"action {n + 1} of {n + 1} refused on replay" in resumed.messages[0]
    assert resumed.game.snapshot() == game.snapshot()
    assert len(journal.actions(game_id)) == n
    # every action left was checked under these rules: the next resume skips the check
    assert journal.get_meta(RULES_KEY.format(game_id)) == rules_fingerprint()


def test_a_game_journaled_before_the_rules_were_recorded_is_checked_once(tmp_path, monkeypatch):
    journal, game_id, game = journaled(tmp_path)
    journal._conn.execute("DELETE FROM meta WHERE key=?", (RULES_KEY.format(game_id),))
    checked = []
    check = MaxiBourse.check
    monkeypatch.setattr(MaxiBourse, "check", lambda self, act: (checked.append(act), check(self, act)))
    assert Session.resume(journal, game_id).game.snapshot() == game.snapshot()
    assert len(checked) == len(game.log)
    checked.clear()
    assert Session.resume(journal, game_id).game.snapshot() == game.snapshot()
    assert checked == []


def test_an_unreadable_action_under_the_same_rules_still_ends_the_game_there(tmp_path):
    journal, game_id, game = journaled(tmp_path)
    journal.append(game_id, {"kind": "no such action"})
    resumed = Session.resume(journal, game_id)
    assert resumed.messages and "refused on replay" in resumed.messages[0]
    assert resumed.game.snapshot() == game.snapshot()
    assert len(journal.actions(game_id)) == len(game.log)


@pytest.mark.parametrize("lang, title, line", [
    ("fr", "Autre version", "Partie enregistrée par une autre version : reprise à l'action {n} (sur {total})."),
    ("en", "Another version", "Game recorded by another version: resumed at action {n} (of {total})."),
])
def test_the_box_says_a_game_of_another_version_resumes_at_the_refused_action_not_a_damaged_journal(
        tmp_path, lang, title, line):
    """The file is sound: an action these rules refuse is not damage ("Fin du journal abîmée" is
    for a journal cut back by its own repair, firmware/journal/store.py)."""
    from firmware.controller import Controller
    from test_controller import TIMING
    journal, game_id, game = journaled(tmp_path)
    journal.append(game_id, {"kind": "first", "player": 0})    # refused at this point of the game
    journal.set_meta(RULES_KEY.format(game_id), "older rules")
    journal.set_meta("lang", lang)
    c = Controller(journal, timing=TIMING)
    c.boot(0.0)
    n = len(game.log)
    screen = c.screen()
    assert screen.kind == "message" and screen.title == title
    assert screen.lines == (line.format(n=n, total=n + 1),)
    assert c.session.game.snapshot() == game.snapshot() and c.session.refused == (n + 1, n + 1)


def test_a_damaged_journal_still_says_so_and_a_sound_one_says_nothing(tmp_path):
    from firmware.controller import Controller
    from firmware.texts import t
    from test_controller import TIMING
    journal, game_id, game = journaled(tmp_path)
    c = Controller(journal, timing=TIMING)
    c.boot(0.0)
    assert c.screen().kind != "message" and c.session.refused is None
    c = Controller(journal, timing=TIMING)
    c.boot(0.0, messages=["game 1 cut back to action 3 of 4 (checksum mismatch at action 4)"])
    assert c.screen().title == "Journal réparé"
    assert c.screen().lines == (t("repaired.line", "fr"),) and "abîmée" in c.screen().lines[0]
