"""How each A Vendre! decision is answered at the table (engines.core.decision.Interaction).

PROMPTS: prompt -> (interaction, {role: action kind}); `params` computes what the screens
of that interaction show, from the game (the firmware reads no engine internals).
"""
from engines.core.chance import roll_for_first
from engines.core.decision import Interactions as I
from engines.core.open_auction import auction_params

AUCTION = (I.OPEN_AUCTION, {I.OFFER: "bid", I.SILENCE: "sold"})

PROMPTS = {
    "prompt.av.first": (I.FIRST_PLAYER, {I.CHOOSE: "first"}),
    "prompt.av.roll": (I.CHANCE, {I.DRAW: "roll"}),
    "prompt.av.square": (I.CHOICE, {}),
    "prompt.av.colour": (I.CHOICE, {}),
    "prompt.av.income": (I.CHOICE, {}),
    "prompt.av.blue_read": (I.CHOICE, {}),
    "prompt.av.amounts": (I.CHOICE, {}),
    "prompt.av.yellow": (I.CHOICE, {}),
    "prompt.av.blue": (I.CHOICE, {}),
    "prompt.av.card": (I.CHOICE, {}),
    "prompt.av.debt": (I.CHOICE, {}),
    "prompt.av.shop_auction_open": AUCTION,
    "prompt.av.shop_auction": AUCTION,
    "prompt.av.bank_auction_open": AUCTION,
    "prompt.av.bank_auction": AUCTION,
    "prompt.av.over": (I.OVER, {}),
}


def params(game, decision, kind) -> dict:
    if kind == I.OPEN_AUCTION:
        # Anyone raises on their seat button: a press bids the lowest bid accepted now, and
        # only a bidder with that much cash may make it. The rulebook sets no length for
        # the silence that closes the auction (AV11): no rule (`silence_s` None), but the
        # window the table set (`window_s`, the setting auction_silence_s), which pauses.
        return auction_params(game, decision.option("bid"), window_s=game.settings["auction_silence_s"])
    if kind == I.FIRST_PLAYER:
        rolls, first = roll_for_first(game.seed, range(len(game.players)))
        return {"rolls": [[s, r] for s, r in rolls.items()], "first": first}
    return {}
