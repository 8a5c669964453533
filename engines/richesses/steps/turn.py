"""One player's turn: the dice (a double costs its face in millions, RM10), the pawn moves
(world tours counted, RM8), the royalties of the square's plaque are paid to every other
holder of 30 % or more (RM2, RM6), then what the square offers: titles of the country, of
the continent or of the world (RM3, RM7), 500 000 x dice, a joker, a card, an auction
(RM4, RM9, RM11). Free sales are offered before the dice (RM12: between actions).

Without the square order in the box file (RM8) the pawn does not move on the box: after
the dice the operator says where it landed (`land`: the square, and its plaque when the
lander owes royalties on one), and when a world choice or an auction square would do
something before the box knows of a world tour, he answers once whether that player's
pawn has passed the start arrow (`tour` / `no_tour`)."""
from dataclasses import field

from engines.core.chance import SIX
from engines.core.decision import Choice, Decision, Fixed, Option, Subset
from engines.core.errors import IllegalAction
from engines.core.learning import Learned
from engines.core.ledger import BANK
from engines.core.records import record
from engines.core.steps import Step
from engines.richesses.rules import BONUS_PER_POINT, DOUBLE_COST, JOKER_PRICE, MAX_TITLES
from engines.richesses.learning import title_option
from engines.richesses.steps.auction import AuctionStep
from engines.richesses.steps.results import AuctionOver, ClaimsOver, SaleOver, TurnOver
from engines.richesses.steps.sale import SaleStep, offer_refusal, sale_options

BUYING = ("country", "continental", "world")
# What the table may do before the dice are confirmed, beside them: a free sale or an
# exchange with its overbids and answer (RM12), a correction.
ASIDE = frozenset({"offer", "exchange", "overbid", "close_offer", "accept", "lapse", "adjust_cash", "set_pawn"})


