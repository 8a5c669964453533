"""Random legal play, drawn from a game's own pending decisions.

The property tests and the benchmarks of every game play random legal games this way:
each game supplies `draw(game)` (one action drawn from `game.decision()`, or None when
nothing may be drawn) and `state_key(game)` (everything a refused action must leave as it
was); this loop applies the draws, checks that every refusal changed nothing, and gives
up loudly when a decision offers nothing that is accepted. The box never runs it.
"""
from engines.core.decision import Choice, Fixed, IntRange
from engines.core.errors import IllegalAction


def draw_domain(rng, dom, draw_int):
    """A value of the domain `dom`: a Fixed one as it is, one of a Choice's at random, an
    IntRange's as the game's `draw_int(dom)` draws amounts (small ones, a bid's minimum...)."""
    if isinstance(dom, Fixed):
        return dom.value
    if isinstance(dom, Choice):
        return rng.choice(dom.values)
    if isinstance(dom, IntRange):
        return draw_int(dom)
    raise TypeError(f"unknown domain {dom!r}")


class Stuck(AssertionError):
    """Every draw from the pending decision was refused: the decision offers nothing legal."""


def play_randomly(game, draw, *, max_actions, state_key, verify=True, finished=lambda game: False,
                  on_action=None, on_refused=None, max_refusals=500) -> list:
    """Apply up to `max_actions` drawn actions; returns the applied ones.

    `on_action(game, action, events)` runs after each applied action, `on_refused(game,
    action, error)` after each refused draw."""
    actions, refused, before = [], 0, None
    while len(actions) < max_actions and not finished(game):
        if verify and before is None:
            before = state_key(game)    # after a refusal the state was just found equal to it
        act = draw(game)
        if act is None:
            break
        try:
            events = game.apply(act)
        except IllegalAction as error:
            if verify:
                assert state_key(game) == before, f"refused {act} ({error.key}) changed the state"
            if on_refused:
                on_refused(game, act, error)
            refused += 1
            if refused >= max_refusals:
                raise Stuck(f"{max_refusals} refusals in a row after {len(actions)} actions; "
                            f"decision {game.decision().to_json()}; last: {act} -> {error}") from None
            continue
        refused, before = 0, None
        actions.append(act)
        if on_action:
            on_action(game, act, events)
    return actions
