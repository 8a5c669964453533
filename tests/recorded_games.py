"""Recorded random games: the safety net of refactors that must not change any rule.

Each record is a whole game as the box exports it (a script: header and one action per
line, in the text form journals and examples use) and the final state it reached
(`snapshot`, hidden information included). `tests/core/test_recorded_games.py` replays every
record through the script reader and asserts the same final state, so a refactor of the
engines, of the action forms or of the script reader that changes a single rule, a single
amount or the reading of an old action line fails there, naming the game and the first
key that differs.

The records are made once from the rules as they stand, and remade only when a rule is
deliberately changed (say which and why in the commit):

    .venv/bin/python -m tests.recorded_games            # rewrites tests/recorded/*.jsonl.gz

The plan covers every player count each game allows, every format and setting value,
operator corrections, undos in the middle of rounds and cash-poor starts (every player
brought down to a tenth of the starting cash by a correction before the first action).
"""
from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # bench/ is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

FOLDER = Path(__file__).resolve().parent / "recorded"
GAMES = ("maxibourse", "dividends")


def _snapshot(game) -> dict:
    """The final state as JSON would store it (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(game.snapshot(), sort_keys=True))


def _cash_poor(game, correction_cls) -> list:
    """Corrections bringing every player down to a tenth of the starting cash."""
    actions = []
    for seat in range(len(game.players)):
        cash = game.cash(seat)
        act = correction_cls(player=seat, delta=-(cash - cash // 10), reason="cash-poor start")
        game.apply(act)
        actions.append(act)
    return actions


def _with_undos(rng: random.Random, actions: list, every: float) -> list:
    """The log with undos at random points, each undone action played again (what a table
    does after a correction it regrets). Returns script lines: actions, and None for an
    undo."""
    lines = []
    for act in actions:
        lines.append(act)
        if rng.random() < every:
            lines.append(None)
            lines.append(act)  # the same action again: the game goes on where it was
    return lines


def _play(game_name: str, rng: random.Random, players: int, poor: bool, corrections: bool, **options):
    """One random game; returns (header, lines) where lines mixes actions and None (undo)."""
    if game_name == "maxibourse":
        from bench.randomgame import header_for, play_randomly, draw_action, state_key, WEIGHTS, MAX_ATTEMPTS
        from engines.maxibourse.game import MaxiBourse as cls

        header = header_for(players, options["fmt"], rng.randrange(2**31), options["settings"])
        limit, finished, refusals = 300, lambda g: False, MAX_ATTEMPTS
    else:
        from engines.dividends.random_play import (header_for, play_randomly, draw_action, state_key, WEIGHTS,
                                                   MAX_REFUSALS)
        from engines.dividends.game import Dividends as cls, Over

        header = header_for(players, rng.randrange(2**31), options["settings"])
        limit, finished, refusals = 1500, (lambda g: isinstance(g.s.proc, Over)), MAX_REFUSALS
    game = cls(header)
    first = _cash_poor(game, cls.ACTIONS.classes["adjust_cash"]) if poor else []
    played = play_randomly(game, lambda g: draw_action(g, rng, dict(WEIGHTS), corrections), max_actions=limit,
                           state_key=state_key, finished=finished, max_refusals=refusals)
    return header, cls, game, _with_undos(rng, first + played, every=0.02)


def plan():
    """(game, players, options, poor, corrections) for every recorded game, in order."""
    rows = []
    for players in range(2, 7):
        for fmt in ("junior", "senior", "masters"):
            for payday in ("each_round", "manual"):
                for vertical in ("per_group", "once"):
                    for poor in (False, True):
                        settings = {"payday": payday, "vertical_bonus": vertical}
                        rows.append(("maxibourse", players, {"fmt": fmt, "settings": settings}, poor, True))
    for players in range(2, 13):
        for bid_step in (50, 100):
            for poor in (False, True):
                for corrections in (False, True):
                    for repeat in range(2):
                        rows.append(("dividends", players, {"settings": {"bid_step": bid_step}}, poor, corrections))
    return rows


def script_lines(header: dict, cls, lines: list) -> str:
    from firmware.script import export_header

    out = export_header(header)
    out += ["undo" if act is None else cls.ACTIONS.format(act, header["players"]) for act in lines]
    return "\n".join(out) + "\n"


def record(folder: Path = FOLDER) -> dict:
    """Play every game of the plan and write the records; returns games and actions per game."""
    from firmware.script import run_script

    folder.mkdir(parents=True, exist_ok=True)
    counts = {}
    records = {name: [] for name in GAMES}
    for index, (name, players, options, poor, corrections) in enumerate(plan()):
        rng = random.Random(f"{name}-{index}")
        header, cls, game, lines = _play(name, rng, players, poor, corrections, **options)
        text = script_lines(header, cls, lines)
        replayed = run_script(text, f"{name} #{index}")
        final = _snapshot(replayed)
        assert final == _snapshot(game), f"{name} #{index}: the script does not replay to the game played"
        records[name].append({"index": index, "script": text, "snapshot": final})
        games, actions = counts.get(name, (0, 0))
        counts[name] = (games + 1, actions + len(replayed.log))
    for name, rows in records.items():
        text = "".join(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n" for row in rows)
        # mtime=0: the same games give the same bytes, so a re-record shows in git only if a state changed
        (folder / f"{name}.jsonl.gz").write_bytes(gzip.compress(text.encode("utf-8"), 9, mtime=0))
    return counts


def renamed_kinds(name: str, snapshot: dict) -> dict:
    """A recorded state with the kinds its pending decision offers written by their names
    now: a kind renamed since the recording (the game's alias table, `ACTIONS.aliases`:
    Maxi Bourse's `bid` is `keep`, Dividends' `pay` is `payout`) is the same option. The
    records themselves keep the old names, in their scripts too, so replaying them also
    proves that old journals and scripts still read."""
    from engines import game_class

    kind_of = game_class(name).ACTIONS.kind_of
    pending = snapshot.get("pending")
    if not pending:
        return snapshot
    options = [{**o, "kind": kind_of(o["kind"])} for o in pending.get("options", [])]
    return {**snapshot, "pending": {**pending, "options": options}}


# The figure each game's ranking rows carried before every game's snapshot was put in one
# envelope (engines/core/table.py): one row shape, {rank, name, fortune}.
RANKED_BY = {"maxibourse": "wealth", "dividends": "cash"}


def in_one_envelope(name: str, snapshot: dict) -> dict:
    """A recorded state in the form every game's snapshot has now: `private` listed (none,
    where the game had no such entry), the ranking rows as {rank, name, fortune} and the
    `winners` (those ranked first) once the game is over. Only the form: every value is
    the recorded one, so a record still fails on any rule or amount that changed."""
    out = {"private": [], **snapshot}
    if "ranking" in snapshot:
        figure = RANKED_BY.get(name, "fortune")
        out["ranking"] = [{"rank": r["rank"], "name": r["name"], "fortune": r[figure]} for r in snapshot["ranking"]]
        out.setdefault("winners", [r["name"] for r in snapshot["ranking"] if r["rank"] == 1])
    return out


# Corrections each game declared after its games were recorded: the decisions offer them
# beside the rest now. They change no rule and no amount, so a state played now is compared
# without them (`without_later_corrections`); a record still fails on any other option.
LATER_CORRECTIONS = {"maxibourse": {"set_turn", "set_pawn", "set_skip", "set_round"},
                     "dividends": {"set_turn", "set_year"}}


def without_later_corrections(name: str, snapshot: dict) -> dict:
    """A state played now without the options of the corrections declared since the records."""
    pending, later = snapshot.get("pending"), LATER_CORRECTIONS.get(name, set())
    if not pending:
        return snapshot
    options = [o for o in pending.get("options", []) if o["kind"] not in later]
    return {**snapshot, "pending": {**pending, "options": options}}


def as_now(name: str, snapshot: dict) -> dict:
    """A recorded state as the engines write it now: renamed kinds, one envelope."""
    return in_one_envelope(name, renamed_kinds(name, snapshot))


def load(name: str, folder: Path = FOLDER) -> list[dict]:
    with gzip.open(folder / f"{name}.jsonl.gz", "rt", encoding="utf-8") as src:
        return [json.loads(line) for line in src]


def first_difference(expected, got, path="") -> str | None:
    """The first key path where two JSON values differ, with both values."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got)):
            if key not in got or key not in expected:
                return f"{path}/{key}: recorded {expected.get(key)!r}, now {got.get(key)!r}"
            found = first_difference(expected[key], got[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        for i, (a, b) in enumerate(zip(expected, got)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if expected == got else f"{path or '/'}: recorded {expected!r}, now {got!r}"


if __name__ == "__main__":
    for game_name, (games, actions) in record().items():
        print(f"{game_name}: {games} games, {actions} actions recorded in {FOLDER}")
