"""A Vendre! games recorded by the version before `buy_at`, `tax R` and `income` (main at
48ef2b1) replay to the state they had.

That version read, without a board, the square at every landing (`square N` after each
roll, `square 0` and `colour` for a square without a title) and a title whole at its
first landing (`amounts COLOUR PA R`). Today's box remembers each square and reads a
title's values when a turn needs them; `amounts` is still offered, after the answers
that read only what is needed, and the setting `squares = each_landing` reads the squares
as that version did. A journal without that setting is read with it when the recording
refuses otherwise (`AVendre.older_readings`, firmware/session.py `read_recording`).

tests/reference/journal/avendre-v1.sqlite was written by 48ef2b1 with `corbeille script
tests/reference/journal/avendre-v1.txt --journal ...`, then resumed once by that version
(its rules fingerprint is in the meta); avendre-v1.json is the state that version printed.
"""
import json
import shutil
from pathlib import Path

import pytest

from avendre_helpers import cash, new_game, owner, play, prompt, set_cash
from engines.avendre.game import AVendre
from engines.core.errors import IllegalAction
from engines.core.learning import LEARNABLES
from firmware.cli import state_json
from firmware.journal import Journal
from firmware.script import ScriptError, export_script, run_script
from firmware.session import RULES_KEY, Session, rules_fingerprint
from test_avendre_rules import refused

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "reference" / "journal"
OLD_STATE = json.loads((FIXTURES / "avendre-v1.json").read_text(encoding="utf-8"))
SAME = ("players", "owners", "entered", "bank", "step", "turn", "last_die", "actions")


def answers(game):
    """The pending decision's answers in their order, without the corrections."""
    return [o.kind for o in game.decision().options if not game.ACTIONS.has(o.kind, "anytime")]


def same_state(snap, old=OLD_STATE):
    """What the earlier version's state says, compared key by key (today's adds `read`,
    the squares read, and a setting)."""
    return {k: snap[k] for k in SAME} == {k: old[k] for k in SAME}


# ----------------------------------------------------------- the earlier version's script
def test_the_earlier_versions_first_meeting_replays_with_its_figures():
    """The earlier test, line for line: title 7 read whole on square 2, bought at 600; Ben
    on square 2 reads it again and pays its R 60 to Ana at once."""
    game = new_game(board="none", squares="each_landing")
    play(game, "roll 2", "square 7")
    assert prompt(game) == "prompt.av.blue_read" and answers(game)[-1] == "learn_title"
    refused(game, "amounts BLUE 0 60", "error.av.shop_pa")
    refused(game, "amounts RED 600 60", "error.av.establishment_pa")
    play(game, "amounts BLUE 600 60")
    assert prompt(game) == "prompt.av.blue" and game.snapshot()["entered"]["7"] == ["shop", 600, 60]
    play(game, "buy Ana", "card_none Ana")
    assert owner(game, 7) == "Ana" and cash(game, "Ana") == 4500 and game.fortune(0) == 4800
    play(game, "roll 2", "square 7")                   # read again: R to its owner at once
    assert cash(game, "Ben") == 5040 and cash(game, "Ana") == 4560 and prompt(game) == "prompt.av.card"
    play(game, "card_none Ben", "roll 4", "square 0")
    assert prompt(game) == "prompt.av.colour"
    play(game, "colour YELLOW")
    assert prompt(game) == "prompt.av.yellow"


def test_the_earlier_versions_granted_title_is_read_whole_as_red_at_its_landing():
    game = new_game(board="none", squares="each_landing")
    play(game, "roll 2", "square 0", "colour YELLOW", "card Ana", "card_grant Ana 31")
    play(game, "roll 2", "square 31")
    assert prompt(game) == "prompt.av.income"
    assert game.decision().option("learn_title").fields["colour"].values == ("RED",)
    refused(game, "amounts BLUE 600 150", "error.field")   # read as an establishment already
    play(game, "amounts RED 0 150")
    assert cash(game, "Ben") == 4950 and cash(game, "Ana") == 5250
    assert game.snapshot()["entered"]["31"] == ["establishment", 0, 150]


def test_a_player_on_his_own_title_not_read_yet_reads_it_whole_as_the_earlier_version_asked():
    game = new_game(board="none", squares="each_landing")
    play(game, "roll 2", "square 0", "colour YELLOW", "card Ana", "card_grant Ana 31")
    play(game, 'set_pawn Ben 5 "test set-up"', 'set_pawn Ana 0 "test set-up"', "roll 1", "square 0",
         "colour YELLOW", "no_card Ben", "roll 1", "square 0", "colour YELLOW", "no_card Cid", "roll 3", "square 31")
    assert prompt(game) == "prompt.av.amounts" and answers(game) == ["learn_title"]
    play(game, "amounts RED 0 150")
    assert cash(game, "Ana") == 5100 and prompt(game) == "prompt.av.card"


