"""Card effects entered by the operator: the table reads a card, the box moves the money.

A Vendre! (AV10) and Richesses du Monde (RM "Actualité") deal physical cards whose effects
are a handful of money movements. The box does not hold the decks: the operator enters what
the card says as one of these actions, and the game applies the transfers through its own
payment path (so a player who cannot pay enters the game's debt procedure, and a finite
bank that cannot pay is the game's shortfall event):

- `card_pay PLAYER AMOUNT`: the player pays the bank;
- `card_receive PLAYER AMOUNT`: the bank pays the player;
- `card_pay_each PLAYER AMOUNT`: the player pays each other player still in the game;
- `card_collect PLAYER AMOUNT`: each other player still in the game pays the player.

A card that moves a pawn or grants a title is the game's own action (its track, its
deeds): those are not money and differ from game to game.

A game adds `CARD_ACTIONS` to its ActionSet, offers `card_options(...)` in the decision
where its rulebook draws a card, gives the kinds their menu labels in its own catalog
(`ui.kind.<prefix>.card_pay`, ...), and in each handler pays `card_transfers(act, others)`
in order.
"""
from engines.core.actions import Money, Seat, action
from engines.core.decision import Fixed, IntRange, Option
from engines.core.ledger import BANK


@action("card_pay", example="card_pay Ana 500")
class CardPay:
    """A card: PLAYER pays AMOUNT to the bank."""
    player: Seat
    amount: Money


@action("card_receive", example="card_receive Ana 500")
class CardReceive:
    """A card: the bank pays AMOUNT to PLAYER (a lottery)."""
    player: Seat
    amount: Money


@action("card_pay_each", example="card_pay_each Ana 100")
class CardPayEach:
    """A card: PLAYER pays AMOUNT to each other player still in the game."""
    player: Seat
    amount: Money


@action("card_collect", example="card_collect Ana 100")
class CardCollect:
    """A card: each other player still in the game pays AMOUNT to PLAYER."""
    player: Seat
    amount: Money


CARD_ACTIONS = (CardPay, CardReceive, CardPayEach, CardCollect)
CARD_KINDS = tuple(cls.kind for cls in CARD_ACTIONS)


def card_options(player: int, step: int, most: int) -> tuple[Option, ...]:
    """The four effects for `player`'s card, amounts from `step` to `most` by `step` (the
    smallest coin of the game, and a bound no card reaches)."""
    amounts = IntRange(step, most, step)
    return tuple(Option(kind, {"player": Fixed(player), "amount": amounts}) for kind in CARD_KINDS)


def card_transfers(act, others) -> list[tuple[int, int, int]]:
    """The payments (payer, payee, amount) of the card effect `act`, in the order they are
    made; `others` are the seats of the other players still in the game, in turn order
    from the player's left (whoever the game pays first when cash runs short)."""
    player, amount = act.player, act.amount
    if act.kind == "card_pay":
        return [(player, BANK, amount)]
    if act.kind == "card_receive":
        return [(BANK, player, amount)]
    if act.kind == "card_pay_each":
        return [(player, other, amount) for other in others]
    if act.kind == "card_collect":
        return [(other, player, amount) for other in others]
    raise ValueError(f"{act.kind} is not a card effect; card effects: {', '.join(CARD_KINDS)}")
