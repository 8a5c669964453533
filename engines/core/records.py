"""Records: the engines' dataclasses, with the methods a dataclass generates written once.

`@record` (or `@record(frozen=True)`) in place of `@dataclass` (or `@dataclass(frozen=True)`)
makes a class a dataclass, read as one by `dataclasses.fields`, `replace`, `asdict` and
`is_dataclass`, whose `__repr__`, `__eq__`, `__hash__` and, frozen, `__setattr__` and
`__delattr__` are the functions below, shared by every record, and whose `__init__` is made
from a code object compiled once for every record of its shape (see _TEMPLATES), instead of
being compiled for each class: `dataclasses` writes those methods as source text and compiles
them for every class, and the steps, results, boxes and decisions an engine imports are 40
to 70 classes: the largest part of what a resume would add to a fresh start. What each class
needs (its fields in order, their defaults, what is compared and hashed) is worked out once,
when it is decorated, and kept in its `_record`.

They behave as the generated ones, which tests/core/test_records.py checks class by class against
`dataclasses`' own: fields given by position or keyword (keyword-only ones by keyword),
defaults and default factories, `__post_init__` called after the fields are set; the repr
`Name(field=value, ...)` of the fields with `repr=True` ("..." for an object inside its own
repr); equal only to an object of the same class whose compared fields are equal (as tuples:
an object equals itself even holding a NaN); a mutable record is unhashable, a frozen one is
hashed on its compared fields (or those with `hash=True`), and refuses to set or delete an
attribute. An instance holds its fields in its `__dict__` in the fields' order, as a
dataclass's `__init__` leaves them, so a state pickles to the same bytes (undo checkpoints,
the journal's snapshots) and copies alike. A method the class itself defines is kept, as
`dataclasses` keeps it. Not supported (refused when declared): fields with `init=False`,
`InitVar`, order, slots and the other `dataclass` options no engine uses.

`__dataclass_params__` says what `dataclasses` generated (nothing); a record's own
is in `_record`. A class with no docstring gets a short one naming its fields (dataclasses
would work out the signature for it, which costs as much as the rest together).
"""
import abc
import dataclasses
import operator
import re
import sys
import types
from _thread import get_ident
from dataclasses import MISSING, Field, FrozenInstanceError

_set = object.__setattr__
_REQUIRED = object()     # in a record's template: a field with no default
_FACTORY = object()      # in a record's template: a field whose default a factory makes


def _key(names):
    """A function of an object giving the tuple of its attributes `names` (what a
    dataclass compares and hashes: a tuple even for one field or none)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda obj: (get(obj),)
    return operator.attrgetter(*names)


class Spec:
    """What a record's methods need of its class, worked out once when it is decorated."""

    __slots__ = ("names", "positional", "index", "template", "made_init", "needed", "factories",
                 "post_init", "repr_names", "compare", "hash", "frozen", "stub", "init", "calls")

    def __init__(self, cls, fields, frozen):
        # one pass over the fields: this runs for every record an engine declares, at import
        names, positional, template, needed, factories, shown, compared, hashed = [], [], {}, [], {}, [], [], []
        for f in fields:
            name = f.name
            names.append(name)
            if not f.kw_only:
                positional.append(name)
            if f.default is not MISSING:
                template[name] = f.default
            else:
                needed.append(name)
                if f.default_factory is not MISSING:
                    template[name], factories[name] = _FACTORY, f.default_factory
                else:
                    template[name] = _REQUIRED
            if f.repr:
                shown.append(name)
            if f.compare:
                compared.append(name)
            if f.compare if f.hash is None else f.hash:
                hashed.append(name)
        self.names, self.positional, self.template = tuple(names), tuple(positional), template
        self.index = {name: i for i, name in enumerate(positional)}
        self.needed, self.factories, self.repr_names = tuple(needed), factories, tuple(shown)
        self.post_init = getattr(cls, "__post_init__", None)
        self.compare = _key(tuple(compared))
        self.hash = self.compare if hashed == compared else _key(tuple(hashed))
        self.frozen = frozen
        self.made_init = "__init__" not in cls.__dict__     # the record's own, not one the class wrote
        self.stub = self.init = None                         # see _first_init
        self.calls = 0

    def gather(self, cls, args, kwargs) -> dict:
        """The fields' values, in order, from the arguments of a call (`_init`)."""
        if len(args) > len(self.positional):
            raise TypeError(f"{cls.__qualname__}() takes {len(self.positional)} field(s) by position "
                            f"({', '.join(self.positional)}), {len(args)} given")
        values = dict(self.template)
        values.update(zip(self.positional, args))
        for name, value in kwargs.items():
            if name not in values:
                raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {name!r}; "
                                f"fields: {', '.join(self.names)}")
            if self.index.get(name, len(args)) < len(args):
                raise TypeError(f"{cls.__qualname__}() got multiple values for argument {name!r}")
            values[name] = value
        for name in self.needed:
            value = values[name]
            if value is _FACTORY:
                values[name] = self.factories[name]()
            elif value is _REQUIRED:
                raise TypeError(f"{cls.__qualname__}() missing required argument {name!r}")
        return values