def test_with_squares_remembered_a_square_is_not_asked_again():
    """The setting's default is today's: the earlier version's second `square 7` is refused."""
    game = new_game(board="none")
    play(game, "roll 2", "square 7", "amounts BLUE 600 60", "buy Ana", "card_none Ana", "roll 2")
    assert cash(game, "Ben") == 5040 and prompt(game) == "prompt.av.card"
    with pytest.raises(IllegalAction) as error:
        play(game, "square 7")
    assert error.value.key == "error.av.when.learn_square"    # read once, remembered


# ------------------------------------------------------------------ amounts, today
def test_the_whole_title_is_an_extra_answer_and_the_turn_goes_on_as_on_a_title_read_before():
    """Offered last, after buy_at, tax and income (the common path is not longer); then
    `buy` and its confirmation, as on a title read before."""
    game = new_game(board="none")
    play(game, "roll 2", "square 7")
    assert answers(game) == ["buy_at", "tax", "income", "learn_title"]
    play(game, "amounts BLUE 600 60")
    assert answers(game) == ["buy", "tax"]
    assert game.ACTIONS.has("buy", "confirm")
    play(game, "tax Ana")
    assert cash(game, "Ana") == 5040 and owner(game, 7) is None


def test_the_whole_title_is_offered_while_a_value_is_unread_and_must_agree_with_what_was_read():
    game = new_game(board="none")
    play(game, "roll 1", "square 1", "tax Ana 70", "card_none Ana", "roll 1")   # Ben: R 70 read, PA not
    option = game.decision().option("learn_title")
    assert option is not None and option.fields["colour"].values == ("BLUE",)
    error = refused(game, "amounts BLUE 550 80", "error.av.amounts_read")
    assert "PA ? et R 70" in error.message("fr") and "PA ? and R 70" in error.message("en")
    play(game, "amounts BLUE 550 70")
    assert game.decision().option("learn_title") is None and game.snapshot()["entered"]["1"] == ["shop", 550, 70]
    play(game, "buy Ben")
    assert cash(game, "Ben") == 5100 - 550


def test_an_answer_alone_keeps_its_own_screen():
    """A title whose R only is unread, paid to its holder: the R is all a whole card would
    add, and a second answer would turn the R's screen into a menu (one press more); so
    would it the tax of a player who cannot buy, on a title whose R is read."""
    game = new_game(board="none")
    play(game, "roll 2", "square 0", "colour YELLOW", "card Ana", "card_grant Ana 31", "roll 3", "square 31")
    assert prompt(game) == "prompt.av.income" and answers(game) == ["income"]
    play(game, 'set_pawn Cid 0 "test set-up"', "income 150", "card_none Ben")
    play(game, "roll 1", "square 1", "tax Cid 70", "card_none Cid")         # title 1: R read, PA not
    set_cash(game, "Ana", 5)
    play(game, 'set_pawn Ana 0 "test set-up"', "roll 1")
    assert prompt(game) == "prompt.av.blue_read" and answers(game) == ["tax"]   # 5 left: no purchase


@pytest.mark.parametrize("line, key, fr, en", [
    ("amounts BLUE 0 60", "error.av.shop_pa", "un PA de 0 est celui d'un établissement (case RED)",
     "a PA of 0 is an establishment's (a RED square)"),
    ("amounts RED 600 60", "error.av.establishment_pa", "son PA est 0 ; un commerce est sur une case BLUE",
     "its PA is 0; a shop is on a BLUE square"),
])
def test_a_bad_whole_title_is_refused_naming_what_is_allowed(line, key, fr, en):
    game = new_game(board="none")
    play(game, "roll 2", "square 7")
    error = refused(game, line, key)
    assert fr in error.message("fr") and en in error.message("en")


# ------------------------------------------------------------- the journal fixture
def test_the_earlier_versions_script_reads_with_squares_each_landing_to_its_state():
    text = (FIXTURES / "avendre-v1.txt").read_text(encoding="utf-8")
    with pytest.raises(ScriptError) as error:
        run_script(text)                                 # as written: the second `square 7`
    assert ":14: learn_square: without a board, a square is read only when a pawn reaches it for the first time" in str(error.value)
    game = run_script(text.replace("set board none", "set board none\nset squares each_landing"))
    assert same_state(state_json(game))


