"""A game's log whose older actions may still be unparsed text.

A resumed game's state comes from its snapshot (the state after its first n actions) and
the actions after it; the first n are needed only for what looks back (an undo past the
snapshot, the history, the evening's chart, an export). Parsing them at start is most of
what a resume reads (a resume must not grow with the game's length), so a `Log`
keeps them as the stored text and parses each one the first time it is read, replacing
the text with the action. Anything reading the log sees actions only.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence


class Log(Sequence):
    """A list of actions, items of which may be kept as text and parsed on first read.

    Supports what `Game` and its readers do with a log: len, index, slice (a Log, still
    lazy), iterate, append, copy, compare with a list."""

    __slots__ = ("_items", "_parse")

    def __init__(self, items=(), parse: Callable[[str], object] | None = None):
        self._items = list(items)
        self._parse = parse

    @classmethod
    def of_texts(cls, texts, parse: Callable[[str], object]) -> Log:
        """A log of `texts` (str), each parsed by `parse` when first read."""
        return cls(texts, parse)

    @property
    def unparsed(self) -> int:
        """How many items are still text (tests, benchmarks)."""
        return sum(type(item) is str for item in self._items)

    def _at(self, index: int):
        item = self._items[index]
        if type(item) is str:        # an action is never a str
            item = self._items[index] = self._parse(item)
        return item

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Log(self._items[index], self._parse)
        return self._at(index)

    def __iter__(self):
        items, parse = self._items, self._parse      # `_at`, without a call per item
        for index in range(len(items)):
            item = items[index]
            if type(item) is str:
                item = items[index] = parse(item)
            yield item

    def append(self, act) -> None:
        self._items.append(act)

    def copy(self) -> Log:
        return Log(self._items, self._parse)

    def __eq__(self, other) -> bool:
        if isinstance(other, (Log, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"