# A record's __init__ is a function made from one of a few code objects compiled once, one per
# number of fields (and which are made by a factory, whether it calls __post_init__), with the field names
# put in place of the template's (`CodeType.replace`): no source is compiled per class, and it
# runs as fast as the one dataclasses would compile, with the same signature, errors and
# defaults, leaving the fields in `__dict__` in their order. A class with keyword-only fields,
# whose `__dict__` order is not its parameters' order, has the generic `_init` instead.
_TEMPLATES: dict = {}


def _template(count: int, factories: tuple, post_init: bool, frozen: bool):
    """(code, placeholder names) of an __init__ of `count` fields, those at the positions
    `factories` made by their default factory when not given. A mutable record's sets each
    field as a dataclass's does (its instances share their dicts' keys); a frozen record's
    fills `__dict__` at once (a frozen dataclass's calls object.__setattr__ per field)."""
    key = count, factories, post_init, frozen
    if key not in _TEMPLATES:
        params = [f"__field{i}__" for i in range(count)]
        lines = [f"def __init__(self{''.join(', ' + p for p in params)}):"]
        for i in factories:
            lines.append(f"    if {params[i]} is _FACTORY: {params[i]} = self.__class__._record.factories[{params[i]!r}]()")
        if frozen:
            lines.append(f"    _set(self, '__dict__', {{{', '.join(f'{p!r}: {p}' for p in params)}}})")
        else:
            lines += [f"    self.{p} = {p}" for p in params] or ["    pass"]
        if post_init:
            lines.append("    self.__post_init__()")
        namespace = {}
        exec(compile("\n".join(lines) + "\n", __file__, "exec"), {}, namespace)
        _TEMPLATES[key] = namespace["__init__"].__code__, tuple(params)
    return _TEMPLATES[key]


_GLOBALS = {"_set": _set, "_FACTORY": _FACTORY}    # what the templates read


def _check_order(fields) -> None:
    """A field without a default after one with a default: refused when declared, in
    dataclasses' words (the record's __init__ is only made at its first call)."""
    seen_default = None
    for f in fields:
        if f.default is MISSING and f.default_factory is MISSING:
            if seen_default is not None:
                raise TypeError(f"non-default argument {f.name!r} follows default argument {seen_default!r}")
        else:
            seen_default = seen_default or f.name


def _signed(code, cls, spec):
    """`code` made the __init__ of `cls`: its parameters named after the record's fields (the
    record's own signature: `inspect.signature`, Python's own errors for a wrong call), its
    defaults the fields' defaults."""
    this = "__dataclass_self__" if "self" in spec.names else "self"     # as dataclasses names it then
    code = code.replace(co_argcount=1 + len(spec.names), co_nlocals=1 + len(spec.names),
                        co_varnames=(this, *spec.names), co_name="__init__",
                        co_qualname=f"{cls.__qualname__}.__init__")
    return code, tuple(value for value in spec.template.values() if value is not _REQUIRED) or None  # _FACTORY: made


def _made_init(cls, spec):
    """The fast __init__ of a record: its shape's template (_TEMPLATES) with the field names
    put in place of the placeholders."""
    made = tuple(i for i, name in enumerate(spec.names) if name in spec.factories)
    code, params = _template(len(spec.names), made, spec.post_init is not None, spec.frozen)
    rename = dict(zip(params, spec.names))
    rename[params] = spec.names
    code = code.replace(co_consts=tuple(rename.get(c, c) if isinstance(c, (str, tuple)) else c
                                        for c in code.co_consts),
                        co_names=tuple(rename.get(n, n) for n in code.co_names))
    code, defaults = _signed(code, cls, spec)
    return types.FunctionType(code, _GLOBALS, "__init__", defaults)


# A record's __init__ starts as a stand-in with the same parameters (the code of
# `_first_init`, only renamed: nothing compiled) that fills the instance itself, as the
# template would; once the class has been built HOT times, its template is compiled and put
# on the class in its place. A resume imports dozens of records but builds few of them, a few
# times, before its first frame (its state is unpickled, which calls no __init__), so
# compiling every template up front would be paid for nothing. A class built often (a
# replay's steps and results) gets its compiled template, the stand-in serving until then.
HOT = 32


def _first_init(self):
    # compiled with `self` alone, so these are read as globals (of the stand-in's own dict)
    # whatever the fields its parameters are renamed after: tests/core/test_records.py `Shadowing`
    return __stand_in__(__owner__, self, __locals__())


