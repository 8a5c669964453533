"""The tag book: which RFID card is whose seat in a game, kept in the journal's meta table
(`rfid.<game id>`) so that a restart still knows the players' cards."""
from __future__ import annotations

import json


class TagBook:
    """The cards of the game being played (`seats`: tag -> seat, 0-based)."""

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
