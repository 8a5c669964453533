"""A game is a fold over its actions.

`Game` holds the machinery every engine shares: checking an action against the pending
decision (engines/core/check.py), applying it atomically (a refused action leaves the state
as it was), collecting events, replaying a list of actions and undoing by replay. A
concrete game provides `initial_state`, `decision`, its actions' handlers (as a `StepGame`,
a stack of steps that own their actions: engines/core/steps.py), and declares what the rest
of the box asks of every game: its player bounds, formats and settings, its `snapshot`,
whether it is `over`, and how the device draws its chance actions (`fill_chance`). What
every game shares around the table (cash, seat order, the ranking, the snapshot's
envelope, corrections, what the menus ask) is engines/core/table.py. The contract test
(tests/core/test_game_contract.py) holds every registered game to this.

Each decision carries its interaction (engines.core.decision.Interaction): a game declares
them per prompt in its package's `interactions` module (PROMPTS: prompt -> (interaction,
roles), and `params(game, decision, interaction)`), and `decision()` attaches them here, in
one place, so no decision site of a game has to. `preview(act)` says what an action would
do (its events) without changing anything, for the confirmation screens.
"""
import copy
import functools
import importlib
import io
import pickle

from engines.core import chance
from engines.core.actions import Action, ActionSet
from engines.core.check import check
from engines.core.decision import Decision, Interaction
from engines.core.errors import IllegalAction
from engines.core.events import Event
from engines.core.log import Log


