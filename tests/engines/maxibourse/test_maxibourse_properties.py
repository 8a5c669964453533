"""Property tests: random legal Maxi Bourse games (2-6 players, every format) keep money
and lots conserved, never reach an impossible state, replay and undo identically, and
random illegal actions change nothing.

The games come from the engine's own pending decisions (tests/maxibourse_random.py, over
bench/randomgame.py); hypothesis draws the seeds, so a failure prints a seed that
reproduces the whole game. Engine bugs found this way are pinned at the end of this file
as regression tests, with their reproduction in the command language.
"""
import dataclasses
import random
import re
from itertools import chain
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engines.core.actions import Name, Seat, Signed, Text, _base
from engines.core.decision import Choice
from engines.core.errors import IllegalAction
from engines.core.i18n import catalog
from engines.core.ledger import BANK
from engines.maxibourse.actions import ACTIONS
from engines.maxibourse.game import MaxiBourse
from game_helpers import Once
from props import played, props
from maxibourse_helpers import PICKS_3, new_game, play, started
from maxibourse_random import CORRECTIONS, WEIGHTS, draw_action, is_over, random_game, state_key, tight_game

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=6)
FORMATS = st.sampled_from(["junior", "senior", "masters"])
SETTINGS = st.sampled_from([{}, {"payday": "manual"}, {"rounds": 3}, {"vertical_bonus": "once"},
                            {"dice": "device"}])


PLACEHOLDER = re.compile(r"\{\w*\}")


# ---------------------------------------------------------------- invariants
def reads_back(act, players):
    assert ACTIONS.from_json(act.to_json()) == act, act
    assert ACTIONS.parse(ACTIONS.format(act, players), players) == act, act


class Invariants:
    """Checks run after every applied action of a random game."""

    def __init__(self, header):
        fresh = MaxiBourse(header)
        self.total = fresh.s.ledger.total()
        self.lots_per_company = fresh.box.lots_per_company
        self.checked = 0
        self.once = Once()

    def lots_conserved(self, act, lots):
        """Lots: 10 per company over all holders, none negative; each company looked at
        only when the sums and the least of all holdings (in one pass) say one is off."""
        holdings = lots.values()
        if (set(map(sum, map(dict.values, holdings))) == {self.lots_per_company}
                and min(chain.from_iterable(map(dict.values, holdings)), default=0) >= 0):
            return
        for company, held in lots.items():
            assert sum(held.values()) == self.lots_per_company, (act, company, held)
            assert min(held.values(), default=0) >= 0, (act, company, held)

    def __call__(self, game, act, events):
        s, players = game.s, game.players
        # money: only transfers, so the sum of all balances never changes (MB12)
        assert s.ledger.total() == self.total, (act, s.ledger.total())
        for seat in range(len(players)):
            assert s.ledger[seat] >= 0, (act, players[seat], s.ledger[seat])
        self.lots_conserved(act, s.lots.held)
        # prices: multiples of 10 $, never below 10 $ (MB1)
        for company, price in s.prices.items():
            assert price >= 10 and price % 10 == 0, (act, company, price)
        # a ruined player holds nothing, corrections included (they are offered only for the
        # players still in), is owed nothing and sells nothing (MB8); a Titre under way on his
        # turn goes on for the others, then his turn ends
        for seat in range(len(players)):
            if s.ruined[seat]:
                assert s.ledger[seat] == 0 and not game.held(seat), (act, players[seat])
                assert s.skip[seat] == 0 and s.rumours[seat] == 0, (act, players[seat])
                for frame in s.steps:
                    assert getattr(frame, "seller", None) != seat, (act, players[seat], frame)
                    assert seat not in [c for c, _ in getattr(frame, "owed", ())], (act, players[seat], frame)
            assert s.skip[seat] >= 0 and s.rumours[seat] >= 0
        # the pending decision: someone can act, and it is a seat or the table
        decision = game.decision()
        assert decision.actor is None or 0 <= decision.actor < len(players), decision
        assert decision.options, decision
        if not is_over(game):
            moves = [o.kind for o in decision.options if o.kind not in CORRECTIONS + ("close",)]
            assert moves, f"the game cannot go on without a correction: {decision.to_json()}"
        # what the box shows (the prompt, the events) comes whole from both catalogs
        for lang in ("fr", "en"):
            shown = [(decision.prompt, self.once.text(decision.prompt, lang, decision.params))]
            shown += [("event." + e.key, self.once.text("event." + e.key, lang, e.params)) for e in events]
            for key, message in shown:
                assert key in catalog(lang) and not PLACEHOLDER.search(message), (lang, key, message)
        # each action has a JSON form and a text form that read back to itself
        self.once.read_back(act, lambda act: reads_back(act, players))
        self.checked += 1


