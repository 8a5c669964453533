"""Helpers any game's tests share: play lines of the command language, name players."""


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
