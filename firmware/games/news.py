"""The news line an adapter shows above the next menu: the most telling thing an action did."""


def most_telling(events, order):
    """The event whose key comes first in `order` (the earliest of equals), or None."""
    ranked = [event for event in events if event.key in order]
    return min(ranked, key=lambda event: order.index(event.key)) if ranked else None


def news_line(ctx, act, events, describe, order) -> list[str]:
    """The most telling event's text, or the action described when no event of `order`."""
    best = most_telling(events, order)
    return [best.text(ctx.lang, ctx.game.catalog_prefix) if best is not None else describe(ctx, act)]
