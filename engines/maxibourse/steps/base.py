"""What every Maxi Bourse step shares."""
from engines.core.steps import Step


class Frame(Step):
    """A Maxi Bourse step. `rumours` is False where the session has not started or is over:
    only corrections are offered beside the step's own actions then (no reveal, no close).
    Its name in the snapshot ("phase") is its class name."""
    rumours = True

    @property
    def name(self):
        return type(self).__name__

    def resume(self, game, result):
        return None  # a step that pushes nothing is never resumed