@props(60)
@given(seed=SEEDS, players=PLAYERS, fmt=FORMATS, options=SETTINGS, corrections=st.booleans())
def test_random_legal_games_keep_money_lots_prices_and_decisions(seed, players, fmt, options, corrections):
    rng = random.Random(seed)
    header = {"game": "maxibourse", "format": fmt, "players": ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"][:players],
              "settings": options, "seed": seed}
    check = Invariants(header)
    _, actions, game = random_game(rng, header=header, max_actions=300, corrections=corrections, on_action=check)
    played("maxibourse", len(actions))
    assert check.checked == len(actions) == len(game.log)
    assert len(actions) == 300 or is_over(game)
    game.snapshot()  # the final state can always be shown


# ------------------------------------------------- where play gets tight
@props(25)
@given(seed=SEEDS, players=PLAYERS, fmt=FORMATS, options=SETTINGS, poor=st.booleans())
# a seller ruined while their partly sold sale went on (TypeError before the fix)
@example(seed=1, players=5, fmt="junior", options={}, poor=True)
@example(seed=175, players=4, fmt="junior", options={}, poor=True)
# a correction during a settlement half delivered cut the sale below what it had sold (ValueError)
@example(seed=14, players=5, fmt="junior", options={}, poor=True)
def test_tight_games_cash_poor_with_corrections_and_undos(seed, players, fmt, options, poor):
    """Random legal games, 2-6 players, every format, players starting with a
    tenth of the cash (`poor`), corrections drawn in the middle of rounds, sales and
    settlements, and undos checked to give back the state before the action exactly
    (tests/maxibourse_random.py: tight_game). No exception, never stuck (a move other than a
    correction is always offered until the close), money and lots conserved, no negative
    cash or holdings: the invariants of every random game."""
    rng = random.Random(seed)
    header = {"game": "maxibourse", "format": fmt, "players": ["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"][:players],
              "settings": options, "seed": seed}
    check = Invariants(header)
    game, applied, undone = tight_game(rng, header, max_actions=300, poor=poor, on_action=check)
    played("maxibourse (cash-poor, corrections, undos)", applied)
    assert applied >= 300 or is_over(game), f"stuck after {applied} actions: {game.decision().to_json()}"
    game.snapshot()


# -------------------------------------------------------------- replay, undo
@props(20)
@given(seed=SEEDS, players=PLAYERS, fmt=FORMATS, options=SETTINGS)
def test_replay_and_undo_give_the_same_states(seed, players, fmt, options):
    rng = random.Random(seed)
    states = []
    header, actions, game = random_game(rng, players=players, fmt=fmt, settings=options, max_actions=200,
                                        corrections=rng.random() < 0.3,
                                        on_action=lambda g, a, e: states.append(g.snapshot()))
    states.insert(0, MaxiBourse(header).snapshot())
    assert game.snapshot() == states[-1]
    # a game is a fold over its actions: replaying the list, or its JSON forms, gives the same state
    assert MaxiBourse.replay(header, actions).snapshot() == states[-1]
    assert MaxiBourse.replay(header, [ACTIONS.from_json(a.to_json()) for a in actions]).snapshot() == states[-1]
    # ... and so does the replay of a resume, which skips the check of actions already accepted
    assert MaxiBourse.replay(header, [ACTIONS.from_json(a.to_json()) for a in actions],
                             checked=False).snapshot() == states[-1]
    # ... and so does every prefix
    for k in sorted(rng.sample(range(len(actions) + 1), min(4, len(actions) + 1))):
        assert MaxiBourse.replay(header, actions[:k]).snapshot() == states[k], k
    # undo is a replay of all but the last action
    for k in range(len(actions), max(0, len(actions) - 3), -1):
        undone = game.undo()
        assert undone == actions[k - 1]
        assert game.snapshot() == states[k - 1], k
        assert game.log == actions[:k - 1]
    if actions:  # undo mid-game, then the same action again
        k = rng.randrange(len(actions))
        g = MaxiBourse.replay(header, actions[:k + 1])
        g.undo()
        assert g.snapshot() == states[k]
        g.apply(actions[k])
        assert g.snapshot() == states[k + 1]
    with pytest.raises(IllegalAction) as refused:
        MaxiBourse(header).undo()
    assert refused.value.key == "error.nothing_to_undo"


