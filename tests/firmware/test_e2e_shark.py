"""End to end: a 3-player Shark game played on simulated buttons, from the setup screens to
the winner, through the real loop, controller, engine, journal and renderers
(tests/e2e_box.py). The dice are the players' (entered on the operator's lists), so the
game goes where this test wants: a merge that removes a chain, a forced sale, an
elimination (SH9), then a yellow chain grown to 15 and the end (SH10).

The placements go through the generic grid screen (firmware/screens/placement.py): the
cursor moves only between the legal cells and starts on the largest success bonus.
Reference screens live in tests/reference/e2e_shark/ (regenerate with
CORBEILLE_UPDATE_REFERENCES=1, then look at them).
"""
import pytest

import e2e_box
from drivers.display import PngDisplay
from e2e_box import E2EBox, assert_board_pages, assert_matches_reference
from engines.shark.game import Shark
from engines.shark.rules import COMPANIES

COLOUR_FR = {"RED": "rouge", "YELLOW": "jaune", "GREEN": "vert", "BLUE": "bleu", "WHITE": "blanc", "BLACK": "noir"}
COMPANY_FR = {"RED": "Rouge", "YELLOW": "Jaune", "GREEN": "Vert", "BLUE": "Bleu"}     # as the rulebook: by colour


@pytest.fixture
def box(tmp_path, monkeypatch):
    monkeypatch.setattr(e2e_box, "REFERENCES", "e2e_shark")
    board = PngDisplay((128, 64), "1", name="board", keep=5)
    b = E2EBox(tmp_path, seats=3, board=board, extra={"game": {"game": "shark"}})
    yield b
    b.close()


def roll(box, zone, colour):
    """The player rolls: the zone and the colour die entered on the lists, then OK on the
    dice shown."""
    if "Lancer les dés" in box.items():      # else nothing to trade: the roll is the root entry
        box.choose("Lancer les dés")
    box.choose(str(zone))
    box.choose(COLOUR_FR[colour])
    assert box.screen.lines == (f"Zone {zone}, {COLOUR_FR[colour]}",)
    box.press("ok")
    assert box.game.log[-1].kind == "roll"


def deal(box):
    """The starting shares, dealt by the device whatever the dice (SH8, docs/rules/shark.md):
    one screen shows each player's share, OK takes them; no company is asked."""
    game = box.game
    assert box.screen.kind == "payday" and box.screen.title == "Actions de départ"
    drawn = [line.split("\t") for line in box.screen.lines]
    assert [name for name, _ in drawn] == game.players
    box.press("ok")
    assert game.log[-1].kind == "deal" and [company for _, company in drawn] == [COMPANY_FR[c] for c in
                                                                            game.log[-1].companies]


def place(box, cell):
    """Down on the placement screen until the cursor is on `cell`, then OK."""
    frame = box.c.stack[-1]
    assert frame["t"] == "placement"
    for _ in range(40):
        if frame.current(box.c) == cell:
            break
        box.press("down")
    assert frame.current(box.c) == cell
    box.press("ok")
    assert str(box.game.log[-1].cell) == cell


def done(box):
    if "Fin du tour" in box.items():
        box.choose("Fin du tour")
    else:                                      # nothing to trade: the end of turn is the root entry
        box.press("ok")
    assert box.game.log[-1].kind == "done"


def buy(box, company, shares):
    box.choose("Acheter")
    if len(box.game.decision().option("buy").fields["company"].values) > 1:
        box.choose(COMPANY_FR[company])
    box.choose(f"{shares} action")


