"""Dividends on the box, below the end-to-end test (tests/firmware/test_e2e_dividends.py):

* hidden cash (DV2) never reaches the quotation board: boards are drawn from snapshots of
  random games whose cash values are poisoned (any use fails) and distinctive, through
  `drop_private(snapshot)` as the app does, and the renderer must not read `players` at all;
* the turn-order auction on the seat buttons, on the controller: a press raises by the
  step, the silence (`timing.silence_s`) sells, the winner stops bidding, a bid above the
  bidder's cash is never sent (nor offered in the operator's list);
* more players than seat buttons: the operator answers for the rest.
"""
import random

import pytest

from drivers.events import InputEvent
from engines.dividends.game import TILES, Dividends
from engines.core.table import drop_private
from engines.dividends.random_play import header_for, random_game
from firmware.controller import Controller, Timing
from firmware.games import adapter
from firmware.games.dividends import render_board
from firmware.session import Session
from firmware.texts import t
from test_maxibourse_quotation_board import Poison, RecordingSnapshot

UI = adapter("dividends")
SIZES = ((128, 64), (256, 64), (800, 480))


def positions(seed, players=4, every=7):
    """Snapshots along a random game, every few actions, and the last one."""
    snaps = []

    def keep(game, act, events):
        if len(game.log) % every == 0:
            snaps.append(game.snapshot())

    _, _, game = random_game(random.Random(seed), players=players, on_action=keep, verify=False)
    snaps.append(game.snapshot())
    return snaps


@pytest.mark.parametrize("seed", [1, 2])
def test_the_quotation_board_never_reads_hidden_cash(seed):
    snaps = positions(seed)
    assert len(snaps) > 10
    for snap in snaps:
        shown = drop_private(snap)
        if snap["private"]:                              # until the game is over
            assert all("cash" not in p for p in shown["players"])
        # Even handed the whole snapshot, the renderer must not touch a player.
        poisoned = RecordingSnapshot({**snap, "players": [{**p, "cash": Poison(f"{p['name']}'s cash")}
                                                          for p in snap["players"]]})
        for size in SIZES:
            for page in range(UI.board_pages(None, size)):
                render_board(poisoned, size, "1", "fr", page)
        assert "players" not in poisoned.read, poisoned.read


def test_distinctive_cash_values_do_not_change_a_board_pixel():
    _, _, game = random_game(random.Random(3), players=5, max_actions=60, verify=False)
    snap = game.snapshot()
    assert snap["private"] == ["players.*.cash"]
    frames = []
    for cash in (1234567, 7654321):
        variant = {**snap, "players": [{**p, "cash": cash + i} for i, p in enumerate(snap["players"])]}
        frames.append([render_board(drop_private(variant), size, "1", "fr", page).tobytes()
                       for size in SIZES for page in range(UI.board_pages(None, size))])
    assert frames[0] == frames[1]


def test_the_app_hands_the_board_the_public_snapshot_only():
    session = Session.new(header_for(4, seed=5))
    snap = session.public_snapshot()
    assert all("cash" not in p for p in snap["players"])
    assert "cash" in session.snapshot()["players"][0]


# ------------------------------------------------------------------ the auction
def tick(c, t):
    c.handle(InputEvent("clock", "tick", t))


def seat(c, n, t, kind="press"):
    c.handle(InputEvent(f"seat{n}", kind, t))


