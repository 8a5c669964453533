"""The players around the table: what every game of the family shares beside its rules.

Every game of the box seats players who hold cash in a ledger (`self.s.ledger`,
engines/core/ledger.py), may leave the game (ruined, bankrupt) and are ranked at the end.
That is written here once, on the step machinery (engines/core/steps.py), so that each
game's class holds only its own rules (STYLE.md: in the 18xx engine a game's class holds
its rules and the base holds the rest):

- money: `cash(seat)`, and `transfer`, the one way a game moves money (an event each);
- seat order: `eliminated(seat)`, `in_game()`, `next_seat(seat)` and `others(seat)`;
- the end: `ranking()` (equal fortunes share a rank: 1, 1, 3; the players who left come
  after those still in, the last to leave first), `winners()`, and the one row shape the
  box shows and the snapshot holds, `ranking_rows()`: `{rank, name, fortune}`;
- the snapshot: the envelope every game's state has (`game`, `box_verified`, `pending`,
  `private`, `actions`; once over, `ranking` and `winners`) around the game's `view()`;
- the operator's corrections a game declares (`CORRECTIONS`, engines/core/corrections.py);
- what the box's menus ask of a game's companies and money: the shares in a lot, the size
  of its common payments, the groups of companies, a seat's holding, the prices now.

What a game declares for it: `fortunes()` (how its rulebook counts a fortune), `view()`,
`PRIVATE` (the snapshot's paths no public display may draw), `CORRECTIONS`, and, where
players leave, the seats out in the order they left (the state's `out`, or `eliminated`).
"""
import functools

from engines.core.per_game import per_game
from engines.core.steps import StepGame


def rank(fortunes: dict[int, int]) -> list[tuple[int, int, int]]:
    """[(rank, seat, fortune)] of `fortunes` (seat -> fortune), largest first, seats in
    order among equals, which share a rank (the next rank skips: 1, 1, 3)."""
    out = []
    for i, (seat, value) in enumerate(sorted(fortunes.items(), key=lambda p: (-p[1], p[0]))):
        out.append((i + 1 if i == 0 or value != out[-1][2] else out[-1][0], seat, value))
    return out


@functools.cache
def reads_state(cls) -> bool:
    """Whether a correction the game class declares has an option that reads the state."""
    return any(kind.reads_state for kind in cls.CORRECTIONS)


