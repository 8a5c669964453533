"""The session is closed (MB11): the ranking by wealth is final; corrections still apply."""
from dataclasses import dataclass

from engines.core.decision import Decision
from engines.maxibourse.steps.base import Frame


@dataclass
class Over(Frame):
    reason: str
    rumours = False

    def decision(self, game):
        return Decision("prompt.mb.over", {"reason": self.reason}, None, ())
