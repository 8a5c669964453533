"""Scripts in the command language: a game header, then one action per line.

    # a comment
    game maxibourse
    format junior
    players Sophie Thierry Didier
    seed 7
    set payday each_round
    pick Sophie SONY
    ...
    roll            # no dice given: rolled by the device from the seed, and recorded
    undo            # forget the previous action

`run_script` returns the game; any error names the line, what was wrong and what is
allowed. `export_script` writes a game back in the same language (header + actions),
which `run_script` reads to the same state.
"""
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from engines import game_class
from engines.registry import UNNAMED, game_of, spec
from engines.core.actions import check_line_length, read_number, split_line
from engines.core.chance import chance_rng, device_roll  # noqa: F401 (device_roll: the firmware's dice)
from engines.core.errors import BoxFileError, CorbeilleError, ProtocolError
from engines.core.i18n import Worded

HEADER_KEYS = ("game", "format", "players", "seed", "set", "box")
SHOWN = 100   # characters of the offending line an error shows
LINE_ENDS = re.compile(r"\r\n|\r|\n")


@dataclass
class ScriptError(CorbeilleError):
    source: str
    line: int
    text: str
    message: str

    def __str__(self):
        text = self.text.strip()
        shown = text if len(text) <= SHOWN else text[:SHOWN] + f"... ({len(text)} characters)"
        return f"{self.source}:{self.line}: {self.message}\n    {shown}"


def parse_header_line(header: dict, words: list[str]) -> None:
    key, args = words[0].lower(), words[1:]
    if key == "players":
        if not args:
            raise ProtocolError.worded("protocol.players_missing")
        header["players"] = args
    elif key == "seed":
        if len(args) != 1:
            raise ProtocolError.worded("protocol.seed_one", got=repr(" ".join(args)))
        header["seed"] = read_number(args[0], "seed")
    elif key == "set":
        if len(args) != 2:
            raise ProtocolError.worded("protocol.set_two")
        name, value = args
        # ASCII digits are a number (bounded); true or false a yes/no setting (as `export`
        # writes one: `set variant1 True`); anything else is a word the game checks.
        number = value.isascii() and value.isdigit()
        flag = {"true": True, "false": False}.get(value.lower())
        header.setdefault("settings", {})[name] = read_number(value, f"set {name}") if number else \
            value if flag is None else flag
    else:
        if len(args) != 1:
            example = {"game": UNNAMED, "format": spec(UNNAMED).formats[0], "box": "my-copy.toml"}[key]
            raise ProtocolError.worded("protocol.one_value", key=key, example=example)
        if key == "game":
            game_class(args[0])        # an unknown game is refused at its own line
        header[key] = args[0]


def fill_dice(game, act):
    """Complete a chance action left open (dice, a drawn tile, a random deal) through the
    engine's `fill_chance`, with the device's recorded randomness."""
    return game.fill_chance(act, SeededAtFirstDraw(game.seed, game.chance_position()))


class SeededAtFirstDraw:
    """`chance_rng(seed, index)`, made when the engine first draws from it: most actions
    give every field and draw nothing, and seeding is most of the work of one that does."""

    def __init__(self, seed, index):
        self._at, self._rng = (seed, index), None

    def __getattr__(self, name):     # what is drawn with: choice, randrange, shuffle...
        if self._rng is None:
            self._rng = chance_rng(*self._at)
        return getattr(self._rng, name)


def new_game(header: dict):
    header.setdefault("game", UNNAMED)
    header.setdefault("seed", 0)
    if "players" not in header:
        raise ProtocolError.worded("protocol.header_players")
    return game_class(header["game"])(header)


def header_line(error, header_lines, fallback):
    """The header line an error at game creation is about: the setting, the format, the
    players, the box file... so the message points at what to fix."""
    if isinstance(error, BoxFileError):
        return header_lines.get("box", fallback)
    params = getattr(error, "params", {})
    key = params.get("key")
    if getattr(error, "key", "") in ("error.players", "error.player_names"):
        key = "players"
    return header_lines.get(key, fallback)


