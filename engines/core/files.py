"""Reading the text files the box is given: one path for configurations, the pin map,
box files and scripts.

A person hands the box these files, so anything that is not a readable UTF-8 text file
(a folder, a device, a binary, a Latin-1 export, a file the service may not read) is
refused with one message naming the file (and the line for bad bytes) and what to do,
never with a raw Python error. Each caller passes its own error class, so a bad
configuration stays a ConfigError and a bad box file a BoxFileError.

It lives in engines/core because box files are read by the engines; the firmware reads
its own files through the same functions.
"""
from __future__ import annotations

import json
import os
import pickle
import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

try:
    # CPython's own SHA-256 rather than OpenSSL's: importing hashlib loads libcrypto, whose
    # resident memory the box would carry all evening (PRODUCT.md's memory budget) and whose
    # load a start would wait for, only to hash short journal rows, the engines' sources
    # and parsed box files (docs/performance.md).
    from _sha256 import sha256
except ImportError:                         # Python 3.12 renamed it
    try:
        from _sha2 import sha256
    except ImportError:                     # an interpreter without it
        from hashlib import sha256

# Where parsed TOML is kept (keep_parsed_in), or None: kept nowhere.
_PARSED: Path | None = None
KEEP_PARSED = 16         # the most texts kept: the box files, the pin map, and a few edits of them
_PARSED_HERE: dict[str, bytes] = {}    # text -> its data, pickled, when no folder keeps them (_keep_here)

# No file the box reads is near this size (the longest script of a whole game is a few
# hundred kilobytes); a bigger one is the wrong file, refused before it is read.
MAX_BYTES = 8 * 1024 * 1024


def read_text(path: str | os.PathLike, what: str, error: type[Exception] = ValueError,
              limit: int = MAX_BYTES) -> str:
    """The text of `path`, a `what` ("configuration file", "box file", ...).

    A UTF-8 byte order mark (what some Windows editors write) is dropped."""
    return decode_text(read_bytes(path, what, error, limit), path, what, error)


def decode_text(data: bytes, path, what: str, error: type[Exception] = ValueError) -> str:
    """UTF-8 bytes as text; a bad byte is an `error` naming the file, line and column."""
    if data.startswith(b"\xef\xbb\xbf"):      # the BOM, dropped as "utf-8-sig" would, without
        data = data[3:]                        # loading that codec (a resume's first box file)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data.count(b"\n", 0, bad.start) + 1
        column = bad.start - (data.rfind(b"\n", 0, bad.start) + 1) + 1
        raise _worded(error, "not_utf8", path, what, line, byte=f"{data[bad.start]:02X}",
                      column=str(column)) from None


