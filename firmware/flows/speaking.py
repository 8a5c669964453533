"""Speaking rounds on the seat buttons, made for a table. Every seat still to answer in the
round is lit at once and may answer ahead of its turn: a press per lot, or a long press to
pass at once. The answers are declared in the rulebook's order (the decision's `order`),
each as soon as it is known; a silence of `timing.speaking_window_s` without any seat press
passes every seat that has not pressed. So a round nobody answers lasts one silence, however
many players are asked, and a seat that waits for the others' answers hears each of them: a
press starts the silence again.

A mixin of `firmware.controller.Controller`: the round's state is `ctl.speak`, kept from one
speaker to the next of the same round; the screen is firmware/screens/seats.py's `Speak`.
"""
from __future__ import annotations

from engines.core.decision import Interactions as I


class SpeakingFlow:
    def _arm_speak(self, d, on_buttons: bool) -> None:
        """The state of the round decision `d` asks in (`on_buttons`: the seat asked has a
        button; else the operator answers it from the list). A new round starts its silence;
        the next speaker of the same round keeps what the others pressed ahead, and the
        silence too unless the operator answered the last one (the table waited for him)."""
        params = d.interaction.params
        key, answered = [d.prompt, list(params.get("order", []))], len(params.get("answers", []))
        s = self.speak
        same = s is not None and s["round"] == key and answered > s["answered"] and not s.get("stopped")
        if not on_buttons:
            if same:
                s.update(answered=answered, manual=True)
            else:
                self.speak = None
            return
        most = max(d.role(I.ANSWER).fields["lots"].values)
        if same:
            if s["manual"]:
                s["deadline"] = self.now + self.timing.speaking_window_s
            s.update(answered=answered, max=most, manual=False)
            return
        self.speak = {"round": key, "answered": answered, "max": most, "counts": {}, "gaps": {}, "ready": {},
                      "deadline": self.now + self.timing.speaking_window_s, "manual": False}

    def _to_answer(self) -> list[int]:
        """The seats with a button still to answer in this round, in its order."""
        params = self.session.decision().interaction.params
        order, answered = params.get("order", []), len(params.get("answers", []))
        return [seat for seat in order[answered:] if seat in self.seat_buttons]

    def speak_open(self) -> bool:
        """The round takes seat presses: its screen is up alone, the operator has not taken
        over, and its clock is not waiting for OK."""
        s = self.speak
        return (s is not None and not s["manual"] and not s.get("stopped") and len(self.stack) == 1
                and self.stack[0]["t"] == "speak")

    def _speaking_press(self, seat) -> None:
        s = self.speak
        if not self.speak_open() or seat not in self._to_answer():
            return
        n = s["ready"].pop(seat, s["counts"].get(seat, 0)) + 1
        s["counts"][seat], s["gaps"][seat] = n, self.now + self.timing.press_gap_s
        self._seat_spoke()
        if n >= s["max"]:
            self._counted(seat)
            self._speak_due()

    def _speaking_pass(self, seat) -> bool:
        """A long press of a seat still to answer passes at once (True); any other long
        press is no answer (False: it shows that player's private view)."""
        s = self.speak
        if not self.speak_open() or seat not in self._to_answer():
            return False
        s["counts"].pop(seat, None)
        s["gaps"].pop(seat, None)
        s["ready"][seat] = 0
        self._seat_spoke()
        self._speak_due()
        return True

    def _seat_spoke(self) -> None:
        """A seat pressed: a tick, and the silence starts again for those still to answer."""
        self.speak["deadline"] = self.now + self.timing.speaking_window_s
        self.beeps.append("tick")
        self.changed = True

    def _counted(self, seat) -> None:
        """`seat`'s presses paused (or reached the most allowed): its answer is known."""
        s = self.speak
        s["ready"][seat] = s["counts"].pop(seat)
        s["gaps"].pop(seat, None)

    def speak_tick(self, now) -> None:
        for seat, until in list(self.speak["gaps"].items()):
            if now >= until:
                self._counted(seat)
        self._speak_due()

    def _speak_due(self) -> None:
        """Declare every answer now known, in the round's order: the asked seat's count, its
        pass (a long press, or the silence run out while it has not pressed), then the
        next speaker's if it answered ahead, until one is still to come."""
        while self.speak_open():
            s, seat = self.speak, self.session.decision().actor
            if seat in s["ready"]:
                lots = s["ready"].pop(seat)
            elif self.now >= s["deadline"] and seat not in s["counts"]:
                lots = 0
            else:
                return
            if not self.apply(self.act(I.ANSWER, player=seat, lots=min(lots, s["max"]))):
                return
            self._sync()

    def speak_wake(self):
        """When the round has something to do next: at once when the seat asked answered
        ahead (the operator answered the one before it), else a count's pause, the
        silence's end, or the next second shown."""
        s = self.speak
        if self.session.decision().actor in s["ready"]:
            return self.now
        times = [*s["gaps"].values(), s["deadline"], self.seat_clock.wake()]
        return min((x for x in times if x is not None), default=None)

    def _settle_by_seat(self, seat) -> None:
        """A seat press on a settlement's screen: the table moves on. The settlement is
        made as OK makes it (the money moves now, at the price now: a rumour revealed from
        the menu while the screen was up counts), and when the round then goes on with that
        seat still to answer, the press is its first one. So the speakers answer on their
        buttons and nobody waits for the operator's OK between a purchase paid at once and
        the others speaking."""
        if self.apply(self.act(I.CONFIRM)):
            self._sync()
            self._speaking_press(seat)
