"""Helper module (no tests): A whole box in the test process: the real loop, controller, journal and renderers, with
gpiozero's MockFactory pins for the buttons, a manual clock, and PNG-capture displays.

`press("ok")` drives the OK button's pin low then high, lets the manual clock run (so the
input driver's debounce and long-press timers fire), and pumps the loop: exactly the path
a finger takes on the box. `choose(label)` reads the operator screen and presses Down/Up
until the entry is selected, then OK, like a person would.
"""

from gpiozero.pins.mock import MockFactory

from references import assert_matches_reference as compare_with_reference
from drivers.clock import ManualClock
from drivers.display import PngDisplay
from drivers.inputs import build_operator_inputs, build_seat_buttons
from drivers.outputs import RecordingBeeper, RecordingSeatLights
from firmware.app import Hardware, Part, start_app
from firmware.config import config_from_dict
from firmware.journal import Journal
from firmware.script import run_script

REFERENCES = "e2e"  # the folder under tests/reference/ (the Dividends tests use their own)
OPERATOR_PINS = {"up": 5, "down": 6, "ok": 13, "back": 19}
SEAT_PINS = [4, 12, 16, 20, 21, 23]


def assert_matches_reference(image, name):
    compare_with_reference(image, name, REFERENCES)


def journal_script(tmp_path, script):
    """Record a game played from `script` in the box's journal (tmp_path/state), as if the
    box had played it before a restart; returns the game."""
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    game = run_script(script)
    with Journal(state / "journal.sqlite") as journal:
        game_id = journal.new_game(game.header)
        for act in game.log:
            journal.append(game_id, act.to_json())
    return game


def assert_board_pages(box, name, pages):
    """The board's first `pages` pages against their references `<name>_board<n>`, then back
    to its first page. Once the game is over the report's pages come first (one per player
    on a small board: tests/firmware/test_report_board.py); the game's own board follows."""
    report = len(box.app.board_pages.report)
    assert report == (len(box.c.session.players) if box.c.session.over else 0)
    for page in range(pages):
        box.app.board_pages.page = report + page
        box.app.board_pages.redraw()
        box.app.refresh()
        assert_matches_reference(box.board.last_frame, f"{name}_board{page + 1}")
    box.app.board_pages.page = 0
    box.app.board_pages.redraw()
    box.app.refresh()


def e2e_config(tmp_path, seats, rounds, extra):
    """The configuration of a box on `tmp_path`'s state folder, its test timings and `extra` sections."""
    data = {
        "game": {"rounds": rounds, "language": "fr"},
        "state": {"dir": str(tmp_path / "state")},
        "operator": {"type": "dummy"},
        "seats": {"count": seats},
        "timing": {"hold_time": 1.0, "speaking_window_s": 2.0, "auction_step_s": 1.0,
                   "private_view_s": 2.0},
    }
    for section, values in (extra or {}).items():
        data.setdefault(section, {}).update(values)
    return config_from_dict(data)


class E2EBox:
    def __init__(self, tmp_path, *, seats=3, rounds=2, board=None, operator=None, extra=None, config=None):
        """`config`: the one an earlier box on this state folder was built with (a restart:
        the same file, read again to the same values), instead of one from these arguments."""
        self.clock = ManualClock(start=1000.0)
        self.factory = MockFactory()
        self.config = config or e2e_config(tmp_path, seats, rounds, extra)
        import queue
        self.queue = queue.Queue()
        inputs = [build_operator_inputs({"kind": "buttons", **OPERATOR_PINS, "hold_time": 1.0}, self.queue,
                                        pin_factory=self.factory, clock=self.clock)]
        if seats:
            inputs.append(build_seat_buttons({"pins": SEAT_PINS[:seats], "hold_time": 1.0}, self.queue,
                                             pin_factory=self.factory, clock=self.clock))
        self.operator = operator or PngDisplay((128, 64), "1", name="operator", keep=5)
        self.board = board
        self.lights = RecordingSeatLights()
        self.beeper = RecordingBeeper()
        parts = [Part("display", self.operator)] + ([Part("board", board)] if board is not None else [])
        self.hw = Hardware(operator=self.operator, board=board, inputs=inputs, lights=self.lights,
                           beeper=self.beeper, parts=parts)
        self.app = start_app(self.config, self.hw, queue=self.queue, clock=self.clock, strict=True)
        self.app.controller.seed_source = lambda: 1
        self.app.refresh()

    @property
    def c(self):
        return self.app.controller

    @property
    def screen(self):
        return self.c.screen()

    @property
    def game(self):
        return self.c.session.game

    def frame(self):
        return self.operator.last_frame

    def close(self):
        self.hw.close()
        self.app.journal.close()
        self.factory.close()

    # ------------------------------------------------------------- fingers
    def _pin(self, number):
        return self.factory.pin(number)

    def press(self, name, hold=0.05, pause=0.05):
        pin = self._pin(OPERATOR_PINS[name] if name in OPERATOR_PINS else SEAT_PINS[int(name[4:]) - 1])
        pin.drive_low()
        self.clock.advance(hold)
        self.app.pump()
        pin.drive_high()
        self.clock.advance(pause)
        self.app.pump()
        return self

    def long(self, name):
        return self.press(name, hold=1.1)

    def hold(self, seat):
        self._pin(SEAT_PINS[seat - 1]).drive_low()
        self.clock.advance(0.03)
        self.app.pump()
        return self

    def release(self, seat):
        self._pin(SEAT_PINS[seat - 1]).drive_high()
        self.clock.advance(0.03)
        self.app.pump()
        return self

    def wait(self, seconds, step=0.1):
        end = self.clock.now + seconds
        while self.clock.now < end - 1e-9:
            self.clock.advance(min(step, end - self.clock.now))
            self.app.pump()
        return self

    def items(self):
        return [str(i).split("\t")[0] for i in self.screen.items]

    def choose(self, label):
        items = self.items()
        matches = [i for i, text in enumerate(items) if text.startswith(label)]
        assert matches, f"{label!r} not in {items} (screen {self.screen.title!r})"
        target, now, n = matches[0], self.screen.selected, len(items)
        down = (target - now) % n
        for _ in range(down if down <= n - down else n - down):
            self.press("down" if down <= n - down else "up")
        assert self.screen.selected == target, (self.screen, target)
        return self.press("ok")

    def pick(self, sector, company):
        return self.choose(sector).choose(company)