def auction_box(players=4, buttons=4, silence=2.0, dice="device"):
    header = {"game": "dividends", "players": ["Ana", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"][:players],
              "seed": 7, "settings": {"dice": dice}}
    c = Controller(None, timing=Timing(silence_s=silence), seat_buttons=range(buttons))
    c.attach(Session.new(header))
    c.handle(InputEvent("ok", "press", 0.0))               # the device's dice, confirmed
    assert c.stack[0]["t"] == "open_auction", c.screen()
    return c


def test_a_press_raises_by_the_step_and_silence_sells():
    c = auction_box(silence=2.0)
    game = c.session.game
    step = game.settings["bid_step"]
    assert c.screen().kind == "auction" and c.screen().title == "Jeton 1 à vendre\t2 s"
    seat(c, 2, 1.0)
    assert game.log[-1].to_json() == {"kind": "bid", "player": 1, "amount": 50}
    seat(c, 3, 1.5)
    assert game.log[-1].to_json() == {"kind": "bid", "player": 2, "amount": 50 + step}
    seat(c, 3, 1.6)                                         # the high bidder does not outbid themselves
    assert len(game.log) == 3 and "error" in c.take_beeps()
    seat(c, 2, 2.0)
    assert game.log[-1].amount == 50 + 2 * step
    assert c.screen().lines == (f"{50 + 2 * step} par Bob",)
    tick(c, 3.9)                                            # not yet two seconds of silence
    assert game.log[-1].kind == "bid"
    assert c.next_deadline() == pytest.approx(4.0)
    tick(c, 4.0)
    assert game.log[-1].kind == "sold" and game.s.tokens[1] == 1
    # The winner stops bidding: Bob's button does nothing on the next token.
    n = len(game.log)
    seat(c, 2, 4.5)
    assert len(game.log) == n and 1 not in c.seats.lit()
    assert c.seats.lit() == {0, 2, 3}
    seat(c, 1, 5.0)
    tick(c, 7.0)
    assert game.s.tokens[0] == 2


def test_no_bid_above_the_bidders_cash_is_sent_or_offered():
    c = auction_box(silence=2.0)
    game = c.session.game
    game.s.ledger.balances[0] = 60                       # Ana has 60 $ (hidden), the rest 4 000
    c.session.version += 1
    c.flow.sync()
    seat(c, 1, 1.0)                                       # 50 is within Ana's cash
    assert game.log[-1].to_json() == {"kind": "bid", "player": 0, "amount": 50}
    seat(c, 2, 1.2)                                       # Bob: 100
    n = len(game.log)
    seat(c, 1, 1.4)                                       # 150 is above Ana's cash: not sent
    assert len(game.log) == n and "error" in c.take_beeps()
    c.handle(InputEvent("ok", "press", 1.5))              # the operator's list: Ana is not offered
    labels = [label for label, _ in c.seats.open_items()]
    assert not any(label.startswith("Ana") for label in labels)
    assert any(label.startswith("Cy : 150") for label in labels)
    screen = c.screen()
    assert "60" not in " ".join(screen.items + screen.lines)


def test_the_operator_answers_for_players_without_a_button():
    c = auction_box(players=7, buttons=4, silence=2.0)
    game = c.session.game
    seat(c, 7, 1.0)                                       # no such button: nothing
    assert game.log[-1].kind == "dice"
    c.handle(InputEvent("ok", "press", 1.5))
    labels = [label for label, _ in c.seats.open_items()]
    assert "Gus : 50" in labels
    target = labels.index("Gus : 50") + 1                 # after the list's Back, where it opens
    for _ in range(target):
        c.handle(InputEvent("down", "press", 1.6))
    c.handle(InputEvent("ok", "press", 1.7))
    assert game.log[-1].to_json() == {"kind": "bid", "player": 6, "amount": 50}
    assert c.stack[-1]["t"] == "open_auction" and len(c.stack) == 1
    tick(c, 3.6)                                          # silence counts from the bid (1.7 s)
    assert game.log[-1].kind == "bid"
    tick(c, 3.7)
    assert game.log[-1].kind == "sold" and game.s.tokens[6] == 1


def test_silence_with_no_bid_deals_the_tokens_and_the_operator_pauses_the_clock():
    c = auction_box(silence=2.0)
    game = c.session.game
    c.handle(InputEvent("ok", "press", 0.5))              # the operator opens the list: silence waits
    tick(c, 10.0)
    assert game.log[-1].kind == "dice"
    c.handle(InputEvent("back", "press", 30.0))           # no tick while the list was open
    assert c.screen().title.endswith("\t2 s")               # the whole silence again
    assert c.next_deadline() == pytest.approx(31.0)         # the seconds shown change
    tick(c, 31.0)
    assert c.screen().title.endswith("\t1 s") and c.next_deadline() == pytest.approx(32.0)
    tick(c, 31.9)
    assert game.log[-1].kind == "dice"
    tick(c, 32.0)
    assert game.log[-1].kind == "deal" and sorted(game.s.tokens) == [1, 2, 3, 4]


def test_physical_dice_are_entered_then_confirmed_with_the_outcome():
    header = {"game": "dividends", "players": ["Ana", "Bob", "Cy", "Dee"], "seed": 7, "settings": {"dice": "physical"}}
    c = Controller(None, seat_buttons=range(4))
    c.attach(Session.new(header))
    assert c.stack[0]["t"] == "entry" and c.stack[0]["kind"] == "dice"
    for company in c.session.game.companies:
        screen = c.screen()
        assert any(line.startswith(f"{company} : dé ") for line in screen.lines), screen
        c.handle(InputEvent("ok", "press", 0.0))          # the first face of each die
    screen = c.screen()
    # each company by its printed name, then its die's move and the marker's (not "CEDARPIN ± -3")
    assert screen.kind == "payday" and len(screen.lines) == 5 and screen.lines[0] == "CEDARPINES\t-3 200→50"
    c.handle(InputEvent("back", "press", 0.0))            # Back forgets the last die
    assert c.screen().kind == "menu"
    c.handle(InputEvent("down", "press", 0.0))
    c.handle(InputEvent("ok", "press", 0.0))
    assert c.screen().lines[4] == "BIG-BOULDER\t-2 200→100"
    c.handle(InputEvent("ok", "press", 0.0))
    assert c.session.game.log[-1].kind == "dice" and c.stack[0]["t"] == "open_auction"


def test_a_physical_event_tile_is_chosen_then_confirmed_with_its_outcome():
    header, actions, _ = random_game(random.Random(7), players=4, verify=False, settings={"dice": "physical"})
    game = Dividends(header)
    for act in actions:                                   # up to the first yearly event tile
        if game.decision().prompt == "prompt.dv.event":
            break
        game.apply(act)
    assert game.decision().prompt == "prompt.dv.event"
    c = Controller(None, seat_buttons=range(4))
    c.attach(Session(game))
    assert c.stack[0]["t"] == "entry" and c.stack[0]["kind"] == "event"
    screen = c.screen()
    assert screen.kind == "menu" and screen.items[:4] == ("Force Sell", "Buy In", "Placement Offer",
                                                          "Technical Correction")   # as printed
    n, tile = len(game.log), TILES[2]
    for _ in range(2):
        c.handle(InputEvent("down", "press", 0.0))
    c.handle(InputEvent("ok", "press", 0.0))              # the tile drawn from the cup
    screen = c.screen()
    assert screen.kind == "payday"
    assert screen.lines == (t("q.dv.tile_is", "fr", tile=tile), t("dv.tile." + tile, "fr"))
    c.handle(InputEvent("back", "press", 0.0))            # Back before confirming: nothing applied
    assert len(game.log) == n and c.screen().kind == "menu" and c.stack[0]["v"] == {}
    for _ in range(2):
        c.handle(InputEvent("down", "press", 0.0))
    c.handle(InputEvent("ok", "press", 0.0))
    assert len(game.log) == n
    c.handle(InputEvent("ok", "press", 0.0))              # OK applies `event TILE`
    assert len(game.log) == n + 1
    assert game.log[-1].to_json() == {"kind": "event", "tile": tile}
    assert game.decision().prompt != "prompt.dv.event"


def test_operator_screens_never_show_hidden_cash():
    """Distinctive cash values (9 876 5xx $) set at many positions of random games: no root
    screen, and no first question of any entry, shows them (the private view does)."""
    checked = 0
    for seed in (11, 12):
        header, actions, _ = random_game(random.Random(seed), players=5, verify=False)
        game = Dividends(header)
        for index, act in enumerate(actions):
            game.apply(act)
            if index % 5 or game.decision().prompt == "prompt.dv.over":
                continue
            for s in range(len(game.players)):
                game.s.ledger.balances[s] = 9_876_500 + s
            secrets = [f"9 876 50{s}" for s in range(len(game.players))] + [f"987650{s}" for s in range(len(game.players))]
            c = Controller(None, seat_buttons=range(4))
            c.attach(Session(game))
            screens = [c.screen()]
            c.handle(InputEvent("ok", "press", 0.0))
            screens.append(c.screen())
            for screen in screens:
                shown = " ".join((screen.title,) + tuple(screen.lines) + tuple(str(i) for i in screen.items))
                assert not any(x in shown for x in secrets), (act, shown)
            checked += 1
            c.private(0)
            assert "9 876 500" in c.screen().lines[0]
            game = Dividends.replay(header, actions[:index + 1])      # undo the distinctive cash
    assert checked > 40


def test_the_serial_console_plays_dividends_and_the_device_draws_what_is_left_out():
    header = {"game": "dividends", "players": ["Ana", "Bob", "Cy", "Dee"], "seed": 7, "settings": {"dice": "physical"}}
    c = Controller(None, seat_buttons=())
    c.attach(Session.new(header))
    game = c.session.game
    assert c.console("dice") == "ok"
    assert len(game.log[-1].moves) == 5
    assert c.console("bid Bob 50") == "ok"
    assert "Bob" in c.console("bid Bob 100")          # the high bidder does not outbid themselves
    assert c.console("sold") == "ok" and game.s.tokens[1] == 1
    assert c.stack[0]["t"] == "open_auction"
