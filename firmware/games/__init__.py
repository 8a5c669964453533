"""What the box does differently per game, behind one small interface.

The controller is generic: its menus come from the engine's pending decision. What it
cannot read from a decision lives here, one adapter per game the box can run, named by the
game's registry entry (engines/registry.py). Every adapter is a `GameUI` (base.py), which
derives from the registry entry what every game answers alike (its title, formats, box
file, the header of a new game, the ranking's lines); each keeps only what is its own:

* the setup's warning about an unverified box file, when it has more to say;
* the quotation board renderer (``render_board``, ``board_pages``), given the game's
  *public* snapshot only;
* labels that depend on the game's data: a company in a list (its price or prices),
  the private view of a player, the confirmation's lines from the engine's preview;
* the "news" line: which engine event says most about the last action (its NEWS_ORDER);
* optionally ``field_question``: a question only this game asks (Maxi Bourse's titre
  square, au cours or au mieux); every other field is asked by its type (firmware/menus.py).

* ``web_tables``: the board of the web view (firmware/web/), as tables of text from the
  public snapshot.

Pillow is imported where a board or a screen is drawn, not when an adapter is: the web
view's process uses the adapters (private views, news lines, tables) without it.

``adapter(name)`` returns the adapter of a game and refuses a name the registry does not
know or a game without screens; ``PLAYABLE`` lists the games the box's screens can run.
"""
from __future__ import annotations

from functools import cache
from importlib import import_module

from engines.core.errors import ProtocolError
from engines.registry import games, spec

PLAYABLE = tuple(name for name, entry in games().items() if entry.adapter)


@cache
def adapter(name: str):
    entry = spec(name)
    if not entry.adapter:
        raise ProtocolError(f"{name} has no screens on the box yet; the box plays {', '.join(PLAYABLE)}")
    module, _, cls = entry.adapter.partition(":")
    return getattr(import_module(module), cls)()


def adapter_of(session):
    """The adapter of a session's game; before any game (the setup), the first playable one."""
    game = getattr(session, "game", None)
    return adapter(game.name if game is not None else PLAYABLE[0])
