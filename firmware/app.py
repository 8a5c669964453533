"""The box's main loop: one queue, one thread.

    inputs and timers -> controller -> engine -> journal -> renderers -> displays

Every input driver (GPIO buttons, keyboard, serial console, RFID reader, window) puts
`InputEvent`s on one `queue.Queue`; `App.run` takes them in order in the main thread.
When nothing arrives before the controller's next deadline (a speaking window, the
auction clock, the end of a private view), the loop makes a tick event itself:
`InputEvent("clock", "tick", now)`. Tests call `App.step(event)` or `App.pump(now)`
with a manual clock instead of `run`.

The journal is held while an event is handled: the action, any setting it changes and
the UI state it leads to (the journal's meta table) are committed together, one
fdatasync, before anything is shown or answered; an event that writes nothing (a menu
move) costs the SD card nothing, and its UI position is not kept (after a power cut the
box comes back on the screen of the last action). Then `refresh` draws the operator
screen (a frame goes to the display only when it changed), the quotation board when the
game changed (or its page turned), lights the seats and plays the beeps.

A commit the card refuses (full, read-only, failing: firmware/journal/storage.py) acknowledges
nothing: the game goes back to what the journal holds, the operator screen and the console
say what happened, up to which action the game is safe and what to do, and each later
press looks at whether the card can be written again (firmware/card_faults.py).

systemd: READY=1 once the first frame has been handed to the operator display,
WATCHDOG=1 from this loop at half of $WATCHDOG_USEC (firmware/notify.py).
"""
from __future__ import annotations

import json
import logging
import queue as queue_module
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from drivers.events import InputEvent
from firmware.board_pages import BoardPages
from firmware.card_faults import CardFaults
from firmware.channel import live_state
from firmware.journal import storage
from firmware.games import adapter_of
from firmware.notify import Notifier
from firmware.render import render_screen
from firmware.screens.overlays import Message
from firmware.texts import t

log = logging.getLogger("corbeille")

BOARD_PAGE_S = 6.0        # a paged quotation board (128x64, 256x64) turns a page this often
REPORT_PAGE_S = 20.0      # the end-of-game report's pages turn slower: charts are read, and e-ink flashes
IDLE_WAKE_S = 1.0         # the loop wakes at least this often (display retries, e-ink)
CHECKPOINT_IDLE_S = 300.0  # a pause in play this long copies the journal's WAL into its file


@dataclass
class Part:
    """An optional part of the box, with the status key naming it on screen."""
    key: str
    device: object


@dataclass
class Hardware:
    operator: object = None            # a drivers.display.Display (or a TextView in sim)
    board: object = None
    inputs: list = field(default_factory=list)      # things to close: buttons, readers
    lights: object = None
    beeper: object = None
    console: object = None
    power: object = None               # a drivers.power.PowerSwitch: OK + Back held powers off
    parts: list = field(default_factory=list)       # [Part] watched for degradation
    failed: list = field(default_factory=list)      # status keys of parts that could not start

    def close(self):
        for thing in [*self.inputs, self.lights, self.beeper, self.console, self.board, self.operator]:
            close = getattr(thing, "close", None) or getattr(thing, "stop", None)
            if close is None:
                continue
            try:
                close()
            except Exception:          # closing is best effort at exit
                log.debug("closing %r failed", thing, exc_info=True)