def _stand_in(cls, obj, given: dict):
    spec = cls.__dict__["_record"]
    spec.calls += 1
    if spec.calls >= HOT:
        if spec.init is None:
            spec.init = _made_init(cls, spec)
            if cls.__dict__.get("__init__") is spec.stub:
                type.__setattr__(cls, "__init__", spec.init)
        return spec.init(given["__dataclass_self__" if "self" in spec.names else "self"],
                         *[given[name] for name in spec.names])
    # what the template does (_template): the factories first, in the fields' order, then
    # the fields set (a mutable record's through setattr, as `self.x = x`; a frozen one's
    # __dict__ at once), then __post_init__
    values = {name: given[name] for name in spec.names}
    for name in spec.factories:
        if values[name] is _FACTORY:
            values[name] = obj.__class__._record.factories[name]()
    if spec.frozen:
        _set(obj, "__dict__", values)
    else:
        for name, value in values.items():
            setattr(obj, name, value)
    if spec.post_init is not None:
        obj.__post_init__()


def _init_for(cls, spec, fields):
    """The __init__ a record gets: the generic `_init` with keyword-only fields (whose
    `__dict__` order is not their parameters' order), else the stand-in of `_first_init`."""
    if len(spec.positional) < len(spec.names):      # keyword-only fields
        return _init
    _check_order(fields)
    code, defaults = _signed(_first_init.__code__, cls, spec)
    spec.stub = types.FunctionType(code, {"__stand_in__": _stand_in, "__owner__": cls, "__locals__": locals},
                                   "__init__", defaults)
    return spec.stub


def _init(self, *args, **kwargs):
    """The __init__ of a record with keyword-only fields (see _TEMPLATES)."""
    spec = self.__class__._record
    _set(self, "__dict__", spec.gather(self.__class__, args, kwargs))   # a frozen record too: no field is set through __setattr__
    if spec.post_init is not None:
        self.__post_init__()


_repr_running = set()   # (object, thread) whose repr is being written: "..." inside itself


def _repr(self):
    key = id(self), get_ident()
    if key in _repr_running:
        return "..."
    _repr_running.add(key)
    try:
        names = self.__class__._record.repr_names
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"
    finally:
        _repr_running.discard(key)


def _eq(self, other):
    if other.__class__ is self.__class__:
        compare = self.__class__._record.compare
        return compare(self) == compare(other)
    return NotImplemented


def _hash(self):
    return hash(self.__class__._record.hash(self))


def _frozen_setattr(self, name, value):
    cls = type(self)
    if "_record" in cls.__dict__ or name in cls._record.template:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    _set(self, name, value)   # an undecorated subclass's own attribute, as dataclasses allows


def _frozen_delattr(self, name):
    cls = type(self)
    if "_record" in cls.__dict__ or name in cls._record.template:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _set_new(cls, name, value):
    """Set a method unless the class defines its own (as dataclasses does)."""
    if name not in cls.__dict__:
        type.__setattr__(cls, name, value)


# ------------------------------------------------------------------------- fields
# A record's fields are worked out here, as `dataclasses` works them out for a dataclass
# declared with init=False, repr=False, eq=False (the methods being the ones above): the
# same `Field`s in `__dataclass_fields__` (a base's first, in the MRO's order), the same
# `__dataclass_params__`, `__match_args__`, class defaults and refusals. `dataclasses` does
# more for every class (its decorator's options, three regular-expression matches per string
# annotation, methods it is told not to write), which adds up over an engine's import. A
# class with anything this does not read as a plain field (an annotation naming ClassVar,
# InitVar or KW_ONLY, which dataclasses matches by name in the class's module) is handed to
# `dataclasses` itself, as are all classes on a Python whose annotations are not the class's
# `__annotations__` (3.14, PEP 649).
# what dataclasses says of such a class (its own type, whose arguments change between
# versions); the docstring spares the inspect.signature dataclasses would write into one
_PARAMS = dataclasses.dataclass(init=False, repr=False, eq=False)(type("_Params", (), {"__doc__": "-"})).__dataclass_params__
_FIRST_NAME = re.compile(r"^(?:\s*(\w+)\s*\.)?\s*(\w+)")    # dataclasses' _MODULE_IDENTIFIER_RE
_OWN_FIELDS = sys.version_info < (3, 14)


