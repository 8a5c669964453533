"""A Titre square (MB3): the lander asks first (au cours on their own company's square),
then the others in a speaking round; requests au mieux move the price; more asked than
the bank holds goes to auction; rounds go on while someone asks and lots are left."""

from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.ledger import BANK
from engines.core.records import record
from engines.core.rounds import LotAuction, SpeakingRound, clockwise
from engines.maxibourse.rules import MAX_ASK, PRICE_STEP
from engines.maxibourse.steps.auction import Auction
from engines.maxibourse.steps.base import Frame
from engines.maxibourse.steps.results import AuctionOver, Settled
from engines.maxibourse.steps.settlement import Settlement


@record
class TitreSquare(Frame):
    company: str
    lander: int
    au_cours: bool           # the lander's first request is au cours (MB3)
    round: SpeakingRound
    round_no: int = 1
    au_cours_lots: int = 0   # lots bought au cours this round (they do not move the price)

    def actor(self, game):
        return self.round.speaker

    def is_au_cours(self):
        return self.au_cours and self.round_no == 1 and not self.round.answers and self.round.speaker == self.lander

    def decision(self, game):
        seat = self.round.speaker
        au_cours = self.is_au_cours()
        hi = min(MAX_ASK, game.s.lots.bank(self.company)) if au_cours else MAX_ASK
        params = {"player": game.players[seat], "company": self.company, "price": game.price(self.company),
                  "left": game.s.lots.bank(self.company), "round": self.round_no}
        return Decision("prompt.mb.titre_au_cours" if au_cours else "prompt.mb.titre", params, seat,
                        (Option("declare", {"player": Fixed(seat), "lots": Choice(tuple(range(hi + 1)))}),))

    def to_ask(self, game):
        """Lots still to ask for in this round: the bank's, less what was asked before in the
        round and not settled yet (the au cours purchase is settled already). What the
        screens say ("reste"); the prompt's `left` stays the bank's, as recorded games hold it."""
        asked = sum(n for _, n in self.round.answers) - self.au_cours_lots
        return max(0, game.s.lots.bank(self.company) - asked)

    def on_declare(self, game, a):
        if self.is_au_cours():
            self.round.answer(a.player, a.lots)
            if a.lots:
                self.au_cours_lots = a.lots
                game.emit("mb.declared", player=game.players[a.player], lots=a.lots, au_cours=True)
                return game.push(Settlement(self.company, BANK, [(a.player, a.lots)], au_cours=True))
        else:
            self.round.answer(a.player, a.lots)
            if a.lots:
                game.emit("mb.declared", player=game.players[a.player], lots=a.lots, au_cours=False)
            else:       # "Rouge passe", not "Rouge demande 0 lot"
                game.emit("mb.passed", player=game.players[a.player])
            # au mieux: +10 $ per 1 000 shares asked, in declaration order (SONY example)
            game.set_price(self.company, game.price(self.company) + PRICE_STEP * a.lots, "au_mieux")
        if self.round.done:
            self.end_round(game)

    def end_round(self, game):
        takers = [(s, n) for s, n in self.round.takers() if game.can_trade(s)]
        if self.au_cours_lots:
            takers = [(s, n) for s, n in takers if s != self.lander]  # the au cours purchase is already settled
        requested, left = sum(n for _, n in takers), game.s.lots.bank(self.company)
        if requested == 0 or left == 0:  # nobody asked, or no lot left to sell (no auction for 0 lots)
            return self.next_round(game)
        if requested <= left:
            return game.push(Settlement(self.company, BANK, takers))
        game.emit("mb.shortage", company=self.company, requested=requested, left=left)
        game.push(Auction(self.company, BANK, LotAuction(left, game.price(self.company), PRICE_STEP, takers)))

    def next_round(self, game):
        stayers = [s for s, n in self.round.answers if n > 0 and game.can_trade(s)]
        if not stayers or game.s.lots.bank(self.company) == 0:
            return game.pop()
        self.round = SpeakingRound(clockwise(self.lander, stayers))
        self.round_no += 1
        self.au_cours_lots = 0

    def leave_round(self, game):
        """A player sanctioned or ruined during the round (in a debt nested under it) is no
        longer asked (MB8: "ni acheter, ni vendre")."""
        round_ = self.round
        asked = len(round_.answers)
        round_.order = round_.order[:asked] + [s for s in round_.order[asked:] if game.can_trade(s)]

    def resume(self, game, result):
        if isinstance(result, AuctionOver):
            if not result.allocation:  # a correction gave away the bank's last lots during the auction
                return self.next_round(game)
            return game.push(Settlement(self.company, BANK, result.allocation))
        if isinstance(result, Settled) and result.au_cours:  # the au cours purchase
            if game.s.lots.bank(self.company) == 0:  # "jusqu'à ce qu'il ne reste aucune action disponible"
                game.emit("mb.titre_over", company=self.company)
                return game.pop()
            self.leave_round(game)
            return self.end_round(game) if self.round.done else None
        return self.next_round(game)
