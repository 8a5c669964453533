"""Every game the box knows, declared once.

A game lives in its own package, `engines/<name>/`, whose `__init__.py` declares `GAME`, a
`GameSpec`: the game's name as scripts, journals and the configuration write it, where its
engine class is, where its screens' adapter is (firmware/games/), the prefix of its own
catalog keys (engines/core/i18n.py refuses a key two catalogs define), and what the box asks
before a game is played: its player bounds, its formats and its settings with their
defaults and allowed values. The engine class reads those three from its `GAME` (one place
for each fact), and the setup, the configuration check and `corbeille settings` read them
here, so a box that starts imports no engine: an engine is imported when its game is played,
replayed or checked (the first frame waits for no engine). Everything else (snapshot, public view,
end of game, chance filling) is declared by the engine class itself. Adding a game adds one
line to `PACKAGES` below.

Declaring a spec also registers the game's catalogs, `engines/<name>/locale/` (its setup
labels among them): the package's `__init__.py` builds its `GAME` when the package is first
imported, which any import of its engine does first, so a game's texts are known wherever
its engine or its spec is.

The engines never import the firmware: the adapter is named as a string and only the
firmware imports it (`firmware.games.adapter`).
"""
from __future__ import annotations

import re
from dataclasses import field
from functools import cache
from importlib import import_module
from pathlib import Path

from engines.core.errors import ProtocolError
from engines.core import settings
from engines.core.i18n import register_catalog
from engines.core.records import record

# The folder of the game packages: a spec named `x` is declared by `engines/x/__init__.py`.
ENGINES = Path(__file__).parent

# One line per game, in the order the setup lists them.
PACKAGES = (
    "maxibourse",
    "dividends",
    "avendre",
    "shark",
    "richesses",
)


# The game of a header without a `game` line: scripts and journals written before headers
# named their game are Maxi Bourse games, and still replay as such.
UNNAMED = "maxibourse"


def game_of(header: dict) -> str:
    """The game a script or journal header plays."""
    return header.get("game", UNNAMED)


@record(frozen=True)
class GameSpec:
    name: str          # as written in a script header (`game dividends`) and the configuration
    engine: str        # "module:Class" of the engine, a subclass of engines.core.game.Game
    adapter: str = ""  # "module:Class" of the firmware adapter; "" while the game has no screens
    prefix: str = ""   # the game's own catalog keys: the box's `ui.kind.<prefix>.*`, `ui.act.<prefix>.*`
    box: str = ""      # module of its box file: `SCHEMA`, `load_box(path)`, `holdings(box, lang)`
    players: tuple[int, int] = (0, 0)  # the fewest and the most players the rulebook allows
    formats: tuple[str, ...] = ()      # the rulebook's formats (header `format`), when it has several
    # header `set` name -> (default, allowed, what it means): engines/core/settings.py
    settings: dict = field(default_factory=dict, hash=False)

    def __post_init__(self):
        # A spec named after no package here (a test's) has no catalogs to register.
        locale = ENGINES / self.name / "locale"
        if locale.is_dir():
            register_catalog(locale)

    def engine_class(self):
        """The engine, imported on first use: only a game played, replayed or checked needs it."""
        return _load(self.engine)


def _load(path: str):
    module, _, attr = path.partition(":")
    return getattr(import_module(module), attr)


@cache
def games() -> dict[str, GameSpec]:
    """name -> spec of every registered game, in `PACKAGES` order."""
    specs: dict[str, GameSpec] = {}
    for package in PACKAGES:
        add(specs, import_module(f"engines.{package}").GAME)
    return specs


def add(specs: dict[str, GameSpec], spec: GameSpec) -> None:
    """Add `spec` to `specs`, refusing a name or a catalog prefix another game has."""
    if spec.name in specs:
        raise ValueError(f"two games are registered as {spec.name!r}")
    if not re.fullmatch(r"[a-z][a-z0-9]*", spec.prefix):
        raise ValueError(f"game {spec.name!r}: its catalog prefix {spec.prefix!r} must be lowercase letters and digits")
    lo, hi = spec.players
    if not 2 <= lo <= hi:
        raise ValueError(f"game {spec.name!r}: players {spec.players!r} must be (fewest, most) with 2 <= fewest <= most")
    for key, declaration in spec.settings.items():
        default, allowed, _ = settings.entry(declaration)
        if not settings.allows(allowed, default):
            raise ValueError(f"game {spec.name!r}: setting {key!r} defaults to {default!r}, which it does not allow "
                             f"({settings.describe(allowed)})")
    taken = [other.name for other in specs.values() if other.prefix == spec.prefix]
    if taken:
        raise ValueError(f"games {taken[0]!r} and {spec.name!r} both use the catalog prefix {spec.prefix!r}")
    specs[spec.name] = spec


def names() -> tuple[str, ...]:
    return tuple(games())


def spec(name: str) -> GameSpec:
    """The spec of a game name; an unknown name is refused with the list of known ones."""
    found = games().get(name)
    if found is None:
        raise ProtocolError(f"unknown game {name!r}; known: {', '.join(names())}")
    return found


def game_settings() -> dict[str, tuple]:
    """Every per-game setting of the registered games, as the configuration's [game] table
    holds them: name -> (default, allowed: a tuple, a range or str (engines/core/settings.py),
    the games declaring it).

    `format` gathers the rulebooks' formats (`FORMATS`, the first game's first one the
    default); the rest are the games' `settings`. A name two games declare is one key,
    so they must declare it alike; otherwise this refuses it naming both games."""
    found: dict[str, tuple] = {}
    for name, entry in games().items():
        declared = {key: settings.entry(declaration)[:2] for key, declaration in entry.settings.items()}
        if entry.formats:
            declared = {"format": (entry.formats[0], tuple(entry.formats)), **declared}
        for key, (default, allowed) in declared.items():
            if key not in found:
                found[key] = (default, allowed, (name,))
                continue
            before, allowed_before, by = found[key]
            if key == "format" and isinstance(allowed, tuple):
                merged = allowed_before + tuple(f for f in allowed if f not in allowed_before)
                found[key] = (before, merged, by + (name,))
            elif (default, allowed) == (before, allowed_before):
                found[key] = (before, allowed_before, by + (name,))
            else:
                raise ValueError(f"setting {key!r}: {by[0]} declares ({before!r}, {allowed_before!r}), "
                                 f"{name} ({default!r}, {allowed!r}); one configuration key must mean one thing")
    return found
