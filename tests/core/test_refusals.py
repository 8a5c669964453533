"""Every refusal names its rule: random games of every game, every action tried everywhere.

At each decision reached by random play (drawn from the decisions alone, as
tests/test_game_contract.py plays), this tries every action kind the decision does not
offer, and for each option it does offer, a value of a listed field (a company, a player, a
title...) that the same option allowed elsewhere in the game but not now. Each refusal
must name a rule: a key outside engines/core/refusals.py's GENERIC, unless its
(decision, action, field) is in the reviewed list below, with why the generic words say it
all. French refusals hold no English word of the allowed values' wording.

Ranges (an amount, a die's face) are not tried here: a refusal of a number outside its
range says the bounds, which are the rule ("1 to 6").
"""
import collections
import dataclasses
import functools
import json
import random
import re
from pathlib import Path

import pytest

from engines import game_class
from engines.core.actions import EXAMPLE_PLAYERS, Seat, field_type
from engines.core.decision import Choice, Fixed
from engines.core.errors import IllegalAction
from engines.core.random_play import play_randomly
from engines.core.refusals import GENERIC
from test_game_contract import GAMES, Drawer, draw_option, header, player_counts, state_key

# (game, prompt, action kind, field): why the generic refusal is the right one there.
REVIEWED = {
    # Corrections name any title held by someone; the list of held titles is the rule.
    ("avendre", "*", "take_title", "title"): "only a title someone holds is taken back: the allowed list is those",
    # The seats that may still answer are the round's; the others have answered.
    ("maxibourse", "prompt.mb.auction", "keep", "player"): "only the bidders still in the auction answer: the list names them",
    ("maxibourse", "*", "reveal", "player"): "only a player holding a rumour reveals one: the list names them",
    ("maxibourse", "prompt.mb.pick", "pick", "company"): "a company already picked by the player is left out: the list is the rest",
    ("maxibourse", "prompt.mb.sale", "declare", "lots"): "no more than the lots offered: the list goes up to them",
    ("maxibourse", "prompt.mb.titre", "declare", "lots"): "0, 1 or 2 lots on a Titre, fewer when fewer are left: the list says how many",
    ("maxibourse", "prompt.mb.square", "titre", "company"): "the square's companies: the list names them",
    ("maxibourse", "*", "trade", "buyer"): "a trade is with the player whose turn it is and the players still in: the list names them",
    ("maxibourse", "*", "trade", "seller"): "a trade is with the player whose turn it is and the players still in: the list names them",
    # Corrections not offered now: when each is offered is the corrections' own rule (their
    # refusals in engines/<game>/corrections.py); the allowed list names the corrections open now.
    ("maxibourse", "prompt.mb.over", "set_nominal", None): "a nominal is corrected until the session is closed",
    ("avendre", "*", "take_title", None): "offered only while some player holds a title",
    ("avendre", "*", "forget_square", None): "offered only without a board, once a square is read",
    ("avendre", "*", "set_title", None): "offered only without a board (with one, the box file says PA and R)",
    ("richesses", "*", "adjust_cash", None): "corrections once the first player is named, until the game is over, never in a bankruptcy",
    ("richesses", "*", "set_pawn", None): "corrections once the first player is named, until the game is over, never in a bankruptcy",
    ("richesses", "*", "give_title", None): "corrections once the first player is named, until the game is over, never in a bankruptcy",
    ("richesses", "*", "take_title", None): "corrections once the first player is named, until the game is over, never in a bankruptcy",
    ("richesses", "*", "adjust_jokers", None): "corrections once the first player is named, until the game is over, never in a bankruptcy",
    ("richesses", "*", "swap_plaques", None): "corrections once the first player is named, until the game is over, never in a bankruptcy",
}

ENGLISH = re.compile(r"\b(nothing|to \d|of:|an order of|each once|in steps of)\b")


