"""The session is closed (MB11): the ranking by wealth is final; corrections still apply."""

from engines.core.decision import Decision
from engines.core.records import record
from engines.maxibourse.steps.base import Frame


@record
class Over(Frame):
    reason: str
    rumours = False

    def decision(self, game):
        return Decision("prompt.mb.over", {"reason": self.reason}, None, ())