# ----------------------------------------------------------- illegal actions
NAMES = ("NOPE", "", "sony", "BANK", "ALL", "BANQUES", "SONY", "COCA-COLA")


def wild_value(rng, game, typ):
    """A value of the field's type, often outside what the pending decision allows."""
    base, n = _base(typ), len(game.players)
    if base is not typ and rng.random() < 0.2:
        return None
    if issubclass(base, Seat):
        return rng.choice([0, 1, n - 1, n, -1, BANK, 99, rng.randrange(n)])
    if issubclass(base, Name):
        return rng.choice(NAMES + tuple(rng.sample(game.companies, 2)) + tuple(game.sectors)[:2])
    if issubclass(base, Signed):
        return rng.choice([0, 10, -10, 5, -5, 1000, -1000, 1010, -1010, 10**9, -10**9, rng.randrange(-2000, 2000)])
    if base is Text:
        return rng.choice(["", "x", "with space"])
    return rng.choice([-5, -1, 0, 1, 2, 3, 6, 7, 10, 11, 10_000, 15_000, 1_000_000, 10**12, rng.randrange(-100, 100)])


def wild_action(rng, game):
    """Any kind with wild values, or an allowed action with some fields made wild."""
    if rng.random() < 0.3:
        cls = rng.choice([c for k, c in ACTIONS.classes.items() if k != "close"])
        return cls(**{f.name: wild_value(rng, game, cls._types[f.name]) for f in dataclasses.fields(cls)})
    act = draw_action(game, rng, {**WEIGHTS, "close": 0}, corrections=True)
    if act is None:
        return ACTIONS.classes["end"]()
    cls, fields = type(act), dataclasses.fields(act)
    values = {f.name: getattr(act, f.name) for f in fields}
    if fields and rng.random() < 0.85:
        for f in rng.sample(fields, rng.randint(1, len(fields))):
            values[f.name] = wild_value(rng, game, cls._types[f.name])
    return cls(**values)


def assert_refusal_is_explained(error: IllegalAction):
    for lang in ("fr", "en"):
        message = error.message(lang)
        assert error.key in catalog(lang), f"{error.key} missing from the {lang} catalog"
        assert message and not message.startswith(error.key), (lang, message)
        assert not PLACEHOLDER.search(message), f"unfilled placeholder in {lang}: {message!r} {error.params}"


@props(50)
@given(seed=SEEDS, players=PLAYERS, fmt=FORMATS)
def test_illegal_actions_change_nothing_and_say_why(seed, players, fmt):
    rng = random.Random(seed)
    seen = {"refused": 0, "legal": 0}

    def tamper(game, act, events):
        if rng.random() > 0.2:
            return
        for _ in range(rng.randint(1, 5)):
            wild = wild_action(rng, game)
            before = state_key(game)
            try:
                game.apply(wild)
            except IllegalAction as error:
                assert_refusal_is_explained(error)
                assert state_key(game) == before, f"refused {wild} changed the state"
                seen["refused"] += 1
            else:
                seen["legal"] += 1  # it happened to be allowed: the game goes on with it

    random_game(rng, players=players, fmt=fmt, max_actions=rng.randint(20, 250), on_action=tamper)


def test_every_message_key_of_the_engine_is_in_both_catalogs():
    """Refusals, prompts and events named in the code of engines/core and the Maxi Bourse
    engine: a key missing from a catalog would show as the raw key on the box."""
    root = Path(__file__).resolve().parents[3] / "engines"
    keys = set()
    for path in [*root.glob("core/*.py"), *root.glob("maxibourse/**/*.py")]:
        code = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'IllegalAction\(\s*"([\w.]+)"', code))
        keys |= set(re.findall(r'"(prompt\.[\w.]+)"', code))
        keys |= {"event." + k for k in re.findall(r'(?:emit|Event)\(\s*"([\w.]+)"', code)}
    assert len(keys) > 40
    for lang in ("fr", "en"):
        assert sorted(k for k in keys if k not in catalog(lang)) == [], lang


