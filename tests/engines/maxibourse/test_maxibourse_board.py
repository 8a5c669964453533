"""Maxi Bourse's optional board (box file `[board]`): the box moves each pawn by the dice
and offers the square it lands on, the operator confirming or correcting it; and a Titre
purchase au cours counted in presses on the simulated box (tests/e2e_box.py)."""
import pytest

from cli_helpers import call

import engines.maxibourse.box as box_module
from engines.core.errors import BoxFileError
from engines.maxibourse.box import load_box

from maxibourse_helpers import board_box, new_game, no_board_box, pin_no_board, play, started

NAMES = ["Rouge", "Bleu", "Vert"]


def box_check(path):
    """`corbeille box check` in this process (tests/core/test_smallest_box_files.py runs the real one)."""
    return call("box", "check", "--game", "maxibourse", path)


@pytest.fixture
def with_board():
    """The box's default box file: the shipped one, whose board is on."""
    assert load_box().board
    return box_module.DEFAULT_BOX


# ------------------------------------------------------------------ the box file
def test_the_shipped_board_is_on_unverified_and_box_check_prints_it():
    """The board ships switched on (a Titre purchase au cours in 4 presses needs it), marked
    unverified like the nominal prices: its order is reconstructed, not read from a board."""
    path = box_module.DEFAULT_BOX
    box = load_box(path)
    assert box.board[0] == "ACTION" and not box.board_verified
    assert set(box.companies) <= set(box.board)              # every company has its Titre square
    assert box.board.count("BOURSE") == 2                    # "l'une des 2 cases Bourse"
    out = box_check(path)
    assert out.returncode == 0, out.stderr
    assert "board: 47 squares from ACTION (unverified: check it against the physical board):" in out.stdout
    assert "   3. DEUTSCHE" in out.stdout


def test_a_box_file_without_a_board_and_box_check_says_the_square_is_asked(tmp_path):
    path = no_board_box(tmp_path / "box.toml")
    assert load_box(path).board == ()
    out = box_check(path)
    assert "board: none (the box asks the square the pawn lands on)" in out.stdout


@pytest.mark.parametrize("squares, key, words", [
    (["ACTION", "SONY", "CASINO"], "board.squares[2]", "'CASINO' is neither a company id of this file nor a square kind"),
    (["SONY", "ACTION"], "board.squares", "must start with 'ACTION'"),
    (["ACTION", "SONY", "ACTION"], "board.squares", "'ACTION' must appear once"),
    (["ACTION", "BOURSE"], "board.squares", "no Titre square"),
    (["ACTION", 3], "board.squares[1]", "3 is neither"),
])
def test_a_wrong_board_is_refused_naming_the_file_and_the_key(tmp_path, squares, key, words):
    path = board_box(tmp_path / "box.toml", squares=squares)
    with pytest.raises(BoxFileError) as error:
        load_box(path)
    assert str(error.value).startswith(f"{path}: {key}: ") and words in str(error.value)
    out = box_check(path)
    assert out.returncode == 1 and f"{key}: " in out.stderr


def test_a_board_table_with_an_unknown_key_is_refused(tmp_path):
    path = board_box(tmp_path / "box.toml", squares=["ACTION", "SONY"])
    path.write_text(path.read_text(encoding="utf-8") + "colour = 1\n", encoding="utf-8")
    with pytest.raises(BoxFileError, match=r"board\.colour: unknown key"):
        load_box(path)


# ------------------------------------------------------------------ the engine
def test_the_dice_move_the_pawn_from_action_and_the_square_is_offered(with_board):
    """"Vous choisissez un pion ... et le placez sur la case Action !" (8); "La somme des dés
    lui indique combien de cases il doit parcourir et sur quelle case il doit poser son pion."""
    g = started(NAMES)
    assert g.snapshot()["squares"] == {"Rouge": "ACTION", "Bleu": "ACTION", "Vert": "ACTION"}
    events = g.apply(g.ACTIONS.classes["roll"](d1=1, d2=2))
    d = g.decision()
    assert d.prompt == "prompt.mb.square" and d.params["square"] == "DEUTSCHE"
    assert [e.params for e in events if e.key == "mb.rolled"] == [
        {"player": "Rouge", "d1": 1, "d2": 2, "square": "DEUTSCHE"}]
    play(g, "end", "roll 6 6")                                # Bleu: a double, 12 squares
    assert g.snapshot()["squares"]["Bleu"] == g.box.board[12]


