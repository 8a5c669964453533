"""Names from the players' RFID cards at setup (firmware/tag_book.py, the setup's names
step, firmware/screens/cards.py), on the simulated box with a real RDM6300 reader thread
on a pyserial loop:// port: a card seen before gives its holder's name at once, an unknown
one asks its name once and the box remembers it (the journal's meta), a card tapped again
moves its name and never puts it twice at the table; the tap for the private view during
play still works; without a reader nothing changes."""
import json
import time

import pytest
import serial

from drivers.events import InputEvent
from drivers.rfid import RfidReader, rdm6300_frame
from e2e_box import E2EBox
from firmware.controller import Controller, SetupDefaults, Timing
from firmware.journal import Journal

ANA, BO, CID, DAN = "0A1B2C3D4E", "1000FFAA55", "22446688AA", "33557799BB"


class CardBox:
    """The simulated box with a reader on a loop:// port: `tap(tag)` lays a card on the
    antenna (a few frames, as the RDM6300 repeats them), takes it away, and lets the box
    handle the tag."""

    def __init__(self, tmp_path, reader=True, **extra):
        config = {"rfid": {"enabled": True, "port": "loop://"}} if reader else {}
        for section, values in extra.items():
            config.setdefault(section, {}).update(values)
        self.box = E2EBox(tmp_path, extra=config)
        self.port = serial.serial_for_url("loop://", timeout=0.02)
        self.reader = RfidReader(self.port, self.box.queue, clock=self.box.clock, gap=0.5).start()

    def tap(self, tag):
        self.box.clock.advance(1.0)                  # the last card left the antenna long ago
        for _ in range(3):
            self.port.write(rdm6300_frame(tag))
        deadline = time.monotonic() + 3
        while self.box.queue.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not self.box.queue.empty(), "the reader put no tag on the queue"
        time.sleep(0.05)                             # the repeated frames count once (TagFilter)
        self.box.app.pump()
        return self

    def spell(self, name):
        """Spell `name` on the buttons (Down through the letters, OK each), then long OK."""
        from firmware.screens.cards import LETTERS
        for letter in name:
            index = LETTERS.index(letter.upper())
            for _ in range(index):
                self.box.press("down")
            self.box.press("ok")
        self.box.long("ok")
        return self

    def close(self):
        self.reader.stop()
        self.port.close()
        self.box.close()


@pytest.fixture
def cards(tmp_path):
    b = CardBox(tmp_path)
    yield b
    b.close()


def to_names(box):
    box.choose("Maxi Bourse").choose("Junior").choose("3 joueurs")


def remembered(box):
    return json.loads(box.app.journal.get_meta("rfid.names") or "{}")


def test_unknown_cards_are_named_once_then_give_their_names_at_once(cards):
    box = cards.box
    to_names(box)
    assert box.items()[0] == "Cartes des joueurs" and box.items()[box.screen.selected] == "Cartes des joueurs"
    box.choose("Cartes des joueurs")
    assert box.screen.title == "Cartes 0/3" and box.screen.lines == ("Chacun passe sa carte",)
    assert box.items() == ["1. …", "2. …", "3. …"]
    cards.tap(ANA)                                               # unknown: whose is it?
    assert box.screen.title == "Carte inconnue" and box.items() == ["Épeler un nom"]
    box.choose("Épeler un nom")
    assert box.screen.kind == "amount" and box.screen.items == ("A",)
    cards.spell("Ana")
    assert box.screen.title == "Cartes 1/3" and box.items()[0] == "1. Ana" and box.screen.selected == 1
    cards.tap(BO)
    box.choose("Épeler un nom")
    cards.spell("Bo")
    cards.tap(CID)
    box.choose("Épeler un nom")
    cards.spell("Cid")
    # every seat named: the setup goes on (the rounds), the box remembers the three cards
    assert box.screen.lines == ("Combien de tours ?",)
    assert remembered(box) == {ANA: "Ana", BO: "Bo", CID: "Cid"}
    box.choose("2 tours").choose("Continuer")
    assert box.screen.lines[-1] == "Ana Bo Cid"
    box.choose("Jouer")
    assert box.game.players == ["Ana", "Bo", "Cid"]
    # during play a tap still shows that player's private view (and only then)
    while box.screen.title.endswith("/5"):
        box.choose(box.items()[0]).choose(box.items()[0])        # the starting picks
    cards.tap(BO)
    assert box.screen.title == "Bo (privé)"

    # the next game: the cards give their names at once, in the order they are tapped
    box.press("ok")                                              # the private view closes
    box.long("ok")
    box.choose("Nouvelle partie").choose("Oui").choose("Nouvelle partie")
    to_names(box)
    box.choose("Cartes des joueurs")
    cards.tap(CID).tap(ANA)
    assert box.items()[:2] == ["1. Cid", "2. Ana"] and box.screen.selected == 2
    cards.tap(CID)                                               # again: the name moves, never twice
    assert box.items() == ["1. …", "2. Ana", "3. Cid"] and box.screen.selected == 0
    cards.tap(BO)
    box.choose("2 tours").choose("Continuer")
    assert box.screen.lines[-1] == "Bo Ana Cid"
    box.choose("Jouer")
    assert box.game.players == ["Bo", "Ana", "Cid"]
    assert box.c.tag_book.seats == {BO: 0, ANA: 1, CID: 2}                 # each card is its seat's


