"""The controller: menus built from the engine's decisions, seat buttons, the auction clock,
undo, errors, private view, language, setup and resume. Time is the events' own `t`."""
import json

import pytest

from drivers.events import InputEvent
from firmware.controller import Controller, SetupDefaults, Timing
from firmware.games import PLAYABLE
from firmware.journal import Journal
from firmware.render import render_screen
from firmware.session import Session
from maxibourse_helpers import cash, give, lots, pin_no_board, play, started

TIMING = Timing(speaking_window_s=3.0, press_gap_s=0.5, auction_step_s=1.0, auction_lead_s=1.0, private_view_s=4.0)


class Box:
    """A controller and its clock, driven like the buttons drive it."""

    def __init__(self, controller):
        self.c = controller
        self.t = 0.0

    def key(self, name, kind="press", dt=0.05):
        self.t += dt
        self.c.handle(InputEvent(name, kind, self.t))
        return self

    def keys(self, *names):
        for name in names:
            if name.startswith("long_"):
                self.key(name[5:], "long_press")
            else:
                self.key(name)
        return self

    def seat(self, n, kind="press", dt=0.05):
        self.t += dt
        self.c.handle(InputEvent(f"seat{n}", kind, self.t))
        return self

    def tick(self, dt):
        self.t += dt
        self.c.handle(InputEvent("clock", "tick", self.t))
        return self

    @property
    def screen(self):
        return self.c.screen()

    def items(self):
        return [str(i).split("\t")[0] for i in self.screen.items]

    def choose(self, label):
        """Move to the entry starting with `label` and press OK (like a person reading it)."""
        items = self.items()
        matches = [i for i, text in enumerate(items) if text.startswith(label)]
        assert matches, f"{label!r} not in {items}"
        target, now = matches[0], self.screen.selected
        n = len(items)
        down = (target - now) % n
        self.keys(*(["down"] * down if down <= n - down else ["up"] * (n - down)))
        assert self.screen.selected == target
        return self.key("ok")

    def pick_company(self, sector, company):
        return self.choose(sector).choose(company)


def box_for(game, seats=(), lang="fr", journal=None):
    c = Controller(journal, lang=lang, timing=TIMING, seat_buttons=seats)
    game_id = None
    if journal is not None:
        game_id = journal.new_game(game.header)
        for act in game.log:
            journal.append(game_id, act.to_json())
    c.attach(Session(game, journal, game_id))
    return Box(c)


def three():
    return started(["Ana", "Ben", "Cid"], portfolios={"Ana": ["SONY"] * 0})


# -------------------------------------------------------------------- menus
def test_turn_menu_lists_the_decision_options_and_the_menu_entry():
    b = box_for(three())
    s = b.screen
    assert s.kind == "menu" and s.title == "À Ana de jouer"
    assert b.items() == ["Saisir les dés", "Vendre", "Cession entre joueurs", "Menu…"]
    render_screen(s)  # legible at 128x64: renders without error


def test_dice_then_square_menu_then_titre_au_cours_in_two_steps(monkeypatch, tmp_path):
    pin_no_board(monkeypatch, tmp_path)        # without a board the operator names the square
    b = box_for(three())
    b.choose("Saisir les dés").choose("3").choose("4")
    assert b.screen.title == "Ana : case ?"
    assert b.screen.lines == ("Ana fait 3 et 4",)
    assert b.items()[0] == "Case Titre" and b.items()[-2:] == ["Fin du tour", "Menu…"]
    b.choose("Case Titre")
    assert b.screen.lines == ("Quel secteur ?",) and b.items()[0] == "Banques"
    b.pick_company("Informatique", "SONY")
    assert b.items() == ["Au cours : SONY", "Autre (au mieux)"]
    b.choose("Au cours")
    d = b.c.session.decision()
    assert d.prompt == "prompt.mb.titre_au_cours" and d.actor == 0
    assert b.screen.lines[-1] == "Ana : au cours à 300 $ ?"


def test_titre_au_mieux_names_another_company(monkeypatch, tmp_path):
    pin_no_board(monkeypatch, tmp_path)
    b = box_for(three())
    b.choose("Saisir les dés").choose("1").choose("2").choose("Case Titre")
    b.pick_company("Énergie", "BP").choose("Autre").pick_company("Informatique", "SONY")
    assert b.c.session.last_action.to_json() == {"kind": "titre", "square": "BP", "company": "SONY"}


