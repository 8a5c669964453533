"""The two errors every driver raises, kept apart so any module can import them.

ConfigError is for mistakes a person makes in a configuration file: it subclasses
ValueError (as gpiozero's errors subclass a built-in) and its message names the key
and what is allowed, because the person reading it is at a table, not in a debugger.

BusError is an OSError, because that is what the fault wrapper (drivers.faults)
catches: luma turns an I2C EIO into its own DeviceNotFoundError, which is not an
OSError, so drivers translate such errors to BusError at the point they are raised.
"""


class ConfigError(ValueError):
    """A configuration value is missing, of the wrong type, or not one of the allowed ones."""


class BusError(OSError):
    """A bus (I2C, SPI, UART, GPIO) refused a transfer; the part is retried, never fatal."""
