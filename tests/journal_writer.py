"""Power-cut harness for the journal.

A writer process appends a deterministic list of actions and acknowledges each one on its
output, flushed, right after append() returns: an acknowledged action is one the box
would already have shown as done. The parent kills the writer with SIGKILL at a random
moment, reopens the journal and checks that nothing acknowledged was lost.

`kill_and_reopen(tmp_path, make_actions, rng)` runs that loop; a test can hand it the
actions of a real game instead of `demo_actions`. `check_reopened` is its check of one
round, for a test that kills a writer of its own (tests/journal/test_storage_faults.py: a writer
whose card fails, run as a script).

Run as a script, the writer prints to stdout:
    python tests/journal_writer.py JOURNAL [N] [--held] [--retry] [--checkpoint K]
"""
from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import random
import signal
import sys
import time

from firmware.journal import Journal, JournalError

DEMO_HEADER = {"game": "maxibourse", "format": "standard", "players": ["Anne", "Bruno", "Chloé"],
               "settings": {"years": 3}, "seed": 1234}


def demo_actions(n: int = 120, seed: int = 7) -> list[dict]:
    """A deterministic list of plausible actions, with accents and varied sizes."""
    rng = random.Random(seed)
    companies = ["Société Générale", "Peugeot", "Michelin", "L'Oréal", "Air Liquide"]
    actions = []
    for i in range(n):
        kind = rng.choice(["declare", "buy", "sell", "price", "payday"])
        action = {"kind": kind, "player": rng.randrange(3), "n": i}
        if kind in ("buy", "sell", "declare"):
            action.update(company=rng.choice(companies), lots=rng.randint(1, 10))
        if kind == "price":
            action.update(company=rng.choice(companies), delta=rng.randint(-5, 5),
                          note="x" * rng.choice([0, 10, 300, 2000]))
        actions.append(action)
    return actions


def write_forever(path, header: dict, actions: list[dict], out, held: bool = False, retry: bool = False,
                  checkpoint: int = 0) -> None:
    """Resume the last game and append its remaining actions; then start a new game; repeat.

    Every line written to `out` acknowledges something already committed:
    "game G" after new_game, "ack G SEQ" after append. `held`: as the box does, each
    action is written with a "ui" meta row ("G:N", N actions) in one held transaction,
    acknowledged once commit() returns. `retry`: a write the journal refuses (a failing
    card) is said ("refused G SEQ"), never acknowledged, and tried again, as the table
    enters it again. `checkpoint`: every that many actions, the WAL is copied into the
    file as the box does after a pause (a refused checkpoint is only said).
    """
    with Journal(path) as journal:
        while True:
            game = journal.last_game()
            done = len(journal.actions(game)) if game is not None else len(actions)
            if done >= len(actions):
                game = _refused_until_done(journal, retry, out, "new game", lambda: journal.new_game(header))
                print(f"game {game}", file=out, flush=True)
                done = 0
            for seq in range(done, len(actions)):
                def write(seq=seq):
                    if held:
                        journal.hold()
                    got = journal.append(game, actions[seq])
                    if held:
                        journal.set_meta("ui", f"{game}:{got + 1}")
                        journal.commit()
                    return got
                got = _refused_until_done(journal, retry, out, f"{game} {seq}", write)
                print(f"ack {game} {got}", file=out, flush=True)
                if checkpoint and (seq + 1) % checkpoint == 0:
                    try:
                        journal.checkpoint()
                    except JournalError:
                        print("checkpoint refused", file=out, flush=True)


def _refused_until_done(journal, retry, out, what, write):
    while True:
        try:
            return write()
        except JournalError:
            if not retry:
                raise
            journal.rollback()
            print(f"refused {what}", file=out, flush=True)
            time.sleep(0.002)


def killed_writer(path, header: dict, actions: list[dict], acks: int) -> int:
    """A writer of `actions` SIGKILLed once it acknowledged `acks` of them (fewer if it
    wrote them all first): what a power cut leaves, the -wal and its -shm index with it.
    Returns how many it acknowledged."""
    writer, read_fd = _writer(str(path), header, actions)
    with os.fdopen(read_fd) as pipe:
        acked = sum(pipe.readline().startswith("ack") for _ in range(acks + 1))
    writer.kill()
    writer.join()
    return acked


@functools.cache
def _forks():
    """Writers are forked, with no interpreter start-up, but from a small server process
    that imported the journal and this module, not from the test's own process: a fork
    and a kill cost in proportion to the forked process's memory, and a pytest worker's
    grows with every test it ran."""
    forks = multiprocessing.get_context("forkserver")
    forks.set_forkserver_preload(["firmware.journal", __name__])
    return forks


def _writer(path, header, actions, held=False):
    """A started writer process (`write_forever`) and the read end of its output, a pipe
    whose only write end the writer holds: its death means EOF."""
    read_end, write_end = _forks().Pipe(duplex=False)
    writer = _forks().Process(target=_child, args=(path, header, actions, write_end, held))
    writer.start()
    write_end.close()
    return writer, _fd(read_end)