def test_amount_entry_with_steps_and_a_price_change_by_sector():
    g = three()
    play(g, "roll 1 2")
    b = box_for(g)
    b.choose("Carte : recevoir")
    assert b.screen.lines == ("Quel joueur ?",) and b.items()[b.screen.selected] == "Ana"  # whose turn it is
    b.key("ok")
    assert b.screen.kind == "amount" and b.screen.items == ("100 000 $",)
    b.keys("up", "up", "long_up", "up", "long_down", "down")
    assert b.screen.items == ("1 200 000 $",)
    before = cash(g, "Ana")
    b.key("ok")
    assert b.c.session.game.cash(0) - before == 1_200_000
    b.choose("Carte : cours").choose("Énergie").choose("Tout le secteur")
    assert b.screen.items == ("+10 $",)
    b.keys("down", "down", "down")            # +10 -> -10 -> -20 -> -30 (0 is skipped)
    assert b.screen.items == ("-30 $",)
    b.key("ok")
    assert b.c.session.last_action.to_json() == {"kind": "price", "target": "ENERGIE", "delta": -30}


def test_sale_is_confirmed_with_a_summary():
    g = three()
    give(g, "Ana", "SONY", 2)
    b = box_for(g)
    b.choose("Vendre").choose("SONY")           # six companies held: one short list
    assert b.items() == ["1 lot (1 000)", "2 lots (2 000)"]   # no more than she holds
    b.choose("2 lot")
    assert b.screen.kind == "confirm" and b.screen.lines[0] == "Ana vend 2 SONY"
    assert g.log[-1].kind != "sell"
    b.choose("Oui")
    assert g.log[-1].to_json() == {"kind": "sell", "player": 0, "company": "SONY", "lots": 2}
    assert b.screen.title == "Vente SONY" and b.screen.lines[-1] == "Ana vend 2 à 300 $ : Ben ?"


# ---------------------------------------------------------------- speaking
def speaking_game():
    g = three()
    play(g, "roll 1 2", "titre BP SONY")     # au mieux on SONY: Ana, Ben, Cid answer in turn
    return g


def test_one_press_asks_1000_after_the_gap():
    b = box_for(speaking_game(), seats=(0, 1, 2))
    assert b.c.seats.lit() == {0, 1, 2}                            # every seat still to answer
    b.seat(1).tick(0.3)
    assert b.c.session.game.log[-1].kind == "titre"          # still counting
    b.tick(0.3)
    assert b.c.session.game.log[-1].to_json() == {"kind": "declare", "player": 0, "lots": 1}
    assert b.c.seats.lit() == {1, 2}
    assert "tick" in b.c.take_beeps()


def test_two_presses_ask_2000_at_once():
    b = box_for(speaking_game(), seats=(0, 1, 2))
    b.seat(1).seat(1, dt=0.2)
    assert b.c.session.game.log[-1].to_json() == {"kind": "declare", "player": 0, "lots": 2}


def test_seats_answer_ahead_in_the_rulebooks_order_and_one_silence_passes_the_others():
    """Every seat still to answer may press at once; the answers are declared in the
    round's order (Ana, Ben, Cid), each once known; one silence passes those who did not
    press (not a window per seat)."""
    g = speaking_game()
    b = box_for(g, seats=(0, 1, 2))
    b.seat(2)                                  # Ben answers before his turn: 1 lot, kept
    b.tick(0.6)
    assert g.log[-1].kind == "titre" and b.screen.items[1] == "Ben\t1 000…"
    b.tick(2.3)                                # 2.9 s after Ben's press: Ana still asked
    assert g.log[-1].kind == "titre"
    b.tick(0.2)                                # the silence: Ana passes, Ben's 1 lot, Cid passes
    assert [a.to_json() for a in g.log[-3:]] == [{"kind": "declare", "player": p, "lots": n}
                                                  for p, n in ((0, 0), (1, 1), (2, 0))]


def test_an_answer_given_ahead_waits_while_the_operator_answers_for_a_seat_without_a_button():
    g = speaking_game()
    b = box_for(g, seats=(0, 2))               # Ben has no button
    b.seat(3)                                  # Cid: 1 lot, ahead of Ana and Ben
    b.seat(1).tick(0.6)                        # Ana: 1 lot
    assert b.screen.kind == "menu" and b.screen.lines[-1].endswith("Ben ?")   # the operator answers for Ben
    b.tick(10)
    assert g.log[-1].to_json() == {"kind": "declare", "player": 0, "lots": 1}
    b.choose("Passe")
    assert b.c.next_deadline() == b.t                                        # the box wakes at once
    b.tick(0.0)
    assert [(a.player, a.lots) for a in g.log[-2:]] == [(1, 0), (2, 1)]      # then Cid's, given ahead


