"""Actions: small frozen values with a plain JSON form and a one-line text form.

Every game declares its actions as dataclasses decorated with `@action("kind")`. The
field annotations say how a field is written in the command language:

    Seat     a player, written by name in text (`Sophie`), by seat number in JSON
    Name     an identifier, upper case
    Tile     a tile (or card) by its identifier, upper case (Dividends' event tile)
    Company  a company, by its ticker (`SONY`), upper case
    Target   what a price change moves: a company, a sector (`BANQUES`) or `ALL`
    int      a whole number; amounts may be written 1_000_000 or 1000000
    Lots     a number of lots (a count, never money)
    Money    an amount of money paid or bid
    Price    a price per share or certificate
    DieFace  a die's face as rolled (`5`)
    Marker   a marker's place on a track, as the value printed there (a dividend: `250`)
    Signed   a whole number written with its sign (`+60`, `-30`)
    SignedDie  a die whose faces carry a direction, written with its sign (`+3`, `-2`)
    Move     a marker's move along its track, in places, with its sign (`+1`, `-1`)
    MoneyDelta, PriceDelta, CountDelta   signed changes of cash, of prices, of a count
    Cell     a cell of a grid: its column letter then its row number (`B4`), the same
             in JSON; the value is the (row, column) pair, counted from 0
    Text     free text, quoted in the command language when it has spaces

The types are what the box's menus ask by (firmware/menus.py): a list of players for a
Seat, the sector-then-company lists for a Company, a price-led amount for a Price.

A line is `kind arg arg ...` (shell-like quoting). JSON is {"kind": ..., field: value}.
"""
import dataclasses
import functools
import re
import shlex
import types
import typing
from typing import ClassVar

from engines.core.errors import ProtocolError
from engines.core.i18n import Worded
from engines.core.records import record

# The longest line the command language reads, in bytes of UTF-8: the serial console's
# buffer, and the same for scripts (the longest real line, a reason, is far shorter).
MAX_LINE_BYTES = 1024
# Numbers are ASCII digits (int() would also take "١٢" or "²"-like digits of other
# scripts) and at most this many: more than any amount, seed or count a game holds.
MAX_DIGITS = 18
_NUMBER = re.compile(r"[+-]?[0-9](?:_?[0-9])*")

# One pass over a line with shlex's POSIX rules (comments on): whitespace is space, tab,
# CR, LF; '...' is literal; "..." keeps a backslash unless it escapes " or \; outside
# quotes a backslash escapes the next character and # starts a comment, even inside a
# word. shlex itself builds each token a character at a time (quadratic on a long line).
_PIECE = re.compile(r"""
    (?P<space>[ \t\r\n]+)
  | (?P<comment>\#.*)
  | '(?P<single>[^']*+)'
  | "(?P<double>(?:[^"\\]|\\.)*+)"
  | \\(?P<escaped>.)
  | (?P<plain>[^ \t\r\n'"\\\#]++)
  | (?P<open>['"])
  | (?P<lone>\\)
""", re.X | re.S)
_DOUBLE_ESCAPE = re.compile(r'\\(["\\])')


def split_line(line: str) -> list[str]:
    """The words of one line of the command language, in time linear in its length."""
    words: list[str] = []
    current: list[str] | None = None         # the word being read; None between words
    for match in _PIECE.finditer(line):
        kind = match.lastgroup
        if kind in ("space", "comment"):
            if current is not None:
                words.append("".join(current))
                current = None
            if kind == "comment":
                break
            continue
        if kind == "open":
            raise ProtocolError.worded("protocol.no_closing_quote")
        if kind == "lone":
            raise ProtocolError.worded("protocol.no_escaped")
        text = match.group(kind)
        if kind == "double":
            text = _DOUBLE_ESCAPE.sub(r"\1", text)
        if current is None:
            current = []
        current.append(text)
    if current is not None:
        words.append("".join(current))
    return words


