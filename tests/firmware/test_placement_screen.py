"""The generic grid-placement screen (firmware/screens/placement.py), chosen from the
decision's interaction (Interactions.PLACEMENT): the cursor moves only between the legal
cells the decision lists, starts where the decision says, shows the game's wording of the
engine's preview, and OK applies the PLACE role's action on that cell. Driven here on a
Shark game, the one registered game with a placement; the screen itself reads only the
decision (tests/firmware/test_firmware_generic.py checks it names no game)."""
from PIL import Image

from drivers.events import InputEvent
from engines.core.decision import Interactions as I
from firmware.controller import Controller, Timing
from firmware.render import render_screen
from firmware.screens.base import load
from firmware.screens.placement import Placement
from firmware.session import Session
from shark_helpers import act, new_game, position

TIMING = Timing(speaking_window_s=3.0, press_gap_s=0.5)


def placing():
    game = new_game(players=("A", "B"), deal=["YELLOW", "YELLOW"], first="A")
    position(game, {"A1": "YELLOW", "B1": "YELLOW", "C1": "YELLOW", "D1": "YELLOW", "D2": "YELLOW",
                    "B3": "BLUE", "C3": "BLUE", "A5": "BLUE", "B5": "BLUE"})
    act(game, "roll 1 YELLOW")
    c = Controller(None, timing=TIMING, seat_buttons=())
    c.attach(Session(game))
    return c, game


def press(c, key):
    c.handle(InputEvent(key, "press", 1.0))


def test_the_cursor_starts_on_the_decision_start_and_moves_only_between_legal_cells():
    c, game = placing()
    frame = c.stack[-1]
    assert isinstance(frame, Placement) and game.decision().interaction.kind == I.PLACEMENT
    legal = [p["cell"] for p in game.decision().interaction.params["cells"]]
    assert frame.current(c) == game.decision().interaction.params["start"] == "A2"
    seen = [frame.current(c)]
    for _ in range(len(legal)):
        press(c, "down")
        seen.append(frame.current(c))
    assert seen[-1] == seen[0] and sorted(seen[:-1]) == sorted(legal)     # every legal cell, nothing else
    press(c, "up")
    assert frame.current(c) == legal[legal.index("A2") - 1]


def test_the_screen_shows_the_zone_the_cursor_and_the_preview_and_ok_places():
    c, game = placing()
    frame = c.stack[-1]
    while frame.current(c) != "C2":
        press(c, "down")
    screen = c.screen()
    # the map in the language's letters: J for a yellow building in French (the engine's Y)
    assert screen.kind == "grid" and screen.items[1] == "..*J" and screen.items[0] == "JJJJ"
    assert screen.lines[0].startswith("C2\t+6") and any("4→2" in line for line in screen.lines)
    image = render_screen(screen)
    assert isinstance(image, Image.Image) and image.size == (128, 64)
    assert load(frame.to_json()).cell == "C2"                  # the saved UI state comes back
    press(c, "ok")
    assert str(game.log[-1].cell) == "C2" and game.log[-1].player == 0
    assert game.s.values["YELLOW"] == 6 and c.stack[-1]["t"] != "placement"
