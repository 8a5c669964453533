"""The pending decision: who must act and which actions are legal, as data.

The firmware builds its menus from this and never re-implements rules; the engine uses
the same description to refuse an action with a message naming what is allowed, and the
property tests draw random legal games from it.

A decision lists `Option`s, one per action kind allowed now, each field constrained by a
domain: `Choice` (a list), `Die` (a die's faces), `IntRange` (lo..hi by step) or `Fixed`
(one value); a list field (engines/core/actions.py) by `Items`, one domain per item (each
company's die, each token's player), `Subset` (a checklist: distinct items, lo..hi of
them) or `Arrangement` (an order of given items, each as often as listed). The device
draws a chance action's fields from these same domains (engines/core/chance.py).

It also says how the table answers it (`Decision.interaction`): which kind of screen fits
(a speaking round on the seat buttons, an auction, a chance draw...), which of its options
plays which part in that interaction (`roles`), and what those screens show (`params`:
bidders, answers so far, settlement lines with their amounts). The firmware picks its
screens from that alone, never from a game's name or an action's kind. Each game declares
its interactions per prompt (engines/<game>/interactions.py); `Game` attaches them.
"""
from dataclasses import field

from engines.core.actions import Cell, cell_text
from engines.core.i18n import Joined, Worded
from engines.core.records import record

# Written for a domain that allows nothing now, and for a value left out (an optional field:
# `claim Ana` without its amount), in the language of the refusal that says it.
NOTHING = Worded("allowed.nothing")
LEFT_OUT = Worded("value.missing")


def shown(value):
    """A value as a refusal lists it: a number grouped as the refusal's language groups
    every amount ("2 700 000"), None as left out, anything else as the protocol writes it."""
    return value if type(value) is int else LEFT_OUT if value is None else str(value)


@record(frozen=True)
class Choice:
    values: tuple

    def __contains__(self, value):
        return not isinstance(value, bool) and value in self.values  # True == 1 is no lot count

    def describe(self):
        # a number grouped as the refusal's language groups every amount ("2 700 000")
        return Joined(", ", (shown(v) for v in self.values)) if self.values else NOTHING

    def to_json(self):
        # a grid cell is written as in the command language (`B4`), not as a pair
        return {"choice": [cell_text(v) if isinstance(v, Cell) else v for v in self.values]}


@record(frozen=True)
class Die(Choice):
    """A die with its own faces, as printed, repeats included (Dividends' black die:
    1 1 2 2 3 3): any of its faces is allowed (`values`, each once, in order) and the
    device rolls one face of the six (`faces`), so a face printed twice comes up twice as
    often. `name` is which die it is, when a game has several (Dividends' "black")."""
    faces: tuple = ()
    name: str = ""

    @classmethod
    def of(cls, faces, name=""):
        return cls(tuple(sorted(set(faces))), tuple(faces), name)

    def to_json(self):
        return {"choice": list(self.values), "faces": list(self.faces), "die": self.name}


@record(frozen=True)
class IntRange:
    lo: int
    hi: int
    step: int = 1

    def __contains__(self, value):
        return isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi and (value - self.lo) % self.step == 0

    def describe(self):
        # in the language of the refusal that says it, each bound grouped as every amount is
        return Worded("allowed.range", lo=self.lo, hi=self.hi, step=self.step)

    def to_json(self):
        return {"range": [self.lo, self.hi, self.step]}


@record(frozen=True)
class Fixed:
    value: object

    def __contains__(self, value):
        return not isinstance(value, bool) and value == self.value

    def describe(self):
        return NOTHING if self.value is None else shown(self.value)   # Fixed(None): a field left out

    def to_json(self):
        return {"fixed": self.value}


@record(frozen=True)
class Subset:
    """A checklist: a list of distinct values taken from `values`, from `lo` to `hi` of them
    (titles to buy, trusts to put up for auction). What else binds the choice (a total
    price, a count to reach) is the game's rule, checked by its handler."""
    values: tuple
    lo: int = 0
    hi: int | None = None

    def __contains__(self, value):
        if not isinstance(value, tuple) or len(set(value)) != len(value):
            return False
        most = len(self.values) if self.hi is None else self.hi
        return self.lo <= len(value) <= most and all(v in self.values for v in value)

    def describe(self):
        most = len(self.values) if self.hi is None else min(self.hi, len(self.values))
        return Worded("allowed.subset", lo=self.lo, hi=most, values=", ".join(str(v) for v in self.values) or NOTHING)

    def to_json(self):
        return {"subset": list(self.values), "lo": self.lo, "hi": self.hi}


@record(frozen=True)
class Arrangement:
    """An order of the items of `items` (a multiset: each value as many times as it is
    listed): plaques laid over squares, a shuffled deck. The device draws one; entered by
    hand it is checked to hold each item exactly as often."""
    items: tuple

    def __contains__(self, value):
        return isinstance(value, tuple) and sorted(map(str, value)) == sorted(map(str, self.items)) \
            and all(v in self.items for v in value)

    def describe(self):
        counts = {}
        for item in self.items:
            counts[item] = counts.get(item, 0) + 1
        return Worded("allowed.arrangement", items=", ".join(f"{v} x{n}" for v, n in counts.items()))

    def to_json(self):
        return {"arrangement": list(self.items)}