class Game:
    name = ""
    CHECKPOINT_EVERY = 100  # undo replays from the last checkpoint, not from the start
    ACTIONS: ActionSet
    PLAYERS: tuple[int, int]        # the fewest and the most players the rulebook allows
    FORMATS: tuple[str, ...] = ()   # the rulebook's formats (header `format`), when it has several
    SETTINGS: dict = {}             # header `set` name -> (default, allowed values or a type)
    _held: Decision | None = None   # the decision `hold_decision` keeps, while it keeps one

    def __init_subclass__(cls, **kwargs):
        """Wrap a game's own `decision()` so every decision it returns carries its
        interaction (the game's declaration in engines/<game>/interactions.py), attached
        once, by the game class's own `decision`."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("decision")
        if own is None or getattr(own, "attaches_interaction", False):
            return

        @functools.wraps(own)
        def decision(self):
            if type(self).decision is not decision:
                return own(self)    # called by a subclass's decision, which attaches it to what it returns
            return self._held or with_interaction(self, own(self))   # held: see hold_decision

        decision.attaches_interaction = True
        cls.decision = decision

    def __init__(self, header: dict):
        self.header = header
        self.players: list[str] = list(header["players"])
        self.seed = header.get("seed", 0)
        self.log: list[Action] = []
        self._events: list[Event] | None = None
        self._trusted = False  # unfolding actions already checked: see unfold()
        if "s" in self.__dict__:
            # `restore` set the state read back from a checkpoint before calling this: the
            # initial state (and its checkpoint 0) would be built only to be thrown away; an
            # undo past that checkpoint builds it then.
            self._checkpoints = {}
        else:
            self.s = self.initial_state()
            self._checkpoints = {0: self.frozen_state()}  # actions applied -> state then (pickled)

    # To be provided by each game --------------------------------------------
    def initial_state(self):
        raise NotImplementedError

    def decision(self) -> Decision:
        raise NotImplementedError

    def snapshot(self) -> dict:
        """The whole state as JSON (what `corbeille script` prints), with the dotted paths
        of its private fields (hidden cash...) listed under "private" when it has any."""
        raise NotImplementedError

    @property
    def over(self) -> bool:
        """The game has ended: only an undo (or a correction the game allows) follows."""
        raise NotImplementedError

    def fill_chance(self, act: Action, rng) -> Action:
        """The action with what the device draws filled in from `rng` (dice left empty...):
        each field of an action flagged CHANCE drawn from the domain the decision declares
        for it (engines/core/chance.py). A game overrides this only for a draw that is not
        one value per field (a deal of tokens is a permutation); any other action, or one
        not offered now, comes back unchanged."""
        return chance.fill_chance(self, act, rng)

    def chance_position(self) -> int:
        """The position the device's draw for the pending decision is made at (what
        `chance.chance_rng` seeds it with): the number of actions so far. A game whose table
        may act aside while a draw is on the screen (a free sale, a correction before the
        dice are confirmed) keeps the position of the draw it showed."""
        return len(self.log)

    # Shared machinery --------------------------------------------------------
    def preview(self, act: Action) -> list[Event]:
        """The events applying `act` would emit, computed by applying it to a copy of the
        game: this game's state, log and checkpoints are left exactly as they were. A
        refused action raises the same IllegalAction `apply` would."""
        trial = copy.copy(self)
        trial.s = pickle.loads(self.frozen_state())    # a copy as a checkpoint makes it: faster than deepcopy
        trial.log = self.log[:]         # a copy; a resumed game's older actions stay unparsed
        trial._checkpoints = dict(self._checkpoints)
        trial._events = None
        return trial.apply(act, atomic=False)

    @functools.cached_property
    def catalog_prefix(self) -> str:
        """The prefix of this game's catalog keys (engines/registry.py), "" for a game the
        registry does not list: the game's own money and rules in texts of core's."""
        from engines.registry import games
        entry = games().get(self.name)
        return entry.prefix if entry is not None else ""

    def emit(self, key: str, **params) -> None:
        events = self._events
        if events is not _UNHEARD:   # a replay's events are read by nobody: none are built
            events.append(Event(key, params))

    def emit_event(self, event: Event) -> None:
        """`emit` for an event already made (a ledger's transfer, a move of lots returns
        its own), appended as it is rather than its key and parameters made into another."""
        events = self._events
        if events is not _UNHEARD:
            events.append(event)

    def refusal(self, act: Action, decision: Decision, field: str | None) -> IllegalAction | None:
        """The rule that refuses `act`, which `decision` does not allow: an IllegalAction
        saying why in the game's own words ("no certificate left", "has no influence card"),
        or None when the generic message says it all. `field` is the first field of the
        option, in its order, whose value the decision refuses (`check` has just found it:
        a hook never searches again), None when the decision offers no option of `act`'s
        kind. Called only for refused actions; it must not change the state."""
        return None

    def vet(self, act: Action) -> IllegalAction | None:
        """Why the state refuses `act` though the decision allows its every field (a correction
        the state cannot take), or None: asked by `check`, before anything moves (no rebuild)."""
        return None

    def check(self, act: Action, decision: Decision | None = None) -> None:
        """Refuse an action the pending decision does not allow: the game's own reason first
        (`refusal`), then what is allowed (engines/core/check.py); then `vet`'s. `decision` is this game's
        `decision()` for its state now, when the caller holds it already (the box's session
        keeps it per version): building it again is most of a check's time."""
        try:
            check(self, act, self.decision() if decision is None else decision)
        except IllegalAction as error:
            error.in_money_of(self.catalog_prefix)
            raise

    def seat_name(self, value):
        """A seat as the players call it (its player's name); any other value as it is."""
        if isinstance(value, int) and 0 <= value < len(self.players):
            return self.players[value]
        return value

    def apply(self, act: Action, atomic: bool = True, decision: Decision | None = None) -> list[Event]:
        """Apply one action. A refused action changes nothing: most are refused by `check`
        before anything moves; one refused by its handler half-way is taken back by
        rebuilding the state from the last checkpoint (a replay of at most CHECKPOINT_EVERY
        actions), so an accepted action, the common case, pays for no copy of the state.
        `atomic=False` skips that rebuild: only for replays, where a refusal aborts the
        whole replay. `decision`: the pending decision, when the caller holds it (`check`)."""
        if not self._trusted:
            # `check(act)` alone when no decision is given: a game or test may wrap `check`.
            self.check(act) if decision is None else self.check(act, decision)
        self._held, self._events = None, []   # the decision held (hold_decision) was the state's before it
        try:
            self.handle(act)
            self.after_action()
        except BaseException as error:
            if atomic:
                self._rebuild(len(self.log))
            if isinstance(error, IllegalAction):
                error.in_money_of(self.catalog_prefix)
            raise
        finally:
            events, self._events = self._events, None
        self._logged(act)
        return events

    def _logged(self, act: Action, first: int = 0) -> None:
        """`act` was applied: into the log, and a checkpoint every CHECKPOINT_EVERY actions
        from the `first`-th action on (a replay takes only its last one: `_replay`)."""
        log = self.log
        log.append(act)
        if len(log) % self.CHECKPOINT_EVERY == 0 and len(log) >= first:
            self._checkpoints[len(log)] = self.frozen_state()

    def frozen_state(self) -> bytes:
        """The state now as a checkpoint keeps it: pickled, which holds a copy of the same
        object graph in a fraction of the memory of a deep copy, and is made and read back
        faster (docs/performance.md)."""
        return freeze(self.s)

    def frozen_at(self, count: int) -> bytes | None:
        """The checkpoint kept after the first `count` actions (`frozen_state`), if any: a
        journal keeps the latest as the game's snapshot (firmware/journal/snapshots.py)."""
        return self._checkpoints.get(count)

    @classmethod
    def restore(cls, header: dict, actions, count: int, frozen: bytes) -> "Game":
        """The game after `actions`, like `replay(..., checked=False)`, but its state after
        the first `count` of them read from `frozen` (their checkpoint, `frozen_state`)
        instead of replayed: those are only read into the log, the rest are replayed. For
        actions this same engine accepted and a checkpoint it made after exactly those
        (a journal's snapshot, verified against its hash chain and this engine's rules).
        `actions` may be a `Log` of unparsed texts (engines/core/log.py): the first `count`
        then stay unparsed until something reads them; only the rest are parsed, to replay."""
        game = cls.__new__(cls)
        game.s = thaw(frozen, {"engines", cls.__module__.split(".")[0]})
        game.__init__(header)           # seeing `s` set, it builds no initial state
        if isinstance(actions, Log):
            game.log, rest = actions[:count], actions[count:]
        else:
            rest = iter(actions)
            game.log = [act for _, act in zip(range(count), rest)]
        if len(game.log) != count:
            raise ValueError(f"a checkpoint after {count} actions, but only {len(game.log)} actions")
        game._checkpoints[count] = frozen
        game._replay(rest, checked=False)
        return game

    def handle(self, act: Action) -> None:
        """Run the handler of an accepted action: the game's `on_<kind>` (a StepGame asks
        its top step first, engines/core/steps.py)."""
        getattr(self, "on_" + act.kind)(act)

    def after_action(self) -> None:
        """Hook for checks every action ends with (invariants, closing conditions)."""

    @classmethod
    def older_readings(cls, header: dict) -> tuple:
        """Headers under which a game recorded by an earlier version of this engine replays
        as it was played, when this version enters the same moves with other actions (A
        Vendre! without a board asked every square again at every landing). Tried only on a
        recording the header as written refuses (firmware/session.py `read_recording`)."""
        return ()

    @classmethod
    def replay(cls, header: dict, actions, checked: bool = True) -> "Game":
        """The game after `actions`. `checked=False` skips `check` (the pending decision
        built and matched for every action, about half of a replay's time): only for
        actions this same engine already accepted (its own log, or a journal whose hash
        chain proves the actions are the ones it accepted). A handler's refusal still raises."""
        game = cls(header)
        game._replay(actions, checked)
        return game

    @classmethod
    def unfold(cls, header: dict, actions, checked: bool = True):
        """Replay `actions` one at a time, yielding (the game after it, the action, its
        events): what a history or a chart of the evening reads (`checked` as in replay)."""
        game = cls(header)
        game._trusted = not checked
        for act in actions:
            yield game, act, game.apply(act, atomic=False)

    def _replay(self, actions, checked: bool, every_checkpoint: bool = False) -> None:
        """Apply `actions` as `apply(act, atomic=False)` does, one after the other, with
        what only a replay may leave out: their events (a replay returns none, so `emit`
        builds none), unchecked the check, and, when the number of actions is known
        (`every_checkpoint` False), the checkpoints before the one an undo of the last
        action starts from: a checkpoint only saves an undo time, and a replay's state at
        any count can be replayed again, so only that one (and one at the very end, when
        the replay ends on a hundredth action) is taken as the replay passes it;
        `_rebuild` takes the others the first time an undo goes back past them
        (every_checkpoint). A refusal aborts the
        replay, the state half-changed (the caller starts again or gives up)."""
        handle, after_action, logged = self.handle, self.after_action, self._logged
        if every_checkpoint or not hasattr(actions, "__len__"):
            first = 0                               # a stream (a resume reading rows): all
        else:
            # the one an undo of the last action starts from (before the last action), and
            # the one after it when the replay ends on a hundredth action
            every = self.CHECKPOINT_EVERY
            first = (len(self.log) + len(actions) - 1) // every * every
        events, self._events, self._held = self._events, _UNHEARD, None   # a decision held: another state's
        try:
            for act in actions:
                if checked:
                    self.check(act)
                handle(act)
                after_action()
                logged(act, first)
        finally:
            self._events = events

    def undo(self) -> Action:
        """Forget the last action by replaying the others (undo is a replay). Replaying
        starts from the last checkpoint before it: the same states, fewer steps."""
        if not self.log:
            raise IllegalAction("error.nothing_to_undo")
        undone = self.log[-1]
        self._rebuild(len(self.log) - 1)
        return undone

    def undo_to(self, length: int) -> list[Action]:
        """Forget every action after the first `length` (an undo to an earlier point of the
        game, one replay); returns the actions undone, oldest first."""
        if not 0 <= length < len(self.log):
            raise IllegalAction("error.undo_to", length=length, actions=len(self.log))
        undone = self.log[length:]
        self._rebuild(length)
        return undone

    def _rebuild(self, target: int) -> None:
        """The state after the first `target` actions of the log, from the last checkpoint
        at or before it; the log keeps those actions only."""
        log = self.log
        if 0 not in self._checkpoints:    # a restored game's first undo past its snapshot
            self._checkpoints[0] = freeze(self.initial_state())
        start = max(n for n in self._checkpoints if n <= target)
        self._checkpoints = {n: state for n, state in self._checkpoints.items() if n <= target}
        self.s, self.log = pickle.loads(self._checkpoints[start]), log[:start]   # made here: trusted
        # This engine accepted them already; every checkpoint on the way is taken, so an undo
        # past the last one of a replay pays for that replay once, not again 100 actions on.
        self._replay(log[start:target], checked=False, every_checkpoint=True)


