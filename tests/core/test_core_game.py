"""engines.core.game: a refused action leaves the state exactly as it was, even when its
handler had already changed it; undo is a replay from the last checkpoint."""
from dataclasses import dataclass, field

import pytest

from engines.core.actions import ActionSet, Signed, action
from engines.core.decision import Decision, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.game import Game


@action("add")
class Add:
    amount: Signed


@dataclass
class Tally:
    total: int = 0
    history: list = field(default_factory=list)


class Counter(Game):
    """Adds amounts; an amount that would take the total over 40 is refused *after* the
    handler has already changed the state, as a rule found late in a handler does."""
    name = "counter"
    ACTIONS = ActionSet(Add)
    PLAYERS = (2, 2)
    CHECKPOINT_EVERY = 4

    def initial_state(self):
        return Tally()

    def decision(self):
        return Decision("prompt.add", {}, None, (Option("add", {"amount": IntRange(-50, 50)}),))

    def on_add(self, act):
        self.s.total += act.amount
        self.s.history.append(act.amount)
        self.emit("added", amount=act.amount)
        if self.s.total > 40:
            raise IllegalAction("error.too_much")

    def snapshot(self):
        return {"total": self.s.total, "history": list(self.s.history)}

    @property
    def over(self):
        return False


def game(*amounts):
    g = Counter({"players": ["A", "B"]})
    for amount in amounts:
        g.apply(Add(Signed(amount)))
    return g


@pytest.mark.parametrize("played", [0, 3, 4, 5, 9])  # before, at and after a checkpoint
def test_a_refusal_in_the_handler_leaves_the_state_and_the_log_as_they_were(played):
    g = game(*[1] * played)
    before, log, checkpoints = g.snapshot(), list(g.log), dict(g._checkpoints)
    with pytest.raises(IllegalAction):
        g.apply(Add(Signed(50)))
    assert g.snapshot() == before and g.log == log and g._checkpoints.keys() == checkpoints.keys()
    assert g.apply(Add(Signed(2)))[0].params == {"amount": 2}  # the game goes on from there
    assert g.snapshot() == Counter.replay(g.header, g.log).snapshot()


def test_undo_is_the_replay_of_one_action_fewer_across_checkpoints():
    g = game(*range(1, 10 - 1))
    for k in range(8, 0, -1):
        assert g.undo() == Add(Signed(k))
        assert g.snapshot() == game(*range(1, k)).snapshot()
    with pytest.raises(IllegalAction):
        g.undo()


def test_checkpoints_keep_the_state_compact_and_apart_from_the_game():
    """A long game keeps a checkpoint every CHECKPOINT_EVERY actions for undo: pickled, a
    fraction of the memory a live copy of each state took (the RSS budget), and
    what is restored from one is a state of its own, untouched by what the game did since."""
    import copy
    import pickle
    import tracemalloc

    from bench.randomgame import long_game

    _, _, actions, mb = long_game(600)
    assert len(mb.log) == 600 and sorted(mb._checkpoints) == list(range(0, 601, 100))
    tracemalloc.start()
    live = [copy.deepcopy(state) for state in map(pickle.loads, mb._checkpoints.values())]
    live_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del live
    kept = sum(len(blob) for blob in mb._checkpoints.values())
    assert all(type(blob) is bytes for blob in mb._checkpoints.values()) and kept * 4 < live_bytes
    g = game(1, 2, 3, 4, 5)                      # a checkpoint at 4 actions
    g.undo()                                     # rebuilt from it
    g.s.history.append(99)                       # the restored state is the game's own...
    g.apply(Add(Signed(1)))
    g.undo()                                     # ...so the checkpoint gives the same state again
    assert g.snapshot() == game(1, 2, 3, 4).snapshot()


# ------------------------------------------------------------------- ledger
def test_an_account_that_can_run_dry_pays_what_it_holds_and_says_what_is_left_unpaid():
    from engines.core.ledger import BANK, Ledger

    ledger = Ledger({BANK: 300, 0: 0}, unlimited=())    # A Vendre!'s bank: finite (AV2)
    assert ledger.shortfall(BANK, 500) == 200
    event, short = ledger.pay_what_it_can(BANK, 0, 500, "income")
    assert (event.params["amount"], short, ledger[BANK], ledger[0], ledger.total()) == (300, 200, 0, 300, 300)
    assert ledger.pay_what_it_can(BANK, 0, 100, "income") == (None, 100)
    with pytest.raises(IllegalAction):
        ledger.transfer(BANK, 0, 1, "income")
    unlimited = Ledger({BANK: 0, 0: 0})                  # Maxi Bourse's bank (MB12)
    assert unlimited.pay_what_it_can(BANK, 0, 500, "payday")[1] == 0 and unlimited[BANK] == -500


def test_equal_fortunes_share_a_rank_and_the_next_rank_skips():
    from engines.core.table import rank
    assert rank({0: 500, 1: 900, 2: 500, 3: 100}) == [(1, 1, 900), (2, 0, 500), (2, 2, 500), (4, 3, 100)]
    assert rank({0: 0, 1: 0}) == [(1, 0, 0), (1, 1, 0)]
    assert rank({}) == []
