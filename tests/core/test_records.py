"""Records (engines/core/records.py) behave as the dataclasses they replace.

Each class below is declared twice from the same source, once with `@dataclass` and once
with `@record`, and both are driven through the same calls: what they build, refuse,
show, compare, hash, copy and hold must be the same, down to the order of the fields in
an instance's `__dict__` (what a pickled state, a checkpoint or a snapshot, holds).
tests/core/test_recorded_checkpoints.py checks the engines' own records against states pickled
by the version before them.
"""
import copy
import dataclasses
import math
import pickle
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from engines.core import records
from engines.core.records import record

SOURCE = '''
@deco
class Empty:
    pass

@deco
class Plain:
    a: int
    b: str = "x"
    c: list = field(default_factory=list)

@deco
class Child(Plain):
    d: tuple = ()

@deco
class KeywordOnly:
    debtor: int
    owed: list
    pushed: object = field(default=None, kw_only=True)

@deco
class AfterKeywordOnly(KeywordOnly):
    extra: int = 0

@deco
class Posted:
    items: list
    current: object = None

    def __post_init__(self):
        self.items = list(self.items)
        if self.current is None:
            self.current = len(self.items)

@deco
class Flags:
    shown: int
    hidden: int = field(default=0, repr=False)
    ignored: int = field(default=0, compare=False)
    unhashed: dict = field(default_factory=dict, hash=False)

@deco
class OwnRepr:
    a: int

    def __repr__(self):
        return f"<{self.a}>"

@deco
class OwnReprChild(OwnRepr):
    b: int = 1

class Undecorated(Plain):
    pass

@deco
class Nested:
    inner: object
    many: list = field(default_factory=list)

@deco
class Selfish:
    self: int
    other: int = 0

@deco
class Shadowing:
    _owner: int
    _locals: int = 0
    _stand_in: int = 1
'''

NAMES = ("Empty", "Plain", "Child", "KeywordOnly", "AfterKeywordOnly", "Posted", "Flags", "OwnRepr", "OwnReprChild",
         "Undecorated", "Nested", "Selfish", "Shadowing")

# (class, args, kwargs) of every call made of both versions; those a dataclass refuses
# must be refused by the record too
CALLS = [
    ("Empty", (), {}), ("Empty", (1,), {}),
    ("Plain", (1,), {}), ("Plain", (1, "y"), {}), ("Plain", (1, "y", [2]), {}), ("Plain", (), {"a": 1, "c": [3]}),
    ("Plain", (1,), {"b": "z"}), ("Plain", (), {}), ("Plain", (1, "y", [], 4), {}), ("Plain", (1,), {"a": 2}),
    ("Plain", (1,), {"e": 2}), ("Plain", (math.nan,), {}),
    ("Child", (1,), {}), ("Child", (1, "y", [], (2,)), {}), ("Child", (), {"d": (3,), "a": 0}),
    ("KeywordOnly", (1, [(0, 5)]), {}), ("KeywordOnly", (1, []), {"pushed": "sell"}),
    ("KeywordOnly", (1, [], "sell"), {}), ("KeywordOnly", (1,), {}),
    ("AfterKeywordOnly", (1, [], 7), {"pushed": "x"}), ("AfterKeywordOnly", (1, []), {}),
    ("Posted", ((1, 2),), {}), ("Posted", ((1, 2), 0), {}),
    ("Flags", (1,), {}), ("Flags", (1, 2, 3, {"k": 1}), {}), ("Flags", (1,), {"ignored": 9}),
    ("OwnRepr", (3,), {}), ("OwnReprChild", (3,), {}), ("OwnReprChild", (3, 4), {}),
    ("Undecorated", (1, "u"), {}),
    ("Nested", (None,), {}),
    ("Selfish", (1,), {}), ("Selfish", (), {"self": 2, "other": 3}),
    ("Shadowing", (1,), {}), ("Shadowing", (1, 2, 3), {}),
]


def build(deco, frozen):
    if frozen:
        deco = deco(frozen=True)
    namespace = {"deco": deco, "field": field}
    exec(SOURCE, namespace)
    return namespace


@pytest.fixture(params=[False, True], ids=["mutable", "frozen"])
def frozen(request):
    return request.param


@pytest.fixture
def generated(frozen):
    return build(dataclass, frozen)