# `Game._events` while a replay runs: `emit` builds no event (see `_replay`).
_UNHEARD = object()


class _StateUnpickler(pickle.Unpickler):
    """Reads a state back: classes of the engines' packages (`roots`) and plain builtins,
    nothing else (a snapshot comes from a file: a pickle naming another function is
    refused, not run)."""

    BUILTINS = frozenset({"set", "frozenset", "dict", "list", "tuple", "int", "str", "bytes", "bool", "float",
                          "range", "slice", "complex", "bytearray", "object"})
    COLLECTIONS = frozenset({"OrderedDict", "defaultdict", "Counter", "deque"})

    def __init__(self, file, roots):
        super().__init__(file)
        self.roots = roots

    def find_class(self, module, name):
        if (module.split(".")[0] in self.roots or (module == "builtins" and name in self.BUILTINS)
                or (module == "collections" and name in self.COLLECTIONS)):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a game state may not hold {module}.{name}")


def freeze(state) -> bytes:
    """`state` as a checkpoint keeps it (`Game.frozen_state`)."""
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)


def thaw(frozen: bytes, roots=frozenset({"engines"})):
    """A state read back from a checkpoint that comes from a file (`Game.frozen_state`)."""
    return _StateUnpickler(io.BytesIO(frozen), roots).load()


