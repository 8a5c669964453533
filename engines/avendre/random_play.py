"""Random legal A Vendre! games, drawn from the engine's own pending decisions.

Used by the property tests (tests/engines/avendre/test_avendre_properties.py) and the benchmarks; it is
not part of the rules and the box never runs it. At each step it asks `game.decision()`
what is allowed, picks one option (weighted so that games move on as a table plays: cards
with small amounts, a few bids then the hammer, loans more often than leaving) and draws
each field from its domain. The die is left empty and filled by `fill_chance`, as the
device does. Without a board (AV15) the operator's reading of a square is drawn from the
shipped template at the pawn's square, so readings stay consistent (a whole title,
`learn_title`, keeps what was read before and the colour the box allows: a card may have
granted a title the template calls a shop); `cash_poor` opens
with the operator's corrections taking most of the players' cash, or the bank's.
"""
from __future__ import annotations

import random

from engines.avendre.box import load_box
from engines.avendre.game import AVendre
from engines.core.random_play import draw_domain, play_randomly

NAMES = ("Ana", "Ben", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
WEIGHTS = {
    "first": 1, "roll": 1, "learn_square": 1, "learn_colour": 1, "card": 3, "no_card": 1, "buy": 4, "buy_at": 4, "tax": 1, "income": 1, "learn_title": 1,
    "card_none": 4, "card_pay": 1, "card_receive": 1, "card_pay_each": 0.5, "card_collect": 0.5,
    "card_grant": 1.5, "card_green": 0.5, "card_tax": 0.5, "card_back": 0.5,
    "auction_shop": 1, "borrow": 6, "leave": 1, "bid": 3, "sold": 2,
    "adjust_cash": 0.02, "set_pawn": 0.02, "give_title": 0.02, "take_title": 0.02, "forget_square": 0.02,
    "set_title": 0.02,
}
TEMPLATE = load_box(None)


def header_for(players=4, seed=0, settings=None) -> dict:
    return {"game": "avendre", "players": list(NAMES[:players]), "seed": seed, "settings": dict(settings or {})}


def square_reading(game, kind) -> dict:
    """What the operator reads on the square the pawn stands on, or on its title (the
    template's): the title number, the colour of a square without one, a PA or an R."""
    seat = game.decision().actor
    square = TEMPLATE.square(game.s.track.positions[seat])
    if kind == "learn_square":
        return {"title": square.title}
    if kind == "learn_colour":
        return {"colour": square.colour.upper()}
    title = TEMPLATE.titles[int(game.step.title)]   # the title read (a correction may have moved the pawn since)
    if kind == "buy_at":
        return {"player": seat, "pa": title.pa or 500}
    if kind == "tax":
        return {"player": seat, "r": title.r if game.read_value(game.step.title, 2) is None else None}
    if kind == "learn_title":   # the whole card: what was read stays, the colour the one the box allows
        colours = game.decision().option("learn_title").fields["colour"].values
        colour = ("BLUE" if title.kind == "shop" else "RED") if len(colours) > 1 else colours[0]
        _, pa, r = game.s.entered.get(game.step.title, (None, None, None))
        return {"colour": colour, "pa": 0 if colour == "RED" else pa or title.pa or 500, "r": title.r if r is None else r}
    return {"r": title.r}


def draw_value(game, rng, kind, name, dom, values):
    return draw_domain(rng, dom, lambda dom: draw_int(rng, kind, name, dom))


def draw_int(rng, kind, name, dom):
    if kind == "bid":   # the lowest bid accepted now, sometimes a step more
        return dom.lo + dom.step * (0 if rng.random() < 0.7 else 1)
    if kind == "adjust_cash":
        return rng.choice((-1, 1)) * rng.choice((50, 100, 500, 1000))
    if name == "amount":
        return min(dom.hi, max(dom.lo, 10 * int(rng.expovariate(1 / 40))))
    return dom.lo + dom.step * rng.randint(0, min(6, (dom.hi - dom.lo) // dom.step))


def draw_action(game: AVendre, rng: random.Random):
    decision = game.decision()
    options = list(decision.options)
    if not options:
        return None
    if game.box is None and decision.prompt in ("prompt.av.blue_read", "prompt.av.blue"):
        # what the square says: a shop is bought or taxed, an establishment pays its R
        shop = TEMPLATE.titles[int(game.step.title)].kind == "shop" or game.kind_of(game.step.title) == "shop"
        options = [o for o in options if o.kind not in ("buy", "buy_at", "tax", "income")
                   or (o.kind != "income") == shop] or options
        buy_at = decision.option("buy_at")
        if buy_at is not None and square_reading(game, "buy_at")["pa"] not in buy_at.fields["pa"]:
            options = [o for o in options if o.kind != "buy_at"] or options   # more than his cash: the tax
    option = rng.choices(options, weights=[WEIGHTS.get(o.kind, 1) for o in options])[0]
    cls = game.ACTIONS.classes[option.kind]
    if option.kind in ("learn_square", "learn_colour", "buy_at", "income", "learn_title") or option.kind == "tax" and game.box is None:
        return cls(**square_reading(game, option.kind))
    values = {}
    for name, typ in cls._types.items():
        if name == "reason":
            values[name] = "random test"
        elif name in option.fields:
            values[name] = draw_value(game, rng, option.kind, name, option.fields[name], values)
    act = cls(**values)
    return game.fill_chance(act, rng)


def state_key(game):
    return game.snapshot(), len(game.log)


def cash_poor(game, rng):
    """The operator's corrections leave most players, or the bank, nearly penniless."""
    lines = []
    if rng.random() < 0.5:
        for name in game.players:
            lines.append(f'adjust_cash {name} -{rng.choice((4000, 4500, 5000))} "cash-poor test"')
    else:
        lines.append(f'adjust_cash {game.players[0]} +{rng.choice((4500, 5000, 5100))} "cash-poor test"')
    for line in lines:
        game.apply(game.ACTIONS.parse(line, game.players))


def random_game(players=4, seed=0, settings=None, max_actions=400, poor=False, on_action=None, verify=True):
    rng = random.Random(f"av-{players}-{seed}")
    game = AVendre(header_for(players, seed, settings))
    if poor:
        cash_poor(game, rng)
    play_randomly(game, lambda g: draw_action(g, rng), max_actions=max_actions, state_key=state_key,
                  verify=verify, finished=lambda g: g.over, on_action=on_action)
    return game