def read_bytes(path: str | os.PathLike, what: str, error: type[Exception] = ValueError,
               limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file; folders, devices and pipes are refused without
    reading them (a pipe or a tty would block, /dev/zero never ends)."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOCTTY: opening a
        # terminal must not make it ours. The check below refuses both.
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _worded(error, "not_found", path, what) from None
    except IsADirectoryError:
        raise _worded(error, "folder", path, what) from None
    except PermissionError:
        raise _worded(error, "permission", path, what, name=Path(path).name) from None
    except OSError as e:
        raise _worded(error, "not_opened", path, what, reason=str(e.strerror or e)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _worded(error, "folder", path, what)
        if not stat.S_ISREG(info.st_mode):
            raise _worded(error, "device", path, what)
        if info.st_size > limit:
            raise _worded(error, "too_big", path, what, size=str(info.st_size), limit=str(limit))
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 16):
            size += len(chunk)
            if size > limit:        # grew while being read
                raise _worded(error, "grew", path, what, limit=str(limit))
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise _worded(error, "not_read", path, what, reason=str(e.strerror or e)) from None
    finally:
        os.close(fd)


def _worded(error: type[Exception], key: str, path, what: str, line: int | None = None, **params) -> Exception:
    """An `error` naming the file (and the line) in the words of the catalog's `file.<key>`,
    said in the language a command is asked in; `what` ("box file") is said in that language
    too when the catalog names it."""
    from engines.core.errors import worded
    from engines.core.i18n import Worded, catalog

    slug = "file." + what.replace(" ", "_")
    return worded(error, "file." + key, where=f"{path}:" if line is None else f"{path}:{line}:",
                  what=Worded(slug) if slug in catalog("en") else what, **params)


def read_toml(path: str | os.PathLike, what: str, error: type[Exception] = ValueError) -> dict[str, Any]:
    """A TOML file as a dict; every way it can fail is an `error` naming the file."""
    return parse_toml(read_text(path, what, error), path, what, error)


def parse_toml(text: str, path, what: str, error: type[Exception] = ValueError) -> dict[str, Any]:
    if _PARSED is None and text in _PARSED_HERE:
        return pickle.loads(_PARSED_HERE[text])     # a copy: a caller may change what it reads
    kept = _kept(text) if _PARSED is not None else None
    if kept is not None:
        return kept
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _toml_error(error, e, text, path, what) from None
    except RecursionError:           # tomllib recurses once per nested array or table
        raise _worded(error, "toml_nested", path, what, deepest_line(text)) from None
    except ValueError as e:          # an integer of more than 4 300 digits: Python's words name no line
        long = LONG_NUMBER.search(text)
        if long is None:
            raise _worded(error, "toml", path, what, reason=str(e)) from None
        digits = sum(c.isdigit() for c in long.group())
        raise _worded(error, "toml_digits", path, what, text.count(chr(10), 0, long.start()) + 1,
                      digits=str(digits)) from None
    if _PARSED is not None:
        _keep(text, data)
    else:
        _keep_here(text, data)
    return data


def _keep_here(text: str, data: dict) -> None:
    """Keep what `text` parsed to in this process, pickled (read back many times faster than
    parsed: a game reads its box file each time one is made), the last KEEP_PARSED texts."""
    if len(_PARSED_HERE) >= KEEP_PARSED:
        del _PARSED_HERE[next(iter(_PARSED_HERE))]
    _PARSED_HERE[text] = pickle.dumps(data, pickle.HIGHEST_PROTOCOL)


def _toml_error(error: type[Exception], e: Exception, text: str, path, what: str) -> Exception:
    """The parser's mistake at the file's line, as every mistake of a file is said
    ("path:line: ..."): the parser's own reason kept, its place in our words."""
    reason = str(e)
    at = TOML_PLACE.search(reason)
    if at is None:
        return _worded(error, "toml", path, what, reason=reason)
    reason = reason[:at.start()]
    if at.group(1) is None:                              # "(at end of document)"
        return _worded(error, "toml_end", path, what, text.rstrip().count("\n") + 1, reason=reason)
    return _worded(error, "toml_at", path, what, int(at.group(1)), reason=reason, column=at.group(2))


TOML_PLACE = re.compile(r" \(at (?:line (\d+), column (\d+)|end of document)\)$")
LONG_NUMBER = re.compile(r"[0-9][0-9_]{1000,}")   # far longer than any number of a file the box reads


def deepest_line(text: str) -> int:
    """The line where the brackets of `text` nest deepest (outside quoted strings): where a
    file nested too deeply for the parser goes wrong."""
    depth = deepest = 0
    line = at = 1
    quote = None
    for char in text:
        if char == "\n":
            line += 1
        elif quote is not None:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, line
        elif char in "]}":
            depth -= 1
    return at


def keep_parsed_in(folder: str | os.PathLike | None) -> None:
    """Keep each TOML text parsed from now on in `folder` (the box's state folder), as the
    JSON of what it parsed to, named by the text's hash, and read it from there when the
    same text is parsed again (the next start): a box file is parsed at every resume, and a
    large one's TOML costs a resume far more than its JSON read back (docs/performance.md).
    The same text always parses to the same data, so the file's name is all that is checked;
    a text whose data JSON cannot hold exactly (a date) is not kept, and a kept file that
    cannot be read is parsed again. `None`: keep nothing (tests, scripts)."""
    global _PARSED
    _PARSED = None if folder is None else Path(folder)


def _kept_path(text: str) -> Path:
    # the parser is the interpreter's: another Python version may read a text otherwise
    key = sha256(f"{sys.version_info[0]}.{sys.version_info[1]}\0{text}".encode("utf-8", "surrogatepass"))
    return _PARSED / f"toml-{key.hexdigest()[:40]}.json"


def _kept(text: str) -> dict | None:
    try:
        data = json.loads(_kept_path(text).read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _exact_in_json(value) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _exact_in_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_exact_in_json(v) for v in value)
    return isinstance(value, (str, int, float))       # bool is an int; dates and times are not kept


def _keep(text: str, data: dict) -> None:
    """Write what `text` parsed to beside the others; a cache: any failure only costs the
    next start a parse (no sync: a file cut by a power cut is unreadable JSON, parsed again)."""
    if not _exact_in_json(data):
        return
    target = _kept_path(text)
    try:
        _PARSED.mkdir(parents=True, exist_ok=True)
        scratch = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        scratch.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(scratch, target)
        kept = sorted(_PARSED.glob("toml-*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in kept[KEEP_PARSED:]:
            old.unlink()
    except (OSError, ValueError):      # ValueError: text JSON cannot write as UTF-8
        pass