def test_a_shark_game_from_setup_through_a_merge_a_forced_sale_and_an_elimination_to_the_winner(box):
    shots = set()

    def shot(name, board=False):
        assert name not in shots
        shots.add(name)
        assert_matches_reference(box.frame(), name)
        if board:
            assert_board_pages(box, name, 3)

    # ---------------------------------------------------------------- setup
    assert box.screen.title == "Nouvelle partie"
    box.choose("Shark")
    box.choose("3 joueurs").choose("J1")         # numbered: the companies are the colours
    box.choose("Continuer")                      # the shipped map is a template: unverified
    assert box.screen.lines[0].startswith("Shark, 3 joueurs")
    box.choose("Jouer")
    game = box.game
    assert isinstance(game, Shark) and game.players == ["J1", "J2", "J3"]
    # the starting shares, dealt by the device though the dice are the players', shown before OK
    deal(box)
    box.choose("J1")                             # the operator names the first player
    victim = 1
    cv = next(iter(game.s.shares.portfolio(victim)))        # J2's one starting share: green
    y, z = [c for c in COMPANIES if c != cv][:2]

    # T1 J1: a yellow building; T2 J2: the first of his colour; he buys a yellow
    roll(box, 1, y)
    shot("placement")
    place(box, "C2")
    done(box)
    roll(box, 1, cv)
    place(box, "A1")
    buy(box, y, 1)
    done(box)
    # T3 J3: the pair; T4 J1: the yellow pair
    roll(box, 1, cv)
    place(box, "B1")
    done(box)
    roll(box, 1, y)
    place(box, "D2")
    done(box)
    # T5 J2 buys his colour with everything he has, before and after placing far away
    buy(box, cv, 1)
    roll(box, 6, z)
    place(box, "I6")
    buy(box, cv, 1)
    done(box)
    assert game.cash(victim) == 0 and game.shares(cv, victim) == 3 and game.shares(y, victim) == 1
    # T6 J3: yellow C1 joins C2-D2 (3 > 2) and removes J2's pair: his colour 2 -> 0
    roll(box, 1, y)
    preview = {p["cell"]: p for p in game.decision().interaction.params["cells"]}["C1"]
    assert preview["changes"] == {y: [2, 3], cv: [2, 0]} and preview["removed"] == 2
    place(box, "C1")
    assert game.s.values[cv] == 0 and game.decision().prompt == "prompt.sh.debt"
    shot("debt")
    # J2 owes 3 x 2 000 with 1 000 in hand: his yellow share (3: half 1 500, rounded up
    # to 2 000) is his only remedy; still short, he leaves the game
    box.press("ok")
    assert game.eliminated(victim)
    assert any(a.kind == "forced_sale" for a in game.log)
    shot("after_elimination", board=True)
    done(box)
    # the yellow chain grows a building a turn (the cursor starts on the largest bonus) to 15
    turns = 0
    while not box.c.session.over:
        turns += 1
        assert turns < 20
        assert game.current_seat() != victim     # his turns are skipped
        roll(box, 1, y)
        cells = game.decision().interaction.params["cells"]
        best = max(cells, key=lambda p: p["bonus"])
        assert box.c.stack[-1].current(box.c) == best["cell"] and best["bonus"] == (game.s.values[y] + 1) * 1000
        box.press("ok")
        if not box.c.session.over:
            done(box)
    assert game.s.values[y] == 15 and game.snapshot()["end"] == "value"
    ranking = game.snapshot()["ranking"]
    assert ranking[-1]["name"] == "J2" and ranking[0]["rank"] == 1
    shot("over", board=True)
    # the journal replays to the same game
    replayed = Shark.replay(game.header, game.log)
    assert replayed.snapshot() == game.snapshot()


def test_a_whole_turn_without_trading_takes_at_most_5_presses_with_device_dice(tmp_path, monkeypatch):
    """The case: "a whole turn without trading in at most 5 operator presses with device
    dice": OK on the roll, OK on the dice shown, OK on the placement, OK on the end of turn."""
    monkeypatch.setattr(e2e_box, "REFERENCES", "e2e_shark")
    b = E2EBox(tmp_path, seats=0, extra={"game": {"game": "shark", "dice": "device"}})
    try:
        b.choose("Shark").choose("3 joueurs").choose("J1").choose("Continuer").choose("Jouer")
        b.press("ok")                 # the deal
        b.choose("J1")
        game = b.game
        for _ in range(6):
            start, presses = len(game.log), 0
            seat = game.current_seat()
            while game.current_seat() == seat and not game.over:
                frame = b.c.stack[-1]
                if frame["t"] == "root":
                    assert b.items()[b.screen.selected] in ("Lancer les dés", "Fin du tour")
                b.press("ok")
                presses += 1
                assert presses <= 6
            kinds = [a.kind for a in game.log[start:]]
            assert kinds[0] == "roll" and kinds[-1] == "done"
            # one OK per action (the menus start on the roll and on the end of turn; a colour
            # chosen on white or black takes the first offered), and one more on the dice
            # shown when the roll was reached from the square menu (something to trade)
            assert len(kinds) <= presses <= len(kinds) + 1 and presses <= 5, (presses, kinds)
    finally:
        b.close()


