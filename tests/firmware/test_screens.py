"""The screen objects (firmware/screens): each frame type registered once by the name the
saved UI state uses, its saved form round-trips, and a UI state written by the firmware of
before (frames as dicts keyed "t") loads into the same objects."""
import json

import pytest

import firmware.controller  # noqa: F401  (registers every frame type the controller uses)
from firmware.screens.base import REGISTRY, Frame, dump, load


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_frame_type_round_trips_through_its_saved_json(name):
    frame = REGISTRY[name]()
    saved = json.loads(json.dumps(dump(frame)))
    assert saved["t"] == name
    back = load(saved)
    assert type(back) is REGISTRY[name] and back == frame and dump(back) == saved


def test_a_saved_frame_of_the_old_dict_form_loads_as_its_object_and_reads_like_the_dict():
    old = {"t": "undo", "sel": 1}
    frame = load(old)
    assert isinstance(frame, Frame) and frame.sel == 1
    assert frame["t"] == "undo" and frame["sel"] == 1 and frame.get("kind") is None
    assert dump(frame) == old


def test_an_unknown_frame_type_stays_a_dict_and_a_type_registers_only_once():
    assert load({"t": "no_such_screen", "x": 1}) == {"t": "no_such_screen", "x": 1}
    from firmware.screens.base import frame_type
    with pytest.raises(ValueError, match="registered twice"):
        frame_type("undo")(type("Again", (Frame,), {}))


def test_overlays_are_not_saved_for_a_resume():
    for name in ("error", "message", "private"):
        assert REGISTRY[name].saved is False


def test_a_setup_saved_by_the_old_firmware_resumes_on_the_same_question():
    from firmware.controller import Controller
    from firmware.games import PLAYABLE
    from firmware.screens.setup import Setup

    fresh = Controller()
    fresh.setup.start_setup()
    first = fresh.screen()
    c = Controller()
    c.setup.start_setup()
    old = {"game": None, "n": 0, "news": [],
           "stack": [{"t": "setup", "v": {"game": PLAYABLE[0]}, "sel": 0}]}
    assert c.restore(old)
    assert isinstance(c.stack[0], Setup) and c.stack[0].v == {"game": PLAYABLE[0]}
    assert c.screen().lines != first.lines       # past the game's question
    saved = c.ui_state()
    assert saved["game"] is None and saved["stack"][0]["v"] == {"game": PLAYABLE[0]}
    c.handle(type("E", (), {"name": "back", "kind": "press", "t": 0.0})())
    assert c.stack[0].v == {} and c.screen().lines == first.lines


def test_a_saved_state_with_a_frame_type_this_firmware_does_not_know_is_refused():
    from firmware.controller import Controller

    c = Controller()
    c.setup.start_setup()
    before = c.screen()
    assert not c.restore({"game": None, "n": 0, "stack": [{"t": "no_such_screen", "sel": 2}]})
    assert c.screen() == before
