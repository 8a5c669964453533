"""How each Richesses du Monde decision is answered at the table
(engines.core.decision.Interaction).

The 7-second silence that sells a lot and closes a free sale's windows is a rule of this
game (RM9, RM12: "Il ne peut s'écouler plus de 7 secondes de silence"), so the decision
carries it (`silence_s`) and the box's clock uses it instead of the configured one.
No params carry cash (RM10: cash is hidden): the offers list who may press, the amount
each press bids; a press a player cannot afford is refused by the engine without a word
about his cash.
"""
from engines.core.chance import roll_for_first
from engines.core.decision import Interactions as I
from engines.core.open_auction import auction_params
from engines.richesses.rules import SILENCE_S

PROMPTS = {
    "prompt.rm.plaques": (I.CHANCE, {I.DRAW: "plaques"}),
    "prompt.rm.first": (I.FIRST_PLAYER, {I.CHOOSE: "first"}),
    "prompt.rm.roll": (I.CHANCE, {I.DRAW: "roll"}),
    "prompt.rm.land": (I.CHOICE, {}),
    "prompt.rm.tour": (I.CHOICE, {}),
    "prompt.rm.tour_anyone": (I.CHOICE, {}),
    # RM2 with strict_claims: each holder claims on his seat button; the silence closes the time to claim
    "prompt.rm.claims": (I.OFFER_WINDOW, {I.OFFER: "claim", I.SILENCE: "close_claims"}),
    "prompt.rm.buy": (I.CHECKLIST, {I.CHECK: "buy"}),
    "prompt.rm.joker": (I.CHOICE, {}),
    "prompt.rm.lots": (I.CHECKLIST, {I.CHECK: "lots"}),
    "prompt.rm.news": (I.CHOICE, {}),
    "prompt.rm.auction_open": (I.OPEN_AUCTION, {I.OFFER: "bid", I.SILENCE: "sold"}),
    "prompt.rm.auction": (I.OPEN_AUCTION, {I.OFFER: "bid", I.SILENCE: "sold"}),
    "prompt.rm.sale_window": (I.OFFER_WINDOW, {I.OFFER: "overbid", I.SILENCE: "close_offer"}),
    "prompt.rm.sale_accept": (I.OFFER_WINDOW, {I.CONFIRM: "accept", I.SILENCE: "lapse"}),
    "prompt.rm.exchange_window": (I.OFFER_WINDOW, {I.OFFER: "overbid", I.SILENCE: "close_offer"}),
    "prompt.rm.exchange_accept": (I.OFFER_WINDOW, {I.CONFIRM: "accept", I.SILENCE: "lapse"}),
    "prompt.rm.debt": (I.CHOICE, {}),
    "prompt.rm.over": (I.OVER, {}),
    # box data learned at the table (RM13 as amended): read off the plaque or the pile
    "prompt.rm.learn_title": (I.CHOICE, {}),
    "prompt.rm.learn_royalties": (I.CHOICE, {}),
    "prompt.rm.learn_jokers": (I.CHOICE, {}),
}


def params(game, decision, kind) -> dict:
    out = answer(game, decision, kind)
    # the texts name a trust as its plaque prints it, never by the box file's id
    named = {k: game.box.production_name(v) for k, v in decision.params.items()
             if k in ("production", "other") and v in game.box.productions}
    return out | {"text": named} if named else out


def answer(game, decision, kind) -> dict:
    if decision.prompt == "prompt.rm.plaques":
        return {"device": True}  # RM13: the device draws the placement, whatever the dice
    if decision.prompt == "prompt.rm.claims":
        # a holder's press claims what his share earns; anyone else's press blinks his
        # light only (as at an auction: nothing said of anyone's cash)
        offers = [[seat, amount] for seat, _, amount in game.step.unclaimed()]
        return {"offers": offers, "silence_s": SILENCE_S, "refused_press": "blink"}
    if kind in (I.OPEN_AUCTION, I.OFFER_WINDOW):
        # a press another could not pay is refused on the box, which blinks that seat's light
        # only (RM9: no buzz, which the whole table would hear and which would reveal cash);
        # the operator may enter a larger raise for a seat (RM9: the clock holds meanwhile)
        return auction_params(game, decision.option("bid") or decision.option("overbid"), SILENCE_S,
                              refused_press="blink", any_amount=True)
    if kind == I.CHECKLIST:
        return checklist(game, decision)
    if kind == I.FIRST_PLAYER:
        rolls, first = roll_for_first(game.seed, range(len(game.players)))
        return {"rolls": [[s, r] for s, r in rolls.items()], "first": first}
    if decision.prompt == "prompt.rm.joker":
        return {"default": "done"}     # the menu starts on "nothing": 3 000 000 is spent on purpose
    return {}


def checklist(game, decision) -> dict:
    """The items to tick with what the screen shows beside each: a title's price and the
    share of its production after purchase, or a trust's titles and opening price."""
    buy = decision.option("buy")
    if buy is not None:
        seat = buy.fields["player"].value
        items = []
        for tid in buy.fields["titles"].values:
            title = game.box.titles[tid]
            items.append({"id": tid, "production": title.production, "country": title.country,
                          "percent": title.percent, "price": title.price,
                          "share_after": game.share(seat, title.production) + title.percent})
        # the menu starts on "nothing": a landing without purchase is one press after the dice
        return {"items": items, "most": buy.fields["titles"].hi, "field": "titles", "default": "done"}
    lots = decision.option("lots")
    seat = lots.fields["player"].value
    items = [{"id": p, "titles": len(game.trust(seat, p)), "share": game.share(seat, p),
              "opening": game.trust_price(seat, p) // 2} for p in lots.fields["productions"].values]
    return {"items": items, "most": None, "field": "productions", "red": decision.params["red"]}