def check_line_length(line: str) -> None:
    """Refuse a line longer than MAX_LINE_BYTES before reading it."""
    if len(line) > MAX_LINE_BYTES or len(line.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
        size = len(line.encode("utf-8", "surrogatepass"))
        raise ProtocolError.worded("protocol.line_too_long", size=str(size), limit=str(MAX_LINE_BYTES))


def read_number(word: str, what, signed: bool = False) -> int:
    """A whole number written in ASCII digits (1_000 allowed), with a sign when `signed`."""
    if signed and word[:1] not in ("+", "-"):
        raise ProtocolError.worded("protocol.number_sign", what=what, got=repr(word))
    if not _NUMBER.fullmatch(word):
        raise ProtocolError.worded("protocol.number_digits", what=what, got=repr(word))
    digits = word.lstrip("+-").replace("_", "")
    if len(digits) > MAX_DIGITS:
        raise ProtocolError.worded("protocol.number_long", what=what, digits=str(len(digits)), limit=str(MAX_DIGITS))
    return int(word.replace("_", ""))


class Seat(int):
    """Marker type: a player's seat index (0-based)."""


class Name(str):
    """Marker type: an upper-case identifier (company, sector, target)."""


class Company(Name):
    """Marker type: a company, by its ticker."""


class Tile(Name):
    """Marker type: a tile or card, by its identifier (an event tile)."""


class Target(Name):
    """Marker type: a company, a sector or ALL (what a price change moves)."""


class Lots(int):
    """Marker type: a number of lots."""


class Money(int):
    """Marker type: an amount of money (paid, received, bid)."""


class Price(int):
    """Marker type: a price (per share, per certificate)."""


class DieFace(int):
    """Marker type: one die's face, as rolled."""


class Marker(int):
    """Marker type: where a marker stands on a track, as the value printed on its square."""


class Signed(int):
    """Marker type: an integer written with an explicit sign."""


class SignedDie(Signed):
    """Marker type: a die whose faces carry a direction (+ up, - down)."""


class Move(Signed):
    """Marker type: a marker's move along its track, in places (+ up, - down)."""


class MoneyDelta(Signed):
    """Marker type: a signed change of cash."""


class PriceDelta(Signed):
    """Marker type: a signed change of prices."""


class CountDelta(Signed):
    """Marker type: a signed change of a count (lots, certificates, cards)."""


class Cell(tuple):
    """Marker type: a grid cell (row, column), 0-based; written `B4` (column letter, row number)."""

    def __new__(cls, value):
        if isinstance(value, str):
            value = read_cell(value)
        row, col = value
        return super().__new__(cls, (row, col))

    def __str__(self):
        return cell_text(self)


_CELL = re.compile(r"([A-Za-z])([0-9]{1,2})")


def read_cell(word: str) -> tuple[int, int]:
    """`B4` -> (3, 1): the column letter A-Z, then the row number from 1."""
    match = _CELL.fullmatch(word)
    if not match or int(match.group(2)) < 1:
        raise ProtocolError.worded("protocol.cell", got=repr(word))
    return int(match.group(2)) - 1, ord(match.group(1).upper()) - ord("A")


@functools.lru_cache(maxsize=4096)
def cell_text(cell) -> str:
    """A cell as written (a map has a few hundred; a decision lists them all at every
    snapshot: each is written once)."""
    row, col = cell
    return f"{chr(ord('A') + col)}{row + 1}"


class Text(str):
    """Marker type: free text (reasons for corrections)."""


# The players the actions' declared examples name (`@action(..., example=...)`).
EXAMPLE_PLAYERS = ("Ana", "Ben", "Cid", "Dan")


class Action:
    """What every action is: a frozen record of its fields (`@action`, engines/core/records.py).

    The methods a frozen dataclass has (init, repr, eq, hash, no setting or deleting a
    field) are the records' shared ones, not generated for each class: dataclasses compile
    six functions per class, which an engine's import, with its 15 to 30 action classes,
    would pay for at every start."""
    kind: ClassVar[str] = ""
    flags: ClassVar[frozenset] = frozenset()
    example: ClassVar[str] = ""

    def to_json(self) -> dict:
        data = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple) and not isinstance(value, Cell):
                value = [cell_text(v) if isinstance(v, Cell) else v for v in value]
            data[f.name] = cell_text(value) if isinstance(value, Cell) else value
        return data


