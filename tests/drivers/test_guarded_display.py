"""GuardedDisplay and FaultGuard: bus errors degrade, back off, recover, never raise."""
import errno

import pytest
from PIL import Image

from drivers.display import DummyDisplay
from drivers.faults import Backoff, FaultGuard, Guarded, GuardedDisplay


class FlakyDisplay(DummyDisplay):
    """A dummy display whose bus fails while ``broken`` is true."""

    def __init__(self):
        super().__init__((16, 8), "1", name="flaky")
        self.broken = False
        self.attempts = 0

    def _send(self, frame):
        self.attempts += 1
        if self.broken:
            raise OSError(errno.EIO, "Remote I/O error")
        super()._send(frame)


def img(value):
    image = Image.new("1", (16, 8))
    for x in range(value):
        image.putpixel((x, 0), 1)
    return image


def test_backoff_doubles_up_to_the_cap():
    backoff = Backoff(0.5, 2, 30)
    assert [backoff.delay(n) for n in range(1, 9)] == [0.5, 1, 2, 4, 8, 16, 30, 30]


def test_display_failing_for_a_while_then_recovering(clock):
    flaky = FlakyDisplay()
    display = GuardedDisplay(flaky, clock=clock)
    assert display.show(img(1)) and not display.degraded

    flaky.broken = True
    assert display.show(img(2)) is False                  # dropped, not raised
    assert display.degraded and "Remote I/O error" in display.last_error
    assert display.guard.retry_at == pytest.approx(100.5)

    clock.advance(0.2)
    assert display.show(img(3)) is False                  # inside the backoff: not even tried
    assert flaky.attempts == 2

    clock.advance(0.3)                                    # t = 100.5: retry, still broken
    display.tick()
    assert flaky.attempts == 3 and display.guard.retry_at == pytest.approx(101.5)

    flaky.broken = False
    clock.advance(0.4)
    display.tick()                                        # still backing off
    assert display.degraded and flaky.attempts == 3
    clock.advance(0.6)
    display.tick()                                        # t = 101.5: recovers
    assert not display.degraded and display.last_error    # last_error kept for the log
    assert list(flaky.image.getdata()) == list(img(3).getdata()), "the newest frame is shown"
    assert display.show(img(3)) is False                  # and is now the cached frame


def test_recovery_resends_even_a_frame_identical_to_the_one_before_the_fault(clock):
    flaky = FlakyDisplay()
    display = GuardedDisplay(flaky, clock=clock)
    display.show(img(1))
    flaky.broken = True
    display.show(img(2))
    flaky.broken = False
    display.show(img(1))               # back to what the panel showed: still resent,
    clock.advance(1)                   # as a reset panel may have lost it
    display.tick()
    assert flaky.attempts == 3 and flaky.frames_sent == 2


def test_opener_failing_at_start_then_opening(clock):
    attempts = []

    def opener():
        attempts.append(clock())
        if len(attempts) < 3:
            raise OSError(errno.ENOENT, "No such file or directory: '/dev/i2c-1'")
        return DummyDisplay((16, 8), "1")

    display = GuardedDisplay(opener=opener, size=(16, 8), mode="1", name="oled", clock=clock)
    assert display.degraded and display.inner is None
    display.show(img(4))
    clock.advance(0.5)
    display.tick()                     # second attempt fails: next in 1 s
    clock.advance(0.9)
    display.tick()
    assert len(attempts) == 2
    clock.advance(0.1)
    display.tick()
    assert not display.degraded and len(attempts) == 3
    assert list(display.inner.image.getdata()) == list(img(4).getdata())


def test_opener_reopens_after_a_failure_and_closes_the_broken_one(clock):
    made = []

    def opener():
        made.append(FlakyDisplay())
        return made[-1]

    display = GuardedDisplay(opener=opener, size=(16, 8), mode="1", clock=clock)
    display.show(img(1))
    made[0].broken = True
    display.show(img(2))
    assert display.inner is None
    clock.advance(0.5)
    display.tick()
    assert len(made) == 2 and made[1].frames_sent == 1


def test_programming_errors_are_not_swallowed(clock):
    display = GuardedDisplay(FlakyDisplay(), clock=clock)
    with pytest.raises(ValueError):
        display.show(Image.new("1", (8, 8)))


def test_guarded_proxy_for_any_part(clock):
    class Buzzer:
        calls = 0
        broken = True

        def beep(self):
            self.calls += 1
            if self.broken:
                raise OSError("gpio gone")
            return "beeped"

    buzzer = Buzzer()
    guarded = Guarded(buzzer, "buzzer", clock=clock)
    assert guarded.beep() is None and guarded.degraded
    assert guarded.beep() is None and buzzer.calls == 1
    buzzer.broken = False
    clock.advance(0.5)
    assert guarded.beep() == "beeped" and not guarded.degraded
    assert guarded.calls == 2                        # plain attributes read through


def test_fault_guard_call():
    guard = FaultGuard("x", Backoff(1, 2, 4))
    assert guard.call(0, lambda: 5) == (True, 5)
    assert guard.call(0, lambda: (_ for _ in ()).throw(OSError("bad"))) == (False, None)
    assert guard.retry_at == 1 and guard.total_failures == 1
