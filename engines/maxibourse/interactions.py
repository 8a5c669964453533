"""How each Maxi Bourse decision is answered at the table (engines.core.decision.Interaction).

PROMPTS: prompt -> (interaction, {role: action kind}); `params` computes what the screens
of that interaction show, from the game, so the firmware never reads the engine's frames
nor computes a rule (a settlement's amounts, a payday's breakdown, who starts by the dice).
"""
from engines.core.chance import roll_for_first
from engines.core.decision import Interactions as I
from engines.maxibourse.steps.payday import payday_breakdown

PROMPTS = {
    "prompt.mb.over": (I.OVER, {}),
    "prompt.mb.pick": (I.CHOICE, {}),
    "prompt.mb.learn_nominal": (I.CHOICE, {}),     # a nominal the box file leaves out, before the deal
    "prompt.mb.deal": (I.CHANCE, {I.DRAW: "deal"}),
    "prompt.mb.first": (I.FIRST_PLAYER, {I.CHOOSE: "first"}),
    "prompt.mb.turn_start": (I.CHOICE, {}),
    "prompt.mb.double": (I.CHOICE, {}),
    "prompt.mb.square": (I.CHOICE, {}),
    "prompt.mb.titre": (I.SPEAKING_ROUND, {I.ANSWER: "declare"}),
    "prompt.mb.titre_au_cours": (I.SPEAKING_ROUND, {I.ANSWER: "declare"}),
    "prompt.mb.sale": (I.SPEAKING_ROUND, {I.ANSWER: "declare"}),
    "prompt.mb.auction": (I.LOT_AUCTION, {I.STEP: "raise", I.STAY: "keep"}),
    "prompt.mb.settle": (I.SETTLEMENT, {I.CONFIRM: "settle"}),
    "prompt.mb.debt": (I.CHOICE, {}),
    "prompt.mb.forced": (I.CHOICE, {}),
    "prompt.mb.payday": (I.PAYDAY, {I.CONFIRM: "payday"}),
}

# After these, the turn's own step is still to come (the square): the menu starts on its
# first entry; after anything else on the square, it starts on "end of turn".
TURN_STEPS = ("roll", "pass", "settle", "double")


def params(game, decision, kind) -> dict:
    f = game.top
    if kind == I.SPEAKING_ROUND:
        out = {"answers": [[s, n] for s, n in f.round.answers], "order": list(f.round.order),
               "shares": game.shares}
        if hasattr(f, "to_ask"):  # a titre square: "reste" counts the lots asked in the round
            out["text"] = {"to_ask": f.to_ask(game)}
        return out
    if kind == I.LOT_AUCTION:
        return {"bidders": [[s, n] for s, n in f.auction.bidders], "shares": game.shares}
    if kind == I.SETTLEMENT:
        price = game.price(f.company)
        return {"lines": [{"player": s, "lots": n, "amount": price * game.shares * n} for s, n in f.purchases]}
    if kind == I.PAYDAY:
        return {"lines": {game.players[s]: payday_breakdown(game, s).to_json() for s in game.in_game()}}
    if kind == I.FIRST_PLAYER:
        rolls, first = roll_for_first(game.seed, range(len(game.players)))
        return {"rolls": [[s, r] for s, r in rolls.items()], "first": first}
    if kind == I.CHANCE and decision.prompt == "prompt.mb.deal":
        return {"device": True}  # the setting `picks = "dealt"`: the device deals, whatever the dice
    if kind == I.CHOICE and decision.prompt == "prompt.mb.square":
        last = game.log[-1] if game.log else None
        titre = decision.option("titre") is not None
        if decision.option("end") and (not titre or (last is not None and last.kind not in TURN_STEPS)):
            return {"default": "end"}
    return {}