def test_the_pawn_goes_round_the_board(with_board):
    g = started(NAMES)
    g.s.pawns[0] = len(g.box.board) - 2
    play(g, "roll 1 2")
    assert g.s.pawns[0] == 1 and g.decision().params["square"] == g.box.board[1]


def test_a_titre_on_another_square_corrects_the_pawn(with_board):
    """The operator corrects the box: the pawn stands on the square named."""
    g = started(NAMES)
    play(g, "roll 1 2", "titre SONY")                         # the box said DEUTSCHE
    assert g.snapshot()["squares"]["Rouge"] == "SONY"
    assert g.log[-1].to_json() == {"kind": "titre", "square": "SONY", "company": None}


def test_without_a_board_the_square_is_asked_and_the_state_keeps_its_shape(monkeypatch, tmp_path):
    pin_no_board(monkeypatch, tmp_path)
    g = started(NAMES)
    play(g, "roll 1 2")
    assert "square" not in g.decision().params and "squares" not in g.snapshot()


def test_reste_counts_the_lots_asked_earlier_in_the_round():
    """"jusqu'à ce qu'il ne reste aucune action disponible" (1-3): what the next player may
    still ask is the bank's lots less those asked before them in the round."""
    g = started(NAMES)
    play(g, "roll 1 2", "titre BP SONY", "declare Rouge 2")
    d = g.decision()
    assert d.params["left"] == 10 and d.interaction.params["text"] == {"to_ask": 8}
    play(g, "declare Bleu 1")
    assert g.decision().interaction.params["text"] == {"to_ask": 7}


def test_the_end_of_turn_needs_no_confirmation():
    """An end of turn entered by mistake is undone (long Back), not confirmed beforehand."""
    g = new_game(NAMES)
    assert not g.ACTIONS.has("end", "confirm")


# ------------------------------------------------------------------ on the simulated box
PICKS = ["BARCLAYS", "CHASE", "DEUTSCHE", "BP", "ELF", "ESSO", "LEYLAND", "FIAT", "GM",
         "BSN", "COCA-COLA", "NESTLE", "COLGATE", "LOREAL", "UNILEVER"]


def counted_box(tmp_path, seats, **extra):
    """The simulated box resuming a Junior game whose first player just rolled 1 and 2
    (the pawn lands on DEUTSCHE on the template board); its presses are counted."""
    from e2e_box import E2EBox, journal_script

    journal_script(tmp_path, "\n".join([
        "game maxibourse", "format junior", f"players {' '.join(NAMES)}", "seed 1",
        *[f"pick {p} {c}" for p, c in zip(NAMES * 5, PICKS)], "first Rouge", "roll 1 2"]))
    box = E2EBox(tmp_path, seats=seats, extra=extra)
    box.counts = {"operator": 0, "seat": 0}
    press = box.press

    def counting(name, *args, **kwargs):
        box.counts["seat" if name.startswith("seat") else "operator"] += 1
        return press(name, *args, **kwargs)
    box.press = counting
    return box


