"""Shark's rows of docs/presses.md (bench/press_bench.py calls `rows`): a turn without
trading with the device's dice and with the players' dice, a purchase, a forced sale."""
from __future__ import annotations

from engines.shark.game import Shark


def started(dice, players=("Ana", "Ben", "Cid"), deal=("RED", "BLUE", "GREEN")):
    game = Shark({"game": "shark", "players": list(players), "seed": 1, "settings": {"dice": dice}})
    game.apply(game.ACTIONS.parse("deal " + " ".join(deal), game.players))
    game.apply(game.ACTIONS.parse("first Ana", game.players))
    return game


def three_turns(dice):
    """Red worth 2, blue 1: Ana (to play) has 3 000 and shares she may buy or sell."""
    game = started(dice)
    for line in ("roll 1 RED", "place Ana A1", "done Ana", "roll 1 RED", "place Ben B1", "done Ben",
                 "roll 3 BLUE", "place Cid I1", "done Cid"):
        game.apply(game.ACTIONS.parse(line, game.players))
    return game


def rows(fresh, count):
    out = []

    def turn(d):
        seat = d.c.session.game.current_seat()
        while d.c.session.game.current_seat() == seat:
            d.key("ok")

    d = fresh(seats=(), game=three_turns("device"))
    op, seat = count(d, turn)
    kinds = [a.kind for a in d.c.session.game.log[-3:]]
    assert kinds == ["roll", "place", "done"], kinds
    out.append(("Shark: a turn without trading, device dice (roll, dice shown, best cell, end of turn)", op, seat,
                "OK on each; the menus start on the roll and on the end of turn"))

    game = started("physical")
    d = fresh(seats=(), game=game)

    def physical(d):
        d.choose("2").choose("rouge").key("ok")        # zone, colour, the dice confirmed
        d.key("ok")                                    # the cursor starts on the best cell
        d.key("ok")                                    # end of turn (nothing to trade)
    op, seat = count(d, physical)
    assert [a.kind for a in game.log[-3:]] == ["roll", "place", "done"]
    out.append(("Shark: a turn without trading, players' dice (zone 2, red)", op, seat,
                "zone list, colour list, OK, OK, OK"))

    game = three_turns("physical")
    d = fresh(seats=(), game=game)

    def purchase(d):
        d.choose("Acheter").choose("Bleu").choose("2 action")
    op, seat = count(d, purchase)
    assert game.s.shares.of("BLUE", 0) == 2
    out.append(("Shark: buy 2 shares (the 5-share count shown)", op, seat, "buy, company, count"))
    return out
