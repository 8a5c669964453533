"""Bit rot in the journal's file header and in its -wal: the box salvages to the last
verifiable action instead of abandoning the game, and readers read the same.

One flipped bit in the header (the magic, the user_version, the application id) makes
SQLite refuse or misread a file whose rows are all whole; one bad byte in the -wal makes it
stop reading there, every later commit out of sight. The rows are read from the pages and
the frames themselves, and the hash chain says which to keep.

`make test` flips one bit of every header byte of a cleanly closed journal, of a fifth of
them in a killed box's journal, and 12 bytes across its -wal (chosen once); `make fuzz`
flips every bit of the header of both and FUZZ_SCALE times more -wal bytes, with fresh seeds.
"""
import os
import random
import shutil

import pytest

from firmware.journal import Journal
from firmware.journal.startup import open_for_box
from firmware.journal.reader import JournalReader
from firmware.journal.rows import canonical
from journal_writer import killed_writer
from props import FUZZ_SCALE, FUZZING
from test_journal_cuts import workdir as _workdir

HEADER = {"game": "maxibourse", "format": "junior", "players": ["Ana", "Ben", "Cid"], "seed": 5}
# Small actions, each row on one page: a row is lost only if its own bytes are damaged.
ACTIONS = [{"kind": "declare", "player": i % 3, "lots": i % 7, "n": i, "t": "é" * (i % 40)} for i in range(700)]


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    """Two journals of one game: closed cleanly (one file), and killed (its -wal, -shm)."""
    folder = tmp_path_factory.mktemp("bitrot")
    clean = folder / "clean" / "journal.sqlite"
    clean.parent.mkdir()
    with Journal(clean) as journal:
        game = journal.new_game(HEADER)
        for action in ACTIONS[:300]:
            journal.append(game, action)
    killed = folder / "killed" / "journal.sqlite"
    killed.parent.mkdir()
    acked = killed_writer(killed, HEADER, ACTIONS, 500)
    return {"clean": (clean, 300), "killed": (killed, acked)}


@pytest.fixture
def shm(tmp_path):
    """A folder in memory when there is a tmpfs (hundreds of small journals are written
    and salvaged), removed afterwards."""
    work = _workdir(tmp_path)
    yield work
    if work != tmp_path:
        shutil.rmtree(work, ignore_errors=True)


def copy_of(source, tmp_path):
    target = tmp_path / "state" / "journal.sqlite"
    target.parent.mkdir()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{source}{suffix}"):
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    return target


def flip(path, offset, bit):
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ (1 << bit)]))


def kept_by_the_box(path):
    journal, aside = open_for_box(path)
    try:
        assert aside is None, aside                   # never moved aside as unreadable
        game = journal.last_game()
        return (journal.actions(game) if game else []), journal.repairs
    finally:
        journal.close()


def header_flips(which):
    """(offset, bit) of the header to flip: one bit of each byte (every field SQLite reads),
    chosen once; for the killed journal a fifth of them; every bit under `make fuzz`."""
    if FUZZING:
        return [(offset, bit) for offset in range(100) for bit in range(8)]
    flips = [(offset, random.Random(offset).randrange(8)) for offset in range(100)]
    return flips if which == "clean" else flips[::5]


@pytest.mark.parametrize("which", ["clean", "killed"])
def test_a_bit_flipped_anywhere_in_the_file_header_loses_no_action(journals, shm, which):
    source, acked = journals[which]
    lost = {}
    for offset, bit in header_flips(which):
        case = shm / f"{offset}-{bit}"
        case.mkdir()
        path = copy_of(source, case)
        flip(path, offset, bit)
        with JournalReader(path) as reader:           # `replay`, `export`: before the box
            read = reader.actions(reader.last_game())
        actions, repairs = kept_by_the_box(path)
        if actions != ACTIONS[:len(actions)] or len(actions) < acked or read != actions:
            lost[offset] = (len(actions), len(read), repairs[:2])
        shutil.rmtree(case)
    assert lost == {}, lost


@pytest.mark.parametrize("field, offset, bit", [("magic", 3, 2), ("user_version", 60, 1),
                                                ("user_version, high bit", 61, 1), ("application id", 70, 5),
                                                ("text encoding", 59, 1)])
def test_a_damaged_magic_version_id_or_encoding_is_salvaged_with_the_damaged_file_kept_beside(journals, tmp_path,
                                                                                              field, offset, bit):
    source, _ = journals["clean"]
    path = copy_of(source, tmp_path)
    flip(path, offset, bit)
    damaged = path.read_bytes()
    actions, repairs = kept_by_the_box(path)
    assert actions == ACTIONS[:300]
    assert repairs[0].startswith(f"journal {path}: file damaged (the file's header is damaged: "), repairs
    assert f"kept aside as {path}.damaged-1; salvaged 1 games and 300 actions" in repairs[0]
    assert (tmp_path / "state" / "journal.sqlite.damaged-1").read_bytes() == damaged


def verbatim_prefix(path, checksums):
    """How many actions from the first have their row (body and checksum) still whole
    somewhere in the file or its -wal: what the chain can vouch for."""
    data = b"".join(open(f"{path}{s}", "rb").read() for s in ("", "-wal") if os.path.exists(f"{path}{s}"))
    for seq in range(len(checksums)):
        if canonical(ACTIONS[seq]).encode() + checksums[seq] not in data:
            return seq
    return len(checksums)


def test_a_bad_byte_anywhere_in_the_wal_loses_only_what_the_chain_cannot_link(journals, shm):
    source, acked = journals["killed"]
    size = os.path.getsize(f"{source}-wal")
    assert size > 100_000                             # hundreds of actions wait in the -wal
    rng = random.Random(None if FUZZING else 25)
    offsets = sorted(rng.sample(range(size), 12 * (FUZZ_SCALE if FUZZING else 1))) + [9245]
    with JournalReader(source) as reader:              # the rows' checksums, before any damage
        game = reader.last_game()
        checksums = [bytes.fromhex(reader.checksum(game, seq)) for seq in range(acked)]
    short = {}
    for offset in offsets:
        case = shm / f"{offset}"
        case.mkdir()
        path = copy_of(source, case)
        flip(f"{path}-wal", offset, offset % 8)
        whole = verbatim_prefix(path, checksums)
        with JournalReader(path) as reader:
            read = len(reader.actions(reader.last_game()))
        actions, repairs = kept_by_the_box(path)
        assert actions == ACTIONS[:len(actions)]
        if len(actions) < whole or read != len(actions):
            short[offset] = (len(actions), read, whole, repairs[:2])
        shutil.rmtree(case)
    assert short == {}, short
