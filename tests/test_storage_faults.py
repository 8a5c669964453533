"""A failing SD card never costs an acknowledged action (issue 25, items 1 and 4).

The real box (`corbeille run`, its serial console on a pty: tests/test_powercut.py's Box)
plays a random legal game of each of the five games, one console line per action, while
its card fails under it: full (ENOSPC), a file-size limit reached (RLIMIT_FSIZE, set on
the running process with prlimit), read-only (EROFS, as ext4 remounted read-only), an
fsync error, a short write, and a write error during the commit that holds the game's
first snapshot. The faults come from the kernel (the file-size limit) or from a small
LD_PRELOAD library (tests/faults.py) that makes the journal's files fail as a failing
card does: the box's own code, unpatched, meets them.

Issue 25, F1: "the serial console still answers `ok` to actions that were never recorded".
Here every `ok` must be in the journal at once and after a SIGKILL; a refused action is
answered with what happened, up to which action the game is safe and what to do (the
operator screen says it too), is not in the journal, and is entered again once the fault
is gone; the box never exits.
"""
import json
import random
import resource

import pytest

from engines import game_class
from engines.core.random_play import play_randomly
from engines.registry import names, spec
from faults import Shim
from firmware.journal import Journal
from firmware.journal_reader import JournalReader
from test_game_contract import Drawer, header, state_key
from test_powercut import Box

# Action index -> the fault the card has while that action is entered. The 100th action
# (index 99) is the first whose commit holds the game's snapshot (firmware/snapshots.py).
SCHEDULE = {8: "enospc", 16: "fsize", 24: "erofs", 32: "eio-fsync", 40: "short", 48: "eio-write", 99: "eio-write"}
KILL = 40            # after this refusal, the box is killed with the fault still there
ACTIONS = 105

# What the console answers, in French by default, for each kind the box tells.
SAID = {"full": "Carte SD pleine : l'action n'est pas enregistrée, refaites-la.",
        "read_only": "Carte SD en lecture seule : l'action n'est pas enregistrée.",
        "failing": "La carte SD a refusé d'écrire : l'action n'est pas enregistrée, refaites-la."}
TITLE = {"full": "Carte SD pleine", "read_only": "Lecture seule", "failing": "Erreur carte SD"}
KIND = {"enospc": "full", "fsize": "full", "erofs": "read_only", "eio-fsync": "failing", "short": "failing",
        "eio-write": "failing"}


@pytest.fixture
def shim(tmp_path):
    built = Shim(tmp_path, tmp_path / "state")
    if built.reason:
        pytest.skip(built.reason)
    return built


def random_game(name, count):
    """A random legal game of `name` of `count` actions (the first seed whose game lasts
    that long): its header, each action as a console line, and as the journal keeps it."""
    cls = game_class(name)
    for seed in range(25, 75):
        head = header(name, min(4, spec(name).players[1]), seed)
        game = cls(head)
        play_randomly(game, Drawer(random.Random(f"{name}-{seed}")), max_actions=count, state_key=state_key,
                      finished=lambda g: g.over, max_refusals=3000)
        if len(game.log) == count:
            return head, [cls.ACTIONS.format(act, head["players"]) for act in game.log], [a.to_json() for a in game.log]
    raise AssertionError(f"no random {name} game of {count} actions")


def recorded(box):
    with JournalReader(box.state / "journal.sqlite") as reader:
        game = reader.last_game()
        return reader.actions(game) if game is not None else []


def set_fault(box, shim, fault):
    """The card fails now (fault), or works again (None)."""
    if (fault == "fsize" or fault is None) and box.proc.poll() is None:
        _, hard = resource.prlimit(box.proc.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(box.proc.pid, resource.RLIMIT_FSIZE, (1 if fault == "fsize" else hard, hard))
    shim.set(fault if fault not in (None, "fsize") else "")


def refused(box, line, kind, acked):
    """Enter `line` on a failing card: the answer says so, the journal does not hold it."""
    reply = box.ask(line, done=b"\r\n").strip()
    assert reply.startswith(SAID[kind]), (line, reply)
    assert f"La partie est sûre jusqu'à l'action {acked}." in reply, reply
    assert TITLE[kind] in box.screen()
    assert len(recorded(box)) == acked                  # nothing unrecorded acknowledged


@pytest.mark.parametrize("name", names())
def test_every_fault_during_play_of_each_game_loses_no_acknowledged_action(tmp_path, shim, name):
    head, lines, actions = random_game(name, ACTIONS)
    (tmp_path / "state").mkdir()
    with Journal(tmp_path / "state" / "journal.sqlite") as journal:   # the table set up, nothing played
        journal.new_game(head)
    box = Box(tmp_path)
    box.env = shim.env
    box.start()
    try:
        acked = 0
        for index, line in enumerate(lines):
            fault = SCHEDULE.get(index)
            if fault is not None:
                set_fault(box, shim, fault)
                refused(box, line, KIND[fault], acked)
                if index == KILL:                      # the plug pulled while the card fails
                    box.kill()
                    set_fault(box, shim, None)
                    box.start()
                    kept = recorded(box)
                    assert kept == actions[:len(kept)] and acked <= len(kept) <= acked + 1, (acked, len(kept))
                    if len(kept) > acked:              # written, its failure said; nothing to enter again
                        acked += 1
                        continue
                else:
                    set_fault(box, shim, None)
            reply = box.ask(line, done=b"\r\n").strip()
            assert reply == "ok", (index, line, reply)
            acked += 1
            if fault is not None:
                assert len(recorded(box)) == acked      # entered again: recorded once
        assert recorded(box) == actions                 # every ok, once, in order
        assert box.proc.poll() is None                  # the box never stopped
        with JournalReader(box.state / "journal.sqlite") as reader:   # the snapshot's commit, entered again
            assert json.loads(reader.get_meta(f"snapshot.{reader.last_game()}"))["n"] == 100
        box.kill()
        box.start()                                     # and after a power cut
        assert recorded(box) == actions
    finally:
        box.stop()