def test_a_round_nobody_answers_lasts_one_silence_whatever_the_number_of_players():
    g = started(["Ana", "Ben", "Cid", "Dan", "Eve", "Fay"])
    play(g, "roll 1 2", "titre BP SONY")
    b = box_for(g, seats=range(6))
    b.tick(2.9)
    assert g.log[-1].kind == "titre"
    b.tick(0.2)                                # 3.1 s: all six pass, in order
    assert [(a.player, a.lots) for a in g.log[-6:]] == [(seat, 0) for seat in range(6)]


def test_a_long_seat_press_passes_at_once_and_only_for_a_seat_still_to_answer():
    g = speaking_game()
    b = box_for(g, seats=(0, 1, 2))
    b.seat(3, "long_press")                    # Cid passes ahead of his turn
    assert g.log[-1].kind == "titre" and b.screen.items[2] == "Cid\tPasse…"
    b.seat(1, "long_press")                    # Ana, asked: she passes at once
    assert [a.to_json() for a in g.log[-1:]] == [{"kind": "declare", "player": 0, "lots": 0}]
    b.seat(2).seat(2, dt=0.1)                  # Ben: 2 lots, declared at once (the most), then Cid's pass
    assert [a.to_json() for a in g.log[-2:]] == [{"kind": "declare", "player": 1, "lots": 2},
                                                  {"kind": "declare", "player": 2, "lots": 0}]
    b.key("ok")                                # Ben's settlement
    b.seat(1, "long_press")                    # Ana, out of the next round (she passed): her private view
    assert b.screen.kind == "private"


def test_operator_answers_for_a_seat_and_the_window_stops():
    b = box_for(speaking_game(), seats=(0, 1, 2))
    b.key("ok")
    assert b.items()[:3] == ["Passe", "1 lot (1 000)", "2 lots (2 000)"]
    b.tick(10)                                 # the seat's window no longer runs
    assert b.c.session.game.log[-1].kind == "titre"
    b.choose("2 lot")
    assert b.c.session.game.log[-1].to_json() == {"kind": "declare", "player": 0, "lots": 2}


def test_without_a_seat_button_the_operator_answers_from_the_list_at_once():
    b = box_for(speaking_game())
    s = b.screen
    assert s.kind == "menu" and s.title == "Titre SONY" and s.lines[-1] == "300 $, reste 10 : Ana ?"
    b.choose("1 lot")
    assert b.c.session.game.log[-1].to_json() == {"kind": "declare", "player": 0, "lots": 1}
    # "reste" counts the lots asked earlier in the round: Ana's 1 000 leaves 9 lots to ask
    # for ("jusqu'à ce qu'il ne reste aucune action disponible", 1-3)
    assert b.screen.lines[-1] == "310 $, reste 9 : Ben ?"


def test_sale_presses_count_lots():
    g = three()
    give(g, "Ana", "SONY", 3)
    play(g, "sell Ana SONY 3")
    b = box_for(g, seats=(0, 1, 2))
    b.seat(2).seat(2, dt=0.1).tick(0.6)
    assert g.log[-1].to_json() == {"kind": "declare", "player": 1, "lots": 2}
    b.seat(3).seat(3).seat(3)                  # the most on offer: at once
    assert g.log[-1].to_json() == {"kind": "declare", "player": 2, "lots": 3}


# ----------------------------------------------------------------- auction
def canon_auction():
    g = started(["Robert", "Joelle", "Nina"])
    give(g, "Nina", "CANON", 8)
    play(g, 'set_price CANON 200 "example"', "roll 1 2", "titre BP CANON",
         "declare Robert 2", "declare Joelle 2", "declare Nina 0")
    assert g.decision().prompt == "prompt.mb.auction"
    return g


def test_auction_clock_raises_while_held_and_a_release_drops_out():
    g = canon_auction()
    b = box_for(g, seats=(0, 1, 2))
    assert b.screen.kind == "auction" and b.c.seats.lit() == {0, 1}
    b.seat(1, "down").seat(2, "down")
    b.tick(1.0)                                # first step after the lead-in
    assert g.log[-1].kind == "raise" and g.price("CANON") == 250
    b.tick(1.0)
    assert g.price("CANON") == 260
    assert b.c.take_beeps().count("tick") >= 2
    b.seat(2, "up").tick(0.6)                 # Joelle lets go: out once the gap is over
    assert g.log[-1].to_json() == {"kind": "keep", "player": 1, "lots": 0}
    assert g.decision().prompt == "prompt.mb.auction"
    b.tick(0.5)                                # Robert, still holding, takes both at 270
    assert g.decision().prompt == "prompt.mb.settle"
    s = b.screen
    assert s.kind == "confirm" and s.title == "Règlement CANON" and s.lines == ("Robert 2\t540 000 $",)
    b.key("ok")
    assert lots(g, "Robert", "CANON") == 2


