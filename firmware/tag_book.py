"""The players' RFID cards: whose each card is, across games, and which seat it is in the
game being played.

A card names its holder: the journal's meta `rfid.names` keeps {tag: name} for every card
the box has been told about (at setup, or when an unknown card was given to a player during
a game). A name is on one card at most: naming a card with a name another card had moves
it (a player who changed cards), so a name never shows twice. Each game also keeps which
seat each card is (`rfid.<game id>`): the private view on a tap, after a restart too.

Where a reader is fitted (the configuration's `[rfid] enabled`, `Controller.rfid_reader`),
the setup's names step offers the players' cards: each player taps theirs, a card seen
before gives its name at once, an unknown one asks its name once (chosen from the names the
box proposes, or spelled, firmware/screens/cards.py). Without a reader nothing changes.
"""
from __future__ import annotations

import json

from firmware.screens.overlays import Rfid

NAMES_META = "rfid.names"


class TagBook:
    """The cards of the game being played (`seats`: tag -> seat, 0-based), and the names of
    every card the box remembers, both kept in the journal given to each call."""

    def __init__(self):
        self.seats: dict[str, int] = {}

    def load(self, journal, game_id) -> None:
        """The game's cards as `journal` keeps them (none when unreadable)."""
        if journal is None or game_id is None:
            return
        raw = journal.get_meta(f"rfid.{game_id}")
        try:
            self.seats = {k: int(v) for k, v in json.loads(raw).items()} if raw else {}
        except (ValueError, AttributeError):
            self.seats = {}

    def save(self, journal, game_id) -> None:
        if journal is not None and game_id is not None:
            journal.set_meta(f"rfid.{game_id}", json.dumps(self.seats))

    @staticmethod
    def names(journal) -> dict:
        """{tag: name} of every card the box remembers ({} without a journal)."""
        if journal is None:
            return {}
        raw = journal.get_meta(NAMES_META)
        try:
            names = json.loads(raw) if raw else {}
        except ValueError:
            return {}
        return {str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {}

    def remember(self, journal, tag: str, name: str) -> None:
        """The card `tag` is `name`'s from now on; another card that had the name loses it."""
        if journal is None:
            return
        names = {k: v for k, v in self.names(journal).items() if v.lower() != name.lower() and k != tag}
        names[tag] = name
        journal.set_meta(NAMES_META, json.dumps(names, ensure_ascii=False, sort_keys=True))

    def seat_known(self, journal, game_id, tag, players) -> bool:
        """A card the box knows, held by one of `players`: it is that player's seat from now
        on (no question asked). False when the box cannot tell whose it is."""
        name = self.names(journal).get(tag)
        lowered = [p.lower() for p in players]
        if name is None or name.lower() not in lowered:
            return False
        self.seats[tag] = lowered.index(name.lower())
        self.save(journal, game_id)
        return True

    def tapped(self, ctl, tag) -> None:
        """A card tapped on the reader of `ctl`'s box: during the setup, the players' cards
        (or the question naming one) take it; in a game, a card whose seat is known shows
        that player's private view, an unknown one asks whose it is."""
        if not tag:
            return
        if ctl.stack and ctl.stack[0]["t"] == "setup":
            # A tap elsewhere in the setup shows nothing of any game.
            take = getattr(ctl.top(), "card", None)
            if take is not None:
                take(ctl, tag)
            ctl.changed = True
            return
        if ctl.session is None:
            return
        if tag in self.seats or self.seat_known(ctl.journal, ctl.session.game_id, tag, ctl.session.players):
            ctl.private(self.seats[tag])
        else:
            ctl.stack.append(Rfid(tag))
        ctl.changed = True
