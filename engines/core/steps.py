"""Steps: a game's procedure as a stack of small classes (the model of the 18xx engine).

A step is one part of the procedure (roll the dice, auction the tokens, one player's
turn, a settlement...). It owns what the game offers while it is on top of the stack
and everything that follows from it:

- `decision(game)`: the pending Decision (prompt, params, actor, the options it offers);
- `on_<kind>(game, act)`: the handler of each action it offers, after `Game.check`
  accepted the action against that decision;
- `advance(game)`: the moves that need no choice (a forced sale with one candidate, a
  player not concerned...), played after every action until the game waits again;
- `refusal(game, act, decision)`: why it refuses an action, in the rulebook's words;
  `vet(game, act)`: why its state refuses one its decision allows, before the handler runs;
- `fill_chance(game, act, rng)`: what the device draws for it, only when that is not one
  value per field (a deal of tokens); by default each field of a chance action is drawn
  from its domain (Game.fill_chance, engines/core/chance.py); `chance_position(game)`:
  where that draw is made (the number of actions so far, unless the step keeps the
  draw it showed while the table acted aside).

A step that is over returns a `Result` (from a handler or from `advance`): the game pops
it and hands the result to the step below (`resume(game, result)`), which goes on, pushes
the next step or finishes in turn. A step that needs another procedure first (a payment
that needs a sale) pushes it with `game.push` and reads its result when it comes back.

Steps and results are plain dataclasses kept in the game state (`game.s.steps`, the top
last), so the state still copies, compares and deep-copies as plain data: undo, replay
and checkpoints do not know about steps.
"""

from engines.core import chance
from engines.core.decision import Decision
from engines.core.game import Game
from engines.core.records import record


@record
class Result:
    """What a finished step hands to the step below it; each game subclasses it with the
    fields its steps report (the turn order an auction set, the cash a sale raised...)."""


class Step:
    """One part of a game's procedure; subclasses are dataclasses (their fields are the
    step's own state). `name` is what the snapshot says the game is in."""

    name = ""

    def decision(self, game) -> Decision:
        raise NotImplementedError(f"{type(self).__name__} offers no decision")

    def actor(self, game) -> int | None:
        """The seat expected to act, or None when the table (the operator) acts."""
        return None

    def advance(self, game) -> Result | None:
        """Play what needs no choice; a Result when the step is over, None when it waits
        for the decision it offers (or has pushed a step to wait on)."""
        return None

    def resume(self, game, result: Result) -> Result | None:
        """The step above this one finished with `result`; a Result when that ends this
        step too."""
        raise NotImplementedError(f"{type(self).__name__} pushed no step: it cannot resume with {result!r}")

    def refusal(self, game, act, decision):
        """An IllegalAction saying why `act` is refused here, or None (see Game.refusal)."""
        return None

    def vet(self, game, act):
        """An IllegalAction saying why this step's state refuses `act`, which its decision
        allows, before its handler runs, or None (see Game.vet)."""
        return None

    def fill_chance(self, game, act, rng):
        return chance.fill_chance(game, act, rng)

    def high_bid_of(self, seat: int) -> int | None:
        """The bid `seat` leads an auction of this step with, or None (no auction here)."""
        return None

    def turn_start(self, game) -> int | None:
        """The seat whose turn this step starts, nothing of it played yet (the operator may
        give it to another), or None: a game's turn step says when."""
        return None

    def cash_corrected(self, game, seat: int) -> None:
        """A correction changed `seat`'s cash: what this step holds that depends on it (a bid
        he can no longer pay) is put right here, with its event; nothing by default."""

    def chance_position(self, game) -> int:
        """Where the device draws for this step's decision (Game.chance_position)."""
        return len(game.log)


# `Step.advance`, which plays nothing: a step that keeps it waits on its decision at once.
_WAITS = Step.advance


class StepGame(Game):
    """A Game whose procedure is a stack of Steps in `self.s.steps` (the state a game's
    `initial_state` returns has a `steps` list, its first steps in it).

    An action is handled by the top step's `on_<kind>` when it has one, else by the game
    (`handle_aside`: the actions allowed at any time, corrections). After each action the
    steps advance until one waits for a decision."""

    def anytime_options(self) -> tuple:
        """Actions offered beside the step's own, whatever the step (corrections...)."""
        return ()

    @property
    def step(self) -> Step:
        return self.s.steps[-1]

    def decision(self) -> Decision:
        d = self.step.decision(self)
        return Decision(d.prompt, d.params, d.actor, tuple(d.options) + tuple(self.anytime_options()))

    def refusal(self, act, decision, field):
        return self.step.refusal(self, act, decision)

    def vet(self, act):
        return self.step.vet(self, act)

    def fill_chance(self, act, rng):
        return self.step.fill_chance(self, act, rng)

    def chance_position(self):
        return self.step.chance_position(self)

    def handle(self, act) -> None:
        step = self.s.steps[-1]           # self.step, without the property (every action)
        handler = getattr(step, "on_" + act.kind, None)
        if handler is None:
            self.handle_aside(act)
            return
        result = handler(self, act)
        if result is not None:
            self.finish(step, result)

    def handle_aside(self, act) -> None:
        """An action no step handles (offered at any time): the game's own `on_<kind>`."""
        getattr(self, "on_" + act.kind)(act)

    def push(self, step: Step) -> None:
        self.s.steps.append(step)

    def finish(self, step: Step, result: Result) -> None:
        """`step` (the top) is over: pop it and hand `result` to the step below, and on
        down while each step it reaches is over too."""
        while True:
            assert self.s.steps[-1] is step, f"{step!r} finished but is not the top step"
            self.s.steps.pop()
            step = self.s.steps[-1]
            result = step.resume(self, result)
            if result is None:
                return

    def after_action(self) -> None:
        self.advance()

    def advance(self) -> None:
        """Play everything that needs no choice, until the top step waits for a decision."""
        while True:
            steps = self.s.steps              # read again each time: a step may replace the stack
            step = steps[-1]
            if step.__class__.advance is _WAITS:
                return  # Step.advance plays nothing: the step waits (most steps, after most actions)
            depth = len(steps)
            result = step.advance(self)
            if result is not None:
                self.finish(step, result)
                continue
            steps = self.s.steps
            if steps[-1] is step and len(steps) == depth:
                return  # waits on its decision