# What the box needs to know of an action beyond its fields, declared with it
# (`@action("adjust_cash", CORRECTION)`) so the firmware never keeps lists of kind names.
CORRECTION = "correction"  # an operator correction (General ruling); implies ANYTIME and CONFIRM
ANYTIME = "anytime"        # offered beside the turn's own actions: reached from the menu
CONFIRM = "confirm"        # shown as a summary to confirm before it is applied
CHANCE = "chance"          # what it records can be drawn by the device (dice, a tile)
OUTCOME = "outcome"        # confirmed on one screen that shows its outcome (dice, a payment)
FLAGS = (CORRECTION, ANYTIME, CONFIRM, CHANCE, OUTCOME)


def action(kind: str, *flags: str, old_forms: dict | None = None, example: str = ""):
    """Class decorator: make a frozen dataclass action named `kind`, with its `flags`.

    A list field (`tuple[T, ...]`, e.g. `Seats`) is the action's last field: in text it
    takes the line's remaining words, in JSON it is a list. `old_forms` maps a list field
    to the numbered fields it replaced (`{"players": ("p1", ..., "p12")}`): JSON written
    with those is still read, so journals and exports of before replay. `example` is a line
    of the action as a table writes it, naming the players of EXAMPLE_PLAYERS; with the
    class's docstring (when it is offered, what it does) it is the action's row in
    docs/protocol.md (tests/protocol_tables.py)."""
    unknown = set(flags) - set(FLAGS)
    if unknown:
        raise ValueError(f"action {kind}: unknown flag(s) {', '.join(sorted(unknown))}; known: {', '.join(FLAGS)}")
    flags = set(flags) | ({ANYTIME, CONFIRM} if CORRECTION in flags else set())

    def wrap(cls):
        if not issubclass(cls, Action):  # give plain classes the Action methods
            namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
            cls = type(cls.__name__, (Action,), namespace)
        cls = record(cls, frozen=True)
        if any(f.default_factory is not dataclasses.MISSING for f in dataclasses.fields(cls)):
            raise ValueError(f"action {kind}: a field's default must be a value (an action is immutable)")
        cls.kind = kind
        cls.flags = frozenset(flags)
        cls._types = typing.get_type_hints(cls)
        names = [f.name for f in dataclasses.fields(cls)]
        lists = [n for n in names if list_item(cls._types[n]) is not None]
        if lists and lists != names[-1:]:
            raise ValueError(f"action {kind}: a list field must be the last field; got {', '.join(lists)}")
        cls.old_forms = dict(old_forms or {})
        cls.example = example
        return cls

    return wrap


# Reading a journal reads every action of the game (2 000 on a long evening, at each resume):
# what a class's fields are, and what a field's type means, is worked out once, not per action.
@functools.cache
def _field_types(cls):
    return tuple((f.name, cls._types[f.name], f.default is not dataclasses.MISSING) for f in dataclasses.fields(cls))


Seats = tuple[Seat, ...]   # a list of players, in order


@functools.cache
def list_item(typ):
    """The element type of a list field (`tuple[T, ...]`, maybe Optional), else None."""
    typ = _base(typ)
    if typing.get_origin(typ) is tuple:
        return typing.get_args(typ)[0]
    return None


def _old_form(cls, data: dict) -> dict:
    """JSON written with numbered fields (p1..p12) read as the list field that replaced them."""
    data = dict(data)
    for name, numbered in cls.old_forms.items():
        used = [n for n in numbered if n in data]
        if not used:
            continue
        if name in data:
            raise ProtocolError(f"action {cls.kind}: {name} and {', '.join(used)} both given; write {name} only")
        items = [data.pop(n) for n in numbered if n in data]
        given = [v for v in items if v is not None]
        if None in items[:len(given)]:
            raise ProtocolError(f"action {cls.kind}: {', '.join(numbered)} must be filled from the first, without gaps")
        data[name] = given
    return data


