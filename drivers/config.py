"""Reading one configuration section with errors that name the key.

Every driver factory reads a plain dict (one table of the box's configuration file).
``Section`` checks each value as it is read and, at the end, rejects keys nobody read,
so a typo ("hieght") is reported instead of silently ignored.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from drivers.errors import ConfigError

_MISSING = object()


def _show(value: Any) -> str:
    return repr(value)


class Section:
    """One configuration table, read key by key; ``prefix`` names it in messages."""

    def __init__(self, config: Mapping[str, Any] | None, prefix: str):
        if config is None:
            config = {}
        if not isinstance(config, Mapping):
            raise ConfigError(f"{prefix}: expected a table of settings, got {type(config).__name__}")
        self.prefix = prefix
        self._config = dict(config)
        self._read: set[str] = set()

    def key(self, name: str) -> str:
        """The full name of a key, as shown in error messages."""
        return f"{self.prefix}.{name}" if self.prefix else name

    def has(self, name: str) -> bool:
        return name in self._config

    def _take(self, name: str, default: Any) -> Any:
        self._read.add(name)
        if name in self._config:
            return self._config[name]
        if default is _MISSING:
            raise ConfigError(f"{self.key(name)}: missing (required)")
        return default

    def error(self, name: str, message: str) -> ConfigError:
        return ConfigError(f"{self.key(name)}: {message}")

    def raw(self, name: str, default: Any = _MISSING) -> Any:
        return self._take(name, default)

    def choice(self, name: str, allowed: Iterable[Any], default: Any = _MISSING) -> Any:
        allowed = list(allowed)
        value = self._take(name, default)
        if value not in allowed:
            raise self.error(name, f"{_show(value)} is not one of {', '.join(str(a) for a in allowed)}")
        return value

    def text(self, name: str, default: Any = _MISSING) -> Any:
        value = self._take(name, default)
        if value is not None and not isinstance(value, str):
            raise self.error(name, f"{_show(value)} is not a text value")
        return value

    def boolean(self, name: str, default: Any = _MISSING) -> Any:
        value = self._take(name, default)
        if value is not None and not isinstance(value, bool):
            raise self.error(name, f"{_show(value)} is not true or false")
        return value

    def integer(self, name: str, default: Any = _MISSING, minimum: int | None = None,
                maximum: int | None = None) -> Any:
        value = self._take(name, default)
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(name, f"{_show(value)} is not a whole number")
        self._bounds(name, value, minimum, maximum)
        return value

    def number(self, name: str, default: Any = _MISSING, minimum: float | None = None,
               maximum: float | None = None) -> Any:
        value = self._take(name, default)
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(name, f"{_show(value)} is not a number")
        self._bounds(name, value, minimum, maximum)
        return float(value)

    def _bounds(self, name, value, minimum, maximum):
        if minimum is not None and value < minimum:
            raise self.error(name, f"{_show(value)} is below the minimum {minimum}")
        if maximum is not None and value > maximum:
            raise self.error(name, f"{_show(value)} is above the maximum {maximum}")

    def pin(self, name: str, default: Any = _MISSING) -> Any:
        """A GPIO pin as gpiozero names it: a BCM number (17) or a name ("GPIO17", "BOARD11")."""
        value = self._take(name, default)
        return self._check_pin(name, value)

    def _check_pin(self, name, value):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.error(name, f"{_show(value)} is not a pin (a BCM number like 17 or a name like 'GPIO17')")
        if isinstance(value, int) and value < 0:
            raise self.error(name, f"{_show(value)} is not a pin number")
        return value

    def pins(self, name: str, default: Any = _MISSING, maximum: int | None = None) -> list:
        """A list of pins; ``None`` entries mean 'not fitted' and are kept in place."""
        value = self._take(name, default)
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
            raise self.error(name, f"{_show(value)} is not a list of pins")
        if maximum is not None and len(value) > maximum:
            raise self.error(name, f"{len(value)} pins given, at most {maximum} allowed")
        return [self._check_pin(f"{name}[{i}]", v) for i, v in enumerate(value)]

    def done(self, also_known: Iterable[str] = ()) -> None:
        """Reject keys that were never read: they are typos or belong elsewhere.

        ``also_known`` adds keys that were allowed but not given, for the message.
        """
        unknown = sorted(set(self._config) - self._read)
        if unknown:
            known = ", ".join(sorted(self._read | set(also_known)))
            raise self.error(unknown[0], f"unknown setting (known here: {known})")
