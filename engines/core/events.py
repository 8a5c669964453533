"""Events: what an action did, as data (a message key and its parameters)."""
from dataclasses import field

from engines.core.records import record


@record(frozen=True)
class Event:
    key: str
    params: dict = field(default_factory=dict)

    def text(self, lang: str = "fr") -> str:
        from engines.core.i18n import text

        return text("event." + self.key, lang, **self.params)

    def to_json(self) -> dict:
        return {"key": self.key, **self.params}
