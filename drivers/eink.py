"""The e-ink quotation board: a slow panel driven by a refresh policy.

An e-ink panel takes seconds to refresh, flashes on a full refresh, ghosts after too
many partial ones, and must sleep between updates (left powered, the panel degrades).
So prices are not pushed to it frame by frame:

* ``RefreshPolicy`` keeps only the newest pending frame, drops frames identical to what
  the paper already shows, sends a partial refresh for a changed frame and a full one
  after at most ``max_partials`` partials (and for the first frame, when the paper's
  content is unknown), never starts a refresh sooner than ``full_interval`` /
  ``partial_interval`` after the previous one, and puts the panel to sleep after each
  update. Time is passed in (``tick(now)``): it never reads a clock itself.
* ``QuotationBoard`` is the ``Display`` in front of it: ``show`` only queues (the game
  loop never waits for the panel), a background thread (or the caller, with
  ``background=False``) calls ``tick``; panel errors degrade it and are retried.
* Panels: ``WavesharePanel`` (waveshare-epaper, e.g. the 7.5" V2 800x480),
  ``InkyPanel`` (Pimoroni inky: full refreshes only) and ``StandInPanel`` (records
  calls, keeps the image, can save PNGs; the desktop and test stand-in). The vendor
  libraries load hardware code on import and fail off a Pi, so they are imported only
  inside ``WavesharePanel.load`` / ``InkyPanel.load``.

Panel protocol (what the policy calls): ``size``, ``partial_refresh`` (bool),
``init(partial: bool)``, ``display(image)`` (full refresh), ``display_partial(image)``,
``clear()``, ``sleep()``. Images are PIL "1" images in the panel's orientation, white
pixels being white paper.
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from drivers.config import Section
from drivers.display import Display, convert
from drivers.errors import BusError, ConfigError
from drivers.faults import Backoff, FaultGuard, ReportsFaults

MAX_PARTIALS = 5
PANELS = ("waveshare", "inky", "stand-in")
FULL, PARTIAL = "full", "partial"


class RefreshPolicy:
    """Decides when and how the newest frame goes to the panel; see the module docstring.

    ``submit(image)`` (any thread) queues a frame; ``tick(now)`` (one thread) performs at
    most one refresh and returns "full", "partial" or None; ``next_due(now)`` says when
    ``tick`` would next do something. Intervals are measured between refresh starts.
    A panel error (OSError) propagates after marking the paper's content unknown, so the
    next refresh is a full one with the same frame.
    """

    def __init__(self, panel, *, max_partials: int = MAX_PARTIALS, full_interval: float = 5.0,
                 partial_interval: float = 1.0):
        if not 0 <= max_partials <= MAX_PARTIALS:
            raise ValueError(f"max_partials must be 0..{MAX_PARTIALS}, got {max_partials}")
        if full_interval < 0 or partial_interval < 0:
            raise ValueError("refresh intervals cannot be negative")
        self.panel = panel
        self.max_partials = max_partials
        self.full_interval = full_interval
        self.partial_interval = partial_interval
        self._lock = threading.Lock()
        self._refreshing = threading.Lock()
        self._pending: Image.Image | None = None
        self._pending_key: bytes | None = None
        self._shown_key: bytes | None = None     # None: the paper's content is unknown
        self.partials_since_full = 0
        self.last_refresh: float | None = None
        self.fulls = 0
        self.partials = 0

    def submit(self, image: Image.Image) -> bool:
        """Queue ``image`` (replacing any older pending frame); False if nothing to do."""
        if image.size != tuple(self.panel.size):
            raise ValueError(f"frame is {image.size}, panel is {tuple(self.panel.size)}")
        frame = convert(image, "1")
        key = frame.tobytes()
        with self._lock:
            if key == self._shown_key:
                self._pending = self._pending_key = None
                return False
            if key == self._pending_key:
                return False
            self._pending, self._pending_key = frame.copy(), key
            return True

    @property
    def pending(self) -> bool:
        with self._lock:
            return self._pending is not None

    def invalidate(self) -> None:
        """Forget what the paper shows: the next frame goes out as a full refresh."""
        with self._lock:
            self._shown_key = None

    def _next_kind(self) -> str:
        if (self._shown_key is None or self.partials_since_full >= self.max_partials
                or not getattr(self.panel, "partial_refresh", False)):
            return FULL
        return PARTIAL

    def next_due(self, now: float) -> float | None:
        """When the pending frame may go out (``now`` if already allowed), or None."""
        with self._lock:
            if self._pending is None:
                return None
            if self.last_refresh is None:
                return now
            interval = self.full_interval if self._next_kind() == FULL else self.partial_interval
            return max(now, self.last_refresh + interval)

    def tick(self, now: float) -> str | None:
        """Send the pending frame if the panel may refresh at ``now``; the kind sent."""
        with self._refreshing:
            with self._lock:
                if self._pending is not None and self._pending_key == self._shown_key:
                    self._pending = self._pending_key = None
                if self._pending is None:
                    return None
                kind = self._next_kind()
                interval = self.full_interval if kind == FULL else self.partial_interval
                if self.last_refresh is not None and now < self.last_refresh + interval:
                    return None
                frame, key = self._pending, self._pending_key
                self._pending = self._pending_key = None
                self.last_refresh = now
            try:
                self.panel.init(partial=kind == PARTIAL)
                if kind == FULL:
                    self.panel.display(frame)
                else:
                    self.panel.display_partial(frame)
                self.panel.sleep()
            except OSError:
                with self._lock:
                    self._shown_key = None
                    if self._pending is None:      # no newer frame: retry this one
                        self._pending, self._pending_key = frame, key
                raise
            with self._lock:
                self._shown_key = key
                if kind == FULL:
                    self.fulls += 1
                    self.partials_since_full = 0
                else:
                    self.partials += 1
                    self.partials_since_full += 1
            return kind


class QuotationBoard(ReportsFaults, Display):
    """The public price board on an e-ink panel (see the module docstring).

    ``panel`` is a panel object, or a zero-argument callable that opens one (then
    ``size`` must be given: it is the size while the panel cannot be reached).
    ``rotate`` (0-3, quarter turns clockwise as in luma) lets the board hang in portrait.
    With ``background=True`` a daemon thread sends frames when the policy allows; with
    False the caller calls ``tick(now)`` (tests, or a loop that owns all timing).
    """

    every_second = False    # a refresh takes seconds: no countdown on paper

    def __init__(self, panel, *, size: tuple[int, int] | None = None, rotate: int = 0,
                 max_partials: int = MAX_PARTIALS, full_interval: float = 5.0,
                 partial_interval: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 background: bool = True, backoff: Backoff | None = None, name: str = "board"):
        if rotate not in (0, 1, 2, 3):
            raise ValueError("rotate must be 0, 1, 2 or 3")
        self._opener = panel if callable(panel) and not hasattr(panel, "display") else None
        self.panel = None if self._opener else panel
        panel_size = tuple(self.panel.size) if self.panel is not None else size
        if panel_size is None:
            raise ValueError("QuotationBoard with a panel opener needs size")
        self.rotate = rotate
        width, height = panel_size
        super().__init__((width, height) if rotate % 2 == 0 else (height, width), "1", name)
        self._panel_size = (width, height)
        self.policy = RefreshPolicy(self.panel or _Unopened(self._panel_size),
                                    max_partials=max_partials, full_interval=full_interval,
                                    partial_interval=partial_interval)
        self._clock = clock
        self.guard = FaultGuard(name, backoff)
        self._wake = threading.Condition()
        self._stopping = False
        self._thread = None
        if self.panel is None:
            self._open(clock())
        if background:
            self._thread = threading.Thread(target=self._run, name=f"{name}-refresh", daemon=True)
            self._thread.start()

    @classmethod
    def from_config(cls, config: Mapping[str, Any], *, prefix: str = "display", panel=None,
                    clock: Callable[[], float] = time.monotonic) -> "QuotationBoard":
        section = Section(config, prefix)
        section.choice("type", ["eink"], "eink")
        panel_name = section.raw("panel", "waveshare")
        if isinstance(panel_name, str) and panel_name.startswith("waveshare_"):
            kind, default_model = "waveshare", panel_name[len("waveshare_"):]
        elif panel_name in PANELS:
            kind, default_model = panel_name, "epd7in5_V2" if panel_name == "waveshare" else None
        else:
            raise section.error("panel", f"{panel_name!r} is not one of {', '.join(PANELS)}, "
                                         f"waveshare_<model> (e.g. waveshare_epd7in5_V2)")
        model = section.text("model", default_model)
        width = section.integer("width", 800, 1, 4096)
        height = section.integer("height", 480, 1, 4096)
        directory = section.text("directory", None)
        board = dict(
            rotate=section.choice("rotate", [0, 1, 2, 3], 0),
            max_partials=section.integer("max_partials", MAX_PARTIALS, 0, MAX_PARTIALS),
            full_interval=section.number("full_interval", 5.0, 0),
            partial_interval=section.number("partial_interval", 1.0, 0),
            background=section.boolean("background", True),
            name=section.text("name", "board"))
        section.done()
        if panel is None:
            if kind == "waveshare":
                panel = lambda: WavesharePanel.load(model, prefix=prefix)  # noqa: E731
            elif kind == "inky":
                panel = lambda: InkyPanel.load(model, prefix=prefix)  # noqa: E731
            else:
                panel = StandInPanel((width, height), directory=directory)
        if kind == "inky":
            board["max_partials"] = 0
        return cls(panel, size=(width, height), clock=clock, **board)

    # -- Display -------------------------------------------------------------------


    def _send(self, frame: Image.Image) -> None:
        if self.rotate:
            frame = frame.rotate(-90 * self.rotate, expand=True)
        if self.policy.submit(frame):
            with self._wake:
                self._wake.notify()

    def clear(self) -> None:
        """Blank paper is white."""
        self.show(Image.new("1", self.size, 1))

    def tick(self, now: float | None = None) -> str | None:
        """Refresh the panel if a frame is pending and allowed; the kind of refresh done."""
        now = self._clock() if now is None else now
        if not self.guard.ready(now):
            return None
        if self.panel is None and not self._open(now):
            return None
        try:
            kind = self.policy.tick(now)
        except OSError as exc:
            self.guard.failed(exc, now)
            return None
        if kind is not None:
            self.guard.succeeded()
        return kind

    def next_due(self, now: float) -> float | None:
        due = self.policy.next_due(now)
        if due is not None and self.guard.degraded:
            due = max(due, self.guard.retry_at)
        return due

    def close(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)

    # -- internals -----------------------------------------------------------------

    def _open(self, now: float) -> bool:
        try:
            panel = self._opener()
        except OSError as exc:
            self.guard.failed(exc, now)
            return False
        if tuple(panel.size) != self._panel_size:
            raise ConfigError(f"{self.name}: panel is {panel.size[0]}x{panel.size[1]}, "
                              f"configured {self._panel_size[0]}x{self._panel_size[1]}")
        self.panel = panel
        self.policy.panel = panel       # frames queued meanwhile stay pending
        self.policy.invalidate()
        return True

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._stopping:
                    return
                now = self._clock()
                due = self.next_due(now)
                if due is None and self.panel is None and self.guard.degraded:
                    due = self.guard.retry_at
                if due is None or due > now:
                    self._wake.wait(None if due is None else due - now)
                    continue
            self.tick(self._clock())


class _Unopened:
    """Placeholder panel while the real one cannot be opened (frames wait in the policy)."""

    partial_refresh = False

    def __init__(self, size):
        self.size = size

    def _fail(self, *args, **kwargs):
        raise BusError("e-ink panel not opened")

    init = display = display_partial = clear = sleep = _fail


# --------------------------------------------------------------------------- panels

class StandInPanel:
    """A panel that records what it is asked to do: for tests and for the desktop.

    ``calls`` lists ("init", "full"|"partial"), ("display", None), ("display_partial",
    None), ("clear", None), ("sleep", None) in order; ``image`` is what the paper shows;
    ``asleep`` tracks the power state and a refresh while asleep raises, as a real
    panel would silently ignore it. With ``directory``, each refresh saves a PNG.
    """

    partial_refresh = True

    def __init__(self, size=(800, 480), *, directory: str | None = None, fail: Callable[[str], bool] | None = None):
        self.size = tuple(size)
        self.calls: list[tuple[str, str | None]] = []
        self.image = Image.new("1", self.size, 1)
        self.asleep = True
        self.directory = directory
        self.fail = fail
        self.refreshes = 0
        if directory:
            os.makedirs(directory, exist_ok=True)

    def _call(self, name, arg=None):
        if self.fail is not None and self.fail(name):
            raise OSError(f"stand-in panel: {name} failed")
        self.calls.append((name, arg))

    def init(self, partial: bool = False) -> None:
        self._call("init", PARTIAL if partial else FULL)
        self.asleep = False

    def _refresh(self, name, image):
        if self.asleep:
            raise RuntimeError(f"{name} on a sleeping panel: init first")
        self._call(name)
        self.image = image.copy()
        self.refreshes += 1
        if self.directory:
            self.image.save(os.path.join(self.directory, f"board-{self.refreshes:05d}.png"))

    def display(self, image):
        self._refresh("display", image)

    def display_partial(self, image):
        self._refresh("display_partial", image)

    def clear(self):
        self._refresh("clear", Image.new("1", self.size, 1))

    def sleep(self):
        self._call("sleep")
        self.asleep = True


class WavesharePanel:
    """A Waveshare e-paper module (``epaper.epaper(model).EPD()``) behind the panel protocol.

    Partial refreshes use the vendor's ``init_part`` + ``display_Partial`` over the whole
    window, as Waveshare's own demo does; modules without them get full refreshes.
    ``sleep`` powers the panel off (the vendor call also closes SPI, so every refresh
    starts with ``init``, which the policy does).
    """

    def __init__(self, epd):
        self.epd = epd
        self.size = (epd.width, epd.height)
        self.partial_refresh = hasattr(epd, "init_part") and hasattr(epd, "display_Partial")

    @classmethod
    def load(cls, model: str = "epd7in5_V2", *, prefix: str = "display") -> "WavesharePanel":
        try:
            import epaper
        except ImportError as exc:
            raise ConfigError(f"{prefix}.panel: 'waveshare' needs the waveshare-epaper package "
                              f"(systemd/install.sh installs it; by hand: pip install --no-deps "
                              f"waveshare-epaper, as it declares RPi.GPIO, which rpi-lgpio provides): {exc}") from exc
        try:
            module = epaper.epaper(model)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.endswith("." + model):
                raise ConfigError(f"{prefix}.model: {model!r} is not a waveshare-epaper module") from exc
            raise ConfigError(f"{prefix}.panel: waveshare {model} needs a module that is not "
                              f"installed: {exc}") from exc
        except Exception as exc:      # its hardware layer fails to load off a Pi or without SPI
            raise BusError(f"waveshare {model}: {exc}") from exc
        return cls(module.EPD())

    def init(self, partial: bool = False) -> None:
        result = self.epd.init_part() if partial and self.partial_refresh else self.epd.init()
        if result == -1:
            raise BusError("e-ink panel did not initialise (SPI not available?)")

    def display(self, image):
        self.epd.display(self.epd.getbuffer(image))

    def display_partial(self, image):
        if not self.partial_refresh:
            return self.display(image)
        self.epd.display_Partial(self.epd.getbuffer(image), 0, 0, self.epd.width, self.epd.height)

    def clear(self):
        self.epd.Clear()

    def sleep(self):
        self.epd.sleep()


class InkyPanel:
    """A Pimoroni Inky board (``inky.auto.auto()`` or a given object): full refreshes only.

    Inky has no partial refresh and manages its own power, so ``init`` and ``sleep`` do
    nothing; white and black are mapped to the board's own palette indices.
    """

    partial_refresh = False

    def __init__(self, inky):
        self.inky = inky
        self.size = (inky.width, inky.height)

    @classmethod
    def load(cls, model: str | None = None, *, prefix: str = "display") -> "InkyPanel":
        try:
            from inky.auto import auto
        except ImportError as exc:
            raise ConfigError(f"{prefix}.panel: 'inky' needs the inky package "
                              f"(pip install 'corbeille[pi]'): {exc}") from exc
        try:
            return cls(auto())
        except Exception as exc:      # no EEPROM found, no I2C/SPI
            raise BusError(f"inky: {exc}") from exc

    def init(self, partial: bool = False) -> None:
        pass

    def display(self, image):
        white, black = self.inky.WHITE, self.inky.BLACK
        indices = convert(image, "1").convert("L").point(lambda v: white if v else black)
        self.inky.set_image(Image.frombytes("P", indices.size, indices.tobytes()))
        self.inky.show()

    display_partial = display

    def clear(self):
        self.display(Image.new("1", self.size, 1))

    def sleep(self):
        pass
