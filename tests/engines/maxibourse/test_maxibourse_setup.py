"""Maxi Bourse's set-up in few presses: the starting picks counted ("3/7"), or dealt by the
device (`picks = "dealt"`) in one recorded action that a replay never draws again."""
import pytest

from engines.core.errors import IllegalAction
from engines.maxibourse.game import MaxiBourse
from firmware.script import fill_dice, run_script
from maxibourse_helpers import new_game, play

NAMES = ["Ana", "Ben", "Cid"]


def dealt_game(fmt="senior", seed=3):
    return MaxiBourse({"game": "maxibourse", "format": fmt, "players": list(NAMES), "seed": seed,
                       "settings": {"picks": "dealt"}})


def test_the_picks_are_counted_per_player():
    """Senior: "7 lots" each (MB2); the box says which pick this is: 1/7, then 2/7..."""
    g = new_game(NAMES, "senior")
    d = g.decision()
    assert (d.params["player"], d.params["n"], d.params["of"]) == ("Ana", 1, 7)
    play(g, "pick Ana SONY", "pick Ben SONY", "pick Cid SONY")
    d = g.decision()
    assert (d.params["player"], d.params["n"], d.params["of"]) == ("Ana", 2, 7)


def test_picks_default_to_chosen_as_the_rulebook_has_each_player_choose():
    assert new_game(NAMES).settings["picks"] == "chosen"
    assert new_game(NAMES).decision().prompt == "prompt.mb.pick"


def test_a_dealt_setup_is_one_chance_action_giving_each_player_distinct_companies():
    g = dealt_game()
    d = g.decision()
    assert d.prompt == "prompt.mb.deal" and d.interaction.kind == "chance" and d.interaction.params == {"device": True}
    act = fill_dice(g, g.ACTIONS.classes["deal"]())
    assert len(act.companies) == 21
    g.apply(act)
    for player in g.snapshot()["players"]:
        assert len(player["lots"]) == 7 and set(player["lots"].values()) == {1}  # 7 distinct companies
    assert g.decision().prompt == "prompt.mb.first"
    assert g.ACTIONS.has("deal", "chance")


def test_a_replay_of_a_dealt_setup_reads_the_deal_and_draws_nothing():
    g = dealt_game(seed=3)
    g.apply(fill_dice(g, g.ACTIONS.classes["deal"]()))
    line = "deal " + " ".join(g.log[-1].companies)
    again = run_script(f"game maxibourse\nformat senior\nplayers Ana Ben Cid\nseed 99\nset picks dealt\n{line}")
    assert again.snapshot()["players"] == g.snapshot()["players"]   # another seed, the same deal


@pytest.mark.parametrize("companies, key", [
    (("SONY",) * 3, "error.field"),                           # one company per pick: 21
    (("SONY", "IBM", "CANON") * 5 + ("SONY", "SONY", "CANON", "IBM", "IBM", "CANON"), "error.mb.deal_company"),
])
def test_a_wrong_deal_is_refused_and_changes_nothing(companies, key):
    g = dealt_game()
    before = g.snapshot()
    with pytest.raises(IllegalAction) as error:
        g.apply(g.ACTIONS.classes["deal"](companies))
    assert error.value.key == key and g.snapshot() == before


@pytest.mark.parametrize("button, picks, first", [("Jouer", "chosen", "Rouge : lot 1/7"),
                                                  ("Donner", "dealt", "Lots de départ")])
def test_a_senior_summary_keeps_the_picks_chosen_and_offers_to_deal_them_in_one_press(tmp_path, button, picks, first):
    """MB2: each player chooses the starting lots, 21 choices at a Senior table of three;
    the summary keeps that on "Jouer" and offers "Donner" beside it (the device deals, one
    OK shows the lots), its footer saying what it does."""
    from e2e_box import E2EBox

    box = E2EBox(tmp_path, seats=3)
    try:
        box.choose("Maxi Bourse").choose("Senior").choose("3 joueurs").choose("Couleurs").choose("4 tour")
        box.choose("Continuer")
        assert box.screen.kind == "confirm" and box.items() == ["Jouer", "Donner", "Régler"]
        assert box.items()[box.screen.selected] == "Jouer"
        box.press("down")
        assert box.screen.footer == "OK lots au hasard"
        box.choose(button)
        header = box.app.journal.header(box.app.journal.last_game())
        assert header["settings"]["picks"] == picks and box.screen.title == first
        if picks == "dealt":
            box.press("ok")
            assert box.screen.title == "Qui commence ?" and len(box.game.log) == 1
    finally:
        box.close()


