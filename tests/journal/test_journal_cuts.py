"""A journal cut short anywhere: every replay ends, with the game's good prefix or a message.

A truncated journal (two games from examples/ in one journal, the file cut to 5 000 bytes)
must not make `corbeille replay` or `corbeille run` loop: a salvage walk that re-read the
same row would never move on. Here a small journal is cut at its page boundaries and around
them (at every offset under `make fuzz`) and a large one at random offsets (derandomised;
`FUZZ_SCALE` times more under `make fuzz`); each cut is replayed in a child process that
reports every cut on its own line, and a cut with no answer within CUT_TIMEOUT_S fails
naming its offset (a hang, not a speed measurement: a cut takes milliseconds).
"""
import os
import random
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from firmware.journal import Journal
from props import FUZZ_SCALE, FUZZING
from firmware.script import run_script

ROOT = Path(__file__).resolve().parents[2]
CUT_TIMEOUT_S = 30
EXAMPLES = [ROOT / "examples" / "sony.txt", ROOT / "examples" / "twa.txt"]


def record(path, scripts, limit=None):
    """Play example scripts into one journal (the first `limit` actions of each)."""
    with Journal(path) as journal:
        for script in scripts:
            game_id = None

            def on_action(game, act):
                nonlocal game_id
                if game_id is None:
                    game_id = journal.new_game(game.header)
                if act is None:
                    journal.undo(game_id)
                elif limit is None or len(journal.actions(game_id)) < limit:
                    journal.append(game_id, act.to_json())

            run_script(script.read_text(encoding="utf-8"), str(script), on_action=on_action)


def workdir(tmp_path):
    # The cuts write and salvage thousands of small files: in memory when there is a tmpfs.
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return Path(tempfile.mkdtemp(dir=shm, prefix="journal-cuts-"))
    return tmp_path


def replay_cuts(source, offsets, tmp_path, once=False, children=None):
    """Run the cuts in child processes; return {offset: (rc, games, actions, message)}."""
    children = children or max(1, min(4, os.cpu_count() or 1))
    work = workdir(tmp_path)
    slices = [offsets[i::children] for i in range(children)]
    procs = []
    for part in slices:
        args = [sys.executable, str(ROOT / "tests" / "journal_cuts.py"), *(["--once"] if once else []),
                str(source), str(work), *map(str, part)]
        procs.append((subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True), list(part)))
    results = {}
    try:
        for proc, part in procs:
            for offset in part:
                ready, _, _ = select.select([proc.stdout], [], [], CUT_TIMEOUT_S)
                line = proc.stdout.readline() if ready else None
                if not line:
                    proc.kill()
                    pytest.fail(f"cut at offset {offset} of {source}: no answer within {CUT_TIMEOUT_S} s "
                                f"(hung or crashed): {proc.stderr.read()[-3000:] if ready else ''}")
                got, rc, games, actions, message = (line.rstrip("\n").split(" ", 4) + [""])[:5]
                assert int(got) == offset
                results[offset] = (int(rc), int(games), int(actions), message)
            proc.wait(timeout=CUT_TIMEOUT_S)
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()
        if work != tmp_path:
            import shutil
            shutil.rmtree(work, ignore_errors=True)
    return results


def check(results, path, full):
    """Each cut ended: replayed (rc 0) a prefix of the journal, or refused with a message."""
    for offset, (rc, games, actions, message) in results.items():
        assert rc in (0, 1), offset
        if rc == 1:
            assert message.startswith("corbeille: ") and str(path.name) in message or "no game" in message, \
                (offset, message)
        else:
            assert 1 <= games <= full[0] and actions <= full[1], (offset, games, actions)
        if rc == 0 and (games, actions) != full[:2]:
            assert message, (offset, "a journal that lost rows must say so")


def test_two_example_games_cut_at_5000_bytes(tmp_path):
    path = tmp_path / "journal.sqlite"
    record(path, EXAMPLES)
    results = replay_cuts(path, [5000], tmp_path, children=1)
    rc, games, actions, message = results[5000]
    assert rc == 1 and "no game recorded" in message or rc == 0


def cut_offsets(size: int, page: int) -> list[int]:
    """Every offset under `make fuzz`; under `make test`, where a cut changes what can be
    read: inside the 100-byte file header and at its end, each page's first, second, middle
    and last byte, the last byte of the file."""
    if FUZZING:
        return list(range(size))
    near = {0, 1, 16, 99, 100, 101, size - 1}
    for start in range(0, size, page):
        near |= {start - 1, start, start + 1, start + page // 2}
    return sorted(offset for offset in near if 0 <= offset < size)


def test_a_small_journal_cut_at_its_page_boundaries(tmp_path, monkeypatch):
    import firmware.journal.connection

    page = 512                                    # SQLite's smallest page: fewer cuts
    monkeypatch.setattr(firmware.journal.connection, "PAGE_SIZE", page)
    path = tmp_path / "journal.sqlite"
    record(path, EXAMPLES[:1], limit=2)
    size = path.stat().st_size
    assert size <= 6 * 1024, size      # ten pages: every offset in seconds under `make fuzz`
    results = replay_cuts(path, cut_offsets(size, page), tmp_path, once=True)
    check(results, path, (1, 2, size))
    assert results[size - 1][0] == 0                         # the last byte cut: the game is there
    assert {rc for rc, *_ in results.values()} == {0, 1}


def test_a_large_journal_cut_at_random_offsets(tmp_path):
    path = tmp_path / "journal.sqlite"
    record(path, EXAMPLES)
    with Journal(path) as journal:
        total = sum(len(journal.actions(g)) for g, _ in journal.games())
    size = path.stat().st_size
    rng = random.Random(None if FUZZING else 2026)
    count = 120 * (FUZZ_SCALE if FUZZING else 1)
    offsets = sorted(rng.sample(range(size), min(count, size)))
    results = replay_cuts(path, offsets, tmp_path)
    check(results, path, (2, total, size))
    assert any(rc == 0 and actions < total for rc, _, actions, _ in results.values())
