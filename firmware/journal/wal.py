"""Telling that the -wal file lost committed transactions, before SQLite opens the journal.

A commit is durable once its frames are in the -wal file; they reach the main file only at
the next checkpoint. If the -wal is deleted, cut or damaged in between (a writer killed,
then someone copies or cleans the folder; a bad SD sector), SQLite opens what is left
without a word, and the journal's hash chain cannot tell either: losing the tail of a
chain leaves a valid, shorter chain.

What can tell is the -wal's index, the -shm file beside it: its header says how many
frames the WAL holds (mxFrame) and how many of them are already copied into the main
file (nBackfill). So before SQLite rebuilds that index, this module compares it with the
WAL itself: frames the index counts as committed and not yet in the main file, that the
WAL no longer holds with valid checksums, are lost. It costs nothing while playing (SQLite
keeps the index anyway) and cannot see a loss when the -shm is gone too, or was never
written back before a power cut (it is a memory-mapped file nobody syncs): then the
message is simply not given. docs/reliability.md says what is and is not detected.

A -wal damaged in its middle (one bad byte) is told by `damage`: commits behind the first
frame whose checksum fails. SQLite stops at that frame; the journal then salvages, reading
the frames past it (pages.py). A failing card leaves the same shape without losing
anything: a commit it refuses (a write error, half a write, an fsync error) leaves its
frames behind, the last one often torn, and SQLite never counts them (the index's mxFrame
stays), writes the next attempt over them and may stop short of their end. Those frames
carry the -wal's salts and a commit flag and chain among themselves as committed frames do,
so neither tells them apart; what SQLite counted does:
- the failing frame itself is never a later commit: a commit whose last frame is torn is
  an unfinished commit, as a power cut leaves;
- when the -shm index is of the -wal's generation (same salts and page size), its mxFrame
  is the last frame SQLite committed: there is damage when it counts frames past the last
  commit that verifies (the failing frame is then one of them, and SQLite would hide
  them), never for frames past mxFrame, which no commit acknowledged;
- without such an index (deleted, torn, of an older generation, never written back before
  a power cut) nothing tells which frames SQLite counted, and frames of a commit after the
  failing frame are taken as committed: salvaging a refused commit's leftovers costs a
  journal set aside, taking a damaged -wal as sound would cost acknowledged actions. A
  -shm of the same generation left stale by a power cut (an older mxFrame) hides damage
  behind it, as it hides a loss from `_lost`.
`examine` makes both checks on one read of the file.

Formats: https://www.sqlite.org/fileformat2.html#walformat and SQLite's wal.c (WalIndexHdr,
WalCkptInfo, walChecksumBytes).
"""
from __future__ import annotations

import struct
import sys

_WAL_MAGIC = (0x377F0682, 0x377F0683)  # checksums little- / big-endian


