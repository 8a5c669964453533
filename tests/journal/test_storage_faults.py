"""A failing SD card never costs an acknowledged action.

The real box (`corbeille run`, its serial console on a pty: tests/journal/test_powercut.py's Box)
plays a random legal game of each of the five games, one console line per action, while
its card fails under it: full (ENOSPC), a file-size limit reached (RLIMIT_FSIZE, set on
the running process with prlimit), read-only (EROFS, as ext4 remounted read-only), an
fsync error, a short write, and a write error during the commit that holds the game's
first snapshot. The faults come from the kernel (the file-size limit) or from a small
LD_PRELOAD library (tests/faults.py) that makes the journal's files fail as a failing
card does: the box's own code, unpatched, meets them.

Every `ok` the console answers must be in the journal at once and after a SIGKILL; a
refused action is answered with what happened, up to which action the game is safe and
what to do (the operator screen says it too), is not in the journal, and is entered again
once the fault is gone; the box never exits.
"""
import copy
import functools
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engines import game_class
from engines.core.random_play import play_randomly
from engines.registry import names, spec
from faults import Shim, read_only, read_only_reason, tree
from firmware.journal import Journal
from firmware.journal.reader import JournalReader
from firmware.journal.wal import _read_index as read_index
from journal_writer import DEMO_HEADER, check_reopened, demo_actions
from test_game_contract import Drawer, header, state_key
from test_powercut import ROOT, Box

# Action index -> the fault the card has while that action is entered. The 100th action
# (index 99) is the first whose commit holds the game's snapshot (firmware/journal/snapshots.py).
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
    that long): its header, each action as a console line, and as the journal keeps it.
    Each caller gets its own copy of the game, drawn once per process."""
    return copy.deepcopy(_random_game(name, count))


@functools.cache
def _random_game(name, count):
    cls = game_class(name)
    for seed in range(25, 75):
        head = header(name, min(4, spec(name).players[1]), seed)
        game = cls(head)
        play_randomly(game, Drawer(random.Random(f"{name}-{seed}")), max_actions=count, state_key=state_key,
                      finished=lambda g: g.over, max_refusals=3000)
        if len(game.log) == count:
            lines = [cls.ACTIONS.format(act, head["players"]) for act in game.log]
            return head, lines, [act.to_json() for act in game.log]
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
                parsed = sorted((tmp_path / "state" / "parsed").iterdir())
                set_fault(box, shim, fault)
                refused(box, line, KIND[fault], acked)
                if fault == "enospc":                  # a full card: what the box owns is freed
                    assert parsed and not any((tmp_path / "state" / "parsed").iterdir())
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
    finally:
        box.stop()


def played(tmp_path, name, count):
    """A table that played the first `count` actions of a random game of `name`, its box
    stopped cleanly: the game's lines and actions."""
    head, lines, actions = random_game(name, ACTIONS)
    (tmp_path / "state").mkdir()
    with Journal(tmp_path / "state" / "journal.sqlite") as journal:
        game = journal.new_game(head)
        for action in actions[:count]:
            journal.append(game, action)
    return lines, actions


def started_read_only(box, kind, count):
    """The box shows the game as the journal holds it, says nothing can be recorded, why
    and what to do."""
    screen = box.screen()
    assert TITLE[kind] in screen and SAID[kind].split(" : ")[0] in screen, screen
    assert f"jusqu'à l'action {count}." in screen.replace("\r\n", " "), screen


# The fault the card has when the box starts -> the kind the box tells (a full card: the
# journal's own size as the file-size limit).
START = {"erofs": "read_only", "fsize": "full", "eio-fsync": "failing"}