@pytest.fixture
def shared(frozen, init_path):
    """Built anew for each test: which __init__ path a class takes depends on its own builds."""
    return build(record, frozen)


@pytest.fixture(params=["stand-in", "template"], autouse=True)
def init_path(request, monkeypatch):
    """Every test runs twice: a record's first builds go through its __init__'s stand-in,
    its later ones through the template compiled for it (records.HOT); here each class
    is built by the one or the other from its first call."""
    monkeypatch.setattr(records, "HOT", 10 ** 9 if request.param == "stand-in" else 1)
    return request.param


def outcome(fn):
    """What a call gives: ("ok", value) or ("error", the exception's type)."""
    try:
        return "ok", fn()
    except Exception as error:  # noqa: BLE001 - the type of whatever is raised is compared
        return "error", type(error)


def make(classes, name, args, kwargs):
    return outcome(lambda: classes[name](*copy.deepcopy(args), **copy.deepcopy(kwargs)))


def fields_held(obj):
    return list(vars(obj).items())


def held(reduced):
    """The state of an object's `__reduce_ex__`, as an ordered list (None when it has none)."""
    return None if reduced[2] is None else list(reduced[2].items())


def test_a_record_builds_refuses_shows_and_holds_what_a_dataclass_does(generated, shared, frozen):
    for name, args, kwargs in CALLS:
        (how, mine), (how_ref, ref) = make(shared, name, args, kwargs), make(generated, name, args, kwargs)
        assert how == how_ref, (name, args, kwargs, mine, ref)
        if how == "error":
            assert mine is ref, (name, args, kwargs)
            continue
        assert repr(mine) == repr(ref)
        assert fields_held(mine) == fields_held(ref)        # the same fields, in the same order
        assert [f.name for f in dataclasses.fields(mine)] == [f.name for f in dataclasses.fields(ref)]
        assert dataclasses.asdict(mine) == dataclasses.asdict(ref)
        state, state_ref = mine.__reduce_ex__(pickle.HIGHEST_PROTOCOL), ref.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        assert held(state) == held(state_ref)      # what a pickle of it holds (None: no field)
        assert fields_held(copy.deepcopy(mine)) == fields_held(mine) == fields_held(copy.copy(mine))
        assert outcome(lambda: hash(mine)) == outcome(lambda: hash(ref))   # a mutable one: TypeError


def test_a_record_compares_as_a_dataclass_does(generated, shared, frozen):
    built = [(make(shared, *call)[1], make(generated, *call)[1]) for call in CALLS if make(shared, *call)[0] == "ok"]
    for mine, ref in built:
        assert (mine == mine) == (ref == ref)               # equal to itself, a NaN field included
        for other, other_ref in built:
            assert (mine == other) == (ref == other_ref), (mine, other)
            assert (mine != other) == (ref != other_ref)
        assert (mine == 1) is (ref == 1) is False and mine.__eq__(1) is NotImplemented


def test_setting_and_deleting_fields(generated, shared, frozen):
    mine, ref = shared["Plain"](1), generated["Plain"](1)
    for obj in (mine, ref):
        assert outcome(lambda: setattr(obj, "a", 2))[1] == (FrozenInstanceError if frozen else None)
        assert outcome(lambda: setattr(obj, "new", 2))[1] == (FrozenInstanceError if frozen else None)
        assert outcome(lambda: delattr(obj, "b"))[1] == (FrozenInstanceError if frozen else None)
    assert fields_held(mine) == fields_held(ref)
    if frozen:      # an undecorated subclass may hold attributes of its own, not set a field
        sub, sub_ref = shared["Undecorated"](1), generated["Undecorated"](1)
        for obj in (sub, sub_ref):
            obj.note = "mine"
            with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
                obj.a = 3
            with pytest.raises(FrozenInstanceError, match="cannot delete field 'b'"):
                del obj.b
        assert fields_held(sub) == fields_held(sub_ref)


def test_a_records_init_takes_the_parameters_of_a_dataclasss(generated, shared, frozen):
    import inspect

    for name in NAMES:
        mine, ref = inspect.signature(shared[name].__init__), inspect.signature(generated[name].__init__)
        if shared[name].__init__ is records._init:          # keyword-only fields: (*args, **kwargs)
            continue
        assert [(p.name, p.kind) for p in mine.parameters.values()] == [(p.name, p.kind) for p in ref.parameters.values()]
        assert [p.default is inspect.Parameter.empty for p in mine.parameters.values()] == \
            [p.default is inspect.Parameter.empty for p in ref.parameters.values()]


