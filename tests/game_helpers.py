"""Helpers any game's tests share: play lines of the command language, name players."""
from engines.core.i18n import text


def play(game, *lines):
    """Apply each line of the command language; return the events of the last one."""
    events = []
    for line in lines:
        events = game.apply(game.ACTIONS.parse(line, game.players))
    return events


def seat(game, name):
    return game.players.index(name)


def cash(game, name):
    return game.cash(seat(game, name))


def replayed_snapshots(cls, header, log, counts) -> dict:
    """{count: the snapshot of a checked replay of the first `count` actions of `log`} for
    each of `counts`, from one checked replay that passes through them all: a game is a fold,
    so the replay of fewer actions is a state the longer one passes by."""
    wanted = set(counts)
    out = {0: cls(header).snapshot()} if 0 in wanted else {}
    for game, _, _ in cls.unfold(header, log[:max(wanted, default=0)]):
        if len(game.log) in wanted:
            out[len(game.log)] = game.snapshot()
    return out


def plain(values) -> bool:
    """Whether every value is a str or an int (not a bool, which equals an int): what may
    key a memo of a pure result."""
    return all(type(v) is str or type(v) is int for v in values)


class Once:
    """Checks of pure functions made once per distinct input over a random game, where the
    same prompts, events and actions come back at every round; only inputs of plain values
    (`plain`) are remembered, any other is checked every time."""

    def __init__(self):
        self.texts = {}         # (key, lang, params) -> its text
        self.read = set()       # the actions `read_back` found to read back

    def text(self, key, lang, params) -> str:
        """`text(key, lang, **params)`."""
        if not plain(params.values()):
            return text(key, lang, **params)
        memo = (key, lang, *params.items())
        if memo not in self.texts:
            self.texts[memo] = text(key, lang, **params)
        return self.texts[memo]

    def read_back(self, act, check) -> None:
        """`check(act)` (which asserts that `act` reads back from its forms), unless it passed
        for an equal action of plain fields."""
        memo = plain(vars(act).values())
        if not (memo and act in self.read):
            check(act)
            if memo:
                self.read.add(act)
