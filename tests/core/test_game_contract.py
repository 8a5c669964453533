"""The game contract, held against every registered game (engines/registry.py).

A new game passes this file before it has a single screen of its own: it is registered
once, its engine declares what the box asks of every game, and random play drawn from its
own decisions only (no game-specific generator) keeps the contract:

* every kind a decision offers is an action of the game, with its texts in French and
  English (the prompt, the events, and on the box the kind's menu label);
* every action reads back from its JSON form and from its text form;
* the snapshot is JSON and round-trips, and names whose turn it is (`turn`: a player, or
  None, said when the box resumes the game); the public view drops every private path;
* a refused action changes nothing; undo gives the state a replay of one action fewer gives;
* the game ends, or a legal action is always offered;
* every decision says how it is answered (an interaction the box has screens for, roles
  naming options it offers, params in JSON), and the engine's preview of an action
  changes nothing and gives the events applying it gives.
"""
import dataclasses
import json
import math
import pickle
import random
import re
import tomllib
from pathlib import Path

import pytest

from engines import game_class
from engines.core import settings
from engines.core.actions import ANYTIME, CORRECTION, FLAGS, Seat, Signed, Text, _base
from engines.core.decision import Arrangement, Choice, Fixed, Interactions, IntRange, Items, Subset
from engines.core.errors import IllegalAction, ProtocolError
from engines.core.game import Game
from engines.core.i18n import catalog
from engines.core.random_play import play_randomly
from engines.registry import games, names, spec
from firmware.games import PLAYABLE, adapter
from firmware.texts import t
from game_helpers import Once, replayed_snapshots