def test_refusals_at_set_up_and_after_the_close_are_explained():
    g = new_game(["Ana", "Ben"])
    for line in ("roll 3 4", "pick Ben SONY", "pick Ana NOPE", "first Ana", "settle"):
        with pytest.raises(IllegalAction) as refused:
            play(g, line)
        assert_refusal_is_explained(refused.value)
    g = started(["Ana", "Ben"])
    play(g, "close")
    for line in ("pick Ana SONY", "roll 1 2", "end", "declare Ana 1"):
        with pytest.raises(IllegalAction) as refused:
            play(g, line)
        assert_refusal_is_explained(refused.value)
    assert g.snapshot()["closed"] == "time"


# ------------------------------------------------------------- round trips
@props(200)
@given(reason=st.text(), delta=st.integers(-10**9, 10**9), seat=st.integers(0, 2))
def test_correction_text_and_json_forms_read_back(reason, delta, seat):
    players = ["Ana", "Ben", "Cid"]
    act = ACTIONS.classes["adjust_cash"](seat, delta, reason)
    assert ACTIONS.from_json(act.to_json()) == act
    assert ACTIONS.parse(ACTIONS.format(act, players), players) == act


# ------------------------------------------------ engine bugs, reproduced
def script_game(players, fmt, text):
    game = new_game(players, fmt)
    play(game, *[line for line in (l.split("#")[0].strip() for l in text.splitlines()) if line])
    return game


def test_a_lot_on_offer_cannot_be_offered_again_by_a_seller_in_debt():
    """Found by the generator: a seller who fell into debt in a nested sale could sell the
    very lot on offer, and the first sale's settlement was then refused for ever. Fixed in
    the engine (free_lots); this pins it."""
    g = script_game(["Sophie", "Thierry", "Didier"], "junior", PICKS_3 + """
        adjust_cash Sophie -4850000 set-up
        adjust_cash Thierry -5000000 set-up
        sell Sophie UBS 1             # Thierry buys it and cannot pay
        declare Thierry 1
        declare Didier 0
        settle
        sell Thierry BP 1             # to cover; Sophie buys it and cannot pay either
        declare Didier 0
        declare Sophie 1
        settle
    """)
    assert g.decision().prompt == "prompt.mb.debt" and g.decision().actor == 0
    assert "UBS" not in g.decision().option("sell").fields["company"]
    with pytest.raises(IllegalAction) as refused:
        play(g, "sell Sophie UBS 1")
    assert_refusal_is_explained(refused.value)


PICKS_2 = """
    pick Sophie UBS
    pick Thierry UBS
    pick Sophie BP
    pick Thierry BP
    pick Sophie ELF
    pick Thierry ELF
    pick Sophie ESSO
    pick Thierry ESSO
    pick Sophie FIAT
    pick Thierry FIAT
    first Sophie
"""

EVERYONE_SKIPPING = PICKS_2 + """
    adjust_cash Sophie -4900000 set-up
    adjust_cash Thierry -4900000 set-up
    sell Sophie UBS 1         # Thierry buys it with 100 000 $: sells to the bank, fined, skips
    declare Thierry 1
    settle
    sell Thierry BP 1
    declare Sophie 0
    declare Sophie 0
    sell Thierry ELF 1
    declare Sophie 0
    declare Sophie 0
    roll 1 1                  # Sophie's double: 2 GM au cours she cannot pay: fined, skips too
    double Sophie GM 2
    settle
    sell Sophie BP 1
    sell Sophie ELF 1
    sell Sophie ESSO 1
"""


def test_everyone_skipping_reproduction_reaches_the_square():
    g = script_game(["Sophie", "Thierry"], "junior", EVERYONE_SKIPPING)
    assert g.s.skip == [1, 1] and g.decision().prompt == "prompt.mb.square"


def test_titre_when_every_player_is_skipping():
    g = script_game(["Sophie", "Thierry"], "junior", EVERYONE_SKIPPING)
    try:
        play(g, "titre BP")
    except IllegalAction:
        pass  # refusing the Titre would be a fix too
    decision = g.decision()  # TypeError: list indices must be integers or slices, not NoneType
    assert any(o.kind not in CORRECTIONS + ("close",) for o in decision.options)


