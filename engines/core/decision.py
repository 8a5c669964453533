"""The pending decision: who must act and which actions are legal, as data.

The firmware builds its menus from this and never re-implements rules; the engine uses
the same description to refuse an action with a message naming what is allowed, and the
property tests draw random legal games from it.

A decision lists `Option`s, one per action kind allowed now, each field constrained by a
domain: `Choice` (a list), `IntRange` (lo..hi by step) or `Fixed` (one value).
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Choice:
    values: tuple

    def __contains__(self, value):
        return not isinstance(value, bool) and value in self.values  # True == 1 is no lot count

    def describe(self):
        return ", ".join(str(v) for v in self.values) or "nothing"

    def to_json(self):
        return {"choice": list(self.values)}


@dataclass(frozen=True)
class IntRange:
    lo: int
    hi: int
    step: int = 1

    def __contains__(self, value):
        return isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi and (value - self.lo) % self.step == 0

    def describe(self):
        return f"{self.lo} to {self.hi} in steps of {self.step}"

    def to_json(self):
        return {"range": [self.lo, self.hi, self.step]}


@dataclass(frozen=True)
class Fixed:
    value: object

    def __contains__(self, value):
        return not isinstance(value, bool) and value == self.value

    def describe(self):
        return "nothing" if self.value is None else str(self.value)  # Fixed(None): a field left out

    def to_json(self):
        return {"fixed": self.value}


@dataclass(frozen=True)
class Option:
    kind: str
    fields: dict = field(default_factory=dict)  # field name -> domain

    def to_json(self):
        return {"kind": self.kind, "fields": {k: d.to_json() for k, d in self.fields.items()}}


@dataclass(frozen=True)
class Decision:
    """`actor` is the seat expected to answer, or None when the operator (the table) acts."""

    prompt: str
    params: dict
    actor: int | None
    options: tuple = ()

    def option(self, kind):
        for opt in self.options:
            if opt.kind == kind:
                return opt
        return None

    def to_json(self):
        return {
            "prompt": self.prompt,
            "params": self.params,
            "actor": self.actor,
            "options": [o.to_json() for o in self.options],
        }
