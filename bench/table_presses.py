"""Rows of docs/presses.md for what a table meets in the three newer games (bench/press_bench.py
calls `rows`): each whole setup from the first screen with every default, Richesses du
Monde's joker square (nothing bought, a joker bought), a "500 000" square and a pawn put
back, A Vendre!'s cash corrected by 200. tests/house/test_presses_doc.py checks the page holds
what these count."""
from __future__ import annotations

import tempfile
from pathlib import Path

from firmware.controller import Controller
from firmware.journal import Journal

PLAYERS = ["Ana", "Ben", "Cid"]


def setups(timing, driver):
    """Each game set up from the first screen (3 players named by colours, the unverified
    box file accepted, every default) to its first turn; [(game, presses)]."""
    out = []
    # (the game's entry, the players' names, the first of them, what the device draws at once);
    # Shark's players are numbered: its companies are the colours
    steps = {"avendre": ("À vendre !", "Couleurs", "Rouge", ()), "shark": ("Shark", "J1", "J1", ("ok",)),
             "richesses": ("Richesses du Monde", "Couleurs", "Rouge", ("ok",))}
    with tempfile.TemporaryDirectory() as folder:
        for name, (label, names, first, chance) in steps.items():
            with Journal(Path(folder) / f"{name}.sqlite") as journal:
                c = Controller(journal, timing=timing, seed_source=lambda: 1)
                c.boot(0.0)
                d = driver(c)
                d.choose(label).choose("3 joueurs").choose(names).choose("Continuer").choose("Jouer")
                for key in chance:            # the deal, the plaques: drawn by the device, one OK
                    d.key(key)
                d.choose(first)               # who starts
                assert c.session.game.log[-1].kind == "first", (name, c.session.game.log)
                out.append((name, d.operator))
    return out


def richesses_game(*lines, seed=1):
    from engines.richesses.game import Richesses
    from firmware.script import fill_dice

    game = Richesses({"game": "richesses", "players": list(PLAYERS), "seed": seed, "settings": {"dice": "device"}})
    game.apply(fill_dice(game, game.ACTIONS.classes["plaques"]()))
    for line in ("first Ana",) + lines:
        game.apply(game.ACTIONS.parse(line, game.players))
    return game


def rows(fresh, count, timing, driver):
    out = []
    how = {"avendre": "game, players, names, unverified box: Continuer, Jouer, who starts",
           "shark": "game, players, names, unverified map: Continuer, Jouer, the deal (one OK), who starts",
           "richesses": "game, players, names, unverified box: Continuer, Jouer, the plaques (one OK), who starts"}
    names = {"avendre": "A Vendre!", "shark": "Shark", "richesses": "Richesses"}
    for name, presses in setups(timing, driver):
        out.append((f"{names[name]}: whole setup, 3 players, every default", presses, 0, how[name]))

    # Ana's dice bring her to the joker square (8): nothing bought is the menu's first entry
    game = richesses_game("roll 3 5")
    d = fresh(game=game)
    op, seat = count(d, lambda d: d.key("ok"))
    assert game.log[-1].kind == "done" and game.s.jokers[0] == 0
    out.append(("Richesses: a joker square after the dice, no joker bought", op, seat, "OK: the menu starts on \"Rien\""))
    game = richesses_game("roll 3 5")
    d = fresh(game=game)
    op, seat = count(d, lambda d: d.choose("Acheter un joker").choose("Oui"))
    assert game.s.jokers[0] == 1
    out.append(("Richesses: a joker bought (3 000 000, confirmed)", op, seat, "Acheter un joker, Oui"))

    # the box's dice bring Ana to a "500 000" square (19): the credit is on the dice's screen
    from engines.richesses.actions import Roll
    from firmware.script import fill_dice
    probe = richesses_game()
    dice = fill_dice(probe, Roll())
    game = richesses_game(f'set_pawn Ana {19 - dice.white - dice.red} 0 "bench"')
    d = fresh(game=game)
    cash = game.cash(0)
    assert any("500 000 F ×" in line for line in d.c.screen().lines)
    op, seat = count(d, lambda d: d.key("ok"))
    assert game.cash(0) == cash + 500_000 * (dice.white + dice.red) - (dice.white * 1_000_000 if dice.white == dice.red else 0)
    out.append(("Richesses: a \"500 000\" square with the box's dice (the dice and the credit shown)", op, seat, "OK"))

    # a pawn 3 squares behind where it is on the board: put back from the corrections
    game = richesses_game()
    d = fresh(game=game)

    def pawn(d):
        d.key("ok", long=True).choose("Corrections").choose("Corriger un pion").choose("Ana")
        d.key("up").key("up").key("up").key("ok")          # square 3, by ones from where it is
        d.key("ok").choose("Oui")                           # its world tours as they are, confirmed
    op, seat = count(d, pawn)
    assert game.s.track.positions[0] == 3
    out.append(("Richesses: a pawn put back 3 squares on (Corriger un pion)", op, seat,
                "menu, Corrections, Corriger un pion, player, 3 × Up, OK, tours OK, Oui"))

    # A Vendre!: a cash error of 200 put right, in A Vendre!'s money (steps of 100 from 100)
    from engines.avendre.game import AVendre
    game = AVendre({"game": "avendre", "players": list(PLAYERS), "seed": 1, "settings": {"dice": "device"}})
    game.apply(game.ACTIONS.parse("first Ana", game.players))
    d = fresh(game=game)
    op, seat = count(d, lambda d: (d.key("ok", long=True).choose("Corrections").choose("Corriger l'argent")
                                   .choose("Ben").key("up").key("ok").choose("Oui")))
    assert game.cash(1) == 5_100 + 200
    out.append(("A Vendre!: 200 added to a player's cash (Corriger l'argent)", op, seat,
                "menu, Corrections, Corriger l'argent, player, Up (+100 to +200), OK, Oui"))
    return out