class TableGame(StepGame):
    box = None                  # the game's box file, when it plays with one
    PRIVATE: tuple = ()         # the snapshot's private paths ("players.*.cash"): none by default
    CORRECTIONS: tuple = ()     # the kinds of state the operator may correct (engines/core/corrections.py)

    # ------------------------------------------------------------------ money
    def cash(self, seat: int) -> int:
        return self.s.ledger[seat]

    def transfer(self, src: int, dst: int, amount: int, reason: str) -> None:
        """Move `amount` between two accounts (a seat, the bank), with its event; nothing
        for 0. A payment the payer cannot make is refused (the ledger's IllegalAction)."""
        if amount:
            self.emit_event(self.s.ledger.transfer(src, dst, amount, reason))

    # ------------------------------------------------------------- seat order
    def departed(self) -> list:
        """The seats out of the game, in the order they left: the state's `out`, where the
        game keeps one; none in a game nobody leaves, or that ranks them by fortune."""
        return getattr(self.s, "out", [])

    def eliminated(self, seat: int) -> bool:
        return seat in self.departed()

    def in_game(self) -> list[int]:
        """The seats still in the game, in seat order (asked by most decisions: the seats
        out read once when they are the `departed()` ones)."""
        if type(self).eliminated is TableGame.eliminated:
            gone = self.departed()
            return [s for s in range(len(self.players)) if s not in gone]
        eliminated = self.eliminated
        return [s for s in range(len(self.players)) if not eliminated(s)]

    def next_seat(self, seat: int) -> int | None:
        """The next seat still in the game after `seat`, clockwise: `seat` itself when it
        is the only one left, None when nobody is."""
        n = len(self.players)
        for k in range(1, n + 1):
            if not self.eliminated((seat + k) % n):
                return (seat + k) % n
        return None

    def others(self, seat: int) -> list[int]:
        """The other seats still in the game, from `seat`'s left."""
        n = len(self.players)
        return [(seat + k) % n for k in range(1, n) if not self.eliminated((seat + k) % n)]

    # ---------------------------------------------------------------- the end
    def ranking(self) -> list[tuple[int, int, int]]:
        """[(rank, seat, fortune)]: the players still in by fortune, equal fortunes sharing a
        rank, then those who left, the last to leave first."""
        fortunes, gone = self.fortunes(), self.departed()
        standing = rank({s: f for s, f in fortunes.items() if s not in gone})
        return standing + [(len(standing) + i + 1, s, fortunes[s]) for i, s in enumerate(reversed(gone))]

    def ranking_rows(self) -> list[dict]:
        """The ranking as the box shows it: [{"rank", "name", "fortune"}]."""
        return [{"rank": r, "name": self.players[s], "fortune": f} for r, s, f in self.ranking()]

    def winners(self) -> list[int]:
        return [seat for r, seat, _ in self.ranking() if r == 1]

    def fortunes(self) -> dict[int, int]:
        """Each seat's fortune as the rulebook ranks the players (cash, or cash plus what
        is held at its value; 0 for a player out of the game where the rulebook says so).
        The ranking, the end-of-game report and its chart of the evening come from it."""
        raise NotImplementedError

    # ------------------------------------------------------- the box's menus
    # Shares in a lot, where the game trades lots of shares (Maxi Bourse: by format); menus
    # show a lot count with its shares.
    lot_size: int = 1

    # The size of this game's common payments: the box enters an amount of its money by this
    # step first (a tenth of it and ten, a hundred times it on a long press), so a correction
    # of a few notes is a few presses whatever the game's money (5 100 in A Vendre!, 66 600
    # 000 in Richesses du Monde).
    money_step: int = 1

    def groups(self) -> list[tuple[str, dict, list[str]]]:
        """How the box's menus group the companies: [(group id, {language: name}, [company
        ids])] in board order (Maxi Bourse's sectors); [] where one list of companies suits."""
        return []

    def holding(self, seat: int, company: str) -> int | None:
        """What `seat` holds of `company` (lots, shares; a production's titles), for menus
        that offer only what can be sold; None where the game does not count holdings by
        company."""
        return None

    def prices(self) -> dict[str, int]:
        """Each company's quoted price now, for the report's chart of prices; a game
        without a market has none."""
        return {}

    # ------------------------------------------------------------ the snapshot
    def view(self) -> dict:
        """The game's own part of its snapshot (players, companies, the board...)."""
        raise NotImplementedError

    def player_rows(self, row) -> list[dict]:
        """The snapshot's `players`: each seat's name and cash, then what `row(seat)` adds."""
        return [{"name": name, "cash": self.cash(seat), **row(seat)} for seat, name in enumerate(self.players)]

    def private(self) -> tuple:
        """The snapshot's paths a display everyone sees may not draw, now."""
        return self.PRIVATE

    def public(self, snap: dict) -> dict:
        """What a display everyone sees may draw: `snap` without its private paths."""
        return drop_private(snap)

    def cash_hidden(self) -> bool:
        return "players.*.cash" in self.private()

    def snapshot(self) -> dict:
        out = {"game": self.name, "box_verified": None if self.box is None else self.box.verified,
               **self.view(), "pending": self.decision().to_json(), "private": list(self.private()),
               "actions": len(self.log)}
        if self.over:
            out["ranking"] = self.ranking_rows()
            out["winners"] = [self.players[s] for s in self.winners()]
        return out

    # ------------------------------------------------------------- corrections
    def corrections(self) -> tuple:
        """The options of the declared corrections offered now, for the players still in:
        a kind whose option reads no more of the state than them and the end of the game is
        built once per set of them and end of game (a decision is built after every
        action); a kind that reads more (`reads_state`), at every decision."""
        seats = tuple(self.in_game())
        if not reads_state(type(self)):
            return self._kept_corrections(seats, self.over)
        kept = self._kept_options(seats, self.over)
        return tuple(option for option in (kind.option(self, seats) if kind.reads_state else made
                                           for kind, made in zip(self.CORRECTIONS, kept)) if option is not None)

    @per_game
    def _kept_corrections(self, seats, over):
        return tuple(option for option in self._kept_options(seats, over) if option is not None)

    @per_game
    def _kept_options(self, seats, over):
        """Each declared kind's option (None: not offered), built here for the kinds that
        read no more than `seats` and `over`; None for the others (built at each decision)."""
        return tuple(None if kind.reads_state else kind.option(self, seats) for kind in self.CORRECTIONS)

    def correction(self, kind: str):
        """The declared correction answered by the action `kind`, or None."""
        return next((c for c in self.CORRECTIONS if c.kind == kind), None)

    def correction_refusal(self, act):
        """Why the state cannot take the correction `act`, or None (not a declared kind)."""
        declared = self.correction(act.kind)
        return None if declared is None else declared.refusal(self, act)

    def vet(self, act):
        """A declared correction's refusal, else the step's (Game.vet)."""
        return self.correction_refusal(act) if self.correction(act.kind) is not None else super().vet(act)

    def high_bid_of(self, seat: int) -> int | None:
        """The bid `seat` leads an auction under way with (a step's `high_bid_of`), or None:
        a cash correction leaves him at least that much."""
        for step in self.s.steps:
            high = step.high_bid_of(seat)
            if high is not None:
                return high
        return None

    def turn_start(self) -> int | None:
        """The seat whose turn starts now, nothing of it played yet (a correction may give it
        to another, `WhoseTurn`), or None: the step on top says (`Step.turn_start`)."""
        return self.step.turn_start(self)

    def restart_turn(self, seat: int) -> None:
        """The turn starting now is `seat`'s instead (called only when `turn_start` is not
        None): its turn step, on top, gives way to the game's `start_turn(seat)`."""
        self.s.steps.pop()
        self.start_turn(seat)

    def handle_aside(self, act) -> None:
        declared = self.correction(act.kind)
        if declared is None:
            super().handle_aside(act)
            return
        refused = declared.refusal(self, act)   # `vet` asked it already, unless replayed unchecked
        if refused is not None:
            raise refused
        declared.apply(self, act)


def drop_private(snap: dict) -> dict:
    """A copy of `snap` without the paths listed in its "private" entry ("players.*.cash":
    `*` is every item of a list or every value of a mapping). Only the mappings and lists
    on those paths are made again; the rest is shared with `snap`, which nobody changes (a
    snapshot is data made anew after each action, read by the displays)."""
    out = dict(snap)
    for path in snap.get("private", []):
        out = _without(out, path.split("."))
    return out


def _without(node, parts):
    """`node` without what the path `parts` leads to, the containers on the way copied."""
    head, rest = parts[0], parts[1:]
    if isinstance(node, dict):
        if not rest:
            return {key: value for key, value in node.items() if key != head}
        if head == "*":
            return {key: _without(value, rest) for key, value in node.items()}
        return {**node, head: _without(node[head], rest)} if head in node else node
    if isinstance(node, list) and head == "*" and rest:
        return [_without(value, rest) for value in node]
    return node
