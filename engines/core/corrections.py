"""Operator corrections: the banker puts right what the table got wrong.

A correction is an action flagged CORRECTION (engines/core/actions.py): offered beside what
the game asks now, logged and undone like any action, and told in the history by a
`correction` event (the player, what was corrected, by how much, and the operator's reason).

A game declares the kinds of its state the operator may correct (`TableGame.CORRECTIONS`,
in the order its menus list them), each a `Correction`: the action kind that answers it, the
option the decisions offer for the players still in (None while that kind is not offered),
the refusal of a change the state cannot take, and the change itself. Core does the rest
(engines/core/table.py): it offers every declared kind beside what the game asks now,
refuses or applies the action, and dispatches it whatever step is under way. An option
that depends only on the set-up and the players still in is built once (`@per_game`), so
every decision offers the same object (tests/core/test_decision_work.py).

`Cash` is the kind every game shares: a player's cash, from or to the bank. A player gives
back only what he holds, a bank that can run dry (A Vendre!, AV2) gives only what its till
holds, and a player leading an auction under way keeps at least his bid (the game's
`high_bid_of`, asked of each step) where the game says so; a game whose auction re-checks its
bids instead (Richesses du Monde: a bid above its bidder's corrected cash is withdrawn) says
so in its step's `cash_corrected`, which every step hears after a cash correction. Where cash
is hidden (Dividends DV2, Richesses du Monde RM10) the refusal does not say how much the
player holds.

`WhoseTurn` is the other kind every game may declare: the turn given to another player, at the
start of a turn only (nothing of the turn played yet), so no running decision is broken. The
game's turn step says when it is at its start (`Step.turn_start`: its seat, or None) and the
game starts a turn (`start_turn`, core's `restart_turn` replacing the turn step on top); the
turns go on from the new player.
"""
from engines.core.actions import CORRECTION, MoneyDelta, Seat, Text, action
from engines.core.decision import Choice, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.per_game import per_game
from engines.core.records import record


@action("adjust_cash", CORRECTION, example='adjust_cash Ana +1000 "cheque forgotten"')
class AdjustCash:
    """Correction: PLAYER's cash from (+) or to (-) the bank, with the operator's reason; a
    player gives back only what he holds, a bank that can run dry only what its till holds, and
    an auction's leader keeps at least his bid."""
    player: Seat
    delta: MoneyDelta
    reason: Text


@action("set_turn", CORRECTION, example='set_turn Ben "Ben was skipped"')
class SetTurn:
    """Correction, at the start of a turn: the turn is PLAYER's instead, and the turns go on from
    him, with the operator's reason."""
    player: Seat
    reason: Text


def tell_correction(game, seat, what, delta, reason) -> None:
    """The history's `correction` event: the player corrected (`seat`, or None for what
    belongs to no player: a price, the round, the map), what was corrected, by how much or
    to what, and the operator's reason."""
    game.emit("correction", player="-" if seat is None else game.players[seat], what=what, delta=delta, reason=reason)


class Correction:
    """One kind of state the operator may correct. `kind` is the action that corrects it;
    `reads_state`: its option reads more of the state than the players still in and
    whether the game is over (then the game's corrections are built at every decision)."""
    kind: str = ""
    reads_state: bool = False

    def option(self, game, seats: tuple) -> Option | None:
        """The option offered now for the players `seats` (those still in), or None."""
        raise NotImplementedError

    def refusal(self, game, act) -> IllegalAction | None:
        """Why the state cannot take `act` (the decision allowed its fields), or None."""
        return None

    def apply(self, game, act) -> None:
        """Change the state and say so; `act` was checked and `refusal` found nothing."""
        raise NotImplementedError


@record(frozen=True)
class Cash(Correction):
    """A player's cash from (+) or to (-) the bank, at most `most` at once."""
    most: int
    kind = "adjust_cash"

    def option(self, game, seats):
        return cash_option(game, seats, self.most)

    def refusal(self, game, act):
        seat, delta = act.player, act.delta
        if not 0 <= seat < len(game.players):
            return None
        payer = BANK if delta > 0 else seat
        if not game.s.ledger.can_pay(payer, abs(delta)):
            if payer == BANK:
                return IllegalAction("error.adjust_cash_bank", amount=delta, cash=game.cash(BANK))
            if game.cash_hidden():
                return IllegalAction("error.adjust_cash_hidden", player=game.players[seat], amount=-delta)
            return IllegalAction("error.adjust_cash", player=game.players[seat], amount=-delta, cash=game.cash(seat))
        high = game.high_bid_of(seat)
        if delta < 0 and high is not None and game.cash(seat) + delta < high:
            return IllegalAction("error.adjust_high_bid", player=game.players[seat], amount=high)
        return None

    def apply(self, game, act):
        seat, delta = act.player, act.delta
        game.transfer(*((BANK, seat) if delta > 0 else (seat, BANK)), abs(delta), "correction")
        tell_correction(game, seat, "cash", delta, act.reason)
        for step in list(game.s.steps):
            step.cash_corrected(game, seat)


@record(frozen=True)
class WhoseTurn(Correction):
    """Whose turn it is, at the start of a turn (the game's `turn_start` and `restart_turn`)."""
    kind = "set_turn"

    def option(self, game, seats):
        return turn_option(game, seats)

    def refusal(self, game, act):
        now = game.turn_start()
        if now is None:
            return IllegalAction("error.turn_not_start")
        if act.player == now:
            return IllegalAction("error.turn_same", player=game.players[act.player])
        return None

    def apply(self, game, act):
        old = game.turn_start()
        game.restart_turn(act.player)
        tell_correction(game, act.player, "turn", game.players[old], act.reason)


@per_game
def cash_option(game, seats, most):
    return Option(Cash.kind, {"player": Choice(seats), "delta": IntRange(-most, most)})


@per_game
def turn_option(game, seats):
    return Option(WhoseTurn.kind, {"player": Choice(seats)})
