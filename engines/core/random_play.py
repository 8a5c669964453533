"""Random legal play, drawn from a game's own pending decisions.

The property tests and the benchmarks of every game play random legal games this way:
each game supplies `draw(game)` (one action drawn from `game.decision()`, or None when
nothing may be drawn) and `state_key(game)` (everything a refused action must leave as it
was); this loop applies the draws, checks that every refusal changed nothing, and gives
up loudly when a decision offers nothing that is accepted. The box never runs it.
"""
import copy
import pickle

from engines.core.decision import Choice, Fixed, IntRange
from engines.core.errors import IllegalAction
from engines.core.game import hold_decision, release_decision


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


class StateBefore:
    """The state of a game before a draw, kept as a checkpoint keeps it (`Game.frozen_state`):
    a pickle costs a fraction of a `state_key`, which most draws, accepted, never need."""

    def __init__(self, game):
        self.frozen, self.count = game.frozen_state(), len(game.log)

    def same(self, game, state_key) -> bool:
        """Whether `game` is in the state kept, as `state_key` tells: the same pickle and
        log length are the same state (a pickle is all a checkpoint keeps), whose
        `state_key` is computed only when the pickles differ (a state rebuilt from a
        checkpoint may share fewer objects), against a copy of the game read back from
        the pickle with the log it had then."""
        if len(game.log) == self.count and game.frozen_state() == self.frozen:
            return True
        release_decision(game)      # each state's decision built anew, not the one held before
        then = copy.copy(game)
        then.s, then.log = pickle.loads(self.frozen), game.log[:self.count]
        return state_key(game) == state_key(then)


class Stuck(AssertionError):
    """Every draw from the pending decision was refused: the decision offers nothing legal."""


def play_randomly(game, draw, *, max_actions, state_key, verify=True, finished=lambda game: False,
                  on_action=None, on_refused=None, max_refusals=500) -> list:
    """Apply up to `max_actions` drawn actions; returns the applied ones.

    `on_action(game, action, events)` runs after each applied action, `on_refused(game,
    action, error)` after each refused draw; both may change the game through `apply` and
    `undo` only (the decision of each state is held for them and the next draw)."""
    actions, refused, before = [], 0, None
    try:
        while len(actions) < max_actions and not finished(game):
            if verify and before is None:
                before = StateBefore(game)  # after a refusal the state was just found equal to it
            act, events, error = draw_and_apply(game, draw)
            if act is None:
                break
            if error is not None:
                if verify:
                    assert before.same(game, state_key), f"refused {act} ({error.key}) changed the state"
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
                hold_decision(game)     # what the checks after an action read, and the next draw
                on_action(game, act, events)
    finally:
        release_decision(game)
    return actions


def draw_and_apply(game, draw):
    """(the action drawn, its events, None) once applied, (action, None, the IllegalAction)
    when refused, (None, None, None) when nothing may be drawn. The draw reads the pending
    decision, and the check of the action again: it is built once for both, and stays held
    after a refusal (`hold_decision`), which leaves the state as it was, for the next draw;
    the caller releases it (`release_decision`)."""
    hold_decision(game)
    act = draw(game)
    if act is None:
        return None, None, None
    try:
        return act, game.apply(act), None
    except IllegalAction as error:
        return act, None, error
