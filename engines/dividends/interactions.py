"""How each Dividends decision is answered at the table (engines.core.decision.Interaction).

PROMPTS: prompt -> (interaction, {role: action kind}); `params` computes what the screens
of that interaction show, from the game (the firmware reads no engine internals).
"""
from engines.core.decision import Interactions as I
from engines.core.open_auction import auction_params

PROMPTS = {
    "prompt.dv.dice": (I.CHANCE, {I.DRAW: "dice"}),
    "prompt.dv.short_of_cash": (I.CHOICE, {}),
    "prompt.dv.auction": (I.OPEN_AUCTION, {I.OFFER: "bid", I.SILENCE: "sold"}),
    "prompt.dv.auction_open": (I.OPEN_AUCTION, {I.OFFER: "bid", I.SILENCE: "deal"}),
    "prompt.dv.turn": (I.CHOICE, {}),
    "prompt.dv.payment": (I.PAYMENT, {I.CONFIRM: "payout"}),
    "prompt.dv.final_dividends": (I.PAYMENT, {I.CONFIRM: "payout"}),
    "prompt.dv.event": (I.CHANCE, {I.DRAW: "event"}),
    "prompt.dv.event_sell": (I.CHOICE, {}),
    "prompt.dv.event_buy": (I.CHOICE, {}),
    "prompt.dv.placement": (I.CHOICE, {}),
    "prompt.dv.final_influence": (I.CHOICE, {}),
    "prompt.dv.liquidation": (I.CHOICE, {}),
    "prompt.dv.over": (I.OVER, {}),
}


def params(game, decision, kind) -> dict:
    if kind == I.OPEN_AUCTION:
        # "Tous les joueurs peuvent enchérir et surenchérir n'importe quand": a press bids
        # the lowest bid accepted now, and only a bidder who has that much cash may make it.
        # The rulebook sets no length for the silence that closes the auction: None, the
        # table's configured silence (timing.silence_s) applies.
        return auction_params(game, decision.option("bid"))
    return {}