PLACEHOLDER = re.compile(r"\{\w*\}")
NAMES = ("Ana", "Ben", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou")
GAMES = names()


def header(name, players, seed):
    cls = game_class(name)
    out = {"game": name, "players": list(NAMES[:players]), "seed": seed, "settings": {}}
    if cls.FORMATS:
        out["format"] = cls.FORMATS[0]
    return out


def player_counts(name):
    lo, hi = spec(name).players
    return sorted({lo, (lo + hi) // 2, hi})


# ------------------------------------------------------------------ the registry
def test_an_unknown_game_is_refused_with_the_list_of_known_ones():
    with pytest.raises(ProtocolError, match=r"unknown game 'monopoly'; known: maxibourse, dividends"):
        game_class("monopoly")
    with pytest.raises(ProtocolError, match="unknown game"):
        adapter("monopoly")


@pytest.mark.parametrize("name", GAMES)
def test_a_game_is_declared_once_and_its_engine_declares_the_rest(name):
    cls = game_class(name)
    assert issubclass(cls, Game) and cls.name == name
    # player bounds, formats and settings: declared with the game, read by the engine from there
    entry = spec(name)
    assert cls.PLAYERS is entry.players and cls.SETTINGS is entry.settings and cls.FORMATS == entry.formats
    lo, hi = cls.PLAYERS
    assert 2 <= lo <= hi <= len(NAMES)
    for key, declaration in cls.SETTINGS.items():
        default, allowed, _ = settings.entry(declaration)
        assert settings.allows(allowed, default), key
    for method in ("snapshot", "over", "initial_state", "decision"):
        assert getattr(cls, method) is not getattr(Game, method), f"{name} does not declare {method}"
    assert games()[name].engine_class() is cls


def test_the_registry_refuses_player_bounds_or_a_setting_default_a_rulebook_cannot_have():
    """What the setup offers before any engine is imported is checked when the game is
    registered: player bounds from 2, fewest first; a setting's default among its values."""
    from engines.registry import GameSpec, add

    specs = {}
    for players in ((0, 0), (1, 4), (5, 3)):
        with pytest.raises(ValueError, match=rf"game 'alpha': players \({players[0]}, {players[1]}\) must be "
                                             r"\(fewest, most\) with 2 <= fewest <= most"):
            add(specs, GameSpec("alpha", "x:Alpha", prefix="al", players=players))
    with pytest.raises(ValueError, match="game 'alpha': setting 'mode' defaults to 'triple', which it does not allow "
                                         r"\(simple, double\)"):
        add(specs, GameSpec("alpha", "x:Alpha", prefix="al", players=(2, 6),
                            settings={"mode": ("triple", ("simple", "double"))}))
    assert specs == {}
    add(specs, GameSpec("alpha", "x:Alpha", prefix="al", players=(2, 6), settings={"mode": ("simple", ("simple", "double"))}))
    assert list(specs) == ["alpha"]


def test_every_playable_game_has_an_adapter_and_corbeille_settings_names_every_game():
    """The configuration's game settings come from the registry (`corbeille settings`), not
    from a list written in the example configuration."""
    from firmware.config import game_settings_toml

    assert PLAYABLE == tuple(n for n in GAMES if spec(n).adapter)
    for name in PLAYABLE:
        assert adapter(name).name == name
    assert f"# games (game = ...): {', '.join(GAMES)}\n" in game_settings_toml()
    example = Path(__file__).resolve().parents[2] / "firmware" / "corbeille.example.toml"
    assert not any(name in example.read_text(encoding="utf-8") for name in GAMES[1:])
    tomllib.loads(example.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bound", ["fewer", "more"])
def test_player_counts_outside_the_rulebook_are_refused(name, bound):
    lo, hi = spec(name).players
    count = lo - 1 if bound == "fewer" else hi + 1
    with pytest.raises(IllegalAction) as refused:
        game_class(name)(header(name, lo, 1) | {"players": [f"P{i}" for i in range(count)]})
    assert refused.value.key == "error.players"


# ------------------------------------------------------- random play, generic
def draw_int(rng, dom: IntRange) -> int:
    """Small values much more likely than large ones: amounts in these games span from one
    step to millions, and a uniform draw would almost always be more than anyone holds."""
    steps = (dom.hi - dom.lo) // dom.step
    k = min(steps, int(math.exp(rng.uniform(0, math.log(steps + 1)))) - 1) if steps > 0 else 0
    return dom.lo + k * dom.step


class Drawer:
    """Actions drawn from the pending decision alone, every field from its domain. What
    the game flags as offered at any time (corrections, closing the session) is drawn
    rarely, so that games move on through their steps as a table plays them."""

    def __init__(self, rng):
        self.rng = rng

    def __call__(self, game):
        decision = game.decision()
        if not decision.options:
            return None
        moves = [o for o in decision.options if not game.ACTIONS.has(o.kind, ANYTIME)]
        pool = moves if moves and self.rng.random() < 0.995 else decision.options
        return draw_option(game, self.rng, self.rng.choice(pool))


def draw_domain(rng, dom):
    if isinstance(dom, Fixed):
        return dom.value
    if isinstance(dom, Subset):      # a checklist: a few distinct items, fewer more likely
        most = len(dom.values) if dom.hi is None else min(dom.hi, len(dom.values))
        count = min(most, dom.lo + int(rng.expovariate(1.0)))
        return tuple(rng.sample(list(dom.values), max(count, 0))) if most >= dom.lo else ()
    if isinstance(dom, Choice):
        return rng.choice(dom.values) if dom.values else None
    return draw_int(rng, dom)


def draw_items(rng, dom: Items) -> tuple:
    """A list field: one value per item domain, or distinct values of the one choice."""
    if dom.distinct:
        pool = sorted({v for d in dom.items for v in d.values})
        return tuple(rng.sample(pool, len(dom.items)))
    return tuple(draw_domain(rng, d) for d in dom.items)


def draw_option(game, rng, option):
    cls = game.ACTIONS.classes[option.kind]
    values = {}
    for field, typ in cls._types.items():
        dom = option.fields.get(field)
        if isinstance(dom, (Items, Arrangement)):
            values[field] = ()     # left to the device first (fill_chance), as the box does
        elif dom is not None:
            values[field] = draw_domain(rng, dom)
        elif _base(typ) is Text:
            values[field] = "contract test"
    try:
        act = cls(**values)
    except TypeError:  # a required field the decision left without a domain: nothing to draw
        return None
    act = game.fill_chance(act, rng)
    lists = {f: draw_items(rng, d) for f, d in option.fields.items() if isinstance(d, Items) and getattr(act, f) == ()}
    return dataclasses.replace(act, **lists) if lists else act   # a list the device does not draw: by hand


def state_key(game):
    return game.snapshot(), len(game.log)


class Contract:
    """Checks after every applied action of a random game."""

    def __init__(self, name):
        self.name = name
        self.kinds = set(game_class(name).ACTIONS.kinds())
        self.checked = 0
        self.once = Once()

    def __call__(self, game, act, events):
        decision = game.decision()
        # a legal action is always offered, or the game is over
        assert decision.options or game.over, decision.to_json()
        for option in decision.options:
            assert option.kind in self.kinds, f"{self.name} offers {option.kind}, not one of its actions"
        check_interaction(self.name, game, decision)
        # what the box shows comes whole from both catalogs
        for lang in ("fr", "en"):
            shown = [(decision.prompt, self.once.text(decision.prompt, lang, decision.params))]
            shown += [("event." + e.key, self.once.text("event." + e.key, lang, e.params)) for e in events]
            for key, message in shown:
                assert key in catalog(lang) and not PLACEHOLDER.search(message), (lang, key, message)
        # the action reads back from its JSON and text forms
        self.once.read_back(act, lambda act: reads_back(game, act))
        # every seat has a fortune, the ranking sorts them; prices are numbers by company
        fortunes = game.fortunes()
        assert sorted(fortunes) == list(range(len(game.players))), fortunes
        assert all(type(v) is int for v in fortunes.values()), fortunes
        ranking = game.ranking()
        assert [f for _, _, f in ranking] == sorted(fortunes.values(), reverse=True), ranking
        assert all(type(c) is str and type(p) is int for c, p in game.prices().items()), game.prices()
        # the menus' groups of companies and the holdings they offer to sell
        for group, names, members in game.groups():
            assert type(group) is str and members and all(type(c) is str for c in members), group
            assert all(type(n) is str for n in names.values()), names
        for company in game.prices():
            held = game.holding(0, company)
            assert held is None or (type(held) is int and held >= 0), (company, held)
        # the snapshot is JSON; the public view drops every private path
        snap = game.snapshot()
        assert json.loads(json.dumps(snap)) == snap
        assert snap["turn"] is None or snap["turn"] in game.players, snap.get("turn")
        shown = game.public(snap)
        public = json.dumps(shown)
        for path in snap.get("private", []):
            assert not list(_values_at(shown, path.split("."))), (path, public)
        self.checked += 1


def reads_back(game, act):
    actions, players = game.ACTIONS, game.players
    assert actions.from_json(json.loads(json.dumps(act.to_json()))) == act, act
    assert actions.parse(actions.format(act, players), players) == act, act


def check_interaction(name, game, decision):
    """The decision says how the table answers it, with what its screens show, in JSON."""
    how = decision.interaction
    assert how.kind in Interactions.ALL, (name, decision.prompt, how.kind)
    for role, kind in how.roles.items():
        assert role in Interactions.ROLES and decision.option(kind) is not None, (name, decision.prompt, role, kind)
    assert json.loads(json.dumps(how.params)) == how.params, (name, decision.prompt, how.params)
    assert json.loads(json.dumps(how.to_json())) == how.to_json()
    assert (how.kind == Interactions.OVER) == game.over, (name, decision.prompt, how.kind)
    # the interactions that build their own actions find them in the roles
    needs = {Interactions.SPEAKING_ROUND: [Interactions.ANSWER], Interactions.LOT_AUCTION: [Interactions.STAY],
             Interactions.OPEN_AUCTION: [Interactions.OFFER, Interactions.SILENCE],
             Interactions.SETTLEMENT: [Interactions.CONFIRM], Interactions.PAYDAY: [Interactions.CONFIRM],
             Interactions.PAYMENT: [Interactions.CONFIRM], Interactions.CHANCE: [Interactions.DRAW],
             Interactions.FIRST_PLAYER: [Interactions.CHOOSE], Interactions.PLACEMENT: [Interactions.PLACE]}
    if how.kind == Interactions.PLACEMENT:
        # the screen's cells are exactly the ones the PLACE option offers, the start one of them
        offered = {str(c) for c in decision.role(Interactions.PLACE).fields["cell"].values}
        cells = [c["cell"] for c in how.params["cells"]]
        assert set(cells) == offered and len(cells) == len(offered), (name, decision.prompt)
        assert how.params["start"] in cells or not cells, (name, decision.prompt)
    for role in needs.get(how.kind, []):
        if role == Interactions.OFFER and not how.params.get("offers"):
            continue                                  # nobody can afford to bid now
        assert role in how.roles, (name, decision.prompt, how.kind, role)


def _values_at(node, parts):
    if not parts:
        yield node
        return
    head, rest = parts[0], parts[1:]
    children = (node if isinstance(node, list) else list(node.values())) if head == "*" and isinstance(node, (list, dict)) \
        else [node[head]] if isinstance(node, dict) and head in node else []
    for child in children:
        yield from _values_at(child, rest)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_drawn_from_the_decisions_alone_keep_the_contract(name):
    for players in player_counts(name):
        for seed in (1, 2):
            rng = random.Random(f"{name}-{players}-{seed}")
            game = game_class(name)(header(name, players, seed))
            check = Contract(name)
            actions = play_randomly(game, Drawer(rng), max_actions=250, state_key=state_key,
                                    finished=lambda g: g.over, on_action=check, max_refusals=2000)
            assert check.checked == len(actions) == len(game.log) > 0
            assert len(actions) == 250 or game.over, f"{name}: stopped after {len(actions)} actions"


@pytest.mark.parametrize("name", GAMES)
def test_every_prompt_a_game_declares_an_interaction_for_is_one_the_box_knows(name):
    from engines.core.game import interactions_of
    declared = interactions_of(game_class(name))
    assert declared is not None, f"engines/{name}/interactions.py is missing"
    for prompt, (kind, roles) in declared.PROMPTS.items():
        assert kind in Interactions.ALL and set(roles) <= set(Interactions.ROLES), prompt
        assert set(roles.values()) <= set(game_class(name).ACTIONS.kinds()), prompt
        assert prompt in catalog("fr") and prompt in catalog("en"), prompt


@pytest.mark.parametrize("name", GAMES)
def test_a_preview_changes_nothing_and_gives_the_events_of_applying(name):
    """`Game.preview(act)`: what the confirmation screens show is the engine's own outcome."""
    for players in player_counts(name)[:2]:
        rng = random.Random(f"preview-{name}-{players}")
        game = game_class(name)(header(name, players, 5))
        draw, previewed = Drawer(rng), 0
        while len(game.log) < 150 and not game.over:
            act = draw(game)
            if act is None:
                break
            before = (pickle.dumps(game.s), list(game.log), dict(game._checkpoints), game.snapshot())
            try:
                events = game.preview(act)
            except IllegalAction as error:
                assert (pickle.dumps(game.s), list(game.log), dict(game._checkpoints), game.snapshot()) == before
                with pytest.raises(IllegalAction) as applying:
                    game.apply(act)
                assert applying.value.key == error.key
                continue
            assert (pickle.dumps(game.s), list(game.log), dict(game._checkpoints), game.snapshot()) == before
            assert game.apply(act) == events, act
            previewed += 1
        assert previewed > 50


@pytest.mark.parametrize("name", GAMES)
def test_undo_gives_the_state_of_a_replay_without_the_last_action(name):
    lo, _ = spec(name).players
    rng = random.Random(name)
    game = game_class(name)(header(name, lo, 3))
    states = [game.snapshot()]
    play_randomly(game, Drawer(rng), max_actions=120, state_key=state_key, finished=lambda g: g.over,
                  on_action=lambda g, a, e: states.append(g.snapshot()), max_refusals=2000)
    log = list(game.log)
    replayed = replayed_snapshots(game_class(name), game.header, log, range(max(0, len(log) - 5), len(log) + 1))
    assert replayed[len(log)] == states[-1]
    for k in range(len(log), max(0, len(log) - 5), -1):
        assert game.undo() == log[k - 1]
        assert game.snapshot() == states[k - 1] == replayed[k - 1]


@pytest.mark.parametrize("name", GAMES)
def test_an_action_not_offered_is_refused_naming_what_is_allowed_and_changes_nothing(name):
    game = game_class(name)(header(name, spec(name).players[0], 4))
    offered = {o.kind for o in game.decision().options}
    kind = next(k for k in game.ACTIONS.kinds() if k not in offered)
    cls = game.ACTIONS.classes[kind]
    values = {f: (0 if issubclass(_base(typ), int) else "X") for f, typ in cls._types.items()
              if f in _required(cls)}
    before = state_key(game)
    with pytest.raises(IllegalAction) as refused:
        game.apply(cls(**{f: v for f, v in values.items() if f in _required(cls)}))
    assert state_key(game) == before
    assert sorted(offered)[0] in str(refused.value)


def _required(cls):
    import dataclasses
    return {f.name for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}


@pytest.mark.parametrize("name", GAMES)
def test_actions_declare_known_flags_and_corrections_are_offered_at_any_time(name):
    actions = game_class(name).ACTIONS
    for kind, cls in actions.classes.items():
        assert cls.flags <= set(FLAGS), kind
        if CORRECTION in cls.flags:
            assert actions.has(kind, ANYTIME), kind


@pytest.mark.parametrize("name", PLAYABLE)
def test_every_action_of_a_playable_game_has_its_menu_label_in_both_languages(name):
    prefix = adapter(name).prefix
    for kind in game_class(name).ACTIONS.kinds():
        for lang in ("fr", "en"):
            label = t("kind." + prefix + kind, lang)
            assert label and label != "kind." + prefix + kind and not PLACEHOLDER.search(label), (name, kind, lang)


@pytest.mark.parametrize("name", GAMES)
def test_importing_a_game_s_engine_alone_makes_its_texts_known(name):
    # The spec registers engines/<name>/locale when its package is imported, which importing
    # the engine module does first: a fresh interpreter that imports only the engine (no
    # registry walk, no firmware) must resolve every key of the game's own catalogs.
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[2]
    module = spec(name).engine.partition(":")[0]
    keys = sorted(json.loads((root / "engines" / name / "locale" / "fr.json").read_text(encoding="utf-8")))
    probe = (f"import {module}\n"
             "from engines.core.i18n import catalog\n"
             f"missing = [k for k in {keys!r} if k not in catalog('fr') or k not in catalog('en')]\n"
             "print(len(missing), missing[:3])\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True).stdout
    assert out.startswith("0 "), (name, out)