def reviewed(name, prompt, kind, field):
    return (name, prompt, kind, field) in REVIEWED or (name, "*", kind, field) in REVIEWED


def example_of(game, decision, kind):
    """An action of `kind` as its example writes it, its first seat the decision's actor."""
    act, seat = parsed_example(game.ACTIONS, kind)
    if seat is not None:
        act = dataclasses.replace(act, **{seat: decision.actor or 0})
    return act


@functools.cache
def parsed_example(actions, kind):
    """The example of `kind` read, and its first seat field (None without one): the same at
    every decision, so read once."""
    cls = actions.classes[kind]
    act = actions.parse(cls.example, list(EXAMPLE_PLAYERS))
    seats = [f for f in cls._types if field_type(cls, f) is Seat and isinstance(getattr(act, f), int)]
    return act, seats[0] if seats else None


class Prober:
    """Tries refused actions at each decision of a random game; collects generic refusals."""

    def __init__(self, name, rng):
        self.name, self.rng = name, rng
        self.seen = collections.defaultdict(set)      # (kind, field) -> values allowed somewhere
        self.generic = {}                             # (prompt, kind, field) -> message
        self.tried = 0

    def __call__(self, game, act, events):
        decision = game.decision()
        offered = {o.kind for o in decision.options}
        for option in decision.options:
            for field, domain in option.fields.items():
                if type(domain) is Choice:
                    self.seen[(option.kind, field)].update(domain.values)
                elif type(domain) is Fixed:
                    self.seen[(option.kind, field)].add(domain.value)
        for kind in game.ACTIONS.kinds():
            if kind not in offered:
                self.refused(game, decision, example_of(game, decision, kind), None)
        for option in decision.options:
            legal = draw_option(game, self.rng, option)
            if legal is None:
                continue
            for field, domain in option.fields.items():
                if type(domain) in (Choice, Fixed):
                    outside = sorted((v for v in self.seen[(option.kind, field)] if v not in domain), key=str)
                    for value in outside[:2]:
                        self.refused(game, decision, dataclasses.replace(legal, **{field: value}), field)

    def refused(self, game, decision, act, field):
        try:
            game.check(act, decision)
        except IllegalAction as error:
            self.tried += 1
            french = error.message("fr")
            assert not ENGLISH.search(french), (self.name, decision.prompt, act, french)
            if error.key in GENERIC and not reviewed(self.name, decision.prompt, act.kind, field):
                self.generic.setdefault((decision.prompt, act.kind, field), error.message("en"))


@pytest.mark.parametrize("name", GAMES)
def test_every_refusal_over_random_games_names_its_rule(name):
    for players in player_counts(name):
        rng = random.Random(f"refusals-{name}-{players}")
        game = game_class(name)(header(name, players, 1))
        probe = Prober(name, rng)
        play_randomly(game, Drawer(rng), max_actions=200, state_key=state_key, finished=lambda g: g.over,
                      on_action=probe, max_refusals=2000, verify=False)
        assert probe.tried > 100
        assert not probe.generic, "\n".join(f"{k}: {m}" for k, m in sorted(probe.generic.items(), key=str))


def test_the_reviewed_list_names_actions_and_fields_the_games_have():
    for (name, prompt, kind, field), why in REVIEWED.items():
        cls = game_class(name).ACTIONS.classes[kind]
        assert field is None or field in cls._types, (name, kind, field)
        assert why and (prompt == "*" or prompt.startswith("prompt.")), (name, prompt)


def test_no_text_calls_a_player_him_or_her():
    """A player is named, or "the player", "they": never "him" or "her"."""
    root = Path(__file__).resolve().parents[2]
    gendered = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
    for path in [*root.glob("engines/*/locale/en.json"), root / "firmware" / "locale" / "en.json"]:
        entries = json.loads(path.read_text(encoding="utf-8"))
        found = {key: value for key, value in entries.items() if gendered.search(value)}
        assert not found, (path, found)
