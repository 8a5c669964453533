"""Journal snapshots (firmware/journal/snapshots.py): a resume starts from the game's state after its
last hundredth action instead of replaying the whole evening, only when the snapshot
verifies; a damaged, stale or foreign one is passed over and the game replayed, with
nothing lost."""
import base64
import json
import pickle
import random
import zlib

import pytest

from engines import game_class
from engines.core.game import Game
from engines.core.random_play import play_randomly
from engines.registry import names
from firmware.journal import snapshots
from firmware.journal import Journal
from firmware.journal.rows import sha256
from firmware.session import Session, rules_fingerprint
from test_game_contract import Drawer, header, player_counts, state_key


def journaled(tmp_path, name, seed=1, max_actions=250):
    """A random game of `name` played through a journaled session, `max_actions` long (the
    first draw that lasts so long: a random table may close the session or go bankrupt
    early); (journal, session, actions)."""
    players = player_counts(name)[-1]
    for attempt in range(20):
        rng = random.Random(f"snap-{name}-{seed}" + (f"-{attempt}" if attempt else ""))
        played = game_class(name)(header(name, players, seed))
        actions = play_randomly(played, Drawer(rng), max_actions=max_actions, state_key=state_key, verify=False,
                                finished=lambda g: g.over, max_refusals=2000)
        if len(actions) == max_actions:
            break
    journal = Journal(tmp_path / f"{name}.sqlite")
    session = Session.new(played.header, journal)
    for act in actions:
        session.apply(act)
    return journal, session, actions


def counting_applies(monkeypatch):
    """The actions applied from now on, one by one or in a replay: each goes into the log
    through `Game._logged` (a replay folds them without `apply`)."""
    applied = []
    logged = Game._logged

    def counted(self, act, *first):
        applied.append(act)
        return logged(self, act, *first)
    monkeypatch.setattr(Game, "_logged", counted)
    return applied


@pytest.mark.parametrize("name", names())
def test_a_resume_starts_from_the_last_snapshot_and_reaches_the_state_of_a_full_replay(tmp_path, monkeypatch, name):
    journal, session, actions = journaled(tmp_path, name)
    n = len(actions)
    assert n >= 100, f"{name}: a random game of {n} actions, too short for a snapshot"
    taken = json.loads(journal.get_meta(snapshots.KEY.format(session.game_id)))["n"]
    assert taken == n // 100 * 100
    applied = counting_applies(monkeypatch)
    cls, initial, built = type(session.game), type(session.game).initial_state, []
    monkeypatch.setattr(cls, "initial_state", lambda game: built.append(game) or initial(game))
    resumed = Session.resume(journal, session.game_id)
    assert len(applied) == n - taken                         # only the actions after the snapshot
    assert built == []                                       # no initial state built to be thrown away
    assert resumed.game.snapshot() == session.game.snapshot() and resumed.game.log == session.game.log
    monkeypatch.undo()
    resumed.undo_to(taken - 1)                               # an undo past the snapshot replays from the start
    assert resumed.game.snapshot() == type(resumed.game).replay(resumed.game.header, actions[:taken - 1]).snapshot()
    assert resumed.game.frozen_at(0) == session.game.frozen_at(0)    # built then, as a new game builds it
    journal.close()


def damage(journal, game_id, how):
    key = snapshots.KEY.format(game_id)
    snap = json.loads(journal.get_meta(key))
    if how == "not json":
        journal.set_meta(key, "{not json")
        return
    if how == "state bytes":             # one byte of the state changed: its sum no longer matches
        frozen = bytearray(zlib.decompress(base64.b64decode(snap["state"])))
        frozen[len(frozen) // 2] ^= 1
        snap["state"] = base64.b64encode(zlib.compress(bytes(frozen))).decode()
    elif how == "other rules":
        snap["rules"] = "0" * 32
    elif how == "other chain":
        snap["chain"] = "0" * 64
    elif how == "foreign code":          # a pickle that would call a function, with its own sum
        frozen = pickle.dumps(print)
        snap["state"], snap["sum"] = base64.b64encode(zlib.compress(frozen)).decode(), sha256(frozen).hexdigest()
    elif how == "count":
        snap["n"] = "200"
    journal.set_meta(key, json.dumps(snap))


@pytest.mark.parametrize("how", ["not json", "state bytes", "other rules", "other chain", "foreign code", "count"])
def test_a_snapshot_that_does_not_verify_is_passed_over_and_the_game_replayed_whole(tmp_path, monkeypatch, how):
    journal, session, actions = journaled(tmp_path, "maxibourse")
    damage(journal, session.game_id, how)
    applied = counting_applies(monkeypatch)
    resumed = Session.resume(journal, session.game_id)
    assert len(applied) == len(actions)                      # replayed from the first action
    assert resumed.game.snapshot() == session.game.snapshot() and resumed.messages == []
    assert len(journal.actions(session.game_id)) == len(actions)
    journal.close()


def test_a_snapshot_the_journal_no_longer_holds_the_actions_of_is_stale(tmp_path, monkeypatch):
    """Undone past it (or cut by a repair), the snapshot's action is gone: replay; once the
    game gets back to that count, a new snapshot of the new actions replaces it."""
    journal, session, actions = journaled(tmp_path, "maxibourse")
    taken = len(actions) // 100 * 100
    session.undo_to(taken - 3)
    applied = counting_applies(monkeypatch)
    resumed = Session.resume(journal, session.game_id)
    assert len(applied) == taken - 3 and resumed.game.log == actions[:taken - 3]
    monkeypatch.undo()
    for act in actions[taken - 3:taken]:
        resumed.apply(act)
    assert snapshots.read(journal, session.game_id, rules_fingerprint())[0] == taken
    journal.close()


def test_the_snapshot_is_written_in_the_transaction_of_the_action_that_led_to_it(tmp_path):
    """No commit (no fdatasync) of its own on the box: the loop holds the journal for an
    event, and a rollback takes back the action and its snapshot together."""
    journal, session, actions = journaled(tmp_path, "maxibourse", max_actions=99)
    key = snapshots.KEY.format(session.game_id)
    assert len(actions) == 99 and journal.get_meta(key) is None
    played = game_class("maxibourse").replay(session.game.header, actions)
    nxt = Drawer(random.Random(3))
    while True:
        act = nxt(played)
        try:
            played.apply(act)
            break
        except Exception:  # noqa: BLE001 - a drawn action the game refuses: draw again
            continue
    journal.hold()
    session.apply(act)
    assert journal.pending and journal.get_meta(key) is not None
    journal.rollback()
    assert journal.get_meta(key) is None and len(journal.actions(session.game_id)) == 99
    journal.close()