def hold_decision(game: Game) -> Decision:
    """`game.decision()` built once (or the one held already) and given again until an
    action is applied, the state is rebuilt (an undo, a handler's refusal) or
    `release_decision`: for a caller that asks it several times of a state and changes the
    state only through `apply` and `undo` meanwhile (random play: a draw, its chance
    fields, the check of the action, the checks after it)."""
    game._held = game.decision()
    return game._held


def release_decision(game: Game) -> None:
    """`game.decision()` is built again at each call, as the state may change otherwise."""
    game._held = None


def with_interaction(game, decision: Decision) -> Decision:
    """`decision` with its interaction attached, as the game's package declares it;
    a game without an `interactions` module answers every decision by choice."""
    declared = interactions_of(type(game))
    if declared is None:
        return decision
    entry = declared.PROMPTS.get(decision.prompt)
    if entry is None:
        raise AssertionError(f"{game.name}: no interaction declared for {decision.prompt!r} "
                             f"(engines/{game.name}/interactions.py)")
    kind, roles = entry
    offered = {role: k for role, k in roles.items() if decision.option(k) is not None}
    # made directly, not by dataclasses.replace, which looks up every field first: a decision is built at every look
    return Decision(decision.prompt, decision.params, decision.actor, decision.options,
                    Interaction(kind, offered, declared.params(game, decision, kind)))


@functools.cache
def interactions_of(cls):
    """The `interactions` module of the package a game class lives in, or None."""
    package = cls.__module__.rpartition(".")[0]
    if not package:
        return None
    try:
        return importlib.import_module(package + ".interactions")
    except ModuleNotFoundError as error:
        if error.name != package + ".interactions":
            raise
        return None
