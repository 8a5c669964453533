"""Players' RFID cards: the box remembers whose each card is, across games.

A card names its holder: the journal's meta `rfid.names` keeps {tag: name} for every card
the box has been told about (at setup, or when an unknown card was given to a player during
a game). A name is on one card at most: naming a card with a name another card had moves
it (a player who changed cards), so a name never shows twice. Each game also keeps which
seat each card is (`rfid.<game>`, the controller's `tags`): the private view on a tap.

Where a reader is fitted (the configuration's `[rfid] enabled`, `Controller.rfid_reader`),
the setup's names step offers the players' cards: each player taps theirs, a card seen
before gives its name at once, an unknown one asks its name once (chosen from the names the
box proposes, or spelled, firmware/screens/cards.py). Without a reader nothing changes.

A mixin of `firmware.controller.Controller`.
"""
from __future__ import annotations

import json

NAMES_META = "rfid.names"


class CardFlow:
    rfid_reader = False        # a reader is fitted: the setup offers the players' cards

    def card_names(self) -> dict:
        """{tag: name} of every card the box remembers ({} without a journal)."""
        if self.journal is None:
            return {}
        raw = self.journal.get_meta(NAMES_META)
        try:
            names = json.loads(raw) if raw else {}
        except ValueError:
            return {}
        return {str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {}

    def remember_card(self, tag: str, name: str) -> None:
        """The card `tag` is `name`'s from now on; another card that had the name loses it."""
        if self.journal is None:
            return
        names = {k: v for k, v in self.card_names().items() if v.lower() != name.lower() and k != tag}
        names[tag] = name
        self.journal.set_meta(NAMES_META, json.dumps(names, ensure_ascii=False, sort_keys=True))

    def _card_in_game(self, tag) -> bool:
        """A card the box knows, held by a player of this game: it is that player's seat
        from now on (no question asked). False when the box cannot tell whose it is."""
        name = self.card_names().get(tag)
        players = [p.lower() for p in self.session.players]
        if name is None or name.lower() not in players:
            return False
        self.tags[tag] = players.index(name.lower())
        self.save_tags()
        return True
