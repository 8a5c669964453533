"""How many examples a property test draws, and what the random games played.

`props(n)` is the settings of a property test that draws n examples under `make test`
and n x FUZZ_SCALE under `make fuzz` (HYPOTHESIS_PROFILE=fuzz). The profile itself
(derandomised or not) is chosen in tests/conftest.py.

`played(name, actions)` counts one random game and its actions, so that a fuzz run can
say how much it played (printed at the end of the pytest run).
"""
import os
from collections import defaultdict

from hypothesis import settings

FUZZING = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
FUZZ_SCALE = int(os.environ.get("FUZZ_SCALE", "50"))
COUNTS: dict[str, list[int]] = defaultdict(lambda: [0, 0])
TRIED: dict[str, list[int]] = defaultdict(lambda: [0, 0])   # damaged inputs: [tried, refused]


def props(examples: int) -> settings:
    return settings(max_examples=examples * FUZZ_SCALE if FUZZING else examples)


def played(name: str, actions: int) -> None:
    count = COUNTS[name]
    count[0] += 1
    count[1] += actions


def tried(category: str, refused: bool) -> None:
    """Count one damaged input of `category` (tests/firmware/test_inputs_fuzz.py) and whether it was
    refused, so that a fuzz run can say how many of each it tried."""
    count = TRIED[category]
    count[0] += 1
    count[1] += bool(refused)
