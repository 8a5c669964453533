"""The whole box under random play, for each of the five games (tests/box_play.py): from the
setup screen, each value of each setting that changes the flow once, 2 players and the most
the rulebook allows, then random combinations; random key and seat presses, short and long,
undo, the menu, corrections and restarts on the same journal in the middle. Every frame:
no exception, no catalog key or protocol id, every text of a French screen from the French
catalogs, the journal replaying to the state shown, money and shares conserved.

`make test` plays each case from a fixed seed (derandomised Hypothesis, tests/conftest.py):
the same presses on every run, whatever ran before. `make fuzz` plays FUZZ_SCALE times as
many with fresh seeds (tests/props.py); a failure prints its case and seed, and becomes a
line of `PINNED` with its fix (docs/fuzz.md).
"""
import random
import tempfile
from importlib import import_module
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from box_play import IN_MEMORY, BoxPlay, Case
from engines.core.settings import entry
from engines.registry import spec
from firmware.games import PLAYABLE
from props import FUZZING, FUZZ_SCALE, played

SEEDS = st.integers(0, 2**32 - 1)
PRESSES = 1000 if FUZZING else 250   # per case: about 30 s for the five games under `make test`
DV_COMPANIES = "CEDARPINES,DESERT-OIL,TRANS-PACIFIC"    # 2 players play with 3 companies (DV2)
OWNERS_BOXES = {"maxibourse": "[board]", "richesses": "[[squares]]"}   # a copy without the board's order


def box_without(game, part):
    """The shipped box file of `game` cut before its `part`, its last table (Maxi Bourse's
    [board], Richesses du Monde's [[squares]]): an owner's copy without the board's order."""
    shipped = Path(import_module(spec(game).box).DEFAULT_BOX)
    path = Path(tempfile.gettempdir()) / f"box-play-{game}-without-{part.strip('[]')}.toml"
    path.write_text(shipped.read_text(encoding="utf-8").partition(part)[0], encoding="utf-8")
    return str(path)


def setting_cases():
    """Each game with every default (2 players, the most), then each value of each of its
    settings but the default, one at a time: every line of `corbeille settings`."""
    cases = []
    for game in PLAYABLE:
        lo, hi = spec(game).players
        names = "numbers" if game == "shark" else "colours"    # Shark's companies are the colours
        cases += [Case(game, players=lo, names=names), Case(game, players=hi, names="numbers" if hi > 6 else names)]
        for fmt in spec(game).formats[1:]:
            cases.append(Case(game, format=fmt, names=names))
        for key, declaration in spec(game).settings.items():
            default, allowed, _ = entry(declaration)
            if key == "rounds" and game == "maxibourse":
                cases.append(Case(game, rounds=1))          # asked in a step of its own: the end comes
            elif isinstance(allowed, tuple):
                cases += [Case(game, settings={key: value}, names=names) for value in allowed if value != default]
            elif isinstance(allowed, range):
                cases.append(Case(game, settings={key: allowed[0]}, names=names))
            else:                                           # a text: the configuration's only
                cases.append(Case(game, players=2, config={key: DV_COMPANIES}))
    cases += [Case(game, box=box_without(game, part)) for game, part in OWNERS_BOXES.items()]
    return cases


CASES = setting_cases()


def random_case(game, seed):
    """A setup drawn from `seed`: the number of players, their names, the format and every
    setting at random (a number among its least, its default and its most), now and then
    an owner's box file without the board's order."""
    rng = random.Random(f"{game}-{seed}")
    lo, hi = spec(game).players
    players = rng.randint(lo, hi)
    names = "numbers" if players > 6 or game == "shark" else rng.choice(("colours", "numbers"))
    settings, config, rounds = {}, {}, 0
    for key, declaration in spec(game).settings.items():
        default, allowed, _ = entry(declaration)
        if key == "rounds" and game == "maxibourse":
            rounds = rng.choice((0, 1, 2))
        elif isinstance(allowed, tuple):
            settings[key] = rng.choice(allowed)
        elif isinstance(allowed, range):
            settings[key] = rng.choice((allowed[0], default, allowed[-1]))
        elif players == 2 and rng.random() < 0.5:
            config[key] = DV_COMPANIES
    box = None
    if game in OWNERS_BOXES and rng.random() < 0.2:
        box = box_without(game, OWNERS_BOXES[game])
    return Case(game, players=players, settings=settings, config=config, names=names, rounds=rounds, box=box,
                format=rng.choice(spec(game).formats) if spec(game).formats else None)



# What `make fuzz` found (docs/fuzz.md), each with its fix: (case, seed), played as found.
PINNED = [
    # the report's folder after a restart: a path is no word (tests/screen_texts.py PATH)
    (Case("shark", names="numbers", settings={"grid": "none"}, presses=1000), 820745),
    # "Corriger un pion" showed its raw key ui.q.amount_set_pawn (firmware/menus.py amount_question)
    (Case("richesses", settings={"world_tour": "anyone"}, presses=1000), 15382945),
    # the Options show a text setting as configured, "CEDARPINES,DESERT-OIL,TRANS-PACIFIC": the
    # setup's game names are its box file's (tests/box_play.py Checks.texts_of)
    (Case(**{**vars(random_case("dividends", 64048)), "presses": 1000}), 64048),
    # a correction entered in English, its reason recorded "correction on the box", shown so on a
    # French screen: the box's own reason is said in the reader's language (firmware/menus.py describe)
    (Case("shark", names="numbers", settings={"variant1": True}, presses=1000), 10909),
    # a refusal said in English, the language switched to French from the menu opened over it:
    # the refusal is worded again in the screen's language (firmware/screens/overlays.py Error)
    (Case("maxibourse", format="senior", presses=1000), 521893),
]


def play(case, seed):
    # the state folder has a "_" in its name, as a temporary one may: its path is data, never an id;
    # in memory when it can be (tests/box_play.py IN_MEMORY)
    with tempfile.TemporaryDirectory(prefix="box_play_", dir=IN_MEMORY) as folder, \
            BoxPlay(Path(folder), case, seed) as box_play:
        box_play.setup()
        box = box_play.play()
        if box.c.session is not None:
            played(f"box play {box.game.name}", len(box.game.log))
        return box_play


ONE_SEED = settings(max_examples=FUZZ_SCALE if FUZZING else 1, phases=[Phase.explicit, Phase.generate])


@pytest.mark.parametrize("case", CASES, ids=str)
@ONE_SEED
@given(seed=SEEDS)
def test_each_setting_plays_through_the_whole_box(case, seed):
    play(Case(**{**vars(case), "presses": PRESSES}), seed)


@pytest.mark.parametrize("game", PLAYABLE)
@settings(max_examples=2 * FUZZ_SCALE if FUZZING else 2, phases=[Phase.explicit, Phase.generate])
@given(seed=SEEDS)
def test_random_setups_play_through_the_whole_box(game, seed):
    play(Case(**{**vars(random_case(game, seed)), "presses": PRESSES}), seed)


@pytest.mark.parametrize("case, seed", PINNED, ids=str)
def test_what_random_play_found_stays_fixed(case, seed):
    play(case, seed)
