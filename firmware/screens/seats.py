"""The seat-button screens: a speaking round (presses count lots), an open auction (a press
raises, silence sells) and a lot auction (hold to stay in as the auction clock moves), each
with its timer as the frame's tick, and the operator's action lists that stand in for the
buttons. The timers' state (`ctl.speak`, `ctl.clock`) is the controller's: the seat-button
events reach it whatever is on the screen, and it is armed again from the decision on a
resume, so the frames themselves save nothing."""
from __future__ import annotations

from dataclasses import dataclass

from engines.core.decision import Interactions as I
from engines.core.i18n import catalog, format_amount, money, text
from firmware.menus import MENU, player_name
from firmware.screen import Screen
from firmware.screens.base import Frame, frame_type
from firmware.screens.menu import Menu
from firmware.texts import t

RAISE_ENTRY = "#raise"      # the open menu's "another amount": the bid's entry, asked field by field


def soonest(*times):
    """The earliest of the times given (None: no time)."""
    return min((x for x in times if x is not None), default=None)


def seat_rows(ctl, asked=None, answers=None, order=None, label=None, ahead=None):
    """A row per player: their answer, "?" for the one asked (highlighted), an answer given
    ahead of its turn followed by "…" (declared when that turn comes), "–" for one out of
    the round."""
    rows, highlight = [], None
    for seat, name in enumerate(ctl.session.players):
        if answers is not None and seat in answers:
            rows.append(f"{name}\t{label(answers[seat])}")
            continue
        if seat == asked:
            highlight = len(rows)
        if ahead and seat in ahead:
            rows.append(f"{name}\t{label(ahead[seat])}…")
        elif seat == asked:
            rows.append(f"{name}\t?")
        elif order is not None and seat not in order:
            rows.append(f"{name}\t–")
        else:
            rows.append(name)
    return tuple(rows), highlight


@frame_type("speak")
@dataclass
class Speak(Frame):
    """A speaking round on the seat buttons (firmware/speaking_round.py): every seat still
    to answer presses once per lot, or long to pass, ahead of its turn if it likes; the
    answers are declared in order; a silence passes those who did not press. Any operator
    key answers for the asked seat."""

    def key(self, ctl, key):
        if key == "back":
            ctl.seat_clock.toggle()
        elif key == "ok" and ctl.seat_clock.stopped():
            ctl.seat_clock.start()
        elif key in ("ok", "up", "down"):
            ctl.pause_seats()
            ctl.start_entry(ctl.flow.role(I.ANSWER), menu=True)

    def tick(self, ctl, now):
        if ctl.speaking.open():
            ctl.speaking.tick(now)

    def deadline(self, ctl):
        return ctl.speaking.wake() if ctl.speaking.open() else None

    def board_line(self, ctl):
        return ctl.kit.whose()

    def draw(self, ctl):
        d = ctl.session.decision()
        shown = d.interaction.params
        answers = {seat: lots for seat, lots in shown.get("answers", [])}
        order = list(shown.get("order", [])) or None
        shares = shown["shares"]
        label = lambda n: t("q.pass", ctl.lang) if n == 0 else format_amount(n * shares, ctl.lang)
        s = ctl.speak
        ahead = {} if s is None else {**s["ready"], **s["counts"]}   # answers given before their turn
        rows, highlight = seat_rows(ctl, d.actor, answers, order, label, ahead)
        lines = [text("ui.line." + d.prompt.removeprefix("prompt."), ctl.lang, **ctl.kit.params(d.params))]
        if d.actor in ahead and ahead[d.actor]:
            lines = [t("speak.count", ctl.lang, player=ctl.kit.whose(),
                       shares=format_amount(ahead[d.actor] * shares, ctl.lang))]
        footer = ctl.kit.footer("clock_stopped" if ctl.seat_clock.stopped() else
                             "speak_seats_pause" if s is not None and not s.get("manual") else "speak")
        return Screen("speaking", ctl.seat_clock.title(ctl.kit.title()), tuple(lines), rows, 0, footer, highlight=highlight)


BACK = "back"


class ActionList(Frame):
    """The operator's list during an auction: Back first (selected when the list opens),
    then (label, action) entries, then Menu. Enter never turns into a bid: the list opens
    on Back, so a bid takes a move to it first (two Enters on the auction screen do not
    bid for the first seat)."""
    sel: int = 0

    def items(self, ctl):
        raise NotImplementedError

    def entries(self, ctl):
        return [(t("list.back", ctl.lang), BACK)] + self.items(ctl)

    def key(self, ctl, key):
        items = self.entries(ctl)
        if key == "back":
            ctl.stack.pop()
            return
        if self.move(key, len(items)):
            return
        if key == "ok":
            value = items[self.sel % len(items)][1]
            if value == BACK:
                ctl.stack.pop()
            elif value == MENU:
                ctl.stack.append(Menu())
            elif value == RAISE_ENTRY:
                ctl.start_entry(ctl.flow.role(I.OFFER), menu=True)
            else:
                ctl.apply(value)

    def draw(self, ctl):
        items = tuple(label for label, _ in self.entries(ctl))
        return Screen("menu", ctl.kit.title(), (), items, self.sel % len(items), ctl.kit.footer("menu"))


@frame_type("open_menu")
@dataclass
class OpenMenu(ActionList):
    """The operator bids for any bidder, or lets the silence sell."""
    sel: int = 0

    def items(self, ctl):
        return ctl.seats.open_items()