@pytest.fixture
def old_journal(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    shutil.copy(FIXTURES / "avendre-v1.sqlite", state / "journal.sqlite")
    return state / "journal.sqlite"


def test_a_journal_of_the_earlier_version_resumes_to_its_state_and_plays_on(old_journal):
    with Journal(old_journal) as journal:
        assert journal.get_meta(RULES_KEY.format(1)) not in (None, rules_fingerprint())   # another version's
        resumed = Session.resume(journal, 1)
        assert resumed.messages == [] and resumed.refused is None
        assert same_state(state_json(resumed.game)) and len(journal.actions(1)) == OLD_STATE["actions"]
        assert resumed.game.settings["squares"] == "each_landing"
        # read the earlier way: checked again at each resume (the unchecked replay reads the header as written)
        assert journal.get_meta(RULES_KEY.format(1)) != rules_fingerprint()
        resumed.apply(AVendre.ACTIONS.parse("roll 1", resumed.players))      # Ben, square 6: read again
        assert resumed.decision().prompt == "prompt.av.square"
        resumed.apply(AVendre.ACTIONS.parse("square 0", resumed.players))
    with Journal(old_journal) as journal:
        again = Session.resume(journal, 1)
        assert again.messages == [] and again.game.log == resumed.game.log


def test_an_exported_journal_of_the_earlier_version_says_its_setting_and_replays(old_journal, capsys):
    from firmware.cli import main
    assert main(["export", "--journal", str(old_journal)]) == 0
    script = capsys.readouterr().out
    assert "set squares each_landing" in script.splitlines()[:6]
    assert same_state(state_json(run_script(script)))
    assert main(["replay", "--journal", str(old_journal)]) == 0
    assert same_state(json.loads(capsys.readouterr().out))


def test_the_box_resumes_a_journal_of_the_earlier_version_without_a_message(old_journal, tmp_path):
    from e2e_box import E2EBox
    box = E2EBox(tmp_path, seats=3)
    try:
        assert box.screen.kind != "message" and box.c.session.messages == []
        assert same_state(state_json(box.game))
        assert box.screen.title == "Ben : le dé"
    finally:
        box.close()


@pytest.mark.parametrize("old, new", [("square 7", "learn_square 7"), ("colour GREEN", "learn_colour GREEN"),
                                      ("amounts BLUE 600 60", "learn_title BLUE 600 60")])
def test_the_readings_old_names_read_as_the_learn_kinds_and_are_written_with_them(old, new):
    """Box data learned at the table (engines/core/learning.py): the board-less readings are
    `learn_*` kinds; journals and scripts with the older names read as them."""
    players = ["Ana", "Ben"]
    act = AVendre.ACTIONS.parse(old, players)
    assert act == AVendre.ACTIONS.parse(new, players) and AVendre.ACTIONS.format(act, players) == new
    assert AVendre.ACTIONS.from_json({**act.to_json(), "kind": old.split()[0]}) == act
    assert act.kind in LEARNABLES["avendre"]


def test_the_earlier_versions_script_replays_as_the_same_script_with_the_learn_names():
    text = (FIXTURES / "avendre-v1.txt").read_text(encoding="utf-8").replace("set board none", "set board none\nset squares each_landing")
    renamed = "\n".join(line.replace("square ", "learn_square ", 1) if line.startswith("square ") else
                         line.replace("colour ", "learn_colour ", 1) if line.startswith("colour ") else
                         line.replace("amounts ", "learn_title ", 1) if line.startswith("amounts ") else line
                         for line in text.splitlines())
    assert renamed != text
    before, after = run_script(text), run_script(renamed)
    assert before.snapshot() == after.snapshot() and before.log == after.log


def test_export_writes_the_script_of_a_game_recorded_today_unchanged():
    game = new_game(board="none")
    play(game, "roll 2", "square 7", "amounts BLUE 600 60", "buy Ana")
    script = export_script(game.header, game.log)
    assert "squares" not in script and run_script(script).log == game.log


@pytest.mark.parametrize("lang, labels", [
    ("fr", ("Acheter", "Payer R", "Case rouge : payer R", "Titre complet", "bleue", "Titre : PA 800.—, R 100.—")),
    ("en", ("Buy", "Pay R", "Red square: pay R", "Whole title", "blue", "Title: PA 800.—, R 100.—")),
])
def test_on_the_box_the_whole_title_is_the_entry_after_the_short_path(lang, labels):
    """The operator who reads the card whole: the entry after the three that read only what
    the turn needs (the first stays the 9-press path, tests/firmware/test_e2e_avendre.py); colour,
    PA and R, then the purchase with its confirmation, as on a title read before."""
    from test_controller import box_for
    buy, tax, red, whole, blue, said = labels
    game = AVendre({"game": "avendre", "players": ["Ana", "Ben", "Cid"], "seed": 1,
                    "settings": {"dice": "device", "board": "none"}})
    game.apply(game.ACTIONS.parse("first Ana", game.players))
    b = box_for(game, lang=lang)
    b.key("ok").key("ok")                                # the die (6), title 4 as proposed
    assert b.items()[:4] == [buy, tax, red, whole] and b.screen.selected == 0
    b.choose(whole)
    assert b.items() == [blue, b.items()[1]]
    b.key("ok").key("ok").key("ok")                      # blue, PA 800 and R 100 as proposed
    assert game.log[-1] == game.ACTIONS.parse("amounts BLUE 800 100", game.players)
    assert b.screen.lines == (said,) and b.items()[:2] == [buy, tax]
    b.choose(buy)
    assert b.screen.kind == "confirm" and game.owner("4") < 0
    b.key("ok")
    assert game.owner("4") == 0 and game.cash(0) == 5100 - 800 and game.decision().prompt == "prompt.av.card"