def test_replace_and_the_records_own_defaults_are_not_shared():
    ns = build(record, False)
    one, two = ns["Plain"](1), ns["Plain"](2)
    one.c.append(1)
    assert two.c == [] and dataclasses.replace(one, a=5) == ns["Plain"](5, "x", [1])


def test_a_record_inside_its_own_repr_shows_dots_as_a_dataclass_does():
    mine, ref = build(record, False)["Nested"](None), build(dataclass, False)["Nested"](None)
    mine.many.append(mine)
    ref.many.append(ref)
    assert repr(mine) == repr(ref) == "Nested(inner=None, many=[...])"


def test_the_methods_are_shared_not_generated():
    """What makes a record cheap to import: no function is compiled for it, and its __init__
    is made from its shape's template only when it is first built."""
    for frozen in (False, True):
        ns = build(record, frozen)
        stand_ins = {name: ns[name].__init__ for name in NAMES}
        for name in NAMES:
            stand_in = stand_ins[name]
            assert stand_in is records._init or stand_in.__code__.co_code == records._first_init.__code__.co_code
        for name in NAMES:
            cls = ns[name]
            for _ in range(min(records.HOT, 3)):
                make(ns, *next(call for call in CALLS if call[0] == name))
            templates = {code.co_code for code, _ in records._TEMPLATES.values()}
            if records.HOT <= 3:        # built HOT times: its template took over
                assert cls.__init__ is records._init or cls.__init__.__code__.co_code in templates
            else:                       # until then, the stand-in
                assert cls.__init__ is stand_ins[name]
            assert cls.__eq__ is records._eq
            assert cls.__repr__ is (ns["OwnRepr"].__dict__["__repr__"] if name == "OwnRepr" else records._repr)
            assert cls.__hash__ is (records._hash if frozen else None)


def test_declarations_a_record_does_not_support_are_refused():
    with pytest.raises(TypeError, match="no init=False"):
        @record
        class Hidden:
            a: int = field(default=0, init=False)
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument 'a'"):
        @record
        class Misordered:
            a: int = 0
            b: int
    with pytest.raises(TypeError, match="cannot inherit the frozen record"):
        @record
        class Thawed(build(record, True)["Plain"]):
            pass
    with pytest.raises(TypeError, match="defines no __setattr__"):
        @record(frozen=True)
        class Setter:
            a: int

            def __setattr__(self, name, value):
                pass


def test_the_engines_classes_are_records():
    """Every dataclass an engine declares is a record (a @dataclass left in an engine would
    compile its methods again at import)."""
    import importlib
    import pkgutil

    import engines

    for info in pkgutil.walk_packages(engines.__path__, "engines."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == info.name and dataclasses.is_dataclass(value)):
                assert "_record" in value.__dict__, f"{info.name}.{value.__qualname__} is a dataclass, not a record"


def test_importing_the_engines_hands_no_class_to_dataclasses_and_compiles_only_busy_inits():
    """What a resume gains: an engine's records are declared without
    dataclasses' own processing, and a record's __init__ is compiled only once the class
    has been built records.HOT times (at import, only the box files' schema keys are)."""
    import subprocess
    import sys
    from pathlib import Path

    code = """
import builtins, dataclasses, gc, sys
from engines.core import records
handed, compiled = [], []
real_process, real_compile = dataclasses._process_class, builtins.compile
dataclasses._process_class = lambda cls, *a: (handed.append(cls.__qualname__), real_process(cls, *a))[1]
builtins.compile = lambda *a, **k: (compiled.append(a[1] if len(a) > 1 else k.get("filename")), real_compile(*a, **k))[1]
import engines
from engines.registry import names
for name in names():
    engines.game_class(name)
builtins.compile = real_compile
specs = [o.__dict__["_record"] for o in gc.get_objects() if isinstance(o, type) and "_record" in o.__dict__]
made = [s for s in specs if s.init is not None]
print(len(handed), len(specs), len(made), all(s.calls >= records.HOT for s in made), compiled.count(records.__file__))
"""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    handed, specs, made, busy, compiles = done.stdout.split()
    assert handed == "0" and int(specs) > 150
    assert busy == "True" and int(compiles) <= int(made) <= 2, done.stdout