def examine(path: str) -> tuple[tuple[int, str] | None, str | None]:
    """Both checks of the -wal, before SQLite opens the journal, on one read of it and one
    walk of its checksums (what a start after a power cut pays for them): ((frames lost,
    how) when the -wal lost committed frames the -shm index still counts, else None; what
    `damage` says)."""
    try:
        with open(path + "-wal", "rb") as f:
            wal: bytes | OSError | None = f.read()
    except FileNotFoundError:
        wal = None
    except OSError as exc:
        wal = exc
    walks: dict = {}

    def valid(page_size, salts):
        """`_valid_frames` over the whole -wal, walked once for the index and the header."""
        key = (page_size, tuple(salts))
        if key not in walks:
            walks[key] = _valid_frames(wal, page_size, salts, (len(wal) - 32) // (24 + page_size))
        return walks[key]

    index = _read_index(path + "-shm")
    return _lost(index, wal, valid), _damage(wal, valid, index)


def damage(path: str) -> str | None:
    """What is wrong with the -wal when commits SQLite counted lie at or past a frame whose
    checksum fails (the module docstring says how that is told): SQLite stops reading at that
    frame, so every commit after it is silently out of sight, while their rows may all be
    intact. None when the -wal is absent, sound, merely ends with an unfinished commit (a
    power cut) or holds what is left of commits the card refused."""
    return examine(path)[1]


def _lost(index, wal, valid) -> tuple[int, str] | None:
    """Committed frames the -shm index counts that the -wal no longer holds whole."""
    if index is None:
        return None
    page_size, max_frame, salts, backfilled = index
    pending = max_frame - backfilled
    if pending <= 0:
        return None                    # everything the index counts is in the main file
    if wal is None:
        return pending, "the -wal file is missing"
    if isinstance(wal, OSError):
        return pending, f"the -wal file cannot be read ({wal.strerror})"
    found = valid(page_size, salts)[0]
    if found is None:
        return pending, "the -wal file's header is damaged or belongs to another journal"
    if found < max_frame:
        return max_frame - max(found, backfilled), "the -wal file is cut short or damaged"
    return None


def _damage(wal, valid, index) -> str | None:
    if not isinstance(wal, bytes) or len(wal) < 32:
        return None
    magic, _, size, _, salt1, salt2, c1, c2 = struct.unpack(">8I", wal[:32])
    order = ">" if magic & 1 else "<"
    sound_size = 512 <= size <= 65536 and not size & (size - 1)
    if magic not in _WAL_MAGIC or not sound_size or _checksum(wal[:24], order, 0, 0) != (c1, c2):
        if _all_copied(wal, index):
            return None
        # Without a sound magic and size every page size is tried; the salts themselves
        # may be what is damaged: any frame counts.
        later = _later_frames(wal[32:], size) if magic in _WAL_MAGIC and sound_size else _later_frames(wal, None)
        return "has a damaged header" if later else None
    good, verified = valid(size, (salt1, salt2))
    step = 24 + size
    after_break = 32 + (verified + 1) * step
    if len(wal) < after_break:
        return None                    # no frame fails: the -wal merely ends there
    counted = _counted(index, size, (salt1, salt2))
    if counted is not None:
        # The index says how far SQLite committed: frames past it are a refused commit's.
        if counted <= good:
            return None
        return f"has a damaged frame (frame {verified + 1}) among the commits its index counts (to frame {counted})"
    later = _later_frames(wal[after_break:], size, (salt1, salt2), commits=True)
    if later:
        return f"has a damaged frame (frame {verified + 1}) followed by {later} frames of later commits"
    return None


def _counted(index, page_size: int, salts) -> int | None:
    """The index's mxFrame when the index is of the -wal's generation, else None."""
    if index is None or index[0] != page_size or tuple(index[2]) != tuple(salts):
        return None
    return index[1]


def _all_copied(wal: bytes, index) -> bool:
    """Whether the -shm index says every frame of the -wal is in the main file and none
    behind its header is of the generation it names. The first commit after a checkpoint
    starts the index's new generation, then writes the -wal's header again over the old
    one: a card that writes half of it refuses that commit and leaves half a header before
    frames that were all copied already, which hides nothing."""
    if index is None:
        return False
    page_size, max_frame, salts, backfilled = index
    return max_frame == backfilled and not _later_frames(wal[32:], page_size, salts)


def _later_frames(wal: bytes, size: int | None, salts=None, commits: bool = False) -> int:
    """How many frames of `wal` (from its start, in steps of a frame) carry `salts` and
    a page number; with `commits`, 0 unless one of them ends a commit. `size` None: the
    header's page size cannot be trusted, every page size is tried."""
    if size is None:
        return max((_later_frames(wal[32:], s, salts, commits) for s in (512, 1024, 2048, 4096)),
                   default=0)
    step, count, committed = 24 + size, 0, False
    for at in range(0, len(wal) - step + 1, step):
        number, commit, f1, f2 = struct.unpack(">4I", wal[at:at + 16])
        if number == 0 or (salts is not None and (f1, f2) != tuple(salts)):
            continue
        count += 1
        committed = committed or commit != 0
    return count if committed or not commits else 0


def _read_index(shm_path: str):
    """(page size, mxFrame, (salt1, salt2), nBackfill) from the -shm header, or None."""
    try:
        with open(shm_path, "rb") as f:
            head = f.read(136)
    except OSError:
        return None
    if len(head) < 136:
        return None
    order = "<" if sys.byteorder == "little" else ">"   # the index is in native byte order
    # WalIndexHdr, twice (a reader trusts it only when both copies agree).
    fields = "IIIBBHIIIIIIII"
    first, second = struct.unpack(order + fields, head[:48]), struct.unpack(order + fields, head[48:96])
    if first != second:
        return None
    version, _, _, is_init, _, page_size, max_frame, *_ = first
    if version != 3007000 or not is_init:
        return None
    page_size = 65536 if page_size == 1 else page_size
    backfilled = struct.unpack(order + "I", head[96:100])[0]       # WalCkptInfo.nBackfill
    if page_size < 512 or page_size & (page_size - 1) or backfilled > max_frame:
        return None
    # aSalt is a byte copy of the WAL header's salts (big-endian there), not native integers.
    return page_size, max_frame, struct.unpack(">2I", head[32:40]), backfilled


def _valid_frames(wal: bytes, page_size: int, salts, max_frame: int) -> tuple[int | None, int]:
    """(how many frames, from the first, the WAL holds with valid salts and checksums, up
    to its last commit frame, or None if the header is not the one the index describes;
    how many verify, up to the first that fails)."""
    if len(wal) < 32:
        return (0 if not wal else None), 0
    magic, _, size, _, salt1, salt2, c1, c2 = struct.unpack(">8I", wal[:32])
    if magic not in _WAL_MAGIC or size != page_size or (salt1, salt2) != tuple(salts):
        return None, 0
    order = ">" if magic & 1 else "<"
    s1, s2 = _checksum(wal[:24], order, 0, 0)
    if (s1, s2) != (c1, c2):
        return None, 0
    committed = frame = 0
    at = 32
    while frame < max_frame and at + 24 + page_size <= len(wal):
        number, commit, f1, f2, k1, k2 = struct.unpack(">6I", wal[at:at + 24])
        if (f1, f2) != (salt1, salt2) or number == 0:
            break
        s1, s2 = _checksum(wal[at:at + 8], order, s1, s2)
        s1, s2 = _checksum(wal[at + 24:at + 24 + page_size], order, s1, s2)
        if (s1, s2) != (k1, k2):
            break
        frame += 1
        if commit:
            committed = frame
        at += 24 + page_size
    return committed, frame


def _checksum(data: bytes, order: str, s1: int, s2: int) -> tuple[int, int]:
    words = iter(struct.unpack(f"{order}{len(data) // 4}I", data))
    for first, second in zip(words, words):     # the words two by two, without indexing
        s1 = (s1 + first + s2) & 0xFFFFFFFF
        s2 = (s2 + second + s1) & 0xFFFFFFFF
    return s1, s2
