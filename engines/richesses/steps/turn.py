"""One player's turn: the dice (a double costs its face in millions, RM10), the pawn moves
(world tours counted, RM8), the royalties of the square's plaque are paid to every other
holder of 30 % or more (RM2, RM6), then what the square offers: titles of the country, of
the continent or of the world (RM3, RM7), 500 000 x dice, a joker, a card, an auction
(RM4, RM9, RM11). Free sales are offered before the dice (RM12: between actions)."""
from dataclasses import dataclass, field

from engines.core.chance import SIX
from engines.core.decision import Decision, Fixed, Option, Subset
from engines.core.errors import IllegalAction
from engines.core.ledger import BANK
from engines.core.steps import Step
from engines.richesses.rules import BONUS_PER_POINT, DOUBLE_COST, JOKER_PRICE, MAX_TITLES
from engines.richesses.steps.auction import AuctionStep
from engines.richesses.steps.results import AuctionOver, SaleOver, TurnOver
from engines.richesses.steps.sale import SaleStep

BUYING = ("country", "continental", "world")


@dataclass
class Turn(Step):
    seat: int
    phase: str = "roll"      # roll, move, square, buy, joker, joker_use, lots, news
    dice: list = field(default_factory=list)   # [white, red] once rolled
    name = "turn"

    def actor(self, game):
        return None if self.phase == "roll" else self.seat

    # ------------------------------------------------------------ decision
    def decision(self, game):
        seat, name = self.seat, game.players[self.seat]
        if self.phase == "roll":
            return Decision("prompt.rm.roll", {"player": name}, None,
                            (Option("roll", {"white": SIX, "red": SIX}),)
                            + game.sale_options())
        square = game.box.square(game.s.track.positions[seat])
        params = {"player": name, "square": game.square_name(square)}
        if self.phase == "buy":
            return Decision("prompt.rm.buy", params | {"most": MAX_TITLES}, seat, (
                Option("buy", {"player": Fixed(seat), "titles": Subset(game.purchasable(seat, square), 1, MAX_TITLES)}),
                Option("done", {"player": Fixed(seat)})))
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

    def refusal(self, game, act, decision):
        kind = act.kind
        if kind == "roll":
            return None
        if kind in ("offer", "exchange"):
            return game.offer_refusal(act)
        player = getattr(act, "player", None)
        if player is not None and 0 <= player < len(game.players) and player != self.seat:
            return IllegalAction("error.rm.not_turn", player=game.players[player], turn=game.players[self.seat])
        if kind == "buy" and self.phase == "buy":
            return game.buy_refusal(act, game.box.square(game.s.track.positions[self.seat]))
        if kind == "lots" and self.phase in ("lots", "joker_use"):
            return game.lots_refusal(act, self.dice[1])
        return None

    # ------------------------------------------------------------ handlers
    def on_roll(self, game, act):
        self.dice = [act.white, act.red]
        game.s.last_roll = {"player": game.players[self.seat], "white": act.white, "red": act.red}
        game.emit("rm.roll", player=game.players[self.seat], white=act.white, red=act.red, total=act.white + act.red)
        self.phase = "move"
        if act.white == act.red:   # "1 double as, il paie 1 million à la banque" ... RM10: no extra roll
            game.emit("rm.double", player=game.players[self.seat], face=act.white, amount=act.white * DOUBLE_COST)
            game.charge(self.seat, [[BANK, act.white * DOUBLE_COST]], "double")
        return None

    def on_offer(self, game, act):
        refused = game.offer_refusal(act)
        if refused:
            raise refused
        game.push(SaleStep(act.seller, act.production, act.buyer, act.amount))
        game.emit("rm.offer", seller=game.players[act.seller], production=act.production,
                  buyer=game.players[act.buyer], amount=act.amount)
        return None

    def on_exchange(self, game, act):
        refused = game.offer_refusal(act)
        if refused:
            raise refused
        game.push(SaleStep(act.seller, act.production, act.buyer, act.amount, swap=act.other))
        game.emit("rm.exchange_offer", seller=game.players[act.seller], production=act.production,
                  buyer=game.players[act.buyer], other=act.other, amount=act.amount)
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

    def on_lots(self, game, act):
        refused = game.lots_refusal(act, self.dice[1])
        if refused:
            raise refused
        game.push(AuctionStep(self.seat, list(act.productions)))
        game.emit("rm.lots", player=game.players[self.seat], lots=" ".join(act.productions))
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
        square = game.box.square(moved.end)
        game.emit("rm.moved", player=game.players[seat], square=game.square_name(square), number=moved.end)
        self.phase = "square"
        production = game.s.plaques.get(str(square.number))
        if production is not None:      # RM7: royalties come first on every plaque square
            lines = game.royalties(seat, production)
            if lines:
                game.emit("rm.royalties", player=game.players[seat], production=production,
                          total=sum(a for _, _, a in lines),
                          lines=", ".join(f"{game.players[s]} {share} % {a}" for s, share, a in lines))
                game.charge(seat, [[s, a] for s, _, a in lines], "royalties")
        return None

    def square(self, game):
        seat = self.seat
        square = game.box.square(game.s.track.positions[seat])
        kind = square.kind
        if kind in BUYING:
            if kind == "world" and not game.toured(seat):
                game.emit("rm.not_yet", player=game.players[seat], square=game.square_name(square))
                return TurnOver(seat)
            if not game.purchasable(seat, square):
                game.emit("rm.nothing_to_buy", player=game.players[seat], square=game.square_name(square))
                return TurnOver(seat)
            self.phase = "buy"
            return None
        if kind == "bonus":    # "il reçoit de la banque autant de fois 500.000 F qu'il a tiré de points"
            game.transfer(BANK, seat, BONUS_PER_POINT * sum(self.dice), "bonus")
            return TurnOver(seat)
        if kind == "news":
            self.phase = "news"
            return None
        if len(game.in_game()) <= 2:     # RM11: two players left, auction and joker squares are rest squares
            game.emit("rm.rest", player=game.players[seat], square=game.square_name(square))
            return TurnOver(seat)
        if kind == "joker":
            if game.s.joker_stock <= 0:
                game.emit("rm.no_joker_left", player=game.players[seat])
                return TurnOver(seat)
            self.phase = "joker"
            return None
        if kind == "auction":
            if not game.toured(seat):
                game.emit("rm.not_yet", player=game.players[seat], square=game.square_name(square))
                return TurnOver(seat)
            if not game.trusts(seat):
                game.emit("rm.nothing_to_auction", player=game.players[seat])
                return TurnOver(seat)
            self.phase = "joker_use" if game.s.jokers[seat] else "lots"
            return None
        raise AssertionError(f"square kind {kind}")

    def resume(self, game, result):
        if isinstance(result, SaleOver):
            return None        # back to the dice
        if isinstance(result, AuctionOver):
            return TurnOver(self.seat)
        raise AssertionError(f"a turn pushed no step that ends with {result!r}")