def _fd(end) -> int:
    """A pipe end's file descriptor, no longer owned by its multiprocessing Connection."""
    fd = os.dup(end.fileno())
    end.close()
    return fd


def _child(path, header, actions, write_end, held=False) -> None:
    with os.fdopen(_fd(write_end), "w") as out:
        write_forever(path, header, actions, out, held)


def _run_and_kill(writer, read_fd, rng: random.Random) -> list[str]:
    """SIGKILL the started writer at a random moment; return every line it wrote."""
    with os.fdopen(read_fd) as pipe:
        lines = []
        if rng.random() < 0.3:
            # While it starts, creates or opens (and checks) the journal: 10-50 ms.
            time.sleep(rng.uniform(0, 0.03))
        else:
            # After some acknowledgements, then anywhere within the next append or two
            # (an append is one fsync: a few ms). Counting acknowledgements rather than
            # milliseconds keeps the mix the same on a fast desktop and on a Pi.
            for _ in range(rng.randrange(25)):
                lines.append(pipe.readline())
            time.sleep(rng.choice([0, rng.uniform(0, 0.001), rng.uniform(0, 0.006)]))
        writer.kill()
        writer.join()
        assert writer.exitcode == -signal.SIGKILL, f"the writer died on its own ({writer.exitcode})"
        return [line for line in lines + pipe.read().splitlines() if line.strip()]


def _parse_acks(lines: list[str]) -> tuple[set[int], dict[int, int]]:
    """The games created and, per game, how many actions were acknowledged."""
    new_games, acked = set(), {}
    for line in lines:
        word, *numbers = line.split()
        if word == "game":
            new_games.add(int(numbers[0]))
        elif word == "ack":
            game, seq = map(int, numbers)
            acked[game] = max(acked.get(game, 0), seq + 1)
    return new_games, acked


def kill_and_reopen(tmp_path, make_actions, rng: random.Random, rounds: int = 300,
                    header: dict | None = None, rounds_per_file: int = 25, check=None,
                    held: bool = False) -> list[tuple[int, int]]:
    """Kill a writer `rounds` times at random moments; after each kill, check the journal.

    The same file is reused for `rounds_per_file` rounds (each writer resumes where the
    last one died), then a fresh file is started, so kills also land during creation.
    `check(journal)`, when given, runs on the reopened journal after every kill.
    Returns, per round, (actions acknowledged, actions committed) by that round's writer.
    """
    actions = make_actions()
    header = DEMO_HEADER if header is None else header
    stats = []
    known: dict[int, int] = {}
    for round_ in range(rounds):
        if round_ % rounds_per_file == 0:
            path = os.path.join(tmp_path, f"power-{round_}.db")
            known = {}
        lines = _run_and_kill(*_writer(path, header, actions, held), rng)
        known, round_stats = check_reopened(path, header, actions, lines, known, check, f"round {round_}, {path}")
        stats.append(round_stats)
    return stats


def check_reopened(path, header, actions, lines, known, check=None, where=""):
    """After a writer of `actions` was killed having written `lines`: every game is a
    prefix of `actions`, holds every action acknowledged and at most one more, and every
    chain verifies untouched. `known`: {game: actions} found after the last round. Returns
    (what is found now, (actions acknowledged, actions committed) by this round's writer)."""
    new_games, acked = _parse_acks(lines)
    with Journal(path) as journal:
        assert journal.repairs == [], journal.repairs  # every chain verified untouched
        games = journal.games()
        found = {game: journal.actions(game) for game, _ in games}
        if check:
            check(journal)
    assert all(h == header for _, h in games)
    assert set(known) <= set(found) and new_games <= set(found), where
    assert len(set(found) - set(known) - new_games) <= 1, where  # one unacknowledged game
    extra = 0
    for game, got in found.items():
        assert got == actions[:len(got)], f"{where}: game {game} is not a prefix"
        floor = max(known.get(game, 0), acked.get(game, 0))
        assert floor <= len(got) <= floor + 1, f"{where}: game {game} has {len(got)} " \
            f"actions, {floor} acknowledged"
        extra += len(got) - floor
    assert extra <= 1, f"{where}: more than one unacknowledged action"
    assert all(len(found[g]) == len(actions) for g in sorted(found)[:-1]), where
    # The writer resumed each game where the last check left it.
    acknowledged = sum(n - known.get(game, 0) for game, n in acked.items())
    committed = sum(map(len, found.values())) - sum(known.values())
    return {game: len(got) for game, got in found.items()}, (acknowledged, committed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("journal")
    parser.add_argument("count", nargs="?", type=int, default=120)
    parser.add_argument("--held", action="store_true")
    parser.add_argument("--retry", action="store_true")
    parser.add_argument("--checkpoint", type=int, default=0)
    options = parser.parse_args()
    write_forever(options.journal, DEMO_HEADER, demo_actions(options.count), sys.stdout, held=options.held,
                  retry=options.retry, checkpoint=options.checkpoint)
