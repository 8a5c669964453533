"""Game states pickled by an earlier version: what its undo checkpoints and journal snapshots hold.

A journal's snapshot (firmware/journal/snapshots.py) is the engine's state pickled
(`Game.frozen_state`) by the version that wrote it, and a firmware update may come between
writing it and reading it back. The record holds, for a random game of each registered
game, its header, its actions (JSON), the digest of the state pickled after every action,
the whole pickled state after each hundredth action, and the rules fingerprint of the
version that recorded it. tests/core/test_recorded_checkpoints.py replays the actions under
the engines as they are and compares: a change to how a state pickles (a class, a field,
their order) fails there.

The record was made by main at a447330, before the engines' dataclasses became records
(engines/core/records.py); remake it only when a state's form changes on purpose, and say
which and why in the commit:

    .venv/bin/python -m tests.recorded_checkpoints      # rewrites tests/recorded/checkpoints.json.gz
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests"):          # run as a module: the engines and the tests' drawer
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

RECORD = Path(__file__).resolve().parent / "recorded" / "checkpoints.json.gz"
MAX_ACTIONS = 250


def digest(frozen: bytes) -> str:
    return hashlib.sha256(frozen).hexdigest()[:24]


def replayed(recorded: dict):
    """(game, digests, states) of a recorded game's actions applied to a new game: the digest
    of the pickled state after each action (the first: before any), the pickled state after
    each hundredth. The header and actions are read from JSON text as a journal reads them,
    here and when the record is made: which values a state holds as one object (and pickles
    once) follows from where they were read."""
    from engines import game_class

    recorded = json.loads(json.dumps(recorded))
    header = recorded["header"]
    cls = game_class(header.get("game", "maxibourse"))
    actions = [cls.ACTIONS.from_json(data) for data in recorded["actions"]]
    game = cls(header)
    digests, states = [digest(game.frozen_state())], {}
    for act in actions:
        game.apply(act)
        frozen = game.frozen_state()
        digests.append(digest(frozen))
        if len(game.log) % game.CHECKPOINT_EVERY == 0:
            states[str(len(game.log))] = frozen
    return game, digests, states


def record_game(name: str) -> dict:
    from engines import game_class
    from engines.core.random_play import play_randomly
    from test_game_contract import Drawer, header, player_counts, state_key

    game = game_class(name)(header(name, player_counts(name)[-1], 7))
    actions = play_randomly(game, Drawer(random.Random(f"checkpoints-{name}")), max_actions=MAX_ACTIONS,
                            state_key=state_key, verify=False, finished=lambda g: g.over, max_refusals=2000)
    recorded = {"header": game.header, "actions": [act.to_json() for act in actions]}
    _, digests, states = replayed(recorded)
    return {**recorded, "digests": digests,
            "states": {count: base64.b64encode(frozen).decode("ascii") for count, frozen in states.items()}}


def record(path: Path = RECORD) -> dict:
    from engines.registry import names
    from firmware.session import rules_fingerprint

    games = {name: record_game(name) for name in names()}
    with gzip.open(path, "wt", encoding="utf-8") as out:
        json.dump({"rules": rules_fingerprint(), "games": games}, out, sort_keys=True)
    return {name: len(game["actions"]) for name, game in games.items()}


def load(path: Path = RECORD) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as file:
        return json.load(file)


if __name__ == "__main__":
    print(record())