def test_a_card_tapped_at_the_names_step_starts_the_cards_and_up_down_pick_the_seat(cards):
    box = cards.box
    box.app.journal.set_meta("rfid.names", json.dumps({ANA: "Ana", BO: "Bo", CID: "Cid"}))
    to_names(box)
    cards.tap(BO)
    assert box.screen.title == "Cartes 1/3" and box.items()[0] == "1. Bo"
    box.press("down")                                            # the third seat, not the second
    cards.tap(ANA)
    assert box.items() == ["1. Bo", "2. …", "3. Ana"] and box.screen.selected == 1
    box.beeper.calls.clear()
    box.press("ok")                                              # not every seat named yet: a buzz
    assert box.screen.title == "Cartes 2/3" and box.beeper.calls == ["error"]
    box.press("back")                                            # back to the names list
    assert box.items()[0] == "Cartes des joueurs"


def test_a_name_is_refused_when_empty_too_long_or_already_at_the_table(cards):
    box = cards.box
    box.app.journal.set_meta("rfid.names", json.dumps({ANA: "Ana"}))
    to_names(box)
    box.choose("Cartes des joueurs")
    cards.tap(ANA).tap(DAN)
    box.choose("Épeler un nom")
    box.long("ok")                                               # nothing spelled
    assert box.screen.kind == "error" and box.screen.lines == ("Ajoutez au moins une lettre",)
    box.press("ok")
    cards.spell("ana")                                           # Ana is at the table already
    assert box.screen.lines == ("Ana est déjà à la table",)
    box.press("ok")
    assert box.screen.lines[0] == "Nom : Ana"                     # kept as it was
    box.press("back").press("back").press("back")                # erased letter by letter
    assert box.screen.lines[0] == "Nom : …"
    for _ in range(10):
        box.press("ok")
    box.press("ok")                                              # an eleventh letter
    assert box.screen.lines == ("10 lettres au plus",)
    box.press("ok")
    assert box.screen.lines[0] == "Nom : Aaaaaaaaaa"
    assert remembered(box) == {ANA: "Ana"}                       # nothing remembered on a refusal


def test_the_configured_names_are_proposed_for_an_unknown_card(tmp_path):
    b = CardBox(tmp_path, game={"players": ["Zoé", "Yves", "Xavier"]})
    try:
        box = b.box
        to_names(box)
        assert box.items()[:2] == ["Cartes des joueurs", "Zoé Yves Xavier"]
        box.choose("Cartes des joueurs")
        b.tap(ANA)
        assert box.items() == ["Zoé", "Yves", "Xavier", "Épeler un nom"]
        box.choose("Yves")
        b.tap(BO)
        assert box.items() == ["Zoé", "Xavier", "Épeler un nom"]     # Yves is at the table
    finally:
        b.close()


def test_without_a_reader_the_names_step_is_as_before(tmp_path):
    b = CardBox(tmp_path, reader=False)
    try:
        box = b.box
        to_names(box)
        assert box.items() == ["Couleurs", "J1, J2, J3…"]
        b.tap(ANA)                                               # a tag the box has no reader for
        assert box.items() == ["Couleurs", "J1, J2, J3…"] and box.screen.title == "3 joueurs"
    finally:
        b.close()


# ------------------------------------------------------------------ during a game
TIMING = Timing(speaking_window_s=3.0, press_gap_s=0.6, auction_step_s=2.0, auction_lead_s=2.0, private_view_s=5.0)


def test_a_card_the_box_knows_shows_its_players_view_at_once_and_one_named_in_game_is_remembered(tmp_path):
    from maxibourse_helpers import started
    from firmware.session import Session

    with Journal(tmp_path / "j.sqlite") as journal:
        journal.set_meta("rfid.names", json.dumps({ANA: "ana"}))   # named at an earlier setup
        c = Controller(journal, timing=TIMING, defaults=SetupDefaults())
        game = started(["Ana", "Ben", "Cid"])
        session = Session(game)
        c.attach(session)
        c.handle(InputEvent("rfid", "tag", 1.0, ANA))
        assert c.screen().title == "Ana (privé)"                 # no question: the box knew it
        c.handle(InputEvent("clock", "tick", 10.0))
        c.handle(InputEvent("rfid", "tag", 11.0, DAN))           # unknown: whose is it?
        assert c.screen().title == "Carte inconnue"
        c.handle(InputEvent("down", "press", 11.1))
        c.handle(InputEvent("ok", "press", 11.2))
        assert c.screen().title == "Ben (privé)"
        assert json.loads(journal.get_meta("rfid.names")) == {ANA: "ana", DAN: "Ben"}
