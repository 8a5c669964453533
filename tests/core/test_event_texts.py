"""Event texts name things in words: no protocol id (a snake_case word such as
"forced_sale", a colon id such as "29:RIZ", a bare protocol word such as "cash") in any event
of random games of each game, in French and in English. The box's screens show few events,
but the command line and the logs print every one (`Event.text`)."""
import random
import re
import string

import pytest

from engines import game_class
from engines.core.actions import ANYTIME
from engines.core.events import Event
from engines.core.i18n import LANGUAGES, catalog
from engines.core.random_play import play_randomly
from game_helpers import plain
from test_game_contract import GAMES, Drawer, draw_option, header, player_counts, state_key

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")        # forced_sale, card_pay_each
COLON = re.compile(r"\b\w+:\w+\b")                               # 29:RIZ, square:production
WORD = re.compile(r"[a-z]+(?:_[a-z]+)*")                         # a value the protocol spells as a word


class Corrections(Drawer):
    """The contract's drawer, drawing what is offered at any time (the corrections, whose
    texts name what they correct) one time in ten rather than one in two hundred."""

    def __call__(self, game):
        decision = game.decision()
        if not decision.options:
            return None
        moves = [o for o in decision.options if not game.ACTIONS.has(o.kind, ANYTIME)]
        pool = moves if moves and self.rng.random() < 0.9 else decision.options
        return draw_option(game, self.rng, self.rng.choice(pool))


def fields(key: str, lang: str):
    """(parameter, format spec) of each field of the template `key` in `lang`."""
    for _, field, spec, _ in string.Formatter().parse(catalog(lang).get(key, key)):
        if field:
            yield field, spec or ""


def protocol_words(event: Event, lang: str) -> list[str]:
    """The protocol ids `event`'s text shows in `lang`: snake_case words and colon ids
    anywhere, and a parameter spelled as a protocol word that the template shows as it is,
    or names through the catalog (`{reason:@reason}`) where the catalog has no name for it."""
    shown = event.text(lang)
    found = set(SNAKE.findall(shown) + COLON.findall(shown))
    names = catalog(lang)
    for param, spec in fields("event." + event.key, lang):
        value = event.params.get(param)
        if isinstance(value, str) and WORD.fullmatch(value) \
                and not (spec.startswith("@") and f"{spec[1:]}.{value}" in names):
            found.add(value)
    return sorted(found)


def events_of(name):
    for players in player_counts(name):
        for seed in (1, 2):
            game = game_class(name)(header(name, players, seed))
            events = []
            play_randomly(game, Corrections(random.Random(f"words-{name}-{players}-{seed}")), max_actions=400,
                          state_key=state_key, verify=False, finished=lambda g: g.over,
                          on_action=lambda g, a, e: events.extend(e), max_refusals=3000)
            yield from events


def test_the_scan_finds_protocol_ids():
    assert protocol_words(Event("transfer", {"src": 0, "dst": 1, "amount": 5, "reason": "x_y"}), "en") == ["x_y"]
    assert protocol_words(Event("rm.plaques", {"plaques": "29:RIZ"}), "fr") == ["29:RIZ"]
    oops = Event("correction", {"player": "Ana", "what": "oops", "delta": 1, "reason": "typed by hand"})
    assert protocol_words(oops, "en") == ["oops"]                   # a protocol word the catalog does not name
    cash = Event("correction", {"player": "Ana", "what": "cash", "delta": 1, "reason": "typed by hand"})
    assert protocol_words(cash, "fr") == [] and "argent" in cash.text("fr")
    assert protocol_words(Event("mb.closed", {"reason": "bank_empty", "ranking": []}), "en") == []


@pytest.mark.parametrize("name", GAMES)
def test_no_event_text_of_a_random_game_shows_a_protocol_id(name):
    seen, scanned = set(), set()     # scanned: the events of plain parameters read already (a text is pure)
    for event in events_of(name):
        seen.add(event.key)
        memo = (event.key, *event.params.items()) if plain(event.params.values()) else None
        if memo in scanned:
            continue
        for lang in LANGUAGES:
            assert protocol_words(event, lang) == [], (lang, event.key, event.text(lang))
        if memo is not None:
            scanned.add(memo)
    assert len(seen) > 10 and "transfer" in seen