@record(frozen=True)
class Items:
    """The domain of a list field: exactly one item per domain of `items`, in order, each
    within its own (Dividends' dice: one move per company, each on its zone's die).
    `labels` says what each item is for (the company a die moves), for the screens that
    ask the items one by one; `distinct`: no value twice (a deal: each player once)."""
    items: tuple
    labels: tuple = ()
    distinct: bool = False

    def __contains__(self, value):
        return (isinstance(value, tuple) and len(value) == len(self.items)
                and all(v in d for v, d in zip(value, self.items))
                and not (self.distinct and len(set(value)) != len(value)))

    def describe(self, show=str):
        """What the list may hold, worded in the refusal's language; `show` writes a value (a
        seat as the player's name)."""
        if not self.items:
            return NOTHING
        def one(domain):
            values = getattr(domain, "values", None)
            return domain.describe() if values is None else ", ".join(str(show(v)) for v in values)
        if self.distinct and len(set(self.items)) == 1:
            return Worded("allowed.distinct", count=len(self.items), values=one(self.items[0]))
        labels = self.labels or tuple(str(i + 1) for i in range(len(self.items)))
        return Joined("; ", (Joined(": ", (label, one(domain))) for label, domain in zip(labels, self.items)))

    def to_json(self):
        return {"items": [d.to_json() for d in self.items], "labels": list(self.labels), "distinct": self.distinct}


@record(frozen=True)
class Option:
    kind: str
    fields: dict = field(default_factory=dict)  # field name -> domain

    def to_json(self):
        return {"kind": self.kind, "fields": {k: d.to_json() for k, d in self.fields.items()}}


class Interactions:
    """The kinds of interaction a decision can ask for (the screens the box has for them).

    Roles name the options an interaction uses, so a screen builds its actions without
    knowing the game's kind names."""

    CHOICE = "choice"                  # the operator picks among the options (a menu, or one entry)
    SPEAKING_ROUND = "speaking_round"  # one seat at a time answers how many lots; role ANSWER
    LOT_AUCTION = "lot_auction"        # the price rises; bidders hold to stay in; roles STEP, STAY
    OPEN_AUCTION = "open_auction"      # anyone raises any time, silence sells; roles OFFER, SILENCE
    CHANCE = "chance"                  # the device may draw it (dice, a tile): role DRAW, outcome shown
    PAYMENT = "payment"                # the engine computes a payment, confirmed with its outcome: CONFIRM
    PAYDAY = "payday"                  # a payday with each player's breakdown: role CONFIRM
    SETTLEMENT = "settlement"          # a company's buyers pay: role CONFIRM, lines with amounts
    FIRST_PLAYER = "first_player"      # who starts, the device's dice in params: role CHOOSE
    OVER = "over"                      # the game has ended: the ranking
    # a piece placed on a grid: role PLACE (an action with a Cell field), params `map` (the
    # drawn rows), `origin`, `cells` (the legal cells, each with the engine's preview) and
    # `start` (where the cursor starts); the cursor moves only between the legal cells
    PLACEMENT = "placement"
    CHECKLIST = "checklist"            # tick several items of a list (a Subset field): role CHECK;
                                       # params: items with their lines, the most to tick
    OFFER_WINDOW = "offer_window"      # an offer on the table: others overbid (OFFER) until the
                                       # silence closes it (SILENCE), then the offerer accepts
                                       # (CONFIRM) or lets it lapse (SILENCE); params.silence_s
    ALL = (CHOICE, SPEAKING_ROUND, LOT_AUCTION, OPEN_AUCTION, CHANCE, PAYMENT, PAYDAY, SETTLEMENT,
           FIRST_PLAYER, OVER, PLACEMENT, CHECKLIST, OFFER_WINDOW)

    # Roles: which option of the decision does what in its interaction.
    ANSWER = "answer"      # a speaking round's answer (player, lots)
    STEP = "step"          # a lot auction: the price moves one step
    STAY = "stay"          # a lot auction: a bidder keeps, cuts or drops their request (player, lots)
    OFFER = "offer"        # an open auction: a bid (player, amount)
    SILENCE = "silence"    # an open auction: what the silence does (sell, or deal what is left)
    DRAW = "draw"          # the chance action the device may fill
    CONFIRM = "confirm"    # the one action OK applies
    CHOOSE = "choose"      # who starts (player)
    PLACE = "place"        # a placement on a grid: the action naming the cell
    CHECK = "check"        # a checklist: the action whose list field holds the ticked items
    ROLES = (ANSWER, STEP, STAY, OFFER, SILENCE, DRAW, CONFIRM, CHOOSE, PLACE, CHECK)


@record(frozen=True)
class Interaction:
    """How a decision is answered: `kind` (one of `Interactions.ALL`), `roles` (role ->
    action kind offered by the decision) and `params` (JSON the screens show)."""

    kind: str = Interactions.CHOICE
    roles: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)

    def to_json(self):
        return {"kind": self.kind, "roles": dict(self.roles), "params": self.params}


@record(frozen=True)
class Decision:
    """`actor` is the seat expected to answer, or None when the operator (the table) acts."""

    prompt: str
    params: dict
    actor: int | None
    options: tuple = ()
    interaction: Interaction = Interaction()   # attached by Game from the game's declaration

    def option(self, kind):
        for opt in self.options:
            if opt.kind == kind:
                return opt
        return None

    def role(self, role):
        """The option playing `role` in the interaction, or None when none is offered now."""
        kind = self.interaction.roles.get(role)
        return self.option(kind) if kind is not None else None

    def to_json(self):
        return {
            "prompt": self.prompt,
            "params": self.params,
            "actor": self.actor,
            "options": [o.to_json() for o in self.options],
        }   # the interaction is left out: derived from the game, it is no part of its state
