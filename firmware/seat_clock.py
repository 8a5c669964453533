"""The seat clock on the root screen: a speaking round's window, an open auction's silence
or the lot auction's step, as the controller's state holds it (`speak`, `clock`).

A seat clock may be stopped: after an undo the restored round waits for OK before its clock
runs (a clock restarting by itself would redo what was just undone, and the undo could not
stick). A stopped clock keeps the seconds it had left (`left`, None: a whole length) and
takes no seat presses; OK starts it again.
"""
from __future__ import annotations

import math

from firmware.texts import t

WARN_S = 3          # the buzzer sounds once a second over a clock's last seconds


class SeatClock:
    """The clock of `ctl`'s root screen, read and worked through the controller's public
    state and methods."""

    def __init__(self, ctl):
        self.ctl = ctl

    def timer(self):
        """(state, deadline key, whole length) of the clock on the root screen, or None."""
        if not self.ctl.stack or self.ctl.session is None:
            return None
        root = self.ctl.stack[0]["t"]
        if root == "speak" and self.ctl.speak is not None and not self.ctl.speak.get("manual"):
            return self.ctl.speak, "deadline", self.ctl.timing.speaking_window_s
        if root == "open_auction" and self.ctl.clock is not None and self.ctl.clock.get("open"):
            return self.ctl.clock, "until", self.ctl.flow.silence_s()
        if root == "auction" and self.ctl.clock is not None and not self.ctl.clock.get("manual"):
            return self.ctl.clock, "next", self.ctl.timing.auction_step_s
        return None

    def seconds(self):
        """The whole seconds left on the running clock (rounded up), or None: no clock runs,
        or it is stopped, held by the operator, or a count of presses is under way."""
        timer = self.timer()
        if timer is None:
            return None
        state, key, _ = timer
        if state.get("stopped") or state.get("held") or state.get("counts") or state.get(key) is None:
            return None
        return max(0, math.ceil(state[key] - self.ctl.now - 1e-9))

    def wake(self):
        """When the seconds shown next change (the loop wakes then to redraw), or None."""
        n = self.seconds()
        if not n:
            return None
        state, key, _ = self.timer()
        return state[key] - (n - 1)

    def pausable(self) -> bool:
        """A window no rule fixes (a configured length) may be paused; a silence the
        rulebook sets (the decision's `silence_s`) never is."""
        timer = self.timer()
        return timer is not None and not (timer[0] is self.ctl.clock and self.ctl.clock.get("open")
                                          and self.ctl.flow.rule_silence() is not None)

    def toggle(self) -> None:
        """Back on a seat screen: pause a running configured clock, or start a stopped one."""
        timer = self.timer()
        if timer is None:
            return
        state, key, _ = timer
        if state.get("stopped"):
            self.start()
        elif not self.pausable():
            self.ctl.beeps.append("error")          # the rulebook's silence: only a raise entered holds it
        else:
            self.stop(max(0.0, state[key] - self.ctl.now) if state.get(key) is not None else None)

    def warn(self) -> None:
        """The buzzer once a second over a clock's last WARN_S seconds (a clock no longer
        than that, the lot auction's step, already ticks at each step)."""
        n = self.seconds()
        timer = self.timer()
        if not n or n > WARN_S or timer[2] <= WARN_S:
            return
        state, key, _ = timer
        mark = [state[key], n]
        if state.get("warned") != mark:
            state["warned"] = mark
            self.ctl.beeps.append("tick")
            self.ctl.changed = True

    def title(self, title: str) -> str:
        """The title with the clock at its right: the seconds left, or "pause"."""
        if self.stopped():
            return title + "\t" + t("clock.paused", self.ctl.lang)
        n = self.seconds()
        return title if n is None else title + "\t" + t("clock.seconds", self.ctl.lang, n=n)

    def board_line(self, seconds: bool):
        """The line a board everyone sees adds during a seat clock: what is asked or sold
        and who leads, with the seconds left when the board can redraw every second
        (`seconds`; an e-ink board cannot); None when no seat clock is on."""
        timer = self.timer()
        if timer is None:
            return None
        top = self.ctl.stack[0]
        lead = top.board_line(self.ctl) if hasattr(top, "board_line") else ""
        line = self.ctl.kit.title() + (" · " + lead if lead else "")
        if not seconds:
            return line
        if self.stopped():
            return line + "\t" + t("clock.paused", self.ctl.lang)
        n = self.seconds()
        return line if n is None else line + "\t" + t("clock.seconds", self.ctl.lang, n=n)

    def stopped(self) -> bool:
        timer = self.timer()
        return timer is not None and bool(timer[0].get("stopped"))

    def stop(self, left=None) -> None:
        """Stop the clock on the root screen, keeping `left` seconds (None: a whole length)."""
        timer = self.timer()
        if timer is not None:
            timer[0]["stopped"], timer[0]["left"] = True, left
            self.ctl.changed = True

    def start(self) -> None:
        """OK on a stopped clock: it runs again from the seconds it had left."""
        timer = self.timer()
        if timer is None or not timer[0].get("stopped"):
            return
        state, key, whole = timer
        left = state.pop("left", None)
        state["stopped"] = False
        state[key] = self.ctl.now + (whole if left is None else left)
        if "gaps" in state:
            state["gaps"] = {}
        if "counts" in state:
            state["counts"] = {}
        self.ctl.beeps.append("confirm")
        self.ctl.changed = True
