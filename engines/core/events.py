"""Events: what an action did, as data (a message key and its parameters)."""
from dataclasses import field

from engines.core.records import record


@record(frozen=True)
class Event:
    key: str
    params: dict = field(default_factory=dict)

    def text(self, lang: str = "fr", money_of: str = "") -> str:
        """The event in words; `money_of`: the catalog prefix of the game whose money a core
        event's amounts are in (`Game.catalog_prefix`)."""
        from engines.core.i18n import text

        return text("event." + self.key, lang, money_of=money_of, **self.params)

    def to_json(self) -> dict:
        return {"key": self.key, **self.params}
