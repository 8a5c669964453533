"""What the box does differently per game, behind one small interface.

The controller is generic: its menus come from the engine's pending decision. What it
cannot read from a decision lives here, one adapter per game the box can run:

* the setup: the game's entry in the first setup list, the player counts, the box file,
  whether rounds are agreed, and the header of a new game;
* the quotation board renderer (``render_board``, ``board_pages``), given the game's
  *public* snapshot only;
* labels that depend on the game's data: a company in a list (its price or prices),
  the private view of a player, the final ranking, the kind/action texts' key prefix;
* the "news" line: which engine event says most about the last action.

``adapter(name)`` returns the adapter of a game; ``PLAYABLE`` lists the games the box's
screens can run.
"""
from __future__ import annotations

from firmware.games.dividends import DividendsUI
from firmware.games.maxibourse import MaxiBourseUI

ADAPTERS = {"maxibourse": MaxiBourseUI(), "dividends": DividendsUI()}
PLAYABLE = tuple(ADAPTERS)


def adapter(name: str | None):
    return ADAPTERS.get(name or "maxibourse", ADAPTERS["maxibourse"])


def adapter_of(session):
    """The adapter of a session's game (Maxi Bourse when there is no session)."""
    game = getattr(session, "game", None)
    return adapter(getattr(game, "name", None))
