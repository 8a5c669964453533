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