class App:
    def __init__(self, controller, hardware: Hardware, *, queue=None, clock=time.monotonic,
                 notifier: Notifier | None = None, journal=None, strict: bool = False,
                 board_page_s: float = BOARD_PAGE_S, report_page_s: float = REPORT_PAGE_S, help_line="",
                 state_dir: Path | None = None):
        self.controller = controller
        self.hw = hardware
        self.queue = queue or queue_module.Queue()
        self.clock = clock
        self.notifier = notifier or Notifier({})
        self.journal = journal
        self.state_dir = state_dir           # what the box keeps on the card besides the journal
        self.card = CardFaults(controller, clock, state_dir, getattr(journal, "fault", None))
        self.strict = strict                 # tests: a bug raises instead of being shown
        self.board_pages = BoardPages(board_page_s, report_page_s)
        self.help_line = help_line           # a text, or lang -> text (the sim's key hints)
        self.on_help = None                  # text -> None: writes a key-hint line drawn apart
        self._last_help = None
        self.stopping = False
        self.powering_off = False
        self._last_screen = None
        self._lit = None
        self._saved = None
        self.frames_shown = 0
        self._last_commit = None             # clock time of the last commit (idle checkpoint)
        self._event_t = None
        self.on_frame = None                 # bench hook: called after each operator frame
        self.channel = None                  # firmware.channel.LiveChannel, when the web view is on
        # The board's page count is known once it is first drawn (_refresh_board), after
        # the first operator frame: loading a box and the board's layout can wait till then.

    # ------------------------------------------------------------------ loop
    def run(self) -> int:
        """Take events until a quit event, Ctrl-C or SIGTERM (which puts a quit event)."""
        try:
            self.refresh()
            self._verify_journal()
            self.refresh()
            while not self.stopping:
                now = self.clock()
                self.notifier.watchdog(now)
                timeout = self._timeout(now)
                if timeout <= 0:               # a deadline is due: it goes before more input
                    self.step(InputEvent("clock", "tick", now))
                    continue
                try:
                    event = self.queue.get(timeout=timeout)
                except queue_module.Empty:
                    event = InputEvent("clock", "tick", self.clock())
                self.step(event)
        except KeyboardInterrupt:
            pass
        finally:
            self.notifier.stopping()
            if self.channel is not None:
                self.channel.close()
        return 0

    def _timeout(self, now: float) -> float:
        times = [now + IDLE_WAKE_S]
        deadline = self.controller.next_deadline()
        if deadline is not None:
            times.append(deadline)
        if self.notifier.watchdog_interval is not None:
            times.append(self.notifier.next_ping)
        if self.board_pages.next_page is not None:
            times.append(self.board_pages.next_page)
        return max(0.0, min(times) - now)

    def stop(self) -> None:
        self.stopping = True

    def step(self, event) -> None:
        """Handle one event, then bring every output up to date."""
        if event.kind in ("eof", "quit") or event.name == "quit":
            self.stopping = True
            return
        if event.name == "power" and event.kind == "long_press":
            self._power_off()
            return
        self._verify_journal()
        if self.fault is not None and event.kind != "tick":
            self.journal = self.card.retry(self.journal, lambda writer: attach_journal(
                self.controller, writer, self.state_dir))
        if self.journal is not None:
            self.journal.hold()
        self._event_t = getattr(event, "t", None)
        reply = None
        try:
            if event.name == "console" and event.kind == "line":
                reply = self.controller.console(event.data)
            else:
                self.controller.handle(event)
        except Exception:
            if self.strict:
                self._commit()
                raise
            # A bug in the UI must not stop the game: log it, say so, go back to the root.
            log.error("event %r failed:\n%s", event, traceback.format_exc())
            self.controller.recover()
        refused = self._commit()       # before any answer or frame shows the action
        reply = refused or reply
        if self.hw.console is not None and reply:
            self.hw.console.write_line(reply)
        now = getattr(event, "t", None)
        if event.kind == "tick" and now is not None:
            self._checkpoint_when_idle(now)
            self.board_pages.turn(now)
            for display in (self.hw.operator, self.hw.board):
                tick = getattr(display, "tick", None)
                if tick is not None:
                    tick(now)          # retries of a failing display, e-ink refreshes
        self.refresh()

    def _verify_journal(self) -> None:
        """The hash-chain check of the resumed game's rows before its snapshot, deferred at
        open so the first frame does not wait for it (Journal.verify_deferred), done now:
        after the first frame, before the first event is handled. A damage it finds is
        handled as one found at open: the journal cuts the game back and the game resumes
        from what it keeps, the repair said on screen and in the log."""
        journal = self.journal
        if journal is None or not journal.deferred:
            return
        failed = []
        try:
            found = journal.verify_deferred()
        except Exception as error:      # the file cannot be read now: said, as any repair
            found = failed = [str(error)]
        if found:
            # Every repair of this start, as boot shows them when they are found at open.
            c = self.controller
            c.session, c.stack = None, []
            c.boot(self.clock(), messages=[*journal.repairs, *failed])

    def _power_off(self) -> None:
        """OK + Back held (drivers/inputs.py): ask the helper to power off. The loop goes on
        until systemd stops the service on the way down (its request file lives in the
        service's runtime directory, which a stop would delete before the helper saw it);
        closing the hardware then turns the screen off. Without a helper the game goes on."""
        power = self.hw.power
        if power is None:
            return
        try:
            power.request()
        except OSError as error:
            log.warning("power off refused: %s", error)
            return
        log.info("power off asked for from the buttons")
        self.powering_off = True

    def pump(self, now: float | None = None) -> int:
        """Handle every queued event, then a tick at `now` (tests and benchmarks)."""
        count = 0
        while True:
            try:
                event = self.queue.get_nowait()
            except queue_module.Empty:
                break
            self.step(event)
            count += 1
        self.step(InputEvent("clock", "tick", self.clock() if now is None else now))
        return count

    # --------------------------------------------------------------- outputs
    def status_text(self) -> str:
        down = list(self.hw.failed) + (["card"] if self.fault is not None else [])
        for part in self.hw.parts:
            if getattr(part.device, "degraded", False) and part.key not in down:
                down.append(part.key)
        if not down:
            return ""
        lang = self.controller.lang
        return "! " + ", ".join(t("status." + key, lang) for key in down)

    def refresh(self) -> None:
        c = self.controller
        c.status = self.status_text()
        screen = c.screen()
        # The key-hint line is a text of the language now: a switch redraws it too.
        help_line = self.help_line(c.lang) if callable(self.help_line) else self.help_line
        if help_line != self._last_help and self.on_help is not None:
            self.on_help(help_line)
        if screen != self._last_screen or help_line != self._last_help:
            op = self.hw.operator
            if hasattr(op, "show_screen"):
                op.show_screen(screen, help_line)
            else:
                op.show(render_screen(screen, op.size, op.mode))
            self._last_screen, self._last_help = screen, help_line
            self.frames_shown += 1
            if self.on_frame is not None:
                self.on_frame()
            self.notifier.ready()
        self.board_pages.refresh(self.hw.board, c, self._last_screen)
        self._refresh_lights()
        for seat in c.take_blinks():
            if self.hw.lights is not None and seat < 6:
                self.hw.lights.blink(seat + 1, n=3)
                self._lit = None            # the next refresh lights the seats again after the blink
        for beep in c.take_beeps():
            if self.hw.beeper is not None:
                self.hw.beeper.play(beep)
        if self.channel is not None:
            self.channel.publish(live_state(c), self.clock())

    def _checkpoint_when_idle(self, now: float) -> None:
        """After CHECKPOINT_IDLE_S without a commit, the WAL goes into the journal's file."""
        journal = self.journal
        if journal is None or not journal.unsaved:
            return
        if self._last_commit is None:
            self._last_commit = now
        elif now - self._last_commit >= CHECKPOINT_IDLE_S:
            try:
                journal.checkpoint()
            except Exception:          # the actions are safe in the WAL; try at the next pause
                log.warning("journal checkpoint failed", exc_info=True)
            self._last_commit = now

    def _refresh_lights(self) -> None:
        lights = self.hw.lights
        if lights is None:
            return
        wanted = frozenset(s + 1 for s in self.controller.seats.lit())
        if wanted == self._lit:
            return
        self._lit = wanted
        lights.all_off()
        for seat in sorted(wanted):
            if seat <= 6:
                lights.light(seat)

    def _commit(self) -> str | None:
        """Commit what the event wrote, with the UI state it leads to: one fdatasync.

        An event that wrote nothing commits nothing. If the commit fails, nothing of the
        event is in the journal, and nothing of it is acknowledged: returns what the console
        answers instead (`CardFaults.refused`); None when committed.
        """
        journal = self.journal
        if journal is None:
            return None
        if not journal.pending:
            journal.commit()           # nothing written: only stops holding
            return None
        try:
            try:
                state = json.dumps(self.controller.ui_state(), sort_keys=True, ensure_ascii=False)
            except Exception:          # the UI position is a comfort; the game is in the rows
                log.warning("could not build the UI state", exc_info=True)
                state = self._saved
            if state is not None and state != self._saved:
                journal.set_meta("ui", state)
            journal.commit()
        except Exception as error:
            journal.rollback()
            return self.card.refused(journal, error)
        self._saved = state
        self._last_commit = self._event_t if self._event_t is not None else self.clock()
        if self.fault is not None:
            self.card.back()           # a write went through
        return None

    @property
    def fault(self):
        """The card's fault while it refuses the journal's writes (firmware/card_faults.py)."""
        return self.card.fault