@frame_type("auction_menu")
@dataclass
class AuctionMenu(ActionList):
    """The operator moves the auction clock or drops a bidder's lots."""
    sel: int = 0

    def items(self, ctl):
        return ctl.seats.auction_items()


@frame_type("open_auction")
@dataclass
class OpenAuction(Frame):
    """Anyone raises at any time on their seat button; the silence sells."""

    def key(self, ctl, key):
        if key == "back":
            ctl.seat_clock.toggle()
        elif key == "ok" and ctl.seat_clock.stopped():
            ctl.seat_clock.start()
        elif key in ("ok", "up", "down"):
            ctl.stack.append(OpenMenu())

    def tick(self, ctl, now):
        if ctl.clock is not None and ctl.clock.get("open"):
            ctl.seats.open_tick(now)

    def deadline(self, ctl):
        return soonest(ctl.clock["until"], ctl.seat_clock.wake()) if ctl.seats.open_running() else None

    def lead(self, ctl):
        auction = ctl.session.snapshot().get("auction") or {}
        high, bidder = auction.get("high"), auction.get("high_bidder")
        d = ctl.session.decision()
        own = "ui.line." + d.prompt.removeprefix("prompt.")
        if not auction and own in catalog(ctl.lang):
            # no lot on sale: a window of presses of the game's own (a claim), in its words
            return text(own, ctl.lang, **ctl.kit.params(d.params))
        if high is None:
            return t("open.none", ctl.lang, minimum=ctl.session.decision().params.get("minimum", ""))
        return t("open.high", ctl.lang, amount=high, player=bidder)

    def board_line(self, ctl):
        return self.lead(ctl)

    def draw(self, ctl):
        auction = ctl.session.snapshot().get("auction") or {}
        high, bidder = auction.get("high"), auction.get("high_bidder")
        line = self.lead(ctl)
        if ctl.seats.open_running() and ctl.seats.rule_clock() and auction and ctl.seats.open_left(ctl.now) <= 3:
            # a rulebook's silence (RM9) over a lot or an offer: its last three seconds said as at an auction
            line += " · " + t("open.count_" + str(4 - max(ctl.seats.open_left(ctl.now), 1)), ctl.lang)
        rows, highlight = [], None
        for name in auction.get("bidders", []):
            if name == bidder:
                highlight = len(rows)
                rows.append(f"{name}\t{money(high, ctl.lang, ctl.ui.prefix)}")
            else:
                rows.append(name)
        d = ctl.session.decision()
        if not auction and "ui.line." + d.prompt.removeprefix("prompt.") in catalog(ctl.lang):
            # no lot on sale, a window of the game's own (a claim): who may press now and for what
            for seat, amount in d.interaction.params.get("offers", []):
                rows.append(f"{player_name(ctl.kit.ctx, seat)}\t{money(amount, ctl.lang, ctl.ui.prefix)}")
        running = "open_seats_pause" if ctl.seat_clock.pausable() else "open_seats"
        own = "footer." + d.prompt.removeprefix("prompt.")
        if running == "open_seats" and "ui." + own in catalog(ctl.lang):
            running = d.prompt.removeprefix("prompt.")     # what a press does here, in the game's words
        footer = ctl.kit.footer("clock_stopped" if ctl.seat_clock.stopped() else
                             running if ctl.seats.open_running() else "speak")
        return Screen("auction", ctl.seat_clock.title(ctl.kit.title()), (line,), tuple(rows), 0, footer, highlight=highlight)


@frame_type("auction")
@dataclass
class Auction(Frame):
    """A lot auction: bidders hold their seat button to stay in as the clock moves."""

    def key(self, ctl, key):
        if key == "back":
            ctl.seat_clock.toggle()
        elif key == "ok" and ctl.seat_clock.stopped():
            ctl.seat_clock.start()
        elif key in ("ok", "up", "down"):
            ctl.pause_seats()
            ctl.stack.append(AuctionMenu())

    def tick(self, ctl, now):
        if ctl.seats.auction_running():
            ctl.seats.auction_tick(now)

    def deadline(self, ctl):
        if not ctl.seats.auction_running():
            return None
        return soonest(ctl.clock["next"], ctl.seat_clock.wake(), *ctl.clock["gaps"].values())

    def board_line(self, ctl):
        return self.line(ctl)

    def line(self, ctl):
        d = ctl.session.decision()
        return t("auction.line", ctl.lang, lots=d.params.get("lots", ""), price=d.params.get("price", ""),
                 proposal=d.params.get("proposal", ""))

    def draw(self, ctl):
        pending = set(ctl.seats.pending())
        rows = []
        for seat, lots in ctl.flow.bidders():
            mark = t("auction.holding", ctl.lang) if seat in ctl.held else ""
            state = "" if seat in pending else " ✓"
            shown = t("lots_count", ctl.lang, n=lots)
            rows.append(f"{player_name(ctl.kit.ctx, seat)}{state}\t{shown}{mark}")
        lines = (self.line(ctl),)
        footer = ctl.kit.footer("clock_stopped" if ctl.seat_clock.stopped() else
                             "auction_clock_pause" if ctl.seats.auction_running() else "speak")
        return Screen("auction", ctl.seat_clock.title(ctl.kit.title()), lines, tuple(rows), 0, footer)
