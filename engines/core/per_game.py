"""What a game's decisions offer that is built once per game: `@per_game`.

A decision is built after every action, and many times over for an undo or a replay check.
Much of what it offers depends only on the set-up (the box's companies, the corrections'
domains) or on a few values of the state (who is still in, whose turn): those options are
built the first time a decision needs them and shared by every later one.

`@per_game` marks the function that builds them: a game's method, or a function whose first
argument is the game (a step's). Its result is kept on that game, one per set of the other
arguments (hashable), so what it reads of the state must be among its arguments. Kept on the
game, not in the process: another game (another box file, other players) builds its own, and
a game rebuilt from nothing (a replay) starts with none. Options and their domains are never
changed once made, so one object serves every decision that offers it (tests/core/test_decision_work.py
counts them by identity and compares each decision with one a fresh game builds).
"""
import functools


def per_game(build):
    """`build(game, *args)`, made once per game for each `args`."""

    @functools.wraps(build)
    def kept(game, *args):
        store = game.__dict__.get("_per_game")
        if store is None:
            store = game.__dict__["_per_game"] = {}
        key = (build, args)
        made = store.get(key)
        if made is None:
            made = store[key] = build(game, *args)
        return made

    return kept