def test_auction_double_press_cuts_2000_to_1000():
    g = canon_auction()
    b = box_for(g, seats=(0, 1, 2))
    b.seat(1, "down").seat(2, "down").tick(1.0)
    b.seat(2, "up", dt=0.1).seat(2, "down", dt=0.1)   # a quick double press, then held again
    assert g.log[-1].to_json() == {"kind": "keep", "player": 1, "lots": 1}
    b.seat(1, "up").seat(1, "down", dt=0.1)
    assert g.decision().prompt == "prompt.mb.settle"       # 1 + 1 fit the 2 lots
    b.key("ok")
    assert lots(g, "Robert", "CANON") == 1 and lots(g, "Joelle", "CANON") == 1


def test_not_holding_when_the_price_moves_is_dropping_out():
    g = canon_auction()
    b = box_for(g, seats=(0, 1, 2))
    b.seat(1, "down").tick(1.0)               # Joelle never held her button
    assert [a.kind for a in g.log[-2:]] == ["keep", "raise"]
    assert g.decision().prompt == "prompt.mb.settle" and g.price("CANON") == 250


def test_operator_runs_the_auction_from_the_menu():
    g = canon_auction()
    b = box_for(g)                             # no seat buttons: no clock
    b.tick(5)
    assert g.log[-1].kind == "declare"
    b.key("ok")
    # The list opens on Back: Enter never turns into an action by itself.
    assert b.items()[:5] == ["◄ Retour", "Monter à 250", "Robert se retire", "Robert : 1 lot", "Joelle se retire"]
    assert b.screen.selected == 0
    b.choose("Monter").key("ok").choose("Joelle se retire")
    assert g.price("CANON") == 250 and g.decision().prompt == "prompt.mb.auction"
    b.key("ok").choose("Monter")
    assert g.price("CANON") == 260 and g.decision().prompt == "prompt.mb.settle"


# ---------------------------------------------------------- undo and back
def test_long_back_offers_to_undo_the_named_last_action():
    g = speaking_game()
    play(g, "declare Ana 2")
    b = box_for(g)
    b.key("back", "long_press")
    s = b.screen
    assert s.kind == "confirm" and s.lines == ("Annuler : Ana demande 2 ?",)
    b.key("ok")
    assert g.log[-1].kind == "titre" and g.decision().actor == 0
    assert b.screen.kind == "menu" and b.items()[:2] == ["Passe", "1 lot (1 000)"]


def test_undo_can_be_refused_and_nothing_changes():
    g = speaking_game()
    b = box_for(g)
    n = len(g.log)
    b.key("back", "long_press").choose("Non")
    assert len(g.log) == n and b.screen.lines[-1] == "300 $, reste 10 : Ana ?"


def test_back_steps_out_of_an_entry():
    b = box_for(three())
    b.choose("Vendre")
    assert b.screen.lines == ("Quel secteur ?",) or b.screen.lines[0].startswith("Quel")
    b.key("back")
    assert b.screen.title == "À Ana de jouer" and b.items()[0] == "Saisir les dés"
    b.choose("Saisir les dés").choose("2")
    assert b.screen.lines == ("Second dé ?",)
    b.key("back")
    assert b.screen.lines == ("Premier dé ?",)


# ------------------------------------------------------------------ errors
def test_illegal_action_shows_the_engine_message_and_changes_nothing():
    g = three()
    b = box_for(g)
    before = g.snapshot()
    b.key("ok", "long_press").choose("Corrections").choose("Argent").choose("Ana")
    b.keys(*["down"] * 3)
    b.keys("long_up", *["down"] * 6)           # step 1 000 000
    assert b.screen.items == ("-6 300 000 $",)
    b.key("ok").choose("Oui")
    s = b.screen
    assert s.kind == "error" and s.title == "Impossible"
    assert s.lines[0].startswith("Ana ne peut pas payer")
    assert g.snapshot() == before
    assert "error" in b.c.take_beeps()
    b.key("ok")
    assert b.screen.kind == "confirm"          # back on the summary, nothing applied


