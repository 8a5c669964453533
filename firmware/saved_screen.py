"""The screen saved with each action (the journal's meta `ui`, in the action's own commit)
and put back after a restart: the controller's stack of frames as JSON in the dict form
keyed "t", the game and its length it belongs to, and what the last action did. A saved
screen is put back only on the position it was saved at, and only when this firmware can
show it; otherwise the box starts from the decision's own screen."""
from __future__ import annotations

from firmware.screens.base import Frame, dump, load


def saved(ctl) -> dict:
    """What `restore` needs to put `ctl`'s screen back (frames that are not saved left out)."""
    session = ctl.session
    frames = [dump(f) for f in ctl.stack if getattr(load(f), "saved", True)]
    return {"game": session.game_id if session is not None and frames and frames[0]["t"] != "setup" else None,
            "n": len(session.game.log) if session is not None else 0,
            "stack": frames, "news": list(ctl.news)}


def restore(ctl, state: dict) -> bool:
    """Put back on `ctl` a saved screen if it belongs to the current game position."""
    frames = state.get("stack") or []
    if not frames or not all(isinstance(f, dict) and isinstance(load(f), Frame) for f in frames):
        return False                # a frame type this firmware does not know: start from the root
    if frames[0]["t"] == "setup":
        if state.get("game") is not None:
            return False
        ctl.stack = [load(f) for f in frames]
        return True
    session = ctl.session
    if session is None or state.get("game") != session.game_id or state.get("n") != len(session.game.log):
        return False
    root = ctl.flow.root()
    if frames[0]["t"] != root["t"] or frames[0].get("kind") != root.get("kind"):
        return False
    ctl.stack = [load(f) for f in frames]
    ctl.news = tuple(str(x) for x in state.get("news", ()))
    try:
        ctl.screen()
    except Exception:          # a state this firmware cannot show: start from the root
        ctl.stack = [root]
        return False
    return True