def which_game(header, header_lines) -> str:
    """Where the script's game was chosen: an action of another game points there."""
    if "game" in header_lines:
        return Worded("protocol.game_line", game=header["game"], line=str(header_lines["game"]))
    return Worded("protocol.no_game_line", game=header["game"])


def said(error, lang: str) -> str:
    """An error as `lang` says it: a refusal or a text of the catalogs (engines.core.errors.worded)
    in the box's language, else its own words."""
    worded = getattr(error, "said_as", None)
    if worded is not None:
        return Worded(worded[0], **worded[1]).text(lang)
    message = getattr(error, "message", None)
    return message(lang) if callable(message) else str(error)


def box_beside(header: dict, source: str) -> None:
    """A script's `box PATH` is read from the script's own folder, wherever it is run from;
    kept as an absolute path, so that the journal and `export` name a file that resolves."""
    box = header.get("box")
    if box is not None and source and not source.startswith("<"):
        header["box"] = str(Path(source).resolve().parent / Path(box).expanduser())


def run_script(text: str, source: str = "<script>", on_action=None, lang: str = "en"):
    """Run a script; `on_action(game, action)` is called after each applied action. A
    refused line is said in `lang`; `source`, the script's path, is where its box file is.

    Each line is split once (engines.core.actions.split_line, linear in its length) and
    may hold at most MAX_LINE_BYTES bytes."""
    # Lines end at LF, CR LF or CR only, as editors count them (str.splitlines would also
    # cut at U+2028, VT, FS..., and the line numbers in messages would drift).
    header, game, lines = {}, None, LINE_ENDS.split(text.removesuffix("\n").removesuffix("\r"))
    header_lines = {}  # header key (or setting name) -> its line number

    def create(at):
        box_beside(header, source)
        try:
            return new_game(header)
        except (CorbeilleError, ValueError) as error:
            number = header_line(error, header_lines, at)
            raise ScriptError(source, number, lines[number - 1] if lines else "", said(error, lang)) from None

    for number, line in enumerate(lines, 1):
        try:
            check_line_length(line)
            try:
                words = split_line(line)
            except ProtocolError as error:
                raise ProtocolError.worded("protocol.cannot_read", reason=Worded(error.key, **error.params)) from None
            if not words:
                continue
            if game is None and words[0].lower() in HEADER_KEYS:
                parse_header_line(header, words)
                key = words[1] if words[0].lower() == "set" and len(words) > 1 else words[0].lower()
                header_lines[key] = number
                continue
            if game is None:
                game = create(number)
            if words[0].lower() == "undo":
                game.undo()
                if on_action:
                    on_action(game, None)
                continue
            if game.ACTIONS.kind_of(words[0].lower()) not in game.ACTIONS.classes:
                raise game.ACTIONS.unknown(words[0], which_game(header, header_lines))
            act = fill_dice(game, game.ACTIONS.parse_words(words, game.players))
            game.apply(act)
            if on_action:
                on_action(game, act)
        except (CorbeilleError, ValueError) as error:
            if isinstance(error, ScriptError):
                raise
            raise ScriptError(source, number, line, said(error, lang)) from None
    if game is None:
        game = create(len(lines) or 1)
    return game


def export_header(header: dict) -> list[str]:
    out = [f"game {game_of(header)}"]
    if "format" in header:
        out.append(f"format {header['format']}")
    out.append("players " + " ".join(header["players"]))
    out.append(f"seed {header.get('seed', 0)}")
    if "box" in header:
        out.append(f"box {shlex.quote(str(header['box']))}")
    for name, value in header.get("settings", {}).items():
        out.append(f"set {name} {value}")
    return out


def export_script(header: dict, actions) -> str:
    game_cls = game_class(game_of(header))
    lines = export_header(header)
    lines += [game_cls.ACTIONS.format(a, header["players"]) for a in actions]
    return "\n".join(lines) + "\n"
