"""Box data learned at the table (RM13 as amended): one mechanic for every game.

An owner's box file may leave out what he has not copied (a title, a royalty table, a
price). When play reaches such a piece, the operator reads it off the card or board in
front of him: names are chosen from lists (a production, a country), numbers entered
with the amount entry. What he enters is an action like any other (`learn_<what>`): it
is checked, journaled, undone and replayed like the rest, and the game reads the box
through what was learned so far.

What is learned lives in the game state as a tuple of plain entries (`what`, key,
values...), oldest first, so a checkpoint, an undo and a replay carry it with no more
machinery; `LearnedBox` folds them over the file's box once per change, not once per
look-up. A game declares what it can learn (`LEARNABLES`, read by `corbeille box check`
and `corbeille box learned`), merges an entry into its box (`with_learned`), and either
offers a `learn_<what>` option beside its own (a title on a country square: the table
may hold a card the box does not know) or pushes the `Learn` step when play cannot go on
without the piece (a royalty owed on a trust whose table is unknown).
"""
from engines.core.decision import Decision
from engines.core.records import record
from engines.core.steps import Result, Step

# What each game can learn at the table: the action kinds, for the command line's
# reports and the docs (the games' own learning modules handle them).
LEARNABLES = {
    "richesses": ("learn_title", "learn_royalties", "learn_jokers"),
    "maxibourse": ("learn_nominal",),
    "avendre": ("learn_square", "learn_colour", "learn_title"),    # without a board (AV15)
}


@record
class Learned(Result):
    """What a `Learn` step hands back: the piece it was pushed for is known now."""
    what: str
    key: str


@record
class Learn(Step):
    """Play waits on a piece of box data the box does not know: the operator enters it
    (the game's `learn_option(what, key)`), then the step below goes on with it."""
    what: str                # "royalties", "jokers"...
    key: str = ""            # the piece: a production id ("" when the game has one)
    name = "learn"

    def decision(self, game):
        option = game.learn_option(self.what, self.key)
        return Decision(f"prompt.{game.learn_prefix}.learn_{self.what}", game.learn_params(self.what, self.key),
                        None, (option,))

    def on_learned(self, game):
        return Learned(self.what, self.key)


def remember(game, entry: tuple) -> None:
    """Keep `entry` (what, key, values...) for the rest of the game; the state's tuple is
    replaced, never changed in place, so `LearnedBox` sees a new one."""
    game.s.learned = game.s.learned + (entry,)


def finish_learning(game, what: str, key: str = "") -> None:
    """A `learn_<what>` action was applied: the `Learn` step waiting on that piece, if it
    is on top, hands it back to the step below."""
    step = game.s.steps[-1]
    if isinstance(step, Learn) and step.what == what and step.key in ("", key):
        game.finish(step, step.on_learned(game))


class LearnedBox:
    """The box as the game reads it: the file's, with every learned entry folded in by
    the game's `merge(box, entries)`; folded again only when an entry was added or an
    undo took one away (the state's tuple compared, the same object in the common case)."""

    def __init__(self, box, merge):
        self.file, self.merge = box, merge
        self.learned, self.box = (), box      # the entries last folded, and the box they give

    def of(self, learned: tuple):
        if learned is not self.learned and learned != self.learned:
            self.box = self.merge(self.file, learned) if learned else self.file
        self.learned = learned
        return self.box
