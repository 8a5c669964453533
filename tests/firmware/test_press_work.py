"""Work per press (press latency): what a press does not build again.

Counted, not timed: the engine's decision is built once per position (the check of an action
reuses the one its screen came from), a menu move builds nothing the position decides (the
square menu's entries, their labels, the title, an entry's question), and what is kept is
built again as soon as the game moves or the language changes.
"""
import pytest

from drivers.events import InputEvent
from engines.core.actions import ANYTIME
from engines.core.errors import IllegalAction
from firmware import menus
from firmware.controller import Controller, Timing
from firmware.menus import Ctx, kind_label
from firmware.session import Session
from firmware.texts import t
from maxibourse_helpers import started

TIMING = Timing(speaking_window_s=3.0, press_gap_s=0.5, auction_step_s=1.0, auction_lead_s=1.0)


class Counted:
    """Wraps `owner.name` (a function or a bound method) and counts its calls."""

    def __init__(self, monkeypatch, owner, name):
        self.calls = 0
        original = getattr(owner, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(owner, name, counted)


def controller():
    c = Controller(None, timing=TIMING)
    c.attach(Session(started(["Ana", "Ben", "Cid"])))
    return c


def press(c, key, t=[0.0]):
    t[0] += 0.05
    c.handle(InputEvent(key, "press", t[0]))
    return c.screen()


def to_square_menu(c):
    """Dice 1 and 2 entered: the square menu (a dozen entries)."""
    dice = c.flow.main_kinds().index("roll")
    for target in (dice, "1", "2"):
        if isinstance(target, str):
            target = [str(i) for i in c.screen().items].index(target)
        while c.screen().selected != target:
            press(c, "down")
        press(c, "ok")
    assert c.screen().kind == "menu" and len(c.screen().items) > 8


def fresh_title(c):
    """The title built by a controller that keeps nothing yet, on the same game."""
    other = Controller(None, timing=TIMING, lang=c.lang)
    other.attach(c.session)
    return other.kit.title()


def fresh_root_items(c):
    """The square menu's entries built from nothing, as the controller built them on every press."""
    ctx = Ctx(c.session, c.lang, False)
    kinds = [o.kind for o in c.session.game.decision().options if not ctx.has(o.kind, ANYTIME)]
    return tuple(kind_label(ctx, k) for k in kinds) + (t("menu_item", c.lang),)


def test_an_action_is_checked_against_the_decision_its_screen_was_built_from(monkeypatch):
    game = started(["Ana", "Ben"])
    session = Session(game)
    session.decision()                                    # what the screen was built from
    built = Counted(monkeypatch, game, "decision")
    roll = game.ACTIONS.classes["roll"](d1=1, d2=2)
    session.apply(roll)
    assert built.calls == 0                               # the check did not build it again
    assert session.decision().prompt == "prompt.mb.square" and built.calls == 1


def test_a_check_given_the_decision_refuses_as_one_that_builds_it():
    game = started(["Ana", "Ben"])
    decision = game.decision()
    wrong = game.ACTIONS.classes["end"]()                 # not before the dice
    with pytest.raises(IllegalAction) as alone:
        game.check(wrong)
    with pytest.raises(IllegalAction) as given:
        game.check(wrong, decision)
    assert str(given.value) == str(alone.value)
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.apply(wrong, decision=decision)
    assert game.snapshot() == before and len(game.log) == len(started(["Ana", "Ben"]).log)


def test_a_menu_move_builds_nothing_the_position_decides(monkeypatch):
    c = controller()
    to_square_menu(c)
    c.screen()
    decisions = Counted(monkeypatch, c.session.game, "decision")
    labels = Counted(monkeypatch, menus, "kind_label")
    for module in ("firmware.screen_kit", "firmware.screens.entries"):    # imported by name there
        monkeypatch.setattr(f"{module}.kind_label", menus.kind_label)
    titles = Counted(monkeypatch, c.kit, "params")
    first = c.screen()
    for i in range(10):
        screen = press(c, "down" if i % 2 == 0 else "up")
        assert screen.items == first.items and screen.title == first.title
    assert screen.selected == first.selected
    assert (decisions.calls, labels.calls, titles.calls) == (0, 0, 0)


def test_what_is_kept_follows_the_game_and_the_language():
    c = controller()
    before = c.screen()
    assert before.items == fresh_root_items(c) and before.title == fresh_title(c)    # before the dice
    to_square_menu(c)
    french = c.screen()
    assert french.items == fresh_root_items(c) and french.title == fresh_title(c)    # the square's
    assert french.items != before.items and french.title != before.title
    c.lang = "en"
    english = c.screen()
    assert english.items == fresh_root_items(c) and english.title == fresh_title(c)
    assert english.items != french.items and english.title != french.title
    c.lang = "fr"
    c.apply(c.session.actions.classes["end"]())                      # Ben's turn: other entries
    c.flow.sync()
    assert c.screen().items == fresh_root_items(c) and c.screen().title == fresh_title(c)
    assert c.screen().title != french.title and "Ben" in c.screen().title


def test_menu_labels_are_kept_for_the_game_and_the_language_across_positions(monkeypatch):
    c = controller()
    first = c.screen()                                                # Ana's dice: the kinds labelled
    to_square_menu(c)
    c.screen()
    labels = Counted(monkeypatch, menus, "kind_label")
    monkeypatch.setattr("firmware.screen_kit.kind_label", menus.kind_label)
    c.apply(c.session.actions.classes["end"]())                       # Ben's dice: a new position
    c.flow.sync()
    assert c.screen().items == first.items and c.screen().title != first.title
    assert labels.calls == 0                                          # the same kinds: no label built again
    c.lang = "en"
    assert c.screen().items == fresh_root_items(c) and labels.calls == len(first.items) - 1
    c.attach(Session(started(["Ana", "Ben", "Cid"])))                 # another game: labelled afresh
    c.lang = "fr"
    calls = labels.calls
    assert c.screen().items == first.items and labels.calls == calls + len(first.items) - 1


def test_an_answer_builds_the_next_question_once(monkeypatch):
    c = controller()
    press(c, "ok")                                                     # the dice entry: the first die
    assert c.screen().items[:2] == ("1", "2")
    resolved = Counted(monkeypatch, menus, "resolve")
    monkeypatch.setattr("firmware.screens.entries.resolve", menus.resolve)
    press(c, "down")
    assert resolved.calls == 0                                         # a move: the same question
    press(c, "ok")                                                     # die 1 answered: die 2 asked
    assert resolved.calls == 1 and c.screen().items[:2] == ("1", "2")