def reporter(journal, state_dir: Path, lang_of):
    """A function writing a finished game's report once (its folder kept in the meta table)."""
    def report(session):
        key = f"report.{session.game_id}"
        done = journal.get_meta(key) if journal is not None else None
        if done:
            return done
        from firmware.report import write_report   # only to write one (a resumed finished game has its own)

        lang = lang_of()
        folder = Path(state_dir) / "reports" / f"game-{session.game_id}"
        game = adapter_of(session)
        details, box = game.report(session, lang)
        header = {"title": t("report.title", lang, game=game.title(lang), id=session.game_id), **details,
                  t("report.players", lang): ", ".join(session.players),
                  t("report.actions", lang): len(session.game.log)}
        prices, fortunes = session.evening()
        write_report(folder, header, prices, session.game.ranking_rows(), lang, box=box, fortunes=fortunes,
                     money_of=game.prefix)
        if journal is not None:
            journal.set_meta(key, str(folder))
        return str(folder)
    return report


# ------------------------------------------------------------------------ start
def start_app(config, hardware: Hardware, *, queue, clock=time.monotonic, lang: str | None = None,
              seat_buttons=None, notifier: Notifier | None = None, strict: bool = False,
              journal_path: Path | None = None, help_line="", controller_cls=None) -> App:
    """Open the journal in the state directory, resume (or set up) a game, build the App.

    `lang` (the --lang option) wins over the language chosen on the box, which wins over
    the configuration's game.language."""
    from firmware.controller import Controller, SetupDefaults, Timing
    from firmware.journal import JournalError
    from firmware.journal.startup import open_for_box

    state_dir = Path(config.state.dir)
    state_dir.mkdir(parents=True, exist_ok=True)
    journal, moved_aside = open_for_box(journal_path or state_dir / "journal.sqlite")
    if moved_aside:
        log.error("%s", moved_aside)
    if seat_buttons is None:
        seat_buttons = range(config.seats.count)
    controller = (controller_cls or Controller)(
        None, lang=lang or config.game.language, timing=Timing.from_config(config.timing),
        seat_buttons=seat_buttons, defaults=SetupDefaults.from_config(config.game, config.boxes.dir, config.state.dir))
    controller.lang_forced = lang is not None
    controller.rfid_reader = config.rfid.enabled    # the setup offers the players' cards
    attach_journal(controller, journal, state_dir)
    try:
        controller.boot(clock(), messages=journal.repairs)
    except JournalError as error:
        if journal.read_only or not storage.is_storage_error(error):
            raise
        # The resume had to write (a refused tail taken out) and the card refused it.
        from firmware.journal.readonly import ReadOnlyJournal

        journal.close()
        journal = ReadOnlyJournal(journal.path, storage.diagnose(journal.path, error))
        attach_journal(controller, journal, state_dir)
        controller.session, controller.stack = None, []
        controller.boot(clock(), messages=journal.repairs)
    if config.web.enabled:
        _open_web(controller, config, state_dir)
    if moved_aside:
        # Said on the screen the box starts on (the setup), until OK or Back.
        controller.stack.append(Message(t("title.journal_aside", controller.lang),
                                        [t("journal_aside.line", controller.lang)]))
    app = App(controller, hardware, queue=queue, clock=clock, notifier=notifier, journal=journal,
              strict=strict, help_line=help_line, state_dir=state_dir)
    if app.fault is not None:
        # A card that will not let the box write: the game shown as the journal holds it,
        # saying why nothing can be recorded and what to do; never an exit (systemd would
        # restart the box into the same fault until its start limit stops it).
        log.error("the journal cannot be written (%s): %s; the box shows the game read-only",
                  app.fault.kind, app.fault.detail)
        if app.fault.kind == "full":
            storage.free(state_dir, None)
        app.card.say("start")
    if config.web.enabled:
        from firmware.channel import LiveChannel, live_path
        app.channel = LiveChannel(live_path(state_dir))
    return app


def attach_journal(controller, journal, state_dir: Path) -> None:
    """The journal the controller plays on, and the reports it writes beside it."""
    controller.journal = journal
    controller.report = reporter(journal, state_dir, lambda: controller.lang)
    def keep(game, game_id):
        from firmware.box_files import write_learned   # at a game's end, not at start
        return write_learned(state_dir, game, game_id)
    controller.learned_writer = keep


def _open_web(controller, config, state_dir: Path) -> None:
    """The web view is on: the seats' secret made once (firmware/tokens.py), the phones'
    QR codes offered in the menu."""
    from firmware.screens.phones import PhoneLinks
    from firmware.tokens import ensure_secret

    try:
        ensure_secret(state_dir)
    except OSError as error:       # the pages' links cannot be made; the game goes on
        log.error("web view: cannot make the seats' secret in %s: %s", state_dir, error)
        return
    controller.phones = PhoneLinks(state_dir, config.web)
