"""Texts people read: Dividends' event tiles by their printed names (not the protocol's
"FORCE-SELL") in both languages, and the whole screen, the key-hint line included,
following a language switch from the menu."""
import random

import pytest

from drivers.events import InputEvent
from e2e_box import E2EBox
from engines.core.i18n import text
from engines.dividends.game import Dividends
from engines.dividends.random_play import random_game
from engines.dividends.rules import TILES
from firmware.controller import Controller
from firmware.menus import describe
from firmware.session import Session

# The rulebook: 'Tuile "Force Sell" (vente forcée)', 'Tuile "Buy In" (achat)', 'Tuile
# "Placement Offer" (offre de placement)', 'Tuile "Technical Correction" (correction
# technique)': the tiles are printed in English in the French box too.
PRINTED = {"FORCE-SELL": "Force Sell", "BUY-IN": "Buy In", "PLACEMENT-OFFER": "Placement Offer",
           "TECHNICAL-CORRECTION": "Technical Correction"}


def at_the_event_tile(lang):
    header, actions, _ = random_game(random.Random(7), players=4, verify=False, settings={"dice": "physical"})
    game = Dividends(header)
    for act in actions:
        if game.decision().prompt == "prompt.dv.event":
            break
        game.apply(act)
    c = Controller(None, lang=lang, seat_buttons=range(4))
    c.attach(Session(game))
    return c, game


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_event_tiles_show_their_printed_names(lang):
    c, game = at_the_event_tile(lang)
    screen = c.screen()
    assert screen.items[:4] == tuple(PRINTED[tile] for tile in TILES)
    c.handle(InputEvent("ok", "press", 0.0))                       # Force Sell drawn from the cup
    shown = " ".join(c.screen().lines + (c.screen().title,))
    assert "Force Sell" in shown and "FORCE-SELL" not in shown
    c.handle(InputEvent("ok", "press", 0.0))
    assert game.log[-1].to_json() == {"kind": "event", "tile": "FORCE-SELL"}
    said = [describe(c.kit.ctx, game.log[-1]), *c.news]                 # the history's line, the news
    assert any("Force Sell" in line for line in said)
    assert not any(tile in line for line in said for tile in TILES)
    other = "en" if lang == "fr" else "fr"
    c.set_lang(other)                                               # the news line follows a switch
    said = {"fr": "Événement : Force Sell (aucune compagnie)", "en": "Event: Force Sell (no company)"}
    assert c.news == (said[other],)
    assert c.screen().lines[0] == c.news[0]


def test_a_refusal_names_the_tile_as_printed():
    assert text("error.dv.not_most_expensive", "fr", player="Ana", company="X").startswith("Force Sell : ")
    assert text("error.dv.not_marked", "en", company="X", tile="PLACEMENT-OFFER") == \
        "X is not under the Placement Offer marker"


class HintedOperator:
    """An operator view that draws the key-hint line (the simulator's text view)."""
    size, mode, degraded = (128, 64), "1", False

    def __init__(self):
        self.shown = []

    def show_screen(self, screen, help_line=""):
        self.shown.append((screen, help_line))

    @property
    def last_frame(self):
        return None

    def close(self):
        pass


def test_the_whole_screen_follows_a_language_switch(tmp_path):
    operator = HintedOperator()
    box = E2EBox(tmp_path, seats=4, operator=operator, extra={"game": {"dice": "device"}})
    try:
        box.app.help_line = lambda lang: text("ui.sim.help", lang)
        box.choose("Dividends").choose("4 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
        box.press("ok")                                             # the dice: news above the list
        box.press("seat2").press("back")                            # a bid; the silence paused
        assert operator.shown[-1][1] == text("ui.sim.help", "fr")
        box.long("ok").choose("English")
        screen, hints = operator.shown[-1]
        assert hints == text("ui.sim.help", "en")                   # the key hints too
        assert screen.title == "Menu" and "Language" not in screen.items
        box.press("back")
        screen, hints = operator.shown[-1]
        assert screen.title == "Token 1 on sale\tpaused" and screen.footer == "OK start the clock"
        assert screen.lines == ("50 by Bleu",) and hints == text("ui.sim.help", "en")
    finally:
        box.close()


def test_no_protocol_word_reaches_a_sentence():
    """The bank, a die's colour, a year's step and a dice line are said in the language, not
    as the engine's words ("à bank", "dé black", "Année 2 : auction", "Dés : {d1}...")."""
    assert text("event.av.income", "fr", player="Ana", amount=70, title="1 Boulangerie", to="bank") == \
        "Ana paie R 70.— pour 1 Boulangerie à la banque"
    assert text("event.av.card_tax", "en", player="Ana", amount=70, title="1 Boulangerie", to="Ben") == \
        "Ana pays 70.— for 1 Boulangerie to Ben"
    assert text("event.dv.die", "fr", company="CEDARPINES", die="black", move=2) == "CEDARPINES : dé noir 2"
    assert text("event.dv.step", "fr", year=2, step="auction") == "Année 2 : Enchères"
    assert text("event.sh.rolled", "fr", player="Ana", zone=3, colour="BLACK") == "Ana : zone 3, couleur noir"
    c, game = at_the_event_tile("fr")
    dice = next(act for act in game.log if act.kind == "dice")
    line = describe(c.kit.ctx, dice)
    assert line == "Dés : " + ", ".join(str(move) for move in dice.moves) and "{" not in line


def test_each_game_counts_in_its_own_money():
    """Maxi Bourse and Dividends in dollars, A Vendre! in its rulebook's "5100.—", Shark in
    FT, Richesses du Monde in francs: the box's menus and history take the game's word."""
    from engines.core.i18n import money
    assert [money(1200, "fr", prefix) for prefix in ("mb.", "dv.", "av.", "sh.", "rm.")] == [
        "1 200 $", "1 200 $", "1 200.—", "1 200 FT", "1 200 F"]
    assert money(1000, "fr", "sh.", sign=True) == "+1 000 FT"       # a change, with its sign
