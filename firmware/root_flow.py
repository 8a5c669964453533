"""The root screen rebuilt from the engine's pending decision, and the actions built from
it: which frame stands at the bottom of the stack for the decision's interaction (a menu of
the main kinds, a chance or payment confirmed in one press, a seat-button round or auction,
a placement, the ranking), the seat timers armed for it, an action made from one of its
roles, an open auction's silence and the bidders still in. A part of
`firmware.controller.Controller` (its `flow`), through the controller's public state."""
from __future__ import annotations

from engines.core.actions import ANYTIME, CHANCE, CORRECTION, OUTCOME
from engines.core.decision import Interactions as I
from engines.core.errors import CorbeilleError
from firmware.screens.entries import Entry, Root
from firmware.screens.menu import corrections
from firmware.screens.placement import Placement
from firmware.screens.position import Position
from firmware.screens.seats import Auction, OpenAuction, Speak
from firmware.screens.steps import Chance, FirstDice, Over, Payday, Settle
from firmware.texts import t


class RootFlow:
    """The root screen of `ctl`, from its session's decision."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.seen = None                 # the game version the root was last built for

    def sync(self, force: bool = False) -> None:
        """After every event: if the game changed, go back to the root of the new decision."""
        if self.ctl.session is None or (self.ctl.stack and self.ctl.stack[0]["t"] == "setup"):
            return
        clock = self.ctl.clock
        if clock is not None and clock.get("open"):
            # While the operator answers (or a private view is up), the silence waits; back
            # on the auction screen, it starts again. A rulebook's silence (RM9: nothing
            # pauses it) runs on while the menu is open for a correction.
            if len(self.ctl.stack) != 1 and not (self.rule_silence() is not None
                                                 and self.ctl.stack[1]["t"] == "menu"):
                clock["held"] = True
            elif clock.pop("held", False):
                clock["until"] = self.ctl.now + self.silence_s()
        version = (self.ctl.session.game_id, self.ctl.session.version)
        if version == self.seen and not force:
            return
        self.seen = version
        self.ctl.changed = True
        root = self.root()
        keep = [f for f in self.ctl.stack[1:] if f["t"] in ("error", "message")]
        self.ctl.stack = [root] + keep
        if self.ctl.undone:
            self.ctl.clock = None                        # a clock of the undone position is not kept
        self._arm_seats(root)
        if self.ctl.undone:
            # The restored round waits for OK: a clock restarting by itself would redo
            # what was just undone (a silence re-dealing the tokens), so the undo could
            # not stick.
            self.ctl.undone = False
            self.ctl.seat_clock.stop()
        if self.ctl.session.over:
            self.game_over()

    def root(self):
        """The root frame, from the decision's interaction and its actions' flags."""
        d = self.ctl.session.decision()
        how = d.interaction.kind
        if how == I.OVER or self.ctl.session.over:
            return Over()
        if self.ctl.position and self.ctl.session.game.turn_start() is not None and corrections(self.ctl, d):
            return Position()          # a game under way entered at a turn's start (screens/position.py)
        main = self.main_kinds()
        if how in (I.OPEN_AUCTION, I.OFFER_WINDOW):
            # Anyone raises at any time, silence sells (or closes an offer's overbids): bids
            # on the seat buttons; an offer's acceptance is its maker's seat button, and the
            # silence lets it lapse.
            return OpenAuction()
        ctx = self.ctl.kit.ctx
        if how in (I.CHANCE, I.PAYMENT) and len(main) == 1 and ctx.has(main[0], OUTCOME) \
                and (ctx.device_dice or not ctx.has(main[0], CHANCE) or d.interaction.params.get("device")):
            # The device draws (dice, event tile, a deal the engine says the device makes),
            # or a payment: one confirmation with the outcome shown, a line per company or
            # player (scrolls on a small screen).
            return Chance(main[0])
        if how == I.SPEAKING_ROUND:
            if d.actor in self.ctl.seat_buttons:
                return Speak()
            # No seat button for this player: the operator answers, straight from the list.
            frame = Entry(d.interaction.roles[I.ANSWER], root=True)
            frame.reset(self.ctl)
            return frame
        if how == I.LOT_AUCTION:
            return Auction()
        if how == I.SETTLEMENT and len(main) == 1:
            return Settle()
        if how == I.PAYDAY and len(main) == 1:
            return Payday()
        if how == I.FIRST_PLAYER and self.ctl.kit.ctx.device_dice:
            return FirstDice()
        if how == I.PLACEMENT:
            return Placement()
        if len(main) == 1:
            frame = Entry(main[0], root=True)
            frame.reset(self.ctl)
            return frame
        return Root(self._default_kind(main))

    def _default_kind(self, kinds) -> int:
        """Where the square menu starts: the entry the engine names (end of turn, once
        something happened this turn), else the first."""
        default = self.ctl.session.decision().interaction.params.get("default")
        return kinds.index(default) if default in kinds else 0

    def main_kinds(self) -> list[str]:
        """The decision's kinds the square menu lists (a new list: callers extend it)."""
        return list(self.ctl.kit.memo("main_kinds", self._build_main_kinds))

    def _build_main_kinds(self) -> tuple:
        has = self.ctl.kit.ctx.has                       # the context looked up once, not per option
        return tuple(o.kind for o in self.ctl.session.decision().options if not has(o.kind, ANYTIME))

    def role(self, role):
        """The action kind playing `role` in the pending decision's interaction, or None."""
        return self.ctl.session.decision().interaction.roles.get(role)

    def act(self, role, **fields):
        """The action playing `role` now, with `fields`."""
        return self.ctl.session.actions.classes[self.role(role)](**fields)

    def _arm_seats(self, root) -> None:
        """Start the seat-button timers a new decision needs (speaking window, auction clock)."""
        d = self.ctl.session.decision()
        if d.interaction.kind == I.SPEAKING_ROUND:
            self.ctl.speaking.arm(d, on_buttons=root["t"] == "speak")
        else:
            self.ctl.speak = None
        if root["t"] == "open_auction":
            if not self._corrected_under_rule():
                self.ctl.clock = {"open": True, "until": self.ctl.now + self.silence_s()}
            return
        if root["t"] == "auction":
            company = d.params.get("company")
            stay = d.role(I.STAY)
            pending = set(stay.fields["player"].values) if stay else set()
            everyone = {s for s, _ in self.bidders()} or pending
            if everyone and everyone <= self.ctl.seat_buttons:
                if self.ctl.clock is None or self.ctl.clock.get("company") != company:
                    self.ctl.clock = {"company": company, "next": self.ctl.now + self.ctl.timing.auction_lead_s,
                                  "gaps": {}, "manual": False}
                    self.ctl.beeps.append("confirm")
            else:
                self.ctl.clock = None
        else:
            self.ctl.clock = None

    def _corrected_under_rule(self) -> bool:
        """The change was a correction during an auction whose silence a rulebook sets: its
        clock runs on untouched (RM9: a correction is not a bid, and nothing pauses it)."""
        clock, log = self.ctl.clock, self.ctl.session.game.log
        return bool(clock and clock.get("open") and log and self.rule_silence() is not None
                    and self.ctl.kit.ctx.has(log[-1].kind, CORRECTION))

    def rule_silence(self):
        """The silence the rulebook sets for this open auction (the decision's `silence_s`
        param: a silence the rulebook fixes), or None when no rule fixes one."""
        rule = self.ctl.session.decision().interaction.params.get("silence_s")
        return None if rule is None else float(rule)

    def silence_s(self) -> float:
        """An open auction's silence: the game's rule when its rulebook sets one (never
        configured, never paused), else the window the game's own setting gives (the
        decision's `window_s`, from a setting of the game), else the table's configured
        length (timing.silence_s). Only the rule is never paused."""
        rule = self.rule_silence()
        if rule is not None:
            return rule
        window = self.ctl.session.decision().interaction.params.get("window_s")
        return float(window) if window is not None else self.ctl.timing.silence_s

    def bidders(self):
        """[(seat, lots)] still in the lot auction, as the decision lists them."""
        return [tuple(b) for b in self.ctl.session.decision().interaction.params.get("bidders", [])]

    def game_over(self) -> None:
        if self.ctl.session.game_id in self.ctl.reported:
            return
        self.ctl.reported.add(self.ctl.session.game_id)
        self.ctl.setup.keep_learned()               # what the table learned, for the next setup
        if self.ctl.report is not None:
            try:
                path = self.ctl.report(self.ctl.session)
            except (OSError, CorbeilleError, ValueError) as error:
                path = None
                self.ctl.error(t("report_failed", self.ctl.lang, error=str(error)))
            if path is not None:
                self.ctl.report_path = str(path)
