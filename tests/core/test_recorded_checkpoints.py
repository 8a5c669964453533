"""A state pickled by an earlier version (tests/recorded_checkpoints.py: main before the
engines' dataclasses became records) reads back the same, and a journal's snapshot written
under other rules is passed over and the game replayed whole.

Each recorded game is replayed under the engines as they are: after every action its state
pickles to the same bytes the recording version's did, so a checkpoint or a snapshot of
either version reads back, in the other, to the same state. A snapshot still records the
rules fingerprint it was written under: after a firmware update that changed any engine
file, the next resume replays the game whole instead of reading it, and only a snapshot of
the new rules is read.
"""
import base64
import json
import pickle

import pytest

from engines import game_class
from engines.core.game import Game, thaw
from firmware.journal import snapshots
from firmware.journal import Journal
from firmware.journal.rows import sha256
from firmware.session import RULES_KEY, Session, rules_fingerprint
from recorded_checkpoints import digest, load, replayed

RECORDED = load()
GAMES = sorted(RECORDED["games"])


def recorded(name):
    game = RECORDED["games"][name]
    cls = game_class(game["header"].get("game", "maxibourse"))
    return game, cls, [cls.ACTIONS.from_json(data) for data in game["actions"]]


def test_every_game_is_recorded_with_a_snapshot():
    from engines.registry import names

    assert GAMES == sorted(names())
    for name in GAMES:
        assert RECORDED["games"][name]["states"], f"{name}: no state after a hundredth action"


@pytest.mark.parametrize("name", GAMES)
def test_the_state_after_every_action_pickles_to_the_recorded_bytes(name):
    game = RECORDED["games"][name]
    _, digests, states = replayed({"header": game["header"], "actions": game["actions"]})
    first = next((i for i, (mine, theirs) in enumerate(zip(digests, game["digests"])) if mine != theirs), None)
    assert first is None, f"{name}: the state pickles otherwise than recorded after action {first}"
    assert len(digests) == len(game["digests"])
    assert {n: base64.b64encode(frozen).decode("ascii") for n, frozen in states.items()} == game["states"]


@pytest.mark.parametrize("name", GAMES)
def test_a_recorded_snapshot_reads_back_to_the_state_it_was_taken_of(name):
    game, cls, actions = recorded(name)
    whole = cls.replay(game["header"], actions)
    for count, text in game["states"].items():
        frozen = base64.b64decode(text)
        restored = cls.restore(game["header"], actions, int(count), frozen)
        assert restored.snapshot() == whole.snapshot()
        assert repr(restored.decision()) == repr(whole.decision()) and restored.log == whole.log


def journal_with_recorded_snapshot(tmp_path, name, rules):
    """A journal of the recorded game (written by this version), its snapshot replaced by the
    recorded version's last one, marked as written under `rules`."""
    game, cls, actions = recorded(name)
    journal = Journal(tmp_path / f"{name}.sqlite")
    session = Session.new(game["header"], journal)
    for act in actions:
        session.apply(act)
    count = max(int(n) for n in game["states"])
    frozen = base64.b64decode(game["states"][str(count)])
    snapshots.write(journal, session.game_id, count, frozen, rules)      # a transaction of its own here
    stored = json.loads(journal.get_meta(snapshots.KEY.format(session.game_id)))
    assert stored["n"] == count and stored["sum"] == sha256(frozen).hexdigest()
    return journal, session, actions, count


def counting_restores(monkeypatch, cls):
    """The snapshots restored and the actions applied from now on (one by one or in a
    replay, each goes into the log through `Game._logged`)."""
    restores, applied = [], []
    restore, logged = cls.restore.__func__, Game._logged

    def counted_restore(klass, header, log, count, frozen):
        restores.append(count)
        return restore(klass, header, log, count, frozen)

    def counted_logged(self, act, *first):
        applied.append(act)
        return logged(self, act, *first)
    monkeypatch.setattr(cls, "restore", classmethod(counted_restore))
    monkeypatch.setattr(Game, "_logged", counted_logged)
    return restores, applied


@pytest.mark.parametrize("name", GAMES)
def test_a_snapshot_written_under_the_recorded_rules_is_passed_over_and_the_game_replayed_whole(
        tmp_path, monkeypatch, name):
    assert RECORDED["rules"] != rules_fingerprint()       # the engines changed since it was recorded
    journal, session, actions, _ = journal_with_recorded_snapshot(tmp_path, name, RECORDED["rules"])
    assert journal.get_meta(RULES_KEY.format(session.game_id)) == rules_fingerprint()
    restores, applied = counting_restores(monkeypatch, type(session.game))
    resumed = Session.resume(journal, session.game_id)
    assert restores == [] and len(applied) == len(actions)
    assert resumed.game.frozen_state() == session.game.frozen_state()
    assert digest(resumed.game.frozen_state()) == RECORDED["games"][name]["digests"][-1]
    journal.close()


@pytest.mark.parametrize("name", GAMES)
def test_the_recorded_snapshot_under_these_rules_restores_the_same_state(tmp_path, monkeypatch, name):
    """The same bytes, were they marked as written under these rules, would be read and
    reach the same state: only the fingerprint keeps an updated box from reading them."""
    journal, session, actions, count = journal_with_recorded_snapshot(tmp_path, name, rules_fingerprint())
    restores, applied = counting_restores(monkeypatch, type(session.game))
    resumed = Session.resume(journal, session.game_id)
    assert restores == [count] and len(applied) == len(actions) - count
    assert resumed.game.snapshot() == session.game.snapshot()      # hidden information included
    assert repr(resumed.game.decision()) == repr(session.game.decision())
    journal.close()