@record
class Turn(Step):
    seat: int
    phase: str = "roll"      # roll, move (or land, tour), square, buy, joker, joker_use, lots, news
    dice: list = field(default_factory=list)   # [white, red] once rolled
    landed: object = None    # the Square the pawn is on once it has moved (or the operator said)
    name = "turn"

    def actor(self, game):
        return None if self.phase == "roll" else self.seat

    def turn_start(self, game):
        """Between turns: the player has not rolled yet."""
        return self.seat if self.phase == "roll" else None

    def chance_position(self, game):
        """The box's dice are drawn where the roll was first offered: a free sale or a
        correction made before they are confirmed (the actions offered beside them, RM12)
        leaves the dice the box showed (drawn again, the pawn would land elsewhere than the
        table saw). Read from the log's tail, so the state keeps no position of its own."""
        n = len(game.log)
        if self.phase == "roll":
            while n and game.log[n - 1].kind in ASIDE:
                n -= 1
        return n

    # ------------------------------------------------------------ decision
    def decision(self, game):
        seat, name = self.seat, game.players[self.seat]
        if self.phase == "roll":
            return Decision("prompt.rm.roll", {"player": name}, None,
                            (Option("roll", {"white": SIX, "red": SIX}),)
                            + sale_options(game))
        if self.phase == "land":
            return self.land_decision(game)
        square = self.landed
        params = {"player": name, "square": game.square_name(square)}
        if self.phase == "tour":
            prompt = "prompt.rm.tour" if game.settings["world_tour"] == "own" else "prompt.rm.tour_anyone"
            return Decision(prompt, params, seat, (Option("tour", {"player": Fixed(seat)}),
                                                   Option("no_tour", {"player": Fixed(seat)})))
        if self.phase == "buy":
            # beside the titles the box knows, a card of the stock it does not (RM13 as amended)
            titles = game.purchasable(seat, square)
            buy = (Option("buy", {"player": Fixed(seat), "titles": Subset(titles, 1, MAX_TITLES)}),) if titles else ()
            return Decision("prompt.rm.buy" if titles else "prompt.rm.learn_title", params | {"most": MAX_TITLES}, seat,
                            buy + title_option(game, seat, square) + (Option("done", {"player": Fixed(seat)}),))
        if self.phase == "joker":
            return Decision("prompt.rm.joker", params | {"price": JOKER_PRICE, "left": game.s.joker_stock}, seat, (
                Option("buy_joker", {"player": Fixed(seat)}), Option("done", {"player": Fixed(seat)})))
        if self.phase in ("joker_use", "lots"):
            options = (Option("lots", {"player": Fixed(seat), "productions": Subset(game.trusts(seat), 1)}),)
            if self.phase == "joker_use":
                options = (Option("use_joker", {"player": Fixed(seat)}),) + options
            held = len(game.s.deeds.owned_by(seat))
            return Decision("prompt.rm.lots", params | {"red": self.dice[1], "titles": held}, seat, options)
        if self.phase == "news":
            return Decision("prompt.rm.news", params, seat, game.card_options(seat))
        raise AssertionError(f"turn phase {self.phase} waits on no decision")

    def land_decision(self, game):
        """Where the pawn landed, said by the operator (RM8, no square order): the square,
        then its plaque, asked only among the productions that would cost the lander
        royalties now (`owed`); the plaque said before for the same square is in `seen`."""
        seat = self.seat
        productions = tuple(game.box.productions) + (None,)
        params = {"player": game.players[seat], "owed": list(game.owed(seat)), "seen": dict(game.s.plaques)}
        return Decision("prompt.rm.land", params, seat, (
            Option("land", {"player": Fixed(seat), "square": Choice(game.box.places()),
                            "plaque": Choice(productions)}),))

    def refusal(self, game, act, decision):
        kind = act.kind
        if kind == "roll":
            return None
        if kind in ("offer", "exchange"):
            return offer_refusal(game, act)
        player = getattr(act, "player", None)
        # whose turn it is, only for an action offered now: else when it is offered says more
        if player is not None and 0 <= player < len(game.players) and player != self.seat \
                and decision.option(kind) is not None:
            return IllegalAction("error.rm.not_turn", player=game.players[player], turn=game.players[self.seat])
        if kind == "buy" and self.phase == "buy":
            return game.buy_refusal(act, self.landed)
        if kind == "land" and self.phase == "land":
            return self.land_refusal(game, act)
        if kind == "lots" and self.phase in ("lots", "joker_use"):
            return game.lots_refusal(act, self.dice[1])
        return None

    # ------------------------------------------------------------ handlers
    def on_roll(self, game, act):
        self.dice = [act.white, act.red]
        game.s.last_roll = {"player": game.players[self.seat], "white": act.white, "red": act.red}
        game.emit("rm.roll", player=game.players[self.seat], white=act.white, red=act.red, total=act.white + act.red)
        self.phase = "move" if game.box.ordered else "land"
        if act.white == act.red:   # "1 double as, il paie 1 million à la banque" ... RM10: no extra roll
            game.emit("rm.double", player=game.players[self.seat], face=act.white, amount=act.white * DOUBLE_COST)
            game.charge(self.seat, [[BANK, act.white * DOUBLE_COST]], "double")
        return None

    def land_refusal(self, game, act):
        square = game.box.place(act.square)
        if square is None:
            return IllegalAction("error.rm.no_square", square=act.square)
        if act.plaque is not None and not square.plaque:
            return IllegalAction("error.rm.no_plaque", square=act.square)
        return None

    def on_land(self, game, act):
        refused = self.land_refusal(game, act)     # a plaque on a square that carries none
        if refused:
            raise refused
        seat = self.seat
        self.landed = game.box.place(act.square)
        game.emit("rm.landed", player=game.players[seat], square=game.square_name(self.landed))
        self.phase = "square"
        if act.plaque is not None:
            game.s.plaques[act.square] = act.plaque        # the board shows it; offered first next time
            game.royalties_due(seat, act.plaque)
        return None

    def on_tour(self, game, act):
        game.s.track.laps[self.seat] += 1
        game.emit("rm.world_tour", player=game.players[self.seat], tours=game.s.track.laps[self.seat])
        self.phase = "square"
        return None

    def on_no_tour(self, game, act):
        game.emit("rm.not_yet", player=game.players[self.seat], square=game.square_name(self.landed))
        return TurnOver(self.seat)

    def on_offer(self, game, act):
        refused = offer_refusal(game, act)
        if refused:
            raise refused
        game.push(SaleStep(act.seller, act.production, act.buyer, act.amount))
        game.emit("rm.offer", seller=game.players[act.seller], production=game.box.production_name(act.production),
                  buyer=game.players[act.buyer], amount=act.amount)
        return None

    def on_exchange(self, game, act):
        refused = offer_refusal(game, act)
        if refused:
            raise refused
        game.push(SaleStep(act.seller, act.production, act.buyer, act.amount, swap=act.other))
        game.emit("rm.exchange_offer", seller=game.players[act.seller],
                  production=game.box.production_name(act.production),
                  buyer=game.players[act.buyer], other=game.box.production_name(act.other), amount=act.amount)
        return None

    def on_buy(self, game, act):
        game.buy_titles(self.seat, act.titles)
        return TurnOver(self.seat)

    def on_done(self, game, act):
        return TurnOver(self.seat)

    def on_buy_joker(self, game, act):
        if game.cash(self.seat) < JOKER_PRICE:     # refused without showing his cash
            raise IllegalAction("error.rm.cash", player=game.players[self.seat], amount=JOKER_PRICE)
        game.transfer(self.seat, BANK, JOKER_PRICE, "joker")
        game.s.joker_stock -= 1
        game.s.jokers[self.seat] += 1
        game.emit("rm.joker_bought", player=game.players[self.seat], price=JOKER_PRICE)
        return TurnOver(self.seat)

    def on_use_joker(self, game, act):
        game.s.jokers[self.seat] -= 1
        game.s.joker_stock += 1
        game.emit("rm.joker_used", player=game.players[self.seat])
        return TurnOver(self.seat)

    def on_card_pay(self, game, act):
        game.play_card(act)
        return TurnOver(self.seat)

    on_card_receive = on_card_pay_each = on_card_collect = on_card_pay

    def vet(self, game, act):
        return game.lots_refusal(act, self.dice[1]) if act.kind == "lots" else None

    def on_lots(self, game, act):
        refused = self.vet(game, act)   # asked before already, unless replayed unchecked
        if refused:
            raise refused
        game.push(AuctionStep(self.seat, list(act.productions)))
        game.emit("rm.lots", player=game.players[self.seat],
                  lots=[game.box.production_name(p) for p in act.productions])
        return None

    # ------------------------------------------------------------ no choice
    def advance(self, game):
        depth = len(game.s.steps)
        while True:
            if game.eliminated(self.seat):
                return TurnOver(self.seat)
            if self.phase == "move":
                result = self.move(game)
            elif self.phase == "square":
                result = self.square(game)
            else:
                return None          # waits on the player's decision
            if result is not None or len(game.s.steps) != depth:
                return result        # over, or a bankruptcy pushed on top to settle first

    def move(self, game):
        seat = self.seat
        moved = game.s.track.move(seat, sum(self.dice))
        if moved.laps:
            game.emit("rm.world_tour", player=game.players[seat], tours=game.s.track.laps[seat])
        square = self.landed = game.box.square(moved.end)
        game.emit("rm.moved", player=game.players[seat], square=game.square_name(square), number=moved.end)
        self.phase = "square"
        production = game.s.plaques.get(str(square.number))
        if production is not None:      # RM7: royalties come first on every plaque square
            game.royalties_due(seat, production)
        return None

    def square(self, game):
        seat = self.seat
        square = self.landed
        kind = square.kind
        if kind in BUYING:
            if kind == "world" and not game.toured(seat):
                if self.ask_tour(game, bool(game.purchasable(seat, square))):
                    return None
                game.emit("rm.not_yet", player=game.players[seat], square=game.square_name(square))
                return TurnOver(seat)
            if not game.purchasable(seat, square) and not title_option(game, seat, square):
                game.emit("rm.nothing_to_buy", player=game.players[seat], square=game.square_name(square))
                return TurnOver(seat)
            self.phase = "buy"
            return None
        if kind == "bonus":    # "il reçoit de la banque autant de fois 500.000 F qu'il a tiré de points"
            points = sum(self.dice)
            game.emit("rm.bonus", player=game.players[seat], amount=BONUS_PER_POINT * points, per=BONUS_PER_POINT,
                      points=points)
            game.transfer(BANK, seat, BONUS_PER_POINT * points, "bonus")
            return TurnOver(seat)
        if kind == "news":
            self.phase = "news"
            return None
        if len(game.in_game()) <= 2:     # RM11: two players left, auction and joker squares are rest squares
            game.emit("rm.rest", player=game.players[seat], square=game.square_name(square))
            return TurnOver(seat)
        if kind == "joker":
            if not game.jokers_known():
                return None          # the pile is counted first, then the square again
            if game.s.joker_stock <= 0:
                game.emit("rm.no_joker_left", player=game.players[seat])
                return TurnOver(seat)
            self.phase = "joker"
            return None
        if kind == "auction":
            if not game.toured(seat):
                if self.ask_tour(game, bool(game.trusts(seat))):
                    return None
                game.emit("rm.not_yet", player=game.players[seat], square=game.square_name(square))
                return TurnOver(seat)
            if not game.trusts(seat):
                game.emit("rm.nothing_to_auction", player=game.players[seat])
                return TurnOver(seat)
            self.phase = "joker_use" if game.s.jokers[seat] else "lots"
            return None
        raise AssertionError(f"square kind {kind}")

    def ask_tour(self, game, matters):
        """Without the square order the box cannot count world tours (RM8): the operator
        answers, once per player, when the square would do something after a tour."""
        if game.box.ordered or not matters:
            return False
        self.phase = "tour"
        return True

    def resume(self, game, result):
        if isinstance(result, SaleOver):
            return None        # back to the dice
        if isinstance(result, ClaimsOver):
            return None        # the royalties settled: on to the square
        if isinstance(result, AuctionOver):
            return TurnOver(self.seat)
        if isinstance(result, Learned):
            if result.what == "royalties":   # the table read: the plaque's royalties now
                game.royalties_due(self.seat, result.key)
            return None
        raise AssertionError(f"a turn pushed no step that ends with {result!r}")