class ActionSet:
    """The actions a game understands, and their JSON and text forms.

    `aliases` maps a kind name the game used before to its kind now (`{"bid": "keep"}`:
    a name that meant two things in two games was given one per meaning): journals,
    scripts and examples written with the old name still read, as the new kind, and are
    written back with the new one. An alias is this game's own: the same old name may
    lead elsewhere in another game."""

    def __init__(self, *classes, aliases: dict | None = None):
        self.classes = {cls.kind: cls for cls in classes}
        self.aliases = dict(aliases or {})
        self._readers = {}       # kind -> its class's JSON reader, made on the first read of it
        for old, new in self.aliases.items():
            if old in self.classes or new not in self.classes:
                raise ValueError(f"alias {old!r} -> {new!r}: the old name must be no kind and the new one a kind "
                                 f"of this game ({', '.join(self.classes)})")

    def kind_of(self, name: str) -> str:
        """The kind `name` means in this game: itself, or the kind an old name became."""
        return self.aliases.get(name, name)

    def kinds(self):
        return list(self.classes)

    def fields(self, kind):
        return list(_field_types(self.classes[kind]))

    def has(self, kind: str, flag: str) -> bool:
        """Whether the action `kind` carries `flag` (False for a kind this game does not have)."""
        cls = self.classes.get(kind)
        return cls is not None and flag in cls.flags

    # JSON -----------------------------------------------------------------
    def from_json(self, data: dict) -> Action:
        if data.__class__ is dict:              # a kind read before (a replay's 2 000 rows): its reader
            kind = data.get("kind")
            if kind.__class__ is str:
                read = self._readers.get(kind)  # no alias is a kind (__init__), so none is missed here
                if read is not None:
                    return read(data)
        if not isinstance(data, dict) or "kind" not in data:
            raise ProtocolError(f"an action must be an object with a 'kind', got {data!r}")
        if isinstance(data["kind"], str) and data["kind"] in self.aliases:
            data = {**data, "kind": self.aliases[data["kind"]]}
        read = self._readers.get(data["kind"])
        if read is None:
            cls = self.classes.get(data["kind"])
            if cls is None:
                raise ProtocolError(f"unknown action {data['kind']!r}; known: {', '.join(self.classes)}")
            read = self._readers[cls.kind] = _json_reader(cls)
        return read(data)

    # Text -----------------------------------------------------------------
    def parse(self, line: str, players: list[str]) -> Action:
        check_line_length(line)
        try:
            words = split_line(line)
        except ProtocolError as error:
            raise ProtocolError.worded("protocol.cannot_read_line", line=repr(line),
                                       reason=Worded(error.key, **error.params)) from None
        return self.parse_words(words, players)

    def parse_words(self, words: list[str], players: list[str]) -> Action:
        """An action from the words of a line already split (split_line)."""
        if not words:
            raise ProtocolError("empty line")
        kind, args = self.kind_of(words[0].lower()), words[1:]
        cls = self.classes.get(kind)
        if cls is None:
            raise self.unknown(kind)
        fields = _field_types(cls)
        listed = bool(fields) and list_item(fields[-1][1]) is not None
        required = [f for f in fields if not f[2] and list_item(f[1]) is None]
        if len(args) < len(required) or (not listed and len(args) > len(fields)):
            raise ProtocolError.worded("protocol.arguments", kind=kind, usage=self.usage(kind), count=len(args))
        values = {}
        for (name, typ, _), word in zip(fields, args):
            if list_item(typ) is None:
                values[name] = _read_word(kind, name, typ, word, players)
        if listed:                              # the list field takes the remaining words
            name, typ, _ = fields[-1]
            rest = args[len(fields) - 1:]
            values[name] = tuple(_read_word(kind, name, list_item(typ), word, players) for word in rest)
        return cls(**values)

    def unknown(self, kind: str, where="") -> ProtocolError:
        """The refusal of an action kind the game does not have; `where`: how the game was
        chosen (a script's `game` line), said after it."""
        return ProtocolError.worded("protocol.unknown_where" if where else "protocol.unknown",
                                    kind=kind.lower(), known=", ".join(self.classes), where=where)

    def format(self, act: Action, players: list[str]) -> str:
        words = [act.kind]
        for name, typ, optional in _field_types(type(act)):
            value = getattr(act, name)
            if optional and value is None:
                break
            if list_item(typ) is not None:
                words.extend(_write_word(list_item(typ), v, players) for v in value)
                continue
            words.append(_write_word(typ, value, players))
        return " ".join(words)

    def usage(self, kind: str) -> str:
        parts = []
        for name, typ, optional in _field_types(self.classes[kind]):
            label = name.upper()
            if list_item(typ) is not None:
                label = f"[{label}...]"
            parts.append(f"[{label}]" if optional and list_item(typ) is None else label)
        return f"{kind} {' '.join(parts)}".strip()


