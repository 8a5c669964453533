"""Random legal Dividends games, drawn from the engine's own pending decisions.

Used by the property tests (tests/engines/dividends/test_dividends_properties.py) and the benchmark
(bench/dv_bench.py). It lives with the engine so both can import it without path tricks;
it is not part of the rules and the box never runs it.

The generator never re-implements a rule: at each step it asks `game.decision()` what is
allowed, picks one option (weighted so that games move on and markets get busy), draws a
value for each field from its domain and applies the action. Chance actions (dice, event
tile, random deal of tokens) are left empty and filled by `fill_chance`, as the device
does. Some limits are not in the domains (cash is hidden, so a purchase or a bid the
player cannot afford is offered and refused); such an action is refused, the generator
checks that the refusal changed nothing, and draws again.
"""
from __future__ import annotations

import random

from engines.core.decision import IntRange
from engines.core.random_play import Stuck, draw_domain, play_randomly  # noqa: F401 (Stuck is part of this module's API)
from engines.dividends.game import Dividends, Over

NAMES = ("Jean", "Marie", "Pierre", "Sam", "Ana", "Ben", "Cid", "Dan", "Eve", "Fred", "Gil", "Hugo")
CHANCE = ("dice", "event", "deal")
CORRECTIONS = ("adjust_cash", "adjust_certs", "adjust_cards", "set_marker", "set_turn", "set_year")
WEIGHTS = {
    "dice": 1, "event": 1, "deal": 1, "payout": 1,
    "bid": 6, "sold": 3,
    "buy": 6, "sell": 2, "influence": 2, "done": 3, "pass": 1,
    "adjust_cash": 0.05, "adjust_certs": 0.05, "adjust_cards": 0.05, "set_marker": 0.05, "set_turn": 0.02,
    "set_year": 0.005,
}
MAX_REFUSALS = 200


def header_for(players: int = 4, seed: int = 0, settings: dict | None = None) -> dict:
    return {"game": "dividends", "players": list(NAMES[:players]), "seed": seed, "settings": dict(settings or {})}


def draw_value(game, rng: random.Random, kind: str, name: str, dom, values: dict):
    return draw_domain(rng, dom, lambda dom: draw_int(game, rng, kind, dom, values))


def draw_int(game, rng: random.Random, kind: str, dom: IntRange, values: dict) -> int:
    if kind == "bid":  # mostly the minimum, sometimes a few steps more, now and then above cash
        steps = 0 if rng.random() < 0.6 else int(rng.expovariate(0.5))
        amount = dom.lo + dom.step * steps
        cash = game.cash(values["player"])
        if amount > cash and rng.random() < 0.9:
            amount = dom.lo
        return min(amount, dom.hi)
    if kind == "adjust_cash":
        return rng.choice((-1, 1)) * rng.choice((50, 100, 500, 1000))
    span = min(dom.hi - dom.lo, 6 * dom.step)
    lo = max(dom.lo, -span // 2) if dom.lo < 0 else dom.lo
    return rng.randrange(lo, min(dom.hi, lo + span) + 1, dom.step)


def draw_action(game: Dividends, rng: random.Random, weights: dict, corrections: bool):
    options = [o for o in game.decision().options
               if (corrections or o.kind not in CORRECTIONS) and weights.get(o.kind, 1) > 0]
    if not options:
        return None
    option = rng.choices(options, [weights.get(o.kind, 1) for o in options])[0]
    cls = game.ACTIONS.classes[option.kind]
    if option.kind in CHANCE:
        return game.fill_chance(cls(), rng)
    values = {}
    for name, dom in option.fields.items():
        values[name] = draw_value(game, rng, option.kind, name, dom, values)
    if option.kind in CORRECTIONS:
        values["reason"] = rng.choice(("oubli", "house rule", "erreur de saisie"))
    return cls(**values)


def state_key(game: Dividends):
    """Everything a refused action must leave as it was."""
    return game.snapshot(), dict(game.s.ledger.balances), len(game.log)


def random_game(rng: random.Random, players: int = 4, max_actions: int = 5000, corrections: bool = False,
                settings: dict | None = None, weights: dict | None = None, verify: bool = True,
                on_action=None, on_refused=None, header: dict | None = None, game: Dividends | None = None):
    """Play random legal actions until the game is over (or `max_actions` were played).

    Returns (header, actions, game). `on_action(game, action, events)` runs after each
    applied action, `on_refused(game, action, error)` after each refused draw. With `verify`,
    every refused draw is checked to have changed nothing. A `game` already started (a
    cash-poor table set up by corrections) is played on; its header is returned."""
    weights = {**WEIGHTS, **(weights or {})}
    if game is None:
        header = header or header_for(players, rng.randrange(2**31), settings)
        game = Dividends(header)
    header = game.header
    actions = play_randomly(game, lambda g: draw_action(g, rng, weights, corrections), max_actions=max_actions,
                            state_key=state_key, verify=verify, finished=lambda g: isinstance(g.s.proc, Over),
                            on_action=on_action, on_refused=on_refused, max_refusals=MAX_REFUSALS)
    return header, actions, game
