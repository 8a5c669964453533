"""The seat buttons: their events, open auctions (a press raises, silence sells) and lot
auctions (hold to stay in as the auction clock moves), with the operator's
action lists that stand in for the buttons (speaking rounds: firmware/speaking_round.py).

A part of `firmware.controller.Controller` (its `seats`): the seat-button events, the
auctions' timers and the action lists, read and worked through the controller's public
state and methods (the seat clock itself: firmware/seat_clock.py); the screens (`speak`,
`open_auction`, `open_menu`, `auction`, `auction_menu`) with their keys, ticks and drawing
are firmware/screens/seats.py.
"""
from __future__ import annotations

from engines.core.decision import Interactions as I
from firmware.menus import MENU, player_name
from firmware.screens.seats import RAISE_ENTRY
from firmware.texts import t


# After the silence sells, the result shows this long; presses meanwhile were meant for
# the lot just sold and bid on nothing (the next lot's clock runs from its opening).
RESULT_S = 1.0


class SeatButtons:
    """The seat buttons of `ctl`'s table."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.result_until = 0.0          # the lot just sold shows its result until then

    # ------------------------------------------------------------ seat buttons
    def event(self, seat: int, kind: str) -> None:
        if self.ctl.session is None or not (0 <= seat < len(self.ctl.session.players)):
            return
        if kind == "down":
            self.ctl.held.add(seat)
            self._auction_down(seat)
        elif kind == "up":
            self.ctl.held.discard(seat)
            self._auction_up(seat)
        elif kind == "press":
            if self.ctl.seat_clock.stopped():
                self.ctl.beeps.append("error")    # the clock waits for OK: no count, no bid
            elif self.open_running():
                self._open_bid(seat)
            elif self.ctl.stack and self.ctl.stack[0]["t"] == "settle" and len(self.ctl.stack) == 1:
                self.ctl.speaking.settle_by_seat(seat)
            else:
                self.ctl.speaking.press(seat)
        elif kind == "long_press":
            if self.ctl.clock is not None and not self.ctl.clock.get("manual") and not self.ctl.clock.get("open"):
                return                      # holding is how one bids
            if not self.ctl.speaking.long_press(seat):
                self.ctl.private(seat)

    def lit(self) -> set:
        """Seats (0-based) to light: those still to answer in a speaking round, the bidders
        still in, or the player whose turn it is."""
        if self.ctl.session is None or (self.ctl.stack and self.ctl.stack[0]["t"] == "setup"):
            return set()
        d = self.ctl.session.decision()
        if self.ctl.stack and self.ctl.stack[0]["t"] == "speak" and self.ctl.speak is not None:
            return set(self.ctl.speaking.to_answer())
        if self.ctl.stack and self.ctl.stack[0]["t"] == "auction":
            return {s for s, _ in self.ctl.flow.bidders()}
        if self.ctl.stack and self.ctl.stack[0]["t"] == "open_auction":
            option = d.role(I.OFFER)
            if option is None and d.role(I.CONFIRM) is not None and d.actor is not None:
                return {d.actor}           # the offer's maker, who accepts on his button
            return set(option.fields["player"].values) if option else set()
        return {d.actor} if d.actor is not None else set()

    # ----------------------------------------------------------- open auctions
    # Anyone may raise at any time; a press of a seat button raises by the step (the
    # lowest bid accepted now); `timing.silence_s` without a bid sells the item (the
    # decision's SILENCE action: a sale, or a deal of the items left, drawn by the device).
    # The engine lists the bids each seat may make now (`offers`: a bid above the bidder's
    # cash is never sent, the press only buzzes).
    def open_running(self) -> bool:
        return (self.ctl.clock is not None and self.ctl.clock.get("open") and not self.ctl.clock.get("stopped")
                and len(self.ctl.stack) == 1
                and self.ctl.stack[0]["t"] == "open_auction")

    def _open_amount(self, seat):
        """The bid a press of `seat` makes now, or None if that seat may not make it."""
        offers = dict(tuple(o) for o in self.ctl.session.decision().interaction.params.get("offers", []))
        return offers.get(seat)

    def _open_bid(self, seat):
        if self.ctl.now < self.result_until:
            return                  # the result of the lot just sold is showing: a late press is no bid
        d = self.ctl.session.decision()
        if d.role(I.CONFIRM) is not None and d.role(I.OFFER) is None:
            # an offer's acceptance window: its maker's press accepts
            if seat == d.actor and seat in self.ctl.seat_buttons:
                self.ctl.beeps.append("confirm")
                self.ctl.apply(self.ctl.flow.act(I.CONFIRM))
            elif d.interaction.params.get("refused_press") == "blink":
                self.ctl.blinks.append(seat)
            else:
                self.ctl.beeps.append("error")
            return
        amount = self._open_amount(seat) if seat in self.ctl.seat_buttons else None
        if amount is None:
            # A refused press says nothing of anyone's cash: where the game keeps cash hidden
            # from the table (`refused_press: blink`), only that seat's light blinks; else a buzz.
            params = self.ctl.session.decision().interaction.params
            if params.get("refused_press") == "blink":
                self.ctl.blinks.append(seat)
            else:
                self.ctl.beeps.append("error")
            return
        self.ctl.beeps.append("tick")
        self.ctl.apply(self.ctl.flow.act(I.OFFER, player=seat, amount=amount))

    def rule_clock(self) -> bool:
        """The silence is the game's rule (the decision carries its length): the table sees
        and hears it run out."""
        return self.ctl.session.decision().interaction.params.get("silence_s") is not None

    def open_left(self, now) -> int:
        """Whole seconds left before the silence sells (rounded up)."""
        return max(0, -int(-(self.ctl.clock["until"] - now) // 1))

    def open_tick(self, now):
        clock = self.ctl.clock
        if len(self.ctl.stack) != 1 or clock.get("held") or clock.get("stopped"):
            return          # the operator is answering: the silence waits
        if now < self.ctl.clock["until"]:
            return          # the last seconds' ticks (and their words on screen) come from the clock's warning
        self.ctl.clock["until"] = now + self.ctl.flow.silence_s()
        self.ctl.beeps.append("confirm")
        if self.rule_clock():       # the game's clock: the table sees the result first
            self.result_until = now + RESULT_S
        self.ctl.apply(self._silence_action())

    def _silence_action(self):
        from firmware.script import fill_dice
        return fill_dice(self.ctl.session.game, self.ctl.flow.act(I.SILENCE))

    def open_items(self):
        """The operator answers for any bidder (seats without a button, or anyone)."""
        lang, d = self.ctl.lang, self.ctl.session.decision()
        items = []
        option = d.role(I.OFFER)
        if option is not None:
            for seat in option.fields["player"].values:
                amount = self._open_amount(seat)
                if amount is not None:
                    items.append((t("open.bid", lang, player=player_name(self.ctl.kit.ctx, seat), amount=amount),
                                  self.ctl.flow.act(I.OFFER, player=seat, amount=amount)))
        if option is not None and d.interaction.params.get("any_amount"):
            # a larger raise for a seat, entered by the operator (the silence waits meanwhile)
            items.append((t("open.other_amount", lang), RAISE_ENTRY))
        confirm = self.ctl.flow.role(I.CONFIRM)
        if confirm is not None:               # an offer's acceptance, for its maker
            from firmware.menus import kind_label
            items.append((kind_label(self.ctl.kit.ctx, confirm), self.ctl.flow.act(I.CONFIRM)))
        silence = self.ctl.flow.role(I.SILENCE)
        if silence is not None:
            from firmware.menus import has_text, kind_label
            # the box's own word for a sale or an offer's close, else the game's name for its action
            label = (t("open." + silence, lang) if has_text("ui.open." + silence, lang)
                     else kind_label(self.ctl.kit.ctx, silence))
            items.append((label, self._silence_action()))
        items.append((t("menu_item", lang), MENU))
        return items

    # ---------------------------------------------------------------- auctions
    def auction_running(self) -> bool:
        return (self.ctl.clock is not None and not self.ctl.clock.get("manual") and not self.ctl.clock.get("open")
                and not self.ctl.clock.get("stopped")
                and len(self.ctl.stack) == 1 and self.ctl.stack[0]["t"] == "auction")

    def pending(self):
        option = self.ctl.session.decision().role(I.STAY)
        return list(option.fields["player"].values) if option else []

    def _auction_up(self, seat):
        if self.auction_running() and seat in self.pending():
            self.ctl.clock["gaps"][str(seat)] = self.ctl.now + self.ctl.timing.press_gap_s
            self.ctl.changed = True

    def _auction_down(self, seat):
        if not self.auction_running():
            return
        gaps = self.ctl.clock["gaps"]
        if str(seat) in gaps:                  # released and pressed again: a double press
            del gaps[str(seat)]
            wanted = dict(self.ctl.flow.bidders()).get(seat, 2)
            if wanted > 1 and seat in self.pending():
                self.ctl.beeps.append("tick")
                self._bid(seat, 1)

    def _bid(self, seat, lots):
        return self.ctl.apply(self.ctl.flow.act(I.STAY, player=seat, lots=lots))

    def auction_tick(self, now):
        clock = self.ctl.clock
        for key, until in sorted(clock["gaps"].items()):
            if now >= until:
                del clock["gaps"][key]
                if int(key) in self.pending():
                    self._bid(int(key), 0)      # released and not pressed again: out
                    self.ctl.flow.sync()
                    if not self.auction_running():
                        return
        if now < clock["next"]:
            return
        for seat in self.pending():
            if seat not in self.ctl.held and str(seat) not in clock["gaps"]:
                self._bid(seat, 0)             # not holding when the price moved: out
                self.ctl.flow.sync()
                if not self.auction_running():
                    return
        if self.pending() or self.ctl.session.decision().role(I.STEP):
            self.ctl.clock["next"] = now + self.ctl.timing.auction_step_s
            self.ctl.beeps.append("tick")
            self.ctl.apply(self.ctl.flow.act(I.STEP))

    def auction_items(self):
        lang = self.ctl.lang
        d = self.ctl.session.decision()
        items = []
        if d.role(I.STEP):
            items.append((t("auction.raise", lang, price=d.params.get("proposal", "")), self.ctl.flow.act(I.STEP)))
        bid = d.role(I.STAY)
        if bid:
            wanted = dict(self.ctl.flow.bidders())
            for seat in bid.fields["player"].values:
                top = min(wanted.get(seat, bid.fields["lots"].hi + 1) - 1, bid.fields["lots"].hi)
                for lots in range(0, top + 1):
                    label = t("auction.drop" if lots == 0 else "auction.cut", lang,
                              player=player_name(self.ctl.kit.ctx, seat), lots=lots)
                    items.append((label, self.ctl.flow.act(I.STAY, player=seat, lots=lots)))
        items.append((t("menu_item", lang), MENU))
        return items