def field_type(cls, name):
    """The type of field `name` of the action class `cls`, Optional left out."""
    return _base(cls._types[name])


@functools.cache
def _base(typ):
    """Optional[X] (or X | None) -> X."""
    if typing.get_origin(typ) not in (typing.Union, types.UnionType):
        return typ
    args = [a for a in typing.get_args(typ) if a is not type(None)]
    return args[0] if args else typ


def _json_reader(cls):
    """The reader of `cls`'s JSON form (its "kind" already resolved): one converter per
    field, chosen from the field's type once per class (ActionSet keeps it), not per action
    read (a resume or a replay reads every action of the evening). Fields are read in order (the first
    missing or wrong one is named), then any unknown field is refused."""
    kind, fields = cls.kind, _field_types(cls)
    defaults = cls._record.template          # field -> its default (records: engines/core/records.py)
    plan = tuple((name, _json_converter(kind, name, typ), optional, defaults[name])
                 for name, typ, optional in fields)
    known = {"kind"} | {name for name, _, _ in fields}
    plain = cls._record.made_init                # the record's own __init__: it only fills __dict__
    old_forms = bool(cls.old_forms)
    new = object.__new__
    set_dict = object.__setattr__

    def read(data: dict) -> Action:
        if old_forms:
            data = _old_form(cls, data)
        values, given = {}, 1                   # "kind" is given
        for name, convert, optional, default in plan:
            if name in data:
                values[name] = convert(data[name])
                given += 1
            elif optional:
                values[name] = default
            else:
                raise ProtocolError(f"action {kind}: field {name!r} is missing")
        if len(data) != given:
            extra = set(data) - known
            raise ProtocolError(f"action {kind}: unknown field(s) {', '.join(sorted(extra))}")
        if not plain:
            return cls(**values)
        act = new(cls)                          # what the record's __init__ makes of all the fields
        set_dict(act, "__dict__", values)
        return act

    return read


def _json_converter(kind, name, typ):
    """value -> the field's value, for a field of type `typ` (its questions answered once):
    None stays None (but for a list); a list field takes a JSON list of its items; an int
    type takes an integer that is not a bool; any other a string, upper-cased for a Name,
    read as a cell for a Cell."""
    typ = _base(typ)
    item = list_item(typ)
    if item is not None:
        convert_item = _json_converter(kind, name, item)

        def convert(value):
            if not isinstance(value, (list, tuple)):
                raise ProtocolError(f"action {kind}: {name} must be a list, got {value!r}")
            return tuple(convert_item(v) for v in value)
    elif issubclass(typ, int):
        def convert(value):
            if value.__class__ is not int:      # the common case: a plain int, no bool
                if value is None:
                    return None
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ProtocolError(f"action {kind}: {name} must be an integer, got {value!r}")
            return typ(value)
    else:
        make = Cell if issubclass(typ, Cell) else typ
        upper = issubclass(typ, Name) and not issubclass(typ, Cell)

        def convert(value):
            if value.__class__ is not str:
                if value is None:
                    return None
                if not isinstance(value, str):
                    raise ProtocolError(f"action {kind}: {name} must be text, got {value!r}")
            return make(value.upper()) if upper else make(value)
    return convert


def _read_word(kind, name, typ, word, players):
    typ = _base(typ)
    if issubclass(typ, Seat):
        for seat, player in enumerate(players):
            if player.lower() == word.lower():
                return Seat(seat)
        raise ProtocolError.worded("protocol.not_player", kind=kind, field=name, word=word, players=", ".join(players))
    if issubclass(typ, int):
        what = Worded("protocol.field_of", kind=kind, field=name)     # "roll: d2", "roll : dé 2"
        return typ(read_number(word, what, signed=issubclass(typ, Signed)))
    if issubclass(typ, Name):
        return typ(word.upper())
    if issubclass(typ, Cell):
        return Cell(word)
    return typ(word)


def _write_word(typ, value, players):
    typ = _base(typ)
    if issubclass(typ, Seat):
        return players[value]
    if issubclass(typ, Signed):
        return f"{value:+d}"
    if issubclass(typ, Cell):
        return cell_text(value)
    if issubclass(typ, Text):
        return shlex.quote(value)
    return str(value)