def test_the_summary_offers_no_deal_once_the_picks_are_dealt_by_the_options(tmp_path):
    from e2e_box import E2EBox

    box = E2EBox(tmp_path, seats=3)
    try:
        box.choose("Maxi Bourse").choose("Junior").choose("3 joueurs").choose("Couleurs").choose("4 tour")
        box.choose("Continuer").choose("Régler").choose("Départ : choisis").press("back")
        assert box.items() == ["Jouer", "Retour", "Régler"]
    finally:
        box.close()


def test_a_dealt_setup_on_the_box_is_one_press():
    from bench.press_bench import TIMING, Driver
    from firmware.controller import Controller
    from firmware.session import Session

    c = Controller(None, timing=TIMING)
    c.attach(Session(dealt_game()))
    d = Driver(c)
    screen = c.screen()
    assert screen.title == "Lots de départ" and screen.lines[0].startswith("Ana reçoit ")
    d.key("ok")
    assert c.screen().title == "Qui commence ?" and d.operator == 1


def test_the_previous_games_table_is_offered_first_and_sets_up_a_game_in_two_presses(tmp_path):
    """The previous game's players and settings are kept in the journal's meta and offered
    first: one press for the whole table, one for "Jouer"."""
    from bench.press_bench import TIMING, Driver
    from firmware.controller import Controller, SetupDefaults
    from firmware.journal import Journal

    with Journal(tmp_path / "j.sqlite") as journal:
        c = Controller(journal, timing=TIMING, defaults=SetupDefaults(payday="manual"), seed_source=lambda: 5)
        c.boot(0.0)
        d = Driver(c)
        assert not any(i.startswith("Même table") for i in d.items())     # no game yet
        d.choose("Maxi Bourse").choose("Senior").choose("3 joueurs").choose("Couleurs").choose("4 tour")
        d.choose("Tout est vérifié").choose("Régler").choose("Départ : choisis").key("back").choose("Jouer")
        first = journal.header(journal.last_game())
        assert first["settings"]["picks"] == "dealt" and first["players"] == ["Rouge", "Bleu", "Vert"]
        d.key("ok", long=True)
        d.choose("Nouvelle partie").choose("Oui").choose("Nouvelle partie")
        assert d.items()[c.screen().selected] == "Même table : Rouge Bleu Vert"
        before = d.operator
        d.key("ok")
        assert c.screen().kind == "confirm" and c.screen().lines[0].startswith("Senior, 3 joueurs, 4 tour")
        d.key("ok")
        assert d.operator - before == 2
        second = journal.header(journal.last_game())
        assert journal.last_game() != 1
        assert {k: second[k] for k in ("format", "players", "settings")} == {
            k: first[k] for k in ("format", "players", "settings")}


# ------------------------------------------------------------ the box file's values
def test_a_wrong_nominal_is_corrected_as_a_journal_action_with_its_reason():
    """MB1: the start price is the nominal value from the box file; one found wrong during
    the game is corrected, and the price moves by the difference."""
    from maxibourse_helpers import started

    g = started(NAMES)
    play(g, "roll 1 2", "titre BP SONY", "declare Ana 1")      # SONY 300 -> 310 au mieux
    play(g, 'set_nominal SONY 200 "the quotation table says 200"')
    assert g.price("SONY") == 210 and g.nominal("SONY") == 200
    assert g.snapshot()["nominals_corrected"] == {"SONY": 200}
    assert g.log[-1].to_json() == {"kind": "set_nominal", "company": "SONY", "nominal": 200,
                                   "reason": "the quotation table says 200"}
    before = g.snapshot()
    with pytest.raises(IllegalAction) as error:
        play(g, 'set_nominal SONY 200 "again"')
    assert error.value.key == "error.mb.nominal_same" and g.snapshot() == before
    with pytest.raises(IllegalAction):
        play(g, 'set_nominal SONY 250 "not a nominal"')        # 100, 200 or 300 $ (MB1)


def test_the_box_files_values_are_viewable_from_the_menu_and_corrected_from_corrections():
    from bench.press_bench import TIMING, Driver, started_game
    from firmware.controller import Controller
    from firmware.session import Session

    c = Controller(None, timing=TIMING)
    c.attach(Session(started_game()))
    d = Driver(c)
    d.key("ok", long=True).choose("Cours nominaux")
    screen = c.screen()
    assert screen.lines[0] == "Non vérifiés : Corrections > Cours nominal" and "  SONY\t300" in screen.lines
    d.key("ok").key("ok", long=True).choose("Corrections").choose("Cours nominal").choose("Informatique").choose("SONY")
    assert c.screen().items == ("100 $", "200 $")               # the file's 300 is not offered
    d.choose("200").choose("Oui")
    assert c.session.game.price("SONY") == 200 and c.session.game.log[-1].kind == "set_nominal"
    d.key("ok", long=True).choose("Cours nominaux")
    assert "  SONY\t200" in c.screen().lines
