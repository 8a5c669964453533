"""Random legal Maxi Bourse games, drawn from the engine's own pending decisions.

The generator never re-implements a rule: at each step it asks `game.decision()` what is
allowed, picks one option (weighted so that games move on: mostly rolls, Titre squares,
declarations, settlements and turn ends; now and then sales, card effects and rumours;
rarely a close), draws a value for each field from its domain and applies the action.
Some constraints are not expressible as domains (selling more lots than held, a price
change of 0, a Titre company the bank no longer has...), so an action may still be
refused: the generator then checks that the refusal changed nothing and draws again.

Amounts are drawn mostly small, so that players do not go bankrupt at once, but now and
then large, so that debts, cessation de paiement, forced sales and ruin happen too.

Used by the property tests (tests/maxibourse_random.py) and by the benchmarks (bench/mb_bench.py).
"""
from __future__ import annotations

import math
import random

from engines.core.actions import CORRECTION
from engines.core.decision import Choice, Fixed, IntRange
from engines.core.random_play import Stuck, play_randomly  # noqa: F401 (Stuck is part of this module's API)
from engines.maxibourse.game import MaxiBourse

PLAYER_NAMES = ("Sophie", "Thierry", "Didier", "Dominique", "Laurence", "Yves")
CORRECTIONS = tuple(kind for kind in MaxiBourse.ACTIONS.kinds() if MaxiBourse.ACTIONS.has(kind, CORRECTION))

# Relative weight of each action kind among the options of the pending decision.
WEIGHTS = {
    "pick": 1, "first": 1, "payday": 1,
    "roll": 20, "titre": 20, "declare": 10, "settle": 10, "end": 8, "raise": 6, "keep": 6,
    "double": 5, "pass": 2,
    "sell": 3, "price": 1.5, "pay": 1.5, "receive": 1.5, "payeach": 0.7, "forced": 0.5,
    "rumour": 1, "reveal": 1, "trade": 1,
    "close": 0.002,
    "adjust_cash": 0.3, "adjust_lots": 0.3, "set_price": 0.3,
    # set_nominal moves a price as set_price does; weight 0 keeps the random games (and the
    # games their pinned examples reproduce) as they were drawn. tests/engines/maxibourse/test_maxibourse_setup.py plays it.
    "set_nominal": 0,
}

MAX_ATTEMPTS = 500  # refusals in a row before the generator calls the game stuck


def header_for(players: int = 4, fmt: str = "junior", seed: int = 0, settings: dict | None = None) -> dict:
    return {"game": "maxibourse", "format": fmt, "players": list(PLAYER_NAMES[:players]),
            "settings": dict(settings or {}), "seed": seed}


def _log_uniform(rng: random.Random, top: int) -> int:
    """0..top, small values much more likely than large ones (log-uniform)."""
    if top <= 0:
        return 0
    return min(top, int(math.exp(rng.uniform(0, math.log(top + 1)))) - 1)


def _grid(rng, lo, hi, step, top_steps):
    """lo + k*step with k log-uniform in 0..min(top_steps, range)."""
    k = _log_uniform(rng, min(top_steps, (hi - lo) // step))
    return lo + k * step


def draw_int(rng: random.Random, kind: str, name: str, dom: IntRange) -> int:
    """A value on the domain's grid; large ranges are biased towards small magnitudes."""
    lo, hi, step = dom.lo, dom.hi, dom.step
    n = (hi - lo) // step + 1
    if name == "lots":  # sales: mostly 1 or 2 lots, sometimes the whole holding
        return _grid(rng, lo, hi, step, n - 1)
    if n <= 13:
        return lo + step * rng.randrange(n)
    r = rng.random()
    # How far (in steps) a draw may go: usually a little, sometimes far, rarely anywhere.
    top = 60 if r < 0.75 else 600 if r < 0.94 else n
    if lo < 0 < hi:  # signed: a price change or a correction, either way
        sign = rng.choice((-1, 1))
        k = _log_uniform(rng, min(top, (hi if sign > 0 else -lo) // step))
        return sign * k * step if rng.random() > 0.02 else 0
    return _grid(rng, lo, hi, step, top)


def draw_value(rng: random.Random, kind: str, name: str, dom):
    if isinstance(dom, Fixed):
        return dom.value
    if isinstance(dom, Choice):
        return rng.choice(dom.values)
    if isinstance(dom, IntRange):
        return draw_int(rng, kind, name, dom)
    raise TypeError(f"unknown domain {dom!r}")


def empty_choices(option) -> list[str]:
    """The fields of `option` whose domain is an empty choice."""
    return [name for name, dom in option.fields.items() if isinstance(dom, Choice) and not dom.values]


def draw_action(game: MaxiBourse, rng: random.Random, weights: dict, corrections: bool):
    """One action drawn from the pending decision, or None when nothing may be drawn."""
    options = [o for o in game.decision().options if corrections or o.kind not in CORRECTIONS]
    # An option with an empty choice cannot be answered (see `empty_choices`).
    options = [o for o in options if weights.get(o.kind, 1) > 0 and not empty_choices(o)]
    if not options:
        return None
    option = rng.choices(options, [weights.get(o.kind, 1) for o in options])[0]
    values = {name: draw_value(rng, option.kind, name, dom) for name, dom in option.fields.items()}
    if option.kind == "trade" and rng.random() < 0.8:
        # a trade is agreed at the current price or a little more (D17)
        values["price"] = game.price(values["company"]) + 10 * _log_uniform(rng, 30)
    if option.kind in CORRECTIONS:
        values["reason"] = rng.choice(("oubli", "house rule", "erreur de saisie"))
    return game.ACTIONS.classes[option.kind](**values)


def state_key(game: MaxiBourse):
    """Everything an illegal action must leave as it was."""
    return game.snapshot(), dict(game.s.ledger.balances), len(game.log)


def random_game(rng: random.Random, players: int = 4, fmt: str = "junior", max_actions: int = 300,
                corrections: bool = False, settings: dict | None = None, weights: dict | None = None,
                verify: bool = True, on_action=None, header: dict | None = None):
    """Play up to `max_actions` random legal actions; returns (header, actions, game).

    `on_action(game, action, events)` runs after each applied action (the property tests
    check their invariants there). With `verify`, every refused draw is checked to have
    left the state (snapshot, balances, log) exactly as it was.
    """
    weights = {**WEIGHTS, **(weights or {})}
    if header is None:
        header = header_for(players, fmt, rng.randrange(2**31), settings)
    game = MaxiBourse(header)
    actions = play_randomly(game, lambda g: draw_action(g, rng, weights, corrections), max_actions=max_actions,
                            state_key=state_key, verify=verify, on_action=on_action, max_refusals=MAX_ATTEMPTS)
    return header, actions, game


def is_over(game: MaxiBourse) -> bool:
    return type(game.top).__name__ == "Over"


# The first seed from which a 6-player Masters game reaches 2 000 actions.
SEED = 2028


def long_game(target: int, seed: int = SEED, attempts: int = 50):
    """A random legal 6-player Masters game of `target` actions (nobody calls `close`).

    Games often end earlier on their own (the bank sells its last lot), so seeds are tried
    in order from `seed`; the first one that gets there is used (the longest otherwise)."""
    best = None
    for s in range(seed, seed + attempts):
        header, actions, game = random_game(random.Random(s), players=6, fmt="masters", max_actions=target,
                                            weights={"close": 0}, verify=False)
        if best is None or len(actions) > len(best[2]):
            best = (s, header, actions, game)
        if len(actions) >= target:
            break
    return best