@pytest.mark.parametrize("seats, operator, seat", [(3, 3, 1), (0, 4, 0)])
def test_a_titre_purchase_au_cours_takes_at_most_4_operator_presses(with_board, tmp_path, seats, operator, seat):
    """"Il achète au cours s'il décide d'acheter des actions de l'entreprise sur laquelle il
    s'est arrêté" (1-5): the box knows the square from the board, so the purchase is the
    square menu's Titre entry, "Au cours", the lander's lot and the settlement; with seat
    buttons the lander's lot is her own press, without them the operator's list starts on
    1 lot. At most 4 presses."""
    box = counted_box(tmp_path, seats)
    try:
        assert box.items()[box.screen.selected] == "Case Titre"
        box.press("ok")
        assert box.screen.title.endswith("Titre DEUTSCHE") and box.items() == ["Au cours : DEUTSCHE", "Autre (au mieux)",
                                                                             "Autre case"]
        box.press("ok")
        if seats:
            assert box.screen.kind == "speaking" and box.screen.footer == "1× lot  long passe"
            box.press("seat1").wait(2.1)
        else:
            assert box.items()[box.screen.selected].startswith("1 lot")
            box.press("ok")
        assert box.screen.title == "Règlement DEUTSCHE"
        box.press("ok")
        assert box.game.s.lots.of("DEUTSCHE", 0) == 1 and box.game.cash(0) == 5_000_000 - 300_000
        assert box.counts == {"operator": operator, "seat": seat}
        assert operator <= 4
        # the others speak; silence is a pass (one silence for both on the seat buttons)
        if seats:
            box.wait(2.1)
        else:
            box.choose("Passe").choose("Passe")
        assert [a.to_json() for a in box.game.log[-2:]] == [
            {"kind": "declare", "player": 1, "lots": 0}, {"kind": "declare", "player": 2, "lots": 0}]
        # round 2: only Rouge asked in round 1, she passes now; the turn ends in one press
        if seats:
            box.wait(2.1)
        else:
            box.choose("Passe")
        assert box.items()[box.screen.selected] == "Fin du tour"
        before = box.counts["operator"]
        box.press("ok")
        assert box.counts["operator"] == before + 1 and box.screen.title == "À Bleu de jouer"
    finally:
        box.close()


@pytest.mark.parametrize("answer", ["silence", "long press"])
def test_a_titre_the_others_leave_silent_takes_at_most_10_s_with_the_default_settings(with_board, tmp_path, answer):
    """Waiting at the table: from the Titre square to the end of the turn, with the
    lander buying 1 000 au cours and the others saying nothing (or passing with a long
    press), the box's clocks take at most 10 s with the default settings: every seat still
    to answer is lit at once and one silence passes those who did not press, round by
    round (the others', then the lander's second round), in the rulebook's order."""
    from firmware.config import config_from_dict

    window = config_from_dict({}).timing.speaking_window_s
    box = counted_box(tmp_path, 3, timing={"speaking_window_s": window})
    try:
        start = box.clock.now
        box.press("ok").press("ok")                           # the Titre square, au cours
        box.press("seat1").wait(0.7)                          # Rouge: 1 000 au cours
        assert box.screen.title == "Règlement DEUTSCHE"
        box.press("ok")
        assert box.c.seats.lit() == {1, 2}                           # Bleu and Vert, both lit at once
        if answer == "long press":
            box.long("seat3").long("seat2")                   # Vert passes ahead of Bleu, then Bleu
            box.long("seat1")                                 # round 2: Rouge passes too
        while box.items()[box.screen.selected:][:1] != ["Fin du tour"] and box.clock.now - start < 30:
            box.wait(0.1)
        waited = box.clock.now - start
        assert box.items()[box.screen.selected] == "Fin du tour"
        assert [(a.player, a.lots) for a in box.game.log if a.kind == "declare"] == [(0, 1), (1, 0), (2, 0), (0, 0)]
        assert waited <= 10.0 if answer == "silence" else waited <= 5.0, waited
    finally:
        box.close()


def test_the_operator_corrects_the_boards_square_on_the_box(with_board, tmp_path):
    """The pawn is not where the board says (a miscount): "Autre case" names the square."""
    box = counted_box(tmp_path, 0)
    try:
        box.press("ok").choose("Autre case").choose("Informatique").choose("SONY").choose("Au cours")
        assert box.game.log[-1].to_json() == {"kind": "titre", "square": "SONY", "company": None}
        assert box.game.snapshot()["squares"]["Rouge"] == "SONY"
    finally:
        box.close()