@pytest.mark.parametrize("fault", START)
def test_a_box_started_on_a_failing_card_shows_the_game_and_goes_on_once_it_can_write(tmp_path, shim, fault):
    # Neither an exit (systemd would restart it into the same fault until its start limit)
    # nor the game moved aside as unreadable and a fresh one started.
    lines, actions = played(tmp_path, "maxibourse", 20)
    box = Box(tmp_path)
    box.env = shim.env
    if fault == "fsize":
        size = (tmp_path / "state" / "journal.sqlite").stat().st_size
        box.preexec = lambda: resource.setrlimit(resource.RLIMIT_FSIZE,
                                                 (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    else:
        shim.set(fault)
    box.start()
    try:
        kind = START[fault]
        if kind != "failing":                 # an fsync error shows only at the first commit
            started_read_only(box, kind, 20)
        refused(box, lines[20], kind, 20)
        set_fault(box, shim, None)            # the card can be written again: the next press sees it
        assert box.ask(lines[20], done=b"\r\n").strip() == "ok"
        assert "carte SD" not in box.screen()
        assert recorded(box) == actions[:21]
        assert not [p for p in (tmp_path / "state").iterdir() if "unreadable" in p.name]
    finally:
        box.stop()


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_box_started_in_a_read_only_folder_or_on_a_read_only_file_never_exits(tmp_path, what):
    if read_only_reason():
        pytest.skip(read_only_reason())
    lines, actions = played(tmp_path, "maxibourse", 20)
    state = tmp_path / "state"
    before = tree(state)
    box = Box(tmp_path)
    with read_only(state if what == "folder" else state / "journal.sqlite") as wrap:
        box.wrap = wrap
        box.start()
        try:
            started_read_only(box, "read_only", 20)
            refused(box, lines[20], "read_only", 20)
            assert box.proc.poll() is None
        finally:
            box.stop()
    if what == "file":
        return
    assert tree(state) == before                  # not a byte changed, nothing made
    box = Box(tmp_path)                           # restarted where the card can be written
    box.start()
    try:
        assert box.ask(lines[20], done=b"\r\n").strip() == "ok" and recorded(box) == actions[:21]
    finally:
        box.stop()


def test_a_fault_during_the_checkpoint_of_a_clean_stop_loses_nothing(tmp_path, shim):
    lines, actions = played(tmp_path, "dividends", 0)
    box = Box(tmp_path)
    box.env = shim.env
    box.start()
    try:
        for line in lines[:30]:
            assert box.ask(line, done=b"\r\n").strip() == "ok"
        shim.set("eio-write")                     # the stop's checkpoint cannot write the file
        box.stop()
        assert (tmp_path / "state" / "journal.sqlite-wal").stat().st_size > 0    # the commits stay there
        shim.set("")
        box.start()
        assert recorded(box) == actions[:30]
    finally:
        box.stop()


def test_power_cuts_while_the_card_fails_keep_every_acknowledged_action(tmp_path, shim):
    # The power-cut harness (tests/journal_writer.py) with a failing card: the writer
    # journals as the box does (an action and its screen in one held commit; the WAL copied
    # into the file every few actions, as after a pause), says each write the card refuses
    # and enters it again; its card goes full, read-only or fails an fsync or a write at
    # random moments, and it is killed at another. After each kill every acknowledged
    # action is there, at most one more, and every chain verifies.
    rng = random.Random(2025)
    (tmp_path / "state").mkdir()
    path = tmp_path / "state" / "journal.sqlite"
    faults = ["enospc", "erofs", "eio-fsync", "eio-write", "short"]
    known, refused_writes, refused_checkpoints = {}, 0, 0
    for round_ in range(16):
        writer = subprocess.Popen([sys.executable, str(Path(__file__).parents[1] / "journal_writer.py"), str(path), "40",
                                   "--held", "--retry", "--checkpoint", "5"], cwd=ROOT, text=True,
                                  stdout=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(ROOT), **shim.env))
        lines = [writer.stdout.readline()]                   # opened, and a first write done or refused
        for _ in range(rng.randrange(4, 30)):
            if rng.random() < 0.3:
                shim.set(rng.choice(faults + [""]))
            lines.append(writer.stdout.readline())
        time.sleep(rng.choice([0, 0.001, 0.004]))
        writer.kill()
        lines += writer.stdout.read().splitlines()
        writer.stdout.close()
        assert writer.wait() == -signal.SIGKILL
        shim.set("")
        refused_writes += sum(line.startswith("refused") for line in lines)
        refused_checkpoints += sum(line.startswith("checkpoint refused") for line in lines)
        known, _ = check_reopened(str(path), DEMO_HEADER, demo_actions(40), lines, known,
                                  where=f"round {round_}")
    assert refused_writes > 10 and refused_checkpoints > 0   # the card did fail under the writer


TORN_WAL_HEADER = """
import os, signal, sys
from firmware.journal import Journal, JournalError
from journal_writer import DEMO_HEADER, demo_actions
actions = demo_actions(12)
journal = Journal(sys.argv[1])
game = journal.new_game(DEMO_HEADER)
for action in actions[:10]:
    journal.append(game, action)
journal.checkpoint()                        # every frame in the main file; the -wal kept
with open(os.environ["CORBEILLE_FAULT"], "w") as control:
    control.write("short")                  # the next commit starts the -wal again: its header cut short
try:
    journal.append(game, actions[10])
    print("acknowledged", flush=True)
except JournalError:
    print("refused", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def killed_writer(shim, script, *args) -> subprocess.CompletedProcess:
    """`script` (a writer that scripts the card's faults, then kills itself) run under the
    fault shim, with the tests' helpers importable."""
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'tests'}", **shim.env))


def test_a_wal_header_cut_short_by_a_failing_card_is_no_damage(tmp_path, shim):
    # The first commit after a checkpoint writes the -wal's header again over the old one;
    # a card that writes half of it refuses the commit and leaves half a header before the
    # older frames, all already in the main file: nothing was lost, nothing is salvaged.
    (tmp_path / "state").mkdir()
    path = tmp_path / "state" / "journal.sqlite"
    child = killed_writer(shim, TORN_WAL_HEADER, path)
    assert child.returncode == -signal.SIGKILL and child.stdout == "refused\n", child.stderr
    assert os.path.getsize(f"{path}-wal") > 32                 # the older frames behind the header
    shim.set("")
    with Journal(path) as journal:
        assert journal.repairs == []
        assert journal.actions(journal.last_game()) == demo_actions(12)[:10]


REFUSED_THEN_SHORTER = """
import os, signal, sys
from firmware.journal import Journal, JournalError
from journal_writer import DEMO_HEADER, demo_actions
journal = Journal(sys.argv[1])
game = journal.new_game(DEMO_HEADER)
for action in demo_actions(10):
    journal.append(game, action)
for fault, action in (("eio-fsync", {"kind": "note", "text": "x" * 3000}), (sys.argv[2], {"kind": "note"})):
    with open(os.environ["CORBEILLE_FAULT"], "w") as control:
        control.write(fault)
    try:
        journal.append(game, action)
        print("acknowledged", flush=True)
    except JournalError:
        journal.rollback()
        print("refused", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize("fault, said, kept", [("", "refused acknowledged", [{"kind": "note"}]),
                                               ("short", "refused refused", [])])
def test_the_frames_a_refused_commit_leaves_behind_a_shorter_one_are_no_damage(tmp_path, shim, fault, said, kept):
    # SQLite never counts a commit whose sync the card refused (the -shm index stays where it
    # was) and writes the next commit over its frames: a shorter one, or one the card cuts
    # short in its first frame, leaves the refused commit's later frames, with the -wal's
    # salts and a commit flag, behind a frame that does not chain. Nothing acknowledged is
    # out of sight: nothing is salvaged.
    (tmp_path / "state").mkdir()
    path = tmp_path / "state" / "journal.sqlite"
    child = killed_writer(shim, REFUSED_THEN_SHORTER, path, fault)
    assert child.returncode == -signal.SIGKILL and child.stdout.split() == said.split(), child.stderr
    page_size, counted, _, _ = read_index(f"{path}-shm")
    assert os.path.getsize(f"{path}-wal") > 32 + (counted + 2) * (24 + page_size)   # the refused frames left
    shim.set("")
    with Journal(path) as journal:
        assert journal.repairs == []
        assert journal.actions(journal.last_game()) == demo_actions(10) + kept


def _mount(image, folder):
    """Mount the ext4 image on `folder` as a card is (errors make it read-only); the
    reason it cannot be done here, or None."""
    done = subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(folder)],
                          capture_output=True, text=True)
    return None if done.returncode == 0 else f"a loop device cannot be mounted here: {done.stderr.strip()}"


def test_an_ext4_card_the_kernel_remounts_read_only_mid_game(tmp_path):
    # On a real filesystem: ext4 mounted with errors=remount-ro, an error triggered
    # mid-game. Needs root and a loop device; says why when it cannot run.
    if os.geteuid() != 0:
        pytest.skip("attaching a loop device needs root")
    if not shutil.which("mkfs.ext4"):
        pytest.skip("no mkfs.ext4 to make the card's filesystem")
    image, state = tmp_path / "card.img", tmp_path / "state"
    with open(image, "wb") as f:
        f.truncate(32 << 20)
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True, capture_output=True)
    state.mkdir()
    reason = _mount(image, state)
    if reason:
        pytest.skip(reason)
    head, lines, actions = random_game("shark", ACTIONS)
    box = Box(tmp_path)
    try:
        with Journal(state / "journal.sqlite") as journal:
            journal.new_game(head)
        box.start()
        for line in lines[:15]:
            assert box.ask(line, done=b"\r\n").strip() == "ok"
        device = Path(subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(state)], capture_output=True,
                                     text=True).stdout.strip()).name
        Path(f"/sys/fs/ext4/{device}/trigger_fs_error").write_text("test\n")   # ext4 now refuses writes
        refused(box, lines[15], "read_only", 15)
        assert box.proc.poll() is None
        replayed = subprocess.run([sys.executable, "-m", "firmware.cli", "export", "--journal",
                                   str(state / "journal.sqlite")], cwd=ROOT, capture_output=True, text=True)
        assert replayed.returncode == 0 and replayed.stdout.splitlines()[-15:] == lines[:15], replayed.stderr
    finally:
        box.stop()
        subprocess.run(["umount", "-l", str(state)], capture_output=True)
    assert _mount(image, state) is None                  # restarted: the card mounted again
    try:
        box = Box(tmp_path)
        box.start()
        assert box.ask(lines[15], done=b"\r\n").strip() == "ok" and recorded(box) == actions[:16]
    finally:
        box.stop()
        subprocess.run(["umount", "-l", str(state)], capture_output=True)
