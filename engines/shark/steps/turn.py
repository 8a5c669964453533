"""One player's turn (SH8): trade with the bank, roll the two dice, place a building, trade
again.

"1. La joueur peut, s'il le désire, acheter ou vendre des actions. 2. Il lance simultanément
les deux dés. 3. En fonction des résultats des dés, il place un immeuble [...] 4. Enfin, il
peut à nouveau s'il le désire, acheter ou revendre des actions."

The phases: `before` (trade, then roll), `colour` (white or black: the player chooses),
`place` (the legal cells of the zone; without the grid, the operator enters the new
values), `pay` (the falls still owed, one holder at a time, a holder short of cash through
the debt step), `after` (trade, then done).
"""
from dataclasses import field

from engines.core.decision import Choice, Decision, Fixed, IntRange, Option
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.records import record
from engines.core.steps import Step
from engines.shark.rules import CHOOSE, COLOUR_DIE, COMPANIES, MAX_VALUE, ZONES
from engines.shark.steps.debt import ShareDebt
from engines.shark.steps.results import GameEnded, TurnOver


@record
class Turn(Step):
    seat: int
    phase: str = "before"
    bought: int = 0                  # shares bought this turn (this window with buy_limit = each_window)
    zone: int | None = None
    face: str | None = None          # the colour die's face (None: variant 3, no colour die)
    company: str | None = None       # the colour of the building to place, once known
    lost: dict = field(default_factory=dict)    # without the grid: company -> [new value, buildings removed]
    owed: list = field(default_factory=list)    # [seat, amount] of falls still to collect, in turn order

    name = "turn"

    def actor(self, game):
        return self.seat

    def turn_start(self, game):
        """Until its player buys or rolls (a sale before the roll stays made)."""
        return self.seat if self.phase == "before" and not self.bought else None

    # ---------------------------------------------------------------- decision
    def decision(self, game):
        seat, name = self.seat, game.players[self.seat]
        if self.phase in ("before", "after"):
            opts = game.trade_options(seat, self.bought)
            if self.phase == "before":
                colour = Fixed(None) if game.settings["variant3"] else Choice(COLOUR_DIE)
                opts.append(Option("roll", {"zone": Choice(ZONES), "colour": colour}))
                prompt = "prompt.sh.before"
            else:
                opts.append(Option("done", {"player": Fixed(seat)}))
                prompt = "prompt.sh.after"
            params = {"player": name, "bought": self.bought, "left": game.buy_left(self.bought)}
            return Decision(prompt, params, seat, tuple(opts))
        if self.phase == "colour":
            return Decision("prompt.sh.colour", {"player": name, "zone": self.zone, "face": self.face or "-"}, seat,
                            (Option("colour", {"player": Fixed(seat), "company": Choice(self.colours(game))}),))
        if self.phase == "place":
            params = {"player": name, "zone": self.zone, "company": self.company}
            if game.grid is not None:
                cells = tuple(game.legal_cells(self.zone, self.company))
                return Decision("prompt.sh.place", params, seat,
                                (Option("place", {"player": Fixed(seat), "cell": Choice(cells)}),))
            return Decision("prompt.sh.built", params, seat, tuple(self.entry_options(game)))
        raise AssertionError(f"turn phase {self.phase!r} offers no decision")

    def colours(self, game) -> tuple:
        """SH7: the colours the player may choose, those with a legal cell in the zone;
        variant 2 (SH10): black is one of the colours with the fewest buildings on the board."""
        colours = COMPANIES
        if self.face == "BLACK" and game.settings["variant2"]:
            fewest = min(game.s.on_board[c] for c in COMPANIES)
            colours = tuple(c for c in COMPANIES if game.s.on_board[c] == fewest)
        if game.grid is None:
            return colours
        return tuple(c for c in colours if game.has_legal_cell(self.zone, c))

    def entry_options(self, game):
        """Without the grid (SH11): the operator enters the placed colour's new value
        (`built`), after any colour that lost a chain (`lost`), or that nothing could be
        placed (`skip`)."""
        seat, old = self.seat, game.s.values[self.company]
        low = 1 if game.settings["variant1"] else max(1, old)
        opts = [Option("built", {"player": Fixed(seat), "value": IntRange(low, MAX_VALUE)})]
        others = tuple(c for c in COMPANIES if c != self.company and c not in self.lost and game.s.on_board[c])
        if others:
            most = max(game.s.on_board[c] for c in others)
            opts.append(Option("lost", {"company": Choice(others), "value": IntRange(0, MAX_VALUE),
                                        "removed": IntRange(1, most)}))
        opts.append(Option("skip", {"player": Fixed(seat)}))
        return opts

    # --------------------------------------------------------------- refusals
    def refusal(self, game, a, decision):
        seat = getattr(a, "player", None)
        if seat is not None and seat != self.seat and 0 <= seat < len(game.players) and a.kind in (
                "buy", "sell", "colour", "place", "done", "built", "skip"):
            return IllegalAction("error.sh.not_turn", player=game.players[seat], turn=game.players[self.seat])
        if a.kind == "roll" and self.phase == "before" and a.colour is None and not game.settings["variant3"]:
            return IllegalAction("error.sh.roll_colour", zone=a.zone)
        if a.kind == "place" and self.phase == "after" and game.grid is not None:
            return self.placed_refusal(game)
        if a.kind in ("buy", "sell") and self.phase in ("before", "after"):
            return game.trade_refusal(a, self.bought)
        if a.kind == "place" and self.phase == "place" and game.grid is not None:
            return game.place_refusal(self.zone, self.company, a.cell)
        if a.kind == "colour" and self.phase == "colour" and a.company in COMPANIES:
            if self.face == "BLACK" and game.settings["variant2"]:
                fewest = min(game.s.on_board[c] for c in COMPANIES)
                if game.s.on_board[a.company] > fewest:
                    # "le joueur devra choisir la couleur qui compte le moins d'immeubles"
                    return IllegalAction("error.sh.colour_fewest", company=a.company,
                                         buildings=game.s.on_board[a.company], fewest=fewest)
            return IllegalAction("error.sh.colour", company=a.company, zone=self.zone)
        return None

    def placed_refusal(self, game):
        """A placement after the turn's: skipped by the box for want of a legal cell (SH7),
        which the state tells from a building placed by what is legal in the zone now."""
        name = game.players[self.seat]
        if self.company is None:            # white or black, and no colour had a legal cell
            return IllegalAction("error.sh.placement_skipped", player=name, zone=self.zone)
        if not game.has_legal_cell(self.zone, self.company):
            return IllegalAction("error.sh.placement_skipped_colour", player=name, zone=self.zone, company=self.company)
        return IllegalAction("error.sh.placed", player=name)

    # ---------------------------------------------------------------- trading
    def on_buy(self, game, a):
        game.buy(a.player, a.company, a.shares, self.bought)
        self.bought += a.shares

    def on_sell(self, game, a):
        game.sell(a.player, a.company, a.shares)

    # ------------------------------------------------------------ the dice
    # (`roll` left empty is drawn by the device from the decision's domains: engines/core/chance.py)
    def on_roll(self, game, a):
        if game.settings["variant3"] and a.colour is not None:
            raise IllegalAction("error.sh.no_colour_die", colour=a.colour)
        if a.zone is None or (a.colour is None and not game.settings["variant3"]):
            raise IllegalAction("error.sh.roll", zone=a.zone, colour=a.colour)
        self.zone, self.face = a.zone, a.colour
        game.emit("sh.rolled", player=game.players[self.seat], zone=a.zone, colour=a.colour or "-")
        game.s.roll = {"zone": a.zone, "colour": a.colour}
        if game.settings["buy_limit"] == "each_window":
            self.bought = 0            # a new window, a new limit (counted again after the roll)
        if a.colour in CHOOSE or a.colour is None:
            self.phase = "colour"
        else:
            self.company, self.phase = a.colour, "place"

    def on_colour(self, game, a):
        self.company, self.phase = a.company, "place"
        game.emit("sh.colour", player=game.players[self.seat], company=a.company)

    # -------------------------------------------------------------- placing
    def on_place(self, game, a):
        old = dict(game.s.values)
        result = game.place(self.company, a.cell)
        self.pay(game, old, result.chain)

    def on_lost(self, game, a):
        if a.value > game.s.values[a.company]:
            raise IllegalAction("error.sh.lost_rise", company=a.company, value=a.value, old=game.s.values[a.company])
        if a.removed > game.s.on_board[a.company]:
            raise IllegalAction("error.sh.lost_removed", company=a.company, removed=a.removed,
                                on_board=game.s.on_board[a.company])
        if (a.value == 0) != (a.removed == game.s.on_board[a.company]):
            # "La valeur d'une société peut retomber à 0 [...] uniquement lorsque celle-ci ne
            # possède momentanément plus aucun immeuble sur toute la mappemonde."
            raise IllegalAction("error.sh.lost_zero", company=a.company, value=a.value, removed=a.removed,
                                on_board=game.s.on_board[a.company])
        self.lost[a.company] = [a.value, a.removed]
        game.emit("sh.lost_entered", company=a.company, value=a.value, removed=a.removed)

    def on_built(self, game, a):
        old = dict(game.s.values)
        game.s.used[self.company] += 1
        game.s.on_board[self.company] += 1
        game.emit("sh.built", player=game.players[self.seat], company=self.company, zone=self.zone)
        new = dict(old, **{self.company: a.value})
        for company, (value, removed) in self.lost.items():
            game.s.on_board[company] -= removed
            game.emit("sh.removed", company=company, buildings=removed)
            new[company] = value
        game.set_values(new)
        self.pay(game, old, None)

    def on_skip(self, game, a):
        game.emit("sh.no_cell", player=game.players[self.seat], zone=self.zone, company=self.company or "-")
        self.lost, self.phase = {}, "after"

    def pay(self, game, old, chain):
        """SH3 in the rulebook's order: the success bonus, the rises, then the falls."""
        self.lost = {}
        self.owed = game.settle(self.seat, self.company, old, chain)
        self.phase = "pay"

    def advance(self, game):
        if self.phase == "colour" and game.grid is not None and not self.colours(game):
            game.emit("sh.no_cell", player=game.players[self.seat], zone=self.zone, company="-")
            self.phase = "after"
        if self.phase == "place" and game.grid is not None and not game.has_legal_cell(self.zone, self.company):
            # "Si le placement d'un immeuble n'est pas possible [...] le joueur doit laisser
            # passer son tour. Mais il peut tout de même acheter ou vendre des actions."
            game.emit("sh.no_cell", player=game.players[self.seat], zone=self.zone, company=self.company)
            self.phase = "after"
        while self.phase == "pay" and self.owed:
            seat, amount = self.owed.pop(0)
            if game.s.ledger.can_pay(seat, amount):
                game.transfer(seat, BANK, amount, "fall")
                game.emit("sh.fall", player=game.players[seat], amount=amount)
                continue
            game.emit("sh.short", player=game.players[seat], amount=amount, cash=game.cash(seat))
            game.push(ShareDebt(seat, [[BANK, amount]]))
            return None                                     # the debt's result comes back in resume
        if self.phase == "pay":
            ended = game.end_reason()
            if ended:
                return GameEnded(ended)                     # SH10: before the post-roll trading
            self.phase = "after"
        return None

    def resume(self, game, result):
        return None                                         # advance collects the next fall

    def on_done(self, game, a):
        return TurnOver(self.seat)
