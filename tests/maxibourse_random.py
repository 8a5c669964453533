"""Random legal Maxi Bourse games for the property tests.

The generator itself lives in bench/randomgame.py, so the benchmarks replay the same kind
of games; this module re-exports it for the tests.

    header, actions, game = random_game(random.Random(7), players=4, fmt="senior",
                                        max_actions=300)
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # bench/ is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.randomgame import (  # noqa: E402
    CORRECTIONS,
    MAX_ATTEMPTS,
    PLAYER_NAMES,
    WEIGHTS,
    Stuck,
    draw_action,
    draw_value,
    header_for,
    is_over,
    random_game,
    state_key,
)

__all__ = ["CORRECTIONS", "PLAYER_NAMES", "WEIGHTS", "Stuck", "draw_action", "draw_value", "header_for",
           "is_over", "random_game", "state_key", "tight_game", "full_state"]


# ------------------------------------------------------------------ tight games
import pickle  # noqa: E402

from engines.core.game import hold_decision, release_decision  # noqa: E402
from engines.core.random_play import StateBefore, draw_and_apply  # noqa: E402
from engines.maxibourse import steps as F  # noqa: E402
from engines.maxibourse.game import MaxiBourse  # noqa: E402

POOR = 10  # a cash-poor start: a tenth of the format's cash


def full_state(game):
    """Everything undo must give back: every field of the state (the procedures under way
    included), the log and what the box shows."""
    fields = {k: v for k, v in vars(game.s).items() if k not in ("ledger", "lots")}
    fields["lots"] = game.s.lots.held
    fields = pickle.loads(pickle.dumps(fields, pickle.HIGHEST_PROTOCOL))   # a deep copy, made faster
    fields["stack"] = repr(game.s.stack)
    fields["ledger"] = dict(game.s.ledger.balances)
    return fields, list(game.log), game.snapshot()


def correction_on_offer(game, rng):
    """A correction aimed where it hurts: lots taken from a holder with lots on offer (a
    sale, an auction or a settlement under way), or handed from the bank during a Titre."""
    targets = [(f.seller, f.company) for f in game.s.stack
               if isinstance(f, (F.Sale, F.Auction, F.Settlement)) and getattr(f, "company", None)]
    targets += [(-1, f.company) for f in game.s.stack if isinstance(f, F.TitreSquare)]
    if not targets:
        return None
    holder, company = rng.choice(targets)
    cls = game.ACTIONS.classes["adjust_lots"]
    if holder >= 0:
        held = game.s.lots.of(company, holder)
        return cls(holder, company, -rng.randint(1, held), "oubli") if held else None
    seats = [s for s in range(len(game.players)) if not game.s.ruined[s]]
    left = game.s.lots.bank(company)
    return cls(rng.choice(seats), company, rng.randint(1, left), "oubli") if left and seats else None


def tight_game(rng, header, max_actions=300, poor=True, corrections=0.3, undos=0.05, on_action=None):
    """A random legal game where play gets tight: players start with a tenth of the cash
    (`poor`), corrections come mid-round (drawn with probability `corrections` per step
    from the pending decision, so also in the middle of a sale or a settlement), and now
    and then the last action is undone, checked to give back the state before it exactly,
    and played again. Returns (game, actions applied, undos checked).

    Stuck (AssertionError) when every draw is refused MAX_ATTEMPTS times in a row."""
    game = MaxiBourse(header)
    applied, undone, refused = 0, 0, 0
    while not isinstance(game.top, F.Turn):  # set-up: picks and the first player
        act = draw_action(game, rng, WEIGHTS, corrections=False)
        game.apply(act)
        applied += 1
    if poor:
        for seat in range(len(game.players)):
            cut = game.cash(seat) - game.cash(seat) // POOR
            game.apply(game.ACTIONS.classes["adjust_cash"](seat, -cut, "cash-poor start"))
            applied += 1
    before = None       # the state before the next draw (StateBefore): kept while nothing changed it
    while applied < max_actions and not is_over(game):
        will_undo = rng.random() < undos
        if before is None:
            before = StateBefore(game)
        correcting = rng.random() < corrections
        act, events, error = draw_and_apply(game, lambda g: (correction_on_offer(g, rng) if correcting and rng.random() < 0.5
                                                             else None) or draw_action(g, rng, WEIGHTS, corrections=correcting))
        if act is None:
            break
        if error is not None:
            # a refusal leaves every field of the state, the log and the screen as they were
            assert before.same(game, full_state), f"refused {act} changed the state"
            refused += 1
            if refused >= MAX_ATTEMPTS:
                raise Stuck(f"{MAX_ATTEMPTS} refusals in a row; decision {game.decision().to_json()}") from None
            continue
        refused = 0
        applied += 1
        if on_action:
            hold_decision(game)     # what the checks after an action read, and the next draw (play_randomly)
            on_action(game, act, events)
        if will_undo:
            after = full_state(game)
            assert game.undo() == act
            assert before.same(game, full_state), f"undo of {act} did not give back the state before it"
            game.apply(act)
            again = full_state(game)
            assert again == after, f"{act} played again after undo gave another state"
            undone += 1
        before = None
    release_decision(game)      # held after a refusal or an action
    return game, applied, undone
