"""Journal rows read straight from the bytes of SQLite pages, without SQLite.

The last resort of salvage: when the first page (which holds the schema) is zeroed, the
schema text has a bad byte, or SQLite refuses the file for any other reason, the game's
rows are usually still intact in later pages. This module walks every page of the file
(and of its -wal, if any) that looks like a B-tree page, decodes every cell it can, and
keeps the records shaped like journal rows:

    games    (table leaf, rowid = id):  [NULL, header TEXT, checksum TEXT]
    actions  schema 3 (table leaf, rowid = action_key(game id, seq)):
                                         [NULL, body TEXT, checksum BLOB of 32 bytes]
             schemas 1, 2 (index page, WITHOUT ROWID):
                                         [game_id INT, seq INT, body TEXT, checksum TEXT]
             (seq -1: the game's header copy, its checksum the header checksum)
    meta     (table leaf):               [key TEXT, value TEXT]

Both layouts of the actions table are looked for in every file: the rows of each are told
apart by their shape, so one scan reads a journal of any schema.

Nothing found here is trusted: a page may be stale (a freed page, an old WAL frame) or
garbage that happens to parse. The caller keeps only rows whose hash chain verifies, so
a wrong guess costs a row, never a wrong game. Every read is bounds-checked and every
loop is bounded by the file's size, so a damaged file cannot make this hang or raise.

File format reference: https://www.sqlite.org/fileformat2.html
"""
from __future__ import annotations

from dataclasses import dataclass, field

from firmware.journal.rows import key_parts

_MAGIC = b"SQLite format 3\x00"
_WAL_MAGICS = (0x377F0682, 0x377F0683)
_PAGE_SIZES = (4096, 1024, 512, 2048, 8192, 16384, 32768, 65536)
_HEX = frozenset("0123456789abcdef")


@dataclass
class Found:
    """Candidate rows: every distinct value seen for each key."""
    games: dict = field(default_factory=dict)     # id -> {(header, checksum)}
    actions: dict = field(default_factory=dict)   # (game id, seq) -> {(body, checksum)}
    meta: dict = field(default_factory=dict)      # key -> {value}
    pages: int = 0                                # B-tree pages decoded

    def add_record(self, rowid, values) -> None:
        if rowid is not None:
            if len(values) == 3 and values[0] is None and _is_text(values[1]) and _is_checksum(values[2]):
                self.games.setdefault(rowid, set()).add((values[1], values[2]))
            elif (len(values) == 3 and values[0] is None and _is_text(values[1]) and rowid > 0
                  and isinstance(values[2], bytes) and len(values[2]) == 32):
                self.actions.setdefault(key_parts(rowid), set()).add((values[1], values[2].hex()))
            elif len(values) == 2 and _is_text(values[0]) and _is_text(values[1]):
                self.meta.setdefault(values[0], set()).add(values[1])
        elif (len(values) == 4 and _is_int(values[0]) and _is_int(values[1]) and values[1] >= -1
              and _is_text(values[2]) and _is_checksum(values[3])):
            self.actions.setdefault((values[0], values[1]), set()).add((values[2], values[3]))


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_text(v) -> bool:
    return isinstance(v, str)


def _is_checksum(v) -> bool:
    return isinstance(v, str) and len(v) == 64 and set(v) <= _HEX


def scan(path: str) -> Found:
    """Every journal-shaped row in the pages of `path` and of `path`-wal."""
    found = Found()
    data = _read(path)
    if data:
        sizes, reserved = _page_geometry(data)
        for size in sizes:
            _scan_pages(data, size, reserved, found, first_page_header=True)
    wal = _read(path + "-wal")
    if len(wal) >= 32 and int.from_bytes(wal[:4], "big") in _WAL_MAGICS:
        size = int.from_bytes(wal[8:12], "big")
        if size in _PAGE_SIZES:
            # The file as SQLite would see it with the WAL: each page's latest frame laid
            # over the main file (overflow chains are followed by page number).
            pages = bytearray(data)
            for start in range(32, len(wal) - 24 - size + 1, 24 + size):
                number = int.from_bytes(wal[start:start + 4], "big")
                if 0 < number <= (len(wal) + len(data)) // size + 1:
                    end = number * size
                    if len(pages) < end:
                        pages += bytes(end - len(pages))
                    pages[end - size:end] = wal[start + 24:start + 24 + size]
            _scan_pages(bytes(pages), size, 0, found, first_page_header=True)
    return found


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def _page_geometry(data: bytes) -> tuple[tuple[int, ...], int]:
    """The page size(s) to try and the reserved bytes per page.

    A sound header names both; with a damaged first page every possible size is tried
    (a wrong size finds nothing that verifies).
    """
    if data.startswith(_MAGIC) and len(data) >= 100:
        size = int.from_bytes(data[16:18], "big")
        size = 65536 if size == 1 else size
        reserved = data[20]
        if size in _PAGE_SIZES and reserved < 64:
            return (size,), reserved
    return _PAGE_SIZES, 0