def test_no_option_has_an_empty_choice():
    g = script_game(["Sophie", "Thierry"], "junior", EVERYONE_SKIPPING)
    for option in g.decision().options:
        for name, domain in option.fields.items():
            assert not (isinstance(domain, Choice) and not domain.values), (option.kind, name)


def test_seller_ruined_in_a_nested_sale():
    """Found by the generator: a seller ruined in a sale nested under their own sale left
    settlement and debt frames naming them as the seller, and every action was then
    refused. Fixed in the engine (the bank takes over their sales, claims and debts)."""
    g = script_game(["Sophie", "Thierry", "Didier"], "junior", PICKS_3 + SELLER_RUINED_IN_A_NESTED_SALE)
    assert g.s.ruined == [True, False, False] and not is_over(g)
    assert g.s.lots.of("UBS", 1) == 1 and g.cash(1) == 0  # Thierry got his UBS lot, paid it and the fine
    assert g.s.lots.bank("BP") == 10  # the seized BP lot, bought back by the bank
    assert g.decision().prompt == "prompt.mb.turn_start" and g.decision().actor == 2


SELLER_RUINED_IN_A_NESTED_SALE = """
    adjust_lots Sophie BARCLAYS -1 set-up     # Sophie keeps only her UBS lot and no cash
    adjust_lots Sophie CHASE -1 set-up
    adjust_lots Sophie DEUTSCHE -1 set-up
    adjust_lots Sophie ELF -1 set-up
    adjust_cash Sophie -5000000 set-up
    adjust_cash Thierry -4900000 set-up       # Thierry has 100 000 $
    sell Sophie UBS 1                         # Thierry buys it (200 000 $) and cannot pay
    declare Thierry 1
    declare Didier 0
    settle
    sell Thierry BP 1                         # to cover; Sophie buys it, cannot pay: cessation
    declare Didier 0
    declare Sophie 1
    settle
    declare Thierry 0                         # nobody buys the seized BP lot
    declare Didier 0
    declare Thierry 0
    declare Didier 0                          # the bank buys it back: Sophie is ruined
"""


def test_buyer_ruined_in_a_nested_default_does_not_leave_the_seller_paid_and_still_holding():
    g = script_game(["Sophie", "Thierry", "Didier"], "junior", PICKS_3 + """
        adjust_lots Thierry BARCLAYS -1 set-up    # Thierry holds only BP and no cash
        adjust_lots Thierry CHASE -1 set-up
        adjust_lots Thierry DEUTSCHE -1 set-up
        adjust_lots Thierry ELF -1 set-up
        adjust_cash Thierry -5000000 set-up
        adjust_cash Didier -5000000 set-up        # Didier has no cash either
        sell Sophie UBS 1                         # Thierry buys Sophie's UBS (200 000 $), cannot pay
        declare Thierry 1
        declare Didier 0
        settle
        sell Thierry BP 1                         # to cover; Didier buys it and cannot pay
        declare Didier 1
        declare Sophie 0
        settle
        sell Didier ESSO 1                        # to cover; Thierry buys it: cessation, nothing left
        declare Sophie 0
        declare Thierry 1
        settle
        declare Didier 0                          # nobody buys the seized ESSO lot
        declare Sophie 0
        declare Didier 0
        declare Sophie 0                          # the bank buys it back: Thierry is ruined
        sell Didier CHASE 1                       # Didier covers his BP purchase
        declare Sophie 1
        settle
    """)
    assert g.s.ruined == [False, True, False]
    # Sophie paid 300 000 $ for CHASE. Her UBS sale to the ruined Thierry: either the bank
    # seized the lot and paid her (MB8), or she kept it and was not paid; not both.
    paid_for_ubs = g.cash(0) - (5_000_000 - 300_000)
    assert (g.s.lots.of("UBS", 0), paid_for_ubs) in ((0, 200_000), (1, 0)), (g.s.lots.of("UBS", 0), paid_for_ubs)


def test_booleans_are_not_numbers():
    g = script_game(["Sophie", "Thierry"], "junior", PICKS_2)
    act = ACTIONS.classes["roll"](True, True)
    try:
        g.apply(act)
    except IllegalAction:
        return
    ACTIONS.from_json(act.to_json())