# ------------------------------------------------------------ private view
def test_holding_a_seat_button_shows_the_private_view_for_a_while():
    g = three()
    b = box_for(g, seats=(0, 1, 2))
    b.seat(2, "long_press")
    s = b.screen
    assert s.kind == "private" and s.title == "Ben (privé)"
    assert s.lines[0] == "Argent\t5 000 000 $" and s.lines[-1].startswith("Fortune\t")
    b.tick(3.0)
    assert b.screen.kind == "private"
    b.tick(1.1)
    assert b.screen.kind == "menu"


def test_rfid_card_is_associated_once_then_shows_its_player(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        b = box_for(three(), journal=journal)
        b.c.handle(InputEvent("rfid", "tag", 1.0, "0A1B2C3D4E"))
        assert b.screen.title == "Carte inconnue"
        b.choose("Cid")
        assert b.screen.title == "Cid (privé)"
        b.tick(5)
        b.c.handle(InputEvent("rfid", "tag", b.t + 1, "0A1B2C3D4E"))
        assert b.screen.title == "Cid (privé)"


# ---------------------------------------------------------------- language
def test_language_switch_from_the_menu():
    b = box_for(three())
    b.key("ok", "long_press").choose("English")
    assert b.c.lang == "en"
    b.key("back")
    assert b.screen.title == "Ana to play" and b.items()[0] == "Enter the dice"
    b.key("ok", "long_press").choose("Français")
    b.key("back")
    assert b.screen.title == "À Ana de jouer"


def test_every_text_comes_from_both_catalogs():
    fr = json.load(open("firmware/locale/fr.json", encoding="utf-8"))
    en = json.load(open("firmware/locale/en.json", encoding="utf-8"))
    assert set(fr) == set(en)
    assert all(key.startswith("ui.") for key in fr)


# ------------------------------------------------------------ payday, over
def test_payday_screen_shows_the_breakdown_and_pays_on_ok():
    g = started(["Ana", "Ben"])
    play(g, "roll 1 2", "end", "roll 1 2", "end")
    b = box_for(g)
    s = b.screen
    assert s.kind == "payday" and s.title == "Rémunération, tour 1"
    assert s.lines[0] == "Ana" and s.lines[1].startswith(" Dividendes\t")
    b.key("ok")
    assert g.log[-1].kind == "payday" and b.screen.lines == ("Rémunération versée",)


def test_ranking_screen_at_the_end_and_the_report_written_once():
    written = []
    g = started(["Ana", "Ben"], rounds=1)
    play(g, "roll 1 2", "end", "roll 1 2", "end")
    c = Controller(None, timing=TIMING, lang="fr")
    c.report = lambda session: written.append(session.game_id) or "/tmp/report"
    c.attach(Session(g))
    b = Box(c)
    b.key("ok")                                # payday; 1 round agreed: the session closes
    assert b.screen.kind == "ranking" and b.screen.title == "Séance close"
    assert b.screen.lines[0].startswith("1. ")
    assert written == [None]
    b.key("ok")
    assert "Nouvelle partie" in b.items()


# ------------------------------------------------------------- setup, resume
def test_setup_creates_a_journaled_game_with_colour_names(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        c = Controller(journal, timing=TIMING, defaults=SetupDefaults(rounds=2), seed_source=lambda: 5)
        c.boot(0.0)
        b = Box(c)
        # every playable game in registry order (the games registered after these two follow), then the language
        assert b.screen.title == "Nouvelle partie" and b.items()[:2] == ["Maxi Bourse", "Dividends"]
        assert b.items()[-1] == "English" and len(b.items()) == len(PLAYABLE) + 1
        b.choose("Maxi Bourse")
        assert b.screen.title == "Maxi Bourse" and b.items() == ["Junior", "Senior", "Masters"]
        b.choose("Junior").choose("3 joueurs").choose("Couleurs")
        assert b.screen.selected == 2                 # rounds default from the configuration
        b.choose("2 tour")
        assert b.screen.lines == ("Cours nominaux non vérifiés", "Plateau non vérifié")
        b.choose("Continuer")
        assert b.screen.lines == ("Junior, 3 joueurs, 2 tours", "Rouge Bleu Vert")
        b.choose("Jouer")
        header = journal.header(journal.last_game())
        assert header["players"] == ["Rouge", "Bleu", "Vert"] and header["settings"]["rounds"] == 2
        assert b.screen.title == "Rouge : lot 1/5"


def test_setup_options_change_the_chosen_games_own_settings_from_the_configuration(tmp_path):
    """The summary's "Options" lists the game's declared settings (GameSpec.settings, engines/*/__init__.py)
    with the configuration's values; OK steps one to its next value; Play keeps the rest."""
    with Journal(tmp_path / "j.sqlite") as journal:
        c = Controller(journal, timing=TIMING, defaults=SetupDefaults(payday="manual"), seed_source=lambda: 5)
        c.boot(0.0)
        b = Box(c)
        b.choose("Maxi Bourse").choose("Junior").choose("3 joueurs").choose("Couleurs").choose("Sans limite")
        b.choose("Continuer")
        assert b.screen.kind == "confirm" and b.items() == ["Jouer", "Donner", "Régler"]
        assert b.screen.selected == 0                 # one press on Play keeps every setting
        b.choose("Régler")
        assert b.screen.title == "Options"
        assert b.items() == ["Paie : au menu", "Bonus V : par groupe", "Dés : joueurs", "Départ : choisis", "Partie en cours : Non", "Terminé"]
        b.choose("Bonus V : par groupe")
        b.choose("Dés : joueurs")
        assert b.items() == ["Paie : au menu", "Bonus V : une fois", "Dés : boîtier", "Départ : choisis", "Partie en cours : Non", "Terminé"]
        b.choose("Dés : boîtier")                      # round the list: back to the first value
        b.key("back")                                 # back: the summary, on Play
        assert b.screen.kind == "confirm" and b.screen.selected == 0
        b.choose("Jouer")
        header = journal.header(journal.last_game())
        assert header["settings"] == {"payday": "manual", "vertical_bonus": "once", "dice": "physical", "picks": "chosen",
                                      "rounds": 0}


def test_setup_options_list_every_declared_setting_a_number_entered_within_its_range(tmp_path):
    """Dividends' Options: its dice (a list), bid_step (a number declared 1 to 999: entered by
    Up/Down, the step changed by a long press, never outside the range) and companies (a text
    the game checks against the players and the box: shown as the configuration gives it,
    "" being the chart's first ones, not recorded)."""
    with Journal(tmp_path / "j.sqlite") as journal:
        c = Controller(journal, timing=TIMING, defaults=SetupDefaults(dice="device", bid_step=100),
                       seed_source=lambda: 5)
        c.boot(0.0)
        b = Box(c)
        b.choose("Dividends").choose("4 joueurs").choose("Couleurs").choose("Continuer")
        b.choose("Régler")
        assert b.items() == ["Dés : boîtier", "Pas d'enchère : 100", "Compagnies : par défaut", "Partie en cours : Non", "Terminé"]
        b.choose("Compagnies")                        # a text: nothing to step through
        assert b.screen.title == "Options" and b.items()[2] == "Compagnies : par défaut"
        b.choose("Pas d'enchère")
        assert (b.screen.kind, b.screen.title, b.screen.items) == ("amount", "Pas d'enchère", ("100",))
        assert b.screen.lines == ("Dividends", "de 1 à 999", "pas 10 (▲▼/OK longs)")
        b.keys("up", "up")                            # by 10
        assert b.screen.items == ("120",)
        b.keys("long_up", "down")                     # by 100
        assert b.screen.items == ("20",) and b.screen.lines[2] == "pas 100 (▲▼/OK longs)"
        b.keys("down")                                # never below the declared 1
        assert b.screen.items == ("1",)
        b.keys("back")                                # Back: the value stays as it was
        assert b.items()[1] == "Pas d'enchère : 100"
        b.choose("Pas d'enchère").keys("long_ok", "up", "ok")   # a long OK cycles the step too
        assert b.screen.title == "Options" and b.items()[1] == "Pas d'enchère : 200"
        b.choose("Terminé")
        b.choose("Jouer")
        header = journal.header(journal.last_game())
        assert header["settings"] == {"dice": "device", "bid_step": 200}


def test_setup_options_do_not_offer_a_setting_the_setup_asks_in_its_own_step(tmp_path):
    """Maxi Bourse's rounds are a setup step (their answer is recorded): not an Option too."""
    with Journal(tmp_path / "j.sqlite") as journal:
        c = Controller(journal, timing=TIMING, defaults=SetupDefaults(), seed_source=lambda: 5)
        c.boot(0.0)
        b = Box(c)
        b.choose("Maxi Bourse").choose("Junior").choose("3 joueurs").choose("Couleurs").choose("2 tour")
        b.choose("Continuer").choose("Régler")
        assert not any(item.startswith("Tours") for item in b.items())


def test_setup_defaults_refuse_a_setting_no_game_declares():
    with pytest.raises(TypeError, match="no game declares the setting 'colour'"):
        SetupDefaults(colour="red")


def test_restart_comes_back_to_the_same_screen(tmp_path, monkeypatch):
    pin_no_board(monkeypatch, tmp_path)        # a screen deep in the square's questions
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        b = box_for(three(), journal=journal)
        b.choose("Saisir les dés").choose("5").choose("6").choose("Case Titre").choose("Chimie")
        before = b.screen
        journal.set_meta("ui", json.dumps(b.c.ui_state()))
        state = b.c.session.game.snapshot()
    with Journal(path) as journal:
        c = Controller(journal, timing=TIMING)
        c.boot(100.0)
        assert c.screen().lines == ("Partie reprise : action 17, tour d'Ana",) + before.lines   # said until a press
        c.handle(InputEvent("down", "press", 101.0))
        c.handle(InputEvent("up", "press", 101.0))
        assert c.screen() == before
        assert c.session.game.snapshot() == state


@pytest.mark.parametrize("lang, said", [("fr", "Partie reprise : action {n}, tour d'Ana"),
                                         ("en", "Game resumed: action {n}, Ana's turn")])
def test_a_resumed_game_says_so_until_the_first_press(tmp_path, lang, said):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        game = three()
        box_for(game, journal=journal)
        n = len(game.log)
    with Journal(path) as journal:
        c = Controller(journal, lang=lang, timing=TIMING)
        c.boot(100.0)
        assert c.screen().lines[0] == said.format(n=n)
        c.handle(InputEvent("clock", "tick", 105.0))            # time alone does not clear it
        assert c.screen().lines[0] == said.format(n=n)
        c.handle(InputEvent("down", "press", 106.0))
        assert said.format(n=n) not in c.screen().lines


def test_a_saved_screen_from_another_position_is_not_restored(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        b = box_for(three(), journal=journal)
        b.choose("Saisir les dés").choose("5")
        journal.set_meta("ui", json.dumps(b.c.ui_state()))
        b.choose("6")                               # applied after the state was saved
    with Journal(path) as journal:
        c = Controller(journal, timing=TIMING)
        c.boot(0.0)
        assert c.screen().title == "Ana : case ?"


def test_device_dice_roll_in_one_press_and_are_recorded():
    g = started(["Ana", "Ben"], dice="device")
    b = box_for(g)
    assert b.items()[0] == "Lancer les dés"
    b.key("ok")
    act = g.log[-1]
    assert act.kind == "roll" and 1 <= act.d1 <= 6 and 1 <= act.d2 <= 6


def test_console_lines_apply_actions_and_drive_keys():
    g = three()
    b = box_for(g)
    assert b.c.console("roll 2 3") == "ok"
    assert b.c.console("declare Ana 1").startswith("declare : un joueur annonce des lots seulement quand un tour de parole")
    assert b.c.console("dance Ana").startswith("action inconnue « dance » ; connues : ")
    assert b.c.console("key down") == "ok" and b.screen.selected == 1
    assert "Ana : case ?" in b.c.console("screen")
    assert json.loads(b.c.console("state"))["phase"] == "Turn"


def test_long_ok_cycles_the_amount_step_for_an_encoder():
    g = three()
    play(g, "roll 1 2")
    b = box_for(g)
    b.choose("Carte : payer").key("ok")
    assert b.screen.lines[-1].startswith("pas 100 000")
    b.keys("long_ok", "up")
    assert b.screen.items == ("1 100 000 $",) and b.screen.kind == "amount"


# ------------------------------------------------------------------ robustness
@pytest.mark.parametrize("seats", [(), (0, 1, 2)])
def test_random_presses_never_break_the_box(seats):
    """A monkey on every button and seat, with time passing: no exception, every screen
    renders at 128x64, and the journal-free game still replays to the same state."""
    import random

    from engines.maxibourse.game import MaxiBourse

    rng = random.Random(7 if seats else 8)
    g = three()
    b = box_for(g, seats=seats)
    kinds = ["up"] * 6 + ["down"] * 6 + ["ok"] * 8 + ["back"] * 2 + ["long_back", "long_ok", "long_up"]
    for _ in range(2000):   # the menu offers every correction: a monkey spends long in it
        roll = rng.random()
        if roll < 0.75:
            key = rng.choice(kinds)
            if key.startswith("long_"):
                b.key(key[5:], "long_press")
            else:
                b.key(key)
        elif roll < 0.9 and seats:
            b.seat(rng.randint(1, 3), rng.choice(["press", "press", "down", "up", "long_press"]))
        else:
            b.tick(rng.choice([0.2, 0.7, 1.5, 3.5]))
        screen = b.screen
        assert render_screen(screen).size == (128, 64)
        if screen.title in ("Nouvelle partie", "New game", "Historique", "History"):
            b.key("back")                      # the monkey neither starts new games nor goes back far
            # in the history (tests/firmware/test_history.py): a 40-entry menu would eat its presses
    assert len(g.log) > 25, [a.kind for a in g.log]
    assert b.c.session.game is g
    assert MaxiBourse.replay(g.header, list(g.log)).snapshot() == g.snapshot()


def test_a_trade_between_players_names_both_and_is_confirmed():
    g = three()
    give(g, "Ben", "SONY", 2)
    b = box_for(g)
    b.choose("Cession").choose("Ben").choose("Ana").choose("SONY").choose("2 lot")
    assert b.screen.kind == "amount" and b.screen.items == ("300 $",)   # from the current price
    b.keys("up", "up", "ok")
    assert b.screen.lines == ("Ben cède 2 SONY à Ana, à 320 $",)
    b.choose("Oui")
    assert lots(g, "Ana", "SONY") == 2 and g.price("SONY") == 320


def test_a_double_offers_a_purchase_at_the_price_then_the_square():
    g = three()
    b = box_for(g)
    b.choose("Saisir les dés").choose("4").choose("4")
    assert b.screen.title == "Ana : double !" and b.items()[:2] == ["Acheter au cours", "Ne rien acheter"]
    b.choose("Acheter").choose("Informatique").choose("IBM").choose("2 lot")
    assert b.screen.lines == ("Ana achète 2 IBM", "au cours de 300 $")
    b.choose("Oui").choose("Régler")
    assert lots(g, "Ana", "IBM") == 2 and b.screen.title == "Ana : case ?"


def test_unverified_box_warning_until_the_owner_confirms(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        c = Controller(journal, timing=TIMING, seed_source=lambda: 5)
        c.boot(0.0)
        b = Box(c)
        b.choose("Maxi Bourse").choose("Junior").choose("2 joueurs").choose("Couleurs").choose("Sans limite")
        assert b.screen.lines == ("Cours nominaux non vérifiés", "Plateau non vérifié")
        b.choose("Tout est vérifié").choose("Jouer")
        b.key("ok", "long_press").choose("Nouvelle partie").choose("Oui")
        assert b.items() == ["Nouvelle partie", "Reprendre la partie"]
        b.choose("Nouvelle partie").choose("Maxi Bourse").choose("Junior").choose("2 joueurs").choose("Couleurs").choose("Sans limite")
        assert b.screen.kind == "confirm"               # no warning any more
        b.key("back").key("back").key("back").key("back").key("back").key("back")
        b.choose("Reprendre")
        assert b.screen.title == "Rouge : lot 1/5" and journal.last_game() == 1


@pytest.mark.parametrize("verified, board, lines", [
    (False, "shipped", ("Cours nominaux non vérifiés", "Plateau non vérifié")),
    (True, "shipped", ("Plateau non vérifié",)),
    (False, "none", ("Cours nominaux non vérifiés",)),
    (True, "verified", None),
])
def test_the_setup_says_what_of_the_box_file_is_unverified(tmp_path, monkeypatch, verified, board, lines):
    """The board ships on with its order reconstructed: the setup says so beside the nominal
    prices, each until the owner checks it; a box file all verified asks nothing."""
    import engines.maxibourse.box as box_module
    from maxibourse_helpers import board_box, no_board_box

    path = tmp_path / "box.toml"
    if board == "none":
        no_board_box(path)
    else:
        board_box(path, verified=board == "verified")
    path.write_text(path.read_text(encoding="utf-8").replace("verified = false", f"verified = {str(verified).lower()}", 1),
                    encoding="utf-8")
    monkeypatch.setattr(box_module, "DEFAULT_BOX", path)
    with Journal(tmp_path / "j.sqlite") as journal:
        c = Controller(journal, timing=TIMING, seed_source=lambda: 5)
        c.boot(0.0)
        b = Box(c)
        b.choose("Maxi Bourse").choose("Junior").choose("2 joueurs").choose("Couleurs").choose("Sans limite")
        if lines is None:
            assert b.screen.kind == "confirm"              # straight to the summary
        else:
            assert b.screen.lines == lines and b.items() == ["Continuer", "Tout est vérifié"]
            from firmware.fonts import FONT
            rows = sum(len(FONT.wrap(line, 126, 1)) for line in lines) + len(b.items())
            assert rows <= 5                                  # every line whole on the 128x64 screen
