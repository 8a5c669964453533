"""Speaking rounds on the seat buttons, made for a table. Every seat still to answer in the
round is lit at once and may answer ahead of its turn: a press per lot, or a long press to
pass at once. The answers are declared in the rulebook's order (the decision's `order`),
each as soon as it is known; a silence of `timing.speaking_window_s` without any seat press
passes every seat that has not pressed. So a round nobody answers lasts one silence, however
many players are asked, and a seat that waits for the others' answers hears each of them: a
press starts the silence again.

A part of `firmware.controller.Controller` (its `speaking`): the round's state is the
controller's `speak`, kept from one speaker to the next of the same round, read by the seat
clock too; the screen is firmware/screens/seats.py's `Speak`.
"""
from __future__ import annotations

from engines.core.decision import Interactions as I


class SpeakingRound:
    """The speaking round of `ctl`, worked through the controller's public state and methods."""

    def __init__(self, ctl):
        self.ctl = ctl

    def arm(self, d, on_buttons: bool) -> None:
        """The state of the round decision `d` asks in (`on_buttons`: the seat asked has a
        button; else the operator answers it from the list). A new round starts its silence;
        the next speaker of the same round keeps what the others pressed ahead, and the
        silence too unless the operator answered the last one (the table waited for him)."""
        params = d.interaction.params
        key, answered = [d.prompt, list(params.get("order", []))], len(params.get("answers", []))
        s = self.ctl.speak
        same = s is not None and s["round"] == key and answered > s["answered"] and not s.get("stopped")
        if not on_buttons:
            if same:
                s.update(answered=answered, manual=True)
            else:
                self.ctl.speak = None
            return
        most = max(d.role(I.ANSWER).fields["lots"].values)
        if same:
            if s["manual"]:
                s["deadline"] = self.ctl.now + self.ctl.timing.speaking_window_s
            s.update(answered=answered, max=most, manual=False)
            return
        self.ctl.speak = {"round": key, "answered": answered, "max": most, "counts": {}, "gaps": {}, "ready": {},
                      "deadline": self.ctl.now + self.ctl.timing.speaking_window_s, "manual": False}

    def to_answer(self) -> list[int]:
        """The seats with a button still to answer in this round, in its order."""
        params = self.ctl.session.decision().interaction.params
        order, answered = params.get("order", []), len(params.get("answers", []))
        return [seat for seat in order[answered:] if seat in self.ctl.seat_buttons]

    def open(self) -> bool:
        """The round takes seat presses: its screen is up alone, the operator has not taken
        over, and its clock is not waiting for OK."""
        s = self.ctl.speak
        return (s is not None and not s["manual"] and not s.get("stopped") and len(self.ctl.stack) == 1
                and self.ctl.stack[0]["t"] == "speak")

    def press(self, seat) -> None:
        s = self.ctl.speak
        if not self.open() or seat not in self.to_answer():
            return
        n = s["ready"].pop(seat, s["counts"].get(seat, 0)) + 1
        s["counts"][seat], s["gaps"][seat] = n, self.ctl.now + self.ctl.timing.press_gap_s
        self._spoke()
        if n >= s["max"]:
            self._counted(seat)
            self._due()

    def long_press(self, seat) -> bool:
        """A long press of a seat still to answer passes at once (True); any other long
        press is no answer (False: it shows that player's private view)."""
        s = self.ctl.speak
        if not self.open() or seat not in self.to_answer():
            return False
        s["counts"].pop(seat, None)
        s["gaps"].pop(seat, None)
        s["ready"][seat] = 0
        self._spoke()
        self._due()
        return True

    def _spoke(self) -> None:
        """A seat pressed: a tick, and the silence starts again for those still to answer."""
        self.ctl.speak["deadline"] = self.ctl.now + self.ctl.timing.speaking_window_s
        self.ctl.beeps.append("tick")
        self.ctl.changed = True

    def _counted(self, seat) -> None:
        """`seat`'s presses paused (or reached the most allowed): its answer is known."""
        s = self.ctl.speak
        s["ready"][seat] = s["counts"].pop(seat)
        s["gaps"].pop(seat, None)

    def tick(self, now) -> None:
        for seat, until in list(self.ctl.speak["gaps"].items()):
            if now >= until:
                self._counted(seat)
        self._due()

    def _due(self) -> None:
        """Declare every answer now known, in the round's order: the asked seat's count, its
        pass (a long press, or the silence run out while it has not pressed), then the
        next speaker's if it answered ahead, until one is still to come."""
        while self.open():
            s, seat = self.ctl.speak, self.ctl.session.decision().actor
            if seat in s["ready"]:
                lots = s["ready"].pop(seat)
            elif self.ctl.now >= s["deadline"] and seat not in s["counts"]:
                lots = 0
            else:
                return
            if not self.ctl.apply(self.ctl.flow.act(I.ANSWER, player=seat, lots=min(lots, s["max"]))):
                return
            self.ctl.flow.sync()

    def wake(self):
        """When the round has something to do next: at once when the seat asked answered
        ahead (the operator answered the one before it), else a count's pause, the
        silence's end, or the next second shown."""
        s = self.ctl.speak
        if self.ctl.session.decision().actor in s["ready"]:
            return self.ctl.now
        times = [*s["gaps"].values(), s["deadline"], self.ctl.seat_clock.wake()]
        return min((x for x in times if x is not None), default=None)

    def settle_by_seat(self, seat) -> None:
        """A seat press on a settlement's screen: the table moves on. The settlement is
        made as OK makes it (the money moves now, at the price now: a rumour revealed from
        the menu while the screen was up counts), and when the round then goes on with that
        seat still to answer, the press is its first one. So the speakers answer on their
        buttons and nobody waits for the operator's OK between a purchase paid at once and
        the others speaking."""
        if self.ctl.apply(self.ctl.flow.act(I.CONFIRM)):
            self.ctl.flow.sync()
            self.press(seat)