def _special(annotation, namespace: dict) -> bool:
    """Whether dataclasses could read `annotation` as other than a plain field: ClassVar,
    InitVar or KW_ONLY, written as such or as a string naming them (by their name in the
    class's module, as dataclasses matches them; a dotted name by its last part)."""
    typing = sys.modules.get("typing")
    if isinstance(annotation, str):
        match = _FIRST_NAME.match(annotation)
        if match is None:
            return False
        annotation = namespace.get(match.group(2))
    if annotation is dataclasses.KW_ONLY or annotation is dataclasses.InitVar \
            or type(annotation) is dataclasses.InitVar:
        return True
    return typing is not None and (annotation is typing.ClassVar or getattr(annotation, "__origin__", None)
                                   is typing.ClassVar)


def _declare(cls) -> list:
    """Make `cls` a dataclass without methods, as dataclasses.dataclass(init=False,
    repr=False, eq=False) does; returns its fields (those `dataclasses.fields` lists)."""
    annotations = cls.__dict__.get("__annotations__", {})
    module = sys.modules.get(cls.__module__)
    namespace = module.__dict__ if module is not None else {}
    if not _OWN_FIELDS or any(_special(a, namespace) for a in annotations.values()):
        dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
        return list(dataclasses.fields(cls))
    every, frozen_base, dataclass_base = {}, False, False
    for base in cls.__mro__[-1:0:-1]:
        inherited = getattr(base, "__dataclass_fields__", None)
        if inherited is not None:
            dataclass_base = True
            every.update(inherited)
            frozen_base = frozen_base or getattr(base, "__dataclass_params__").frozen
    type.__setattr__(cls, "__dataclass_params__", _PARAMS)
    for name, annotation in annotations.items():
        default = getattr(cls, name, MISSING)
        if isinstance(default, Field):
            f = default
            if f.default is MISSING:
                type.__delattr__(cls, name)
            else:
                type.__setattr__(cls, name, f.default)
        else:
            if isinstance(default, types.MemberDescriptorType):      # a slot: no default
                default = MISSING
            f = dataclasses.field(default=default)
        f.name, f.type, f._field_type = name, annotation, dataclasses._FIELD
        if f.kw_only is MISSING:
            f.kw_only = False
        if f.default.__class__.__hash__ is None:        # dataclasses' own words
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        every[name] = f
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    if dataclass_base and frozen_base:
        raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
    type.__setattr__(cls, "__dataclass_fields__", every)
    fields = [f for f in every.values() if f._field_type is dataclasses._FIELD]
    _set_new(cls, "__match_args__", tuple(f.name for f in fields if f.init and not f.kw_only))
    abc.update_abstractmethods(cls)
    return fields


def _process(cls, frozen: bool):
    if frozen and ("__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__):
        raise TypeError(f"{cls.__qualname__}: a frozen record defines no __setattr__ or __delattr__")
    for base in cls.__mro__[1:]:
        spec = base.__dict__.get("_record")
        if spec is not None and spec.frozen != frozen:
            raise TypeError(f"{cls.__qualname__}: a {'frozen' if frozen else 'mutable'} record cannot inherit "
                            f"the {'frozen' if spec.frozen else 'mutable'} record {base.__qualname__}")
    if not frozen and cls.__setattr__ is not object.__setattr__:
        # a dataclass's __init__ sets each field through it; a record's fills __dict__ at once
        raise TypeError(f"{cls.__qualname__}: a mutable record defines no __setattr__")
    if not cls.__dict__.get("__doc__"):
        # dataclasses would write the signature here (inspect.signature, costly for every class)
        type.__setattr__(cls, "__doc__", f"{cls.__name__}({', '.join(cls.__dict__.get('__annotations__', {}))})")
    # dataclasses' rule for the hash (eq=True), read before __eq__ is added: kept when the
    # class defines its own; else a frozen record hashes its fields, a mutable one is unhashable
    own_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__))
    fields = _declare(cls)
    for f in fields:
        if not f.init:
            raise TypeError(f"{cls.__qualname__}.{f.name}: a record's fields are all set by __init__ (no init=False)")
    if any(f._field_type is dataclasses._FIELD_INITVAR for f in cls.__dataclass_fields__.values()):
        raise TypeError(f"{cls.__qualname__}: a record has no InitVar")
    type.__setattr__(cls, "_record", Spec(cls, fields, frozen))
    _set_new(cls, "__init__", _init_for(cls, cls._record, fields))
    _set_new(cls, "__repr__", _repr)
    _set_new(cls, "__eq__", _eq)
    if not explicit_hash:
        type.__setattr__(cls, "__hash__", _hash if frozen else None)
    if frozen:
        type.__setattr__(cls, "__setattr__", _frozen_setattr)
        type.__setattr__(cls, "__delattr__", _frozen_delattr)
    return cls


def record(cls=None, /, *, frozen: bool = False):
    """Class decorator, `@record` or `@record(frozen=True)`: a dataclass whose methods are
    the shared ones of this module (see its docstring)."""
    if cls is None:
        return lambda cls: _process(cls, frozen)
    return _process(cls, frozen)
