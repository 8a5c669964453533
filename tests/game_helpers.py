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