def test_without_the_grid_the_operator_enters_the_values_on_the_box(tmp_path, monkeypatch):
    """SH11: without a grid, the operator enters a colour that lost a chain (its value and
    the buildings removed), then the placed colour's new value; the payments are shown
    before they are confirmed."""
    monkeypatch.setattr(e2e_box, "REFERENCES", "e2e_shark")
    b = E2EBox(tmp_path, seats=0, extra={"game": {"game": "shark", "grid": "none"}})
    try:
        b.choose("Shark").choose("2 joueurs").choose("J1").choose("Continuer").choose("Jouer")
        deal(b)
        b.choose("J1")
        game = b.game
        assert game.grid is None
        for zone, colour, value in ((1, "BLUE", 1), (1, "BLUE", 2)):
            roll(b, zone, colour)
            b.choose("Immeuble posé").choose(str(value))
            assert b.screen.kind == "confirm"
            b.choose("Oui")
            done(b)
        assert game.s.values["BLUE"] == 2 and game.s.on_board["BLUE"] == 2
        roll(b, 2, "YELLOW")
        b.choose("Chaîne perdue")
        b.choose("0").choose("2")                       # blue: value 0, both buildings removed
        b.choose("Oui")
        b.choose("Immeuble posé").choose("1")
        lines = b.screen.lines
        assert lines[0] == "J1 : nouvelle valeur 1" and "J1 prime\t+1 000 FT" in lines
        b.choose("Oui")
        assert game.s.values == {"RED": 0, "YELLOW": 1, "GREEN": 0, "BLUE": 0}
        assert game.s.on_board == {"RED": 0, "YELLOW": 1, "GREEN": 0, "BLUE": 0}
        assert game.s.used["BLUE"] == 2
    finally:
        b.close()


def test_the_public_board_draws_the_map_in_colour_on_a_colour_board():
    """Cash and holdings are public (SH8): the board shows them with the map and values, on
    one page from 256 pixels wide; a colour board draws each building in its colour."""
    from firmware.games.shark import RGB, render_board
    from test_shark_powercut import PLACE, SCRIPT
    from firmware.script import run_script
    game = run_script(SCRIPT + PLACE + "\n")
    snap = game.public(game.snapshot())
    image = render_board(snap, (800, 480), "RGB", "fr", 0)
    colours = {colour for _, colour in image.getcolors(800 * 480)}
    assert RGB["YELLOW"] in colours and RGB["BLUE"] in colours and RGB["GREEN"] not in colours   # green removed
    for size in ((128, 64), (256, 64), (400, 300)):
        for page in range(3):
            assert render_board(snap, size, "1", "en", page).size == size


def test_a_game_under_way_is_entered_on_the_box_as_corrections_then_played(tmp_path, monkeypatch):
    """Issue: "start from a position": "Partie en cours" in the Options; the game's own set-up
    (the deal, the first player) first, then the corrections the engine offers, each asked as
    the menu's Corrections ask it and journaled, until "Terminé : jouer"."""
    monkeypatch.setattr(e2e_box, "REFERENCES", "e2e_shark")
    b = E2EBox(tmp_path, seats=0, extra={"game": {"game": "shark", "dice": "device"}})
    try:
        b.choose("Shark").choose("3 joueurs").choose("J1").choose("Continuer").choose("Régler")
        b.choose("Partie en cours : Non")
        assert b.items()[b.screen.selected] == "Partie en cours : Oui"
        b.choose("Terminé").choose("Jouer")
        b.press("ok")                 # the deal
        b.choose("J1")                # the first player
        assert b.screen.title == "Partie en cours" and b.screen.lines == ("Entrez où en est la table",)
        game = b.game
        assert b.items()[-1] == "Terminé : jouer" and "Ajouter un immeuble" in b.items()
        b.choose("Ajouter un immeuble").choose("C2").choose("Rouge")
        assert b.screen.title == "Ajouter un immeuble ?" and b.screen.lines == ("Rouge en C2 (correction au boîtier)",)
        b.choose("Oui")               # the correction's summary, confirmed
        assert game.log[-1].kind == "put_building" and game.s.values["RED"] == 1
        assert b.screen.title == "Partie en cours"                    # back for the next one
        b.choose("Corriger le tour").choose("J3").choose("Oui")
        assert game.current_seat() == 2 and b.screen.title == "Partie en cours"
        b.choose("Terminé : jouer")
        assert b.c.stack[0]["t"] != "position" and "J3" in b.screen.title
        assert [a.kind for a in game.log] == ["deal", "first", "put_building", "set_turn"]
        journal = b.app.journal                                    # each one committed as it was applied
        assert [a["kind"] for a in journal.actions(journal.last_game())] == ["deal", "first", "put_building",
                                                                              "set_turn"]
    finally:
        b.close()
