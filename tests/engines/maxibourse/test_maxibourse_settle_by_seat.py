"""A purchase paid at once does not hold the table up.

The book has the lander of an au cours purchase pay immediately, before the others speak
(1-5, example 1: "Dominique décide d'acheter 2 000 titres FIAT. Elle verse immédiatement
au service Titre la somme de 600 000 $. Daniel, Laurence et Richard [...] devront acheter
au mieux"), and that payment is the moment a rumour may still be revealed (5, COCA-COLA:
"Au moment où Christine s'apprête à payer au banquier la somme de 600 000 $, Gilles
intervient et [...] révèle le contenu de la carte", she pays 720 000 $). So the settlement
stays where the book puts it, on its own screen (RULINGS MB5, docs/rules/maxibourse.md D1);
the table does not wait for the operator's OK there: the next speaker's press settles it
and counts as their answer. The au-mieux buyers' settlement comes once everyone has
spoken."""
import pytest

from e2e_box import E2EBox, journal_script

NAMES = ["Rouge", "Bleu", "Vert"]
PICKS = ["BARCLAYS", "CHASE", "UBS", "BP", "ELF", "ESSO", "LEYLAND", "FIAT", "GM",
         "BSN", "COCA-COLA", "NESTLE", "COLGATE", "LOREAL", "UNILEVER"]


@pytest.fixture
def box(tmp_path):
    """Rouge has rolled 1 and 2: her pawn is on DEUTSCHE (the shipped board)."""
    journal_script(tmp_path, "\n".join([
        "game maxibourse", "format junior", f"players {' '.join(NAMES)}", "seed 1",
        *[f"pick {p} {c}" for p, c in zip(NAMES * 5, PICKS)], "first Rouge", "roll 1 2"]))
    b = E2EBox(tmp_path)
    yield b
    b.close()


def test_the_next_speakers_press_settles_the_purchase_paid_at_once_and_is_their_answer(box):
    box.choose("Case Titre").choose("Au cours")
    box.press("seat1").wait(0.7)                                 # Rouge: 1 000 au cours
    assert box.screen.title == "Règlement DEUTSCHE"              # where the book has her pay
    assert box.game.cash(0) == 5_000_000                         # not yet: a rumour may come first
    box.press("seat2").press("seat2")                            # Bleu asks 2 000 au mieux
    assert box.game.cash(0) == 5_000_000 - 300_000               # paid at once, at 300 $
    assert box.game.log[-1].to_json() == {"kind": "declare", "player": 1, "lots": 2}
    assert box.game.price("DEUTSCHE") == 320                     # no OK pressed between the two
    box.wait(2.1)                                                # Vert is silent: a pass
    assert box.screen.title == "Règlement DEUTSCHE"              # the au-mieux buyers, after everyone spoke
    assert box.screen.lines == ("Bleu 2\t640 000 $",)


def test_a_press_of_a_seat_not_asked_next_settles_but_answers_nothing(box):
    box.choose("Case Titre").choose("Au cours")
    box.press("seat1").wait(0.7)
    box.press("seat3")                                           # Vert is not asked next: Bleu is
    assert box.game.cash(0) == 5_000_000 - 300_000
    assert box.screen.kind == "speaking" and box.screen.highlight == 1
    assert box.game.log[-1].kind == "settle"


def test_a_rumour_revealed_on_the_settlement_screen_is_paid_for(tmp_path):
    """COCA-COLA on the box: Rouge, who drew a rumour card on her turn, reveals it while
    Bleu is about to pay his au cours purchase; he pays the new price, and Vert's press
    then settles and answers as above."""
    journal_script(tmp_path, "\n".join([
        "game maxibourse", "format junior", f"players {' '.join(NAMES)}", "seed 1",
        *[f"pick {p} {c}" for p, c in zip(NAMES * 5, PICKS)], "first Rouge",
        "roll 1 3", "rumour Rouge", "end", "roll 1 2"]))
    box = E2EBox(tmp_path)
    try:
        box.choose("Case Titre").choose("Au cours")
        box.press("seat2").wait(0.7)                             # Bleu: 1 000 au cours on DEUTSCHE
        assert box.screen.title == "Règlement DEUTSCHE"
        assert box.c.console("reveal Rouge DEUTSCHE +60") == "ok"
        assert box.screen.title == "Règlement DEUTSCHE"
        box.press("seat3")                                       # Vert, asked next
        assert box.game.cash(1) == 5_000_000 - 360_000
        assert box.screen.kind == "speaking" and box.screen.highlight == 2
    finally:
        box.close()