def _scan_pages(data: bytes, size: int, reserved: int, found: Found, first_page_header: bool) -> None:
    usable = size - reserved
    count = (len(data) + size - 1) // size
    for number in range(count):
        page = data[number * size:(number + 1) * size]
        offset = 100 if (first_page_header and number == 0 and page.startswith(_MAGIC)) else 0
        if len(page) <= offset + 8 or page[offset] not in (2, 5, 10, 13):
            continue
        found.pages += 1
        _scan_page(data, page, offset, size, usable, found)


def _scan_page(data, page, offset, size, usable, found) -> None:
    kind = page[offset]
    header = 8 if kind in (10, 13) else 12
    cells = int.from_bytes(page[offset + 3:offset + 5], "big")
    for i in range(min(cells, size // 2)):
        at = offset + header + 2 * i
        if at + 2 > len(page):
            return
        pointer = int.from_bytes(page[at:at + 2], "big")
        try:
            _scan_cell(data, page, pointer, kind, size, usable, found)
        except (IndexError, ValueError):
            continue  # a damaged cell: the others on the page may be sound


def _scan_cell(data, page, pos, kind, size, usable, found) -> None:
    if kind == 5:  # table interior: a child pointer and a rowid, no record
        return
    if kind == 2:
        pos += 4  # index interior: a left child pointer, then a cell like a leaf's
    payload, pos = _varint(page, pos)
    rowid = None
    if kind == 13:
        rowid, pos = _varint(page, pos)
        limit = usable - 35
    else:
        limit = (usable - 12) * 64 // 255 - 23
    minimum = (usable - 12) * 32 // 255 - 23
    if payload <= limit:
        local = payload
    else:
        local = minimum + (payload - minimum) % (usable - 4)
        local = local if local <= limit else minimum
    if payload > len(data) or pos + local > len(page):
        raise ValueError("cell runs past its page")
    body = page[pos:pos + local]
    if local < payload:
        body += _overflow(data, page, pos + local, payload - local, size, usable)
    found.add_record(rowid, _record(body))


def _overflow(data, page, at, missing, size, usable) -> bytes:
    if at + 4 > len(page):
        raise ValueError("overflow pointer cut")
    nxt = int.from_bytes(page[at:at + 4], "big")
    out, seen = bytearray(), set()
    while missing > 0:
        if nxt == 0 or nxt in seen or nxt * size > len(data) + size:
            raise ValueError("overflow chain broken")
        seen.add(nxt)
        chunk = data[(nxt - 1) * size:(nxt - 1) * size + usable]
        if len(chunk) < 4:
            raise ValueError("overflow page missing")
        take = chunk[4:4 + missing]
        out += take
        missing -= len(take)
        nxt = int.from_bytes(chunk[:4], "big")
        if missing and len(take) < usable - 4:
            raise ValueError("overflow page cut")
    return bytes(out)


def _record(body: bytes) -> list:
    header_size, pos = _varint(body, 0)
    if header_size > len(body):
        raise ValueError("record header runs past the record")
    types = []
    while pos < header_size:
        serial, pos = _varint(body, pos)
        types.append(serial)
    values, pos = [], header_size
    for serial in types:
        if serial == 0:
            values.append(None)
        elif serial in (1, 2, 3, 4, 5, 6):
            width = (1, 2, 3, 4, 6, 8)[serial - 1]
            if pos + width > len(body):
                raise ValueError("integer cut")
            values.append(int.from_bytes(body[pos:pos + width], "big", signed=True))
            pos += width
        elif serial in (8, 9):
            values.append(serial - 8)
        elif serial == 7:
            pos += 8
            values.append(float("nan"))  # no journal column is a float
        elif serial >= 12:
            width = (serial - 12) // 2
            if pos + width > len(body):
                raise ValueError("value cut")
            raw = body[pos:pos + width]
            pos += width
            values.append(raw.decode("utf-8") if serial % 2 else bytes(raw))  # bad UTF-8: ValueError
        else:
            raise ValueError("reserved serial type")
    return values


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = buf[pos + i]  # IndexError past the end
        if i == 8:
            return (value << 8) | byte, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos + i + 1
    raise ValueError("unreachable")

