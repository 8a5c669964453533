"""Questions the operator answers to build an action, derived from the pending decision.

The engine's decision lists the legal action kinds and, for each field, its domain
(`Choice`, `IntRange`, `Fixed`). `next_question` walks an action's fields in order and
returns the first one that still needs an answer, as a `Question` the controller shows:

* a list (`kind="list"`): players by name, lots, dice; companies are asked in two short
  steps, sector then company, which takes fewer presses than one list of 40 companies
  with sector headers (about 3 + 2 presses against 10 on average, counted in
  docs/presses.md);
* an amount (`kind="amount"`): Up/Down change it by a step, a long press of Up/Down
  makes the step ten times larger/smaller;
* a confirmation (`kind="confirm"`) with a summary, for consequential actions.

Fixed fields and choices of one value are filled in without asking. Values chosen are
kept in an ordered dict, so Back simply forgets the last one. Nothing here decides a
rule: every value offered comes from the decision's domains (the lots of a sale are
also capped by what the seller holds, read from the snapshot).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engines.core.actions import (CHANCE, Cell, Company, CountDelta, DieFace, Lots, Money, MoneyDelta, Price,
                                  PriceDelta, Seat, Signed, SignedDie, Target, _base, list_item)
from engines.core.errors import CorbeilleError
from engines.core.decision import Choice, Fixed, Interactions, IntRange, Items, Subset
from engines.core.i18n import LANGUAGES, catalog, format_amount, money, text
from firmware.texts import lots_label, t

MENU = "#menu"          # the value of the "Menu…" entry added to a root list
CHECK = "#check:"       # a checklist's ticked items so far (values key prefix)
DONE = "#done"          # first item of a validated checklist
OTHER = "#other"        # "another company" (titre au mieux)
AU_COURS = "#au_cours"  # the square's own company, at its price
FLAT_LIST_MAX = 7       # up to this many companies: one list, no sector step


@dataclass
class Question:
    key: str                      # the key of `values` an answer sets
    kind: str                     # list | amount | confirm
    title: str
    lines: tuple = ()
    items: tuple = ()             # list: ((label, value), ...); confirm: labels
    selected: int = 0
    lo: int = 0                   # amount: bounds, starting value and steps
    hi: int = 0
    start: int = 0
    steps: tuple = (1,)
    step: int = 1                 # index into steps of the starting step
    skip_zero: bool = False
    fmt: object = None            # amount -> text
    action: object = None         # confirm: the action that OK applies


@dataclass
class Ctx:
    """What questions need to know: the session (game, snapshot), language, dice mode."""
    session: object
    lang: str = "fr"
    device_dice: bool = False

    @property
    def game(self):
        return self.session.game

    @property
    def players(self):
        return self.session.players

    def decision(self):
        return self.session.decision()

    def has(self, kind: str, flag: str) -> bool:
        """Whether the game declares `flag` for its action `kind` (engines.core.actions)."""
        return self.session.game.ACTIONS.has(kind, flag)

    def snapshot(self):
        return self.session.snapshot()


# ------------------------------------------------------------------------ labels
def player_name(ctx, seat):
    return ctx.players[seat] if seat is not None and 0 <= seat < len(ctx.players) else t("bank", ctx.lang)


def company_label(ctx, company, kind=None):
    """A company in a list, with the price that matters for `kind` (per game)."""
    from firmware.games import adapter_of
    return adapter_of(ctx.session).company_label(ctx, company, kind)


def _adapter(ctx):
    """The adapter of the game being played (firmware/games)."""
    from firmware.games import adapter_of
    return adapter_of(ctx.session)


def _prefix(ctx):
    return _adapter(ctx).prefix


def sector_label(ctx, sector):
    for group, names, _ in ctx.game.groups():
        if group == sector:
            return names.get(ctx.lang, group)
    return sector


def target_label(ctx, target):
    """What a price change moves, in words: all the companies, a sector by its name, a company."""
    if target == "ALL":
        return t("q.all", ctx.lang)
    if target in {group for group, _, _ in ctx.game.groups()}:
        return sector_label(ctx, target)
    return str(target)


def sectors_of(ctx, companies):
    """[(group id, [companies in it])] in the game's order (its `groups`), keeping only
    `companies`."""
    wanted = set(companies)
    out = []
    for group, _, members in ctx.game.groups():
        inside = [c for c in members if c in wanted]
        if inside:
            out.append((group, inside))
    return out


def kind_label(ctx, kind):
    key = "kind." + _prefix(ctx) + kind
    if ctx.device_dice and ctx.has(kind, CHANCE) and has_text("ui." + key + "_device", ctx.lang):
        key += "_device"       # "the device rolls" where the table rolls by hand otherwise
    return t(key, ctx.lang)


@lru_cache(maxsize=None)
def _written_as(cls) -> tuple:
    """(field, how `describe` writes its value: "seat", "signed", "money", "change" (of
    money), "target", "cell" or None) for each
    field of an action class, from its types: worked out once per class, not per field of
    every action described (each applying press describes its action)."""
    types = getattr(cls, "_types", {})
    out = []
    for name in getattr(cls, "__dataclass_fields__", {}):
        typ = _base(types.get(name, object))
        how = ("seat" if _is(typ, Seat) else "change" if _is(typ, (MoneyDelta, PriceDelta))
               else "signed" if _is(typ, CountDelta) else "money" if _is(typ, (Money, Price))
               else "target" if _is(typ, Target) else "cell" if _is(typ, Cell) else None)
        out.append((name, how))
    return tuple(out)


def describe(ctx, act) -> str:
    """One line saying what an action does, in the UI language (undo, history, confirm)."""
    lang, params, key = ctx.lang, {}, "act." + _prefix(ctx) + act.kind
    for name, how in _written_as(type(act)):
        value = getattr(act, name)
        shown = named(ctx, name, value)
        if shown is not None:
            params[name] = shown
        elif value is not None and how == "seat":
            params[name] = player_name(ctx, value)
        elif value is not None and how == "signed":
            params[name] = format_amount(value, lang, sign=True)
        elif value is not None and how in ("money", "change"):
            params[name] = money(value, lang, _prefix(ctx), sign=how == "change")
        elif value is not None and how == "target":
            params[name] = target_label(ctx, value)
        elif value is not None and how == "cell":
            params[name] = str(Cell(value))        # as the grid names it ("E6"), never a pair of numbers
        elif isinstance(value, int) and not isinstance(value, bool):
            params[name] = format_amount(value, lang)
        elif isinstance(value, (tuple, list)):
            params[name] = list(value)        # joined by the catalog's formatter: "3, -2, 1"
        elif name == "reason" and value in {t("reason", other) for other in LANGUAGES}:
            params[name] = t("reason", lang)  # the box's own reason, recorded in the language of then
        else:
            params[name] = "" if value is None else str(value)
    key = _adapter(ctx).act_key(act, key)
    if getattr(act, "lots", None) == 0 and has_text("ui." + key + "_zero", lang):
        key += "_zero"                       # "Sophie passe" rather than "Sophie: 0 lots"
    return t(key, lang, **params)


def named(ctx, name, value):
    """A field's value in the game's own words (its adapter's `field_text`: a title by its
    name, a company by its colour), or None when the game has none for it."""
    own = getattr(_adapter(ctx), "field_text", None)
    return own(ctx, name, value) if own is not None and value is not None else None


def has_text(key, lang) -> bool:
    return key in catalog(lang)


# --------------------------------------------------------------------- questions
def resolve(ctx, kind, option, values):
    """(complete field values, None) or (partial values, the next Question)."""
    game = ctx.game
    fields = game.ACTIONS.fields(kind)
    filled = {}
    drawn = None
    if ctx.device_dice and ctx.has(kind, CHANCE) and all(optional for _, _, optional in fields):
        # The device draws what the table would roll: the engine fills the action left open.
        from firmware.script import fill_dice
        drawn = fill_dice(game, game.ACTIONS.classes[kind]())
    for name, typ, optional in fields:
        domain = option.fields.get(name)
        if name in values:
            filled[name] = values[name]
            continue
        if drawn is not None and getattr(drawn, name) is not None and not isinstance(domain, (Choice, Fixed)):
            filled[name] = getattr(drawn, name)
            continue
        if domain is None:
            if name == "reason":
                filled[name] = t("reason", ctx.lang)
                continue
            if optional:
                filled[name] = None
                continue
        if isinstance(domain, Fixed):
            filled[name] = domain.value
            continue
        if isinstance(domain, Choice) and len(domain.values) == 1:
            filled[name] = domain.values[0]
            continue
        if isinstance(domain, Subset):
            ticked = values.get(CHECK + name, ())
            if ticked[:1] == (DONE,):           # the checklist was validated
                filled[name] = tuple(ticked[1:])
                continue
            return filled, checklist_question(ctx, kind, name, domain, tuple(ticked))
        if isinstance(domain, Items):
            items, question = resolve_items(ctx, kind, name, domain, filled, values, typ)
            if question is not None:
                return filled, question
            filled[name] = items
            continue
        question = field_question(ctx, kind, name, domain, filled, values, typ)
        if question is None:           # nothing to ask (a single possible value)
            continue
        if not isinstance(question, Question):
            filled[name] = question[1]
            continue
        return filled, question
    return filled, None


def resolve_items(ctx, kind, name, domain, filled, values, typ):
    """A list field asked item by item, each from its own domain (answers kept under
    `name#0`, `name#1`...): (the complete list, None) or (None, the next item's Question).
    A list of distinct values offers each item only what is not taken yet (a deal)."""
    item_type = list_item(_base(typ))
    chosen = []
    for i, item_domain in enumerate(domain.items):
        key = f"{name}#{i}"
        if key in values:
            chosen.append(values[key])
            continue
        if domain.distinct and isinstance(item_domain, Choice):
            item_domain = Choice(tuple(v for v in item_domain.values if v not in chosen))
        if isinstance(item_domain, Fixed):
            chosen.append(item_domain.value)
            continue
        if isinstance(item_domain, Choice) and len(item_domain.values) == 1:
            chosen.append(item_domain.values[0])
            continue
        label = domain.labels[i] if i < len(domain.labels) else None
        question = field_question(ctx, kind, key, item_domain, {**filled, "#item": label}, values, item_type)
        if question is None or not isinstance(question, Question):
            chosen.append(None if question is None else question[1])
            continue
        return None, question
    return tuple(chosen), None


def die_question(ctx, name, domain, typ, item):
    """A die entered by hand: its faces as written on it (signed when it steps up or down),
    and, for a die per company, which company and which of the game's dice it is."""
    lang, prefix = ctx.lang, _prefix(ctx)
    values_ = domain.values if isinstance(domain, Choice) else range(domain.lo, domain.hi + 1, domain.step)
    items = tuple(((format_amount(v, lang, sign=True) if _is(typ, Signed) else str(v)), v) for v in values_)
    if item is None:
        line = t("q." + name, lang) if has_text("ui.q." + name, lang) else t("q.dice_title", lang)
        return Question(name, "list", t("q.dice_title", lang), (line,), items)
    die = getattr(domain, "name", "")
    shown = t(prefix + "die." + die, lang) if die and has_text("ui." + prefix + "die." + die, lang) else die
    return Question(name, "list", t("q." + prefix + "die_title", lang, company=item),
                    (t("q." + prefix + "die", lang, company=item, die=shown),), items)


def field_question(ctx, kind, name, domain, filled, values, typ=None):
    lang = ctx.lang
    decision = ctx.decision()
    title = kind_label(ctx, kind)
    own = getattr(_adapter(ctx), "field_question", None)    # a question only this game asks
    own = own(ctx, kind, name, domain, filled, values) if own else None
    if own is not None:
        return own
    typ = _base(typ)
    if _is(typ, Seat) and isinstance(domain, Choice):
        seats = [s for s in domain.values if not (name == "buyer" and s == filled.get("seller"))]
        items = tuple((player_name(ctx, s), s) for s in seats)
        selected = seats.index(decision.actor) if decision.actor in seats else 0
        prompt = "q." + name if has_text("ui.q." + name, lang) and name != "player" else "q.player"
        return Question(name, "list", title, (t(prompt, lang),), items, selected)
    if _is(typ, Company) and isinstance(domain, Choice):
        return company_question(ctx, kind, name, domain, filled, values)
    if _is(typ, Target) and isinstance(domain, Choice):
        return target_question(ctx, kind, name, domain, values)
    if _is(typ, Lots):
        return lots_question(ctx, kind, name, domain, filled)
    if _is(typ, (DieFace, SignedDie)):
        return die_question(ctx, name, domain, typ, filled.get("#item"))
    if isinstance(domain, IntRange):
        return amount_question(ctx, kind, name, domain, filled, typ)
    if isinstance(domain, Choice):
        return choice_question(ctx, kind, name, domain, filled, typ)
    return ("auto", None)


def choice_question(ctx, kind, name, domain, filled, typ):
    """A value from a list, asked by its type: each value written as its type writes it (a
    move with its sign), under the question line of that type in the game's catalog
    (`q.<prefix><type>`, else `q.<type>`: "CEDARPINES: up or down?" for a `Move`)."""
    lang = ctx.lang
    stem = typ.__name__.lower() if isinstance(typ, type) else ""

    def label(v):   # a value with a printed name in the game's catalog (a tile "as printed")
        printed = f"{_prefix(ctx)}{stem}_name.{v}"
        if stem and printed in catalog(lang):
            return text(printed, lang)
        if _is(typ, Cell):
            return str(Cell(v))      # as the grid names it ("E6")
        return named(ctx, name, v) or (format_amount(v, lang, sign=True) if _is(typ, Signed) else str(v))

    items = tuple((label(v), v) for v in held_by_seller(ctx, domain.values, filled))
    line = field_line(ctx, name)
    for key in ("q." + _prefix(ctx) + stem, "q." + stem):
        if stem and has_text("ui." + key, lang):
            line = t(key, lang, company=filled.get("company") or "", player=player_name(ctx, filled.get("player")))
            break
    return Question(name, "list", kind_label(ctx, kind), (line,), items)


def held_by_seller(ctx, values, filled) -> list:
    """`values` the seller chosen so far holds (the game's `holding`): a sale offers only
    what its seller has; all of them before a seller is chosen, or when the game does not
    count holdings."""
    seller = filled.get("seller")
    if seller is None:
        return list(values)
    return [v for v in values if ctx.game.holding(seller, v)] or list(values)


def checklist_question(ctx, kind, name, domain, ticked):
    """A checklist (a Subset field): each item ticks or unticks, the last entry validates
    what is ticked. Each item is shown with what the decision's interaction says of it
    (`params.items`: a title's price and the share after purchase, a trust's opening
    price); the engine checks the rest (the total against cash, the red die)."""
    lang = ctx.lang
    shown = {item.get("id"): item for item in ctx.decision().interaction.params.get("items", [])}
    items = []
    for value in domain.values:
        mark = "[x]" if value in ticked else "[ ]"
        info = shown.get(value, {})
        right = money(info["price"], lang, _prefix(ctx)) if "price" in info else \
            money(info["opening"], lang, _prefix(ctx)) if "opening" in info else ""
        after = f" {info['share_after']}%" if "share_after" in info else ""
        toggled = tuple(v for v in ticked if v != value) if value in ticked else ticked + (value,)
        items.append((f"{mark} {named(ctx, name, value) or value}{after}" + (f"\t{right}" if right else ""), toggled))
    most = len(domain.values) if domain.hi is None else min(domain.hi, len(domain.values))
    if len(ticked) >= domain.lo:
        items.append((t("q.check_done", lang, n=len(ticked)), (DONE,) + ticked))
    selected = list(domain.values).index(ticked[-1]) if ticked else 0
    return Question(CHECK + name, "list", kind_label(ctx, kind), (t("q.check", lang, n=len(ticked), most=most),),
                    tuple(items), selected)


def company_question(ctx, kind, name, domain, filled, values):
    lang = ctx.lang
    title = kind_label(ctx, kind)
    choices = held_by_seller(ctx, [c for c in domain.values if c is not None], filled)
    prompt = t("q." + ("square" if name == "square" else "company"), lang)
    if len(choices) <= FLAT_LIST_MAX:
        items = tuple((company_label(ctx, c, kind), c) for c in choices)
        return Question(name, "list", title, (prompt,), items)
    key = "#sector:" + name
    groups = sectors_of(ctx, choices)
    if key not in values:
        items = tuple((sector_label(ctx, sid), sid) for sid, _ in groups)
        return Question(key, "list", title, (t("q.sector", lang),), items)
    inside = dict(groups).get(values[key], [])
    items = tuple((company_label(ctx, c), c) for c in inside)
    return Question(name, "list", sector_label(ctx, values[key]), (prompt,), items)


def target_question(ctx, kind, name, domain, values):
    """A price change: all companies (ALL), a whole sector, or one company."""
    lang = ctx.lang
    title = kind_label(ctx, kind)
    groups = {group for group, _, _ in ctx.game.groups()}
    sectors = [s for s in domain.values if s in groups]
    companies = [c for c in domain.values if c not in groups and c != "ALL"]
    key = "#sector:" + name
    if key not in values:
        items = tuple((sector_label(ctx, s), s) for s in sectors)
        if "ALL" in domain.values:
            items += ((t("q.all", lang), "#all"),)
        return Question(key, "list", title, (t("q.target", lang),), items)
    if values[key] == "#all":
        return ("auto", "ALL")
    sector = values[key]
    inside = [c for c in dict(sectors_of(ctx, companies)).get(sector, [])]
    items = tuple((company_label(ctx, c), c) for c in inside)
    if sector in domain.values:
        items = ((t("q.whole_sector", lang), sector),) + items
    return Question(name, "list", sector_label(ctx, sector), (t("q.target", lang),), items)


def lots_question(ctx, kind, name, domain, filled):
    lang = ctx.lang
    shares = ctx.game.lot_size
    title = kind_label(ctx, kind)
    if isinstance(domain, Choice):
        values = list(domain.values)
    else:
        hi = domain.hi
        player, company = filled.get("player", filled.get("seller")), filled.get("company")
        if player is not None and company is not None:
            held = ctx.game.holding(player, company)
            if held is not None:
                hi = min(hi, max(held, domain.lo))
        values = list(range(domain.lo, hi + 1, domain.step))
    items = []
    # Zero lots: a speaking round's answer passes, a bidder staying in an auction drops out.
    role = {k: r for r, k in ctx.decision().interaction.roles.items()}.get(kind)
    zero = {Interactions.ANSWER: "q.pass", Interactions.STAY: "q.drop"}.get(role, "q.zero")
    for v in values:
        if v == 0:
            items.append((t(zero, lang), 0))
        else:
            items.append((lots_label(v, shares, lang), v))
    lines = (t("q.lots", lang),)
    if filled.get("company") and has_text("ui.q." + kind + "_lots", lang):
        lines = (t("q." + kind + "_lots", lang, company=filled["company"]),)
    return Question(name, "list", title, lines, tuple(items))


def amount_question(ctx, kind, name, domain, filled, typ=int):
    """An amount asked by its field's type: a price starts from the company's current
    price, a signed change of a count or of prices steps by 1 or 10, money by 10 000s."""
    lang = ctx.lang
    title = kind_label(ctx, kind)
    lo, hi, base = domain.lo, domain.hi, domain.step
    delta = _is(typ, Signed)
    if (hi - lo) // base <= 12 and not delta and not _is(typ, Price):
        items = tuple((str(v), v) for v in range(lo, hi + 1, base))
        return Question(name, "list", title, (field_line(ctx, name),), items)
    skip_zero = delta
    if _is(typ, Price):                       # set_price: start from the current price
        company = filled.get("company")
        start = ctx.game.prices().get(company, lo) if company else lo
        fmt = lambda v: money(v, lang, _prefix(ctx))
        steps = _steps(base, 10, 100, 1000)
        step = 0
        line = t("q.new_price", lang, company=company or "")
    elif _is(typ, (CountDelta, PriceDelta)):
        count = _is(typ, CountDelta)
        unit = 1 if count else 10
        base = max(base, unit)
        start = base
        fmt = (lambda v: format_amount(v, lang, sign=True)) if count else \
            (lambda v: money(v, lang, _prefix(ctx), sign=True))
        steps = _steps(base, base, base * 10)
        step = 0
        target = filled.get("target") or filled.get("company") or ""
        target = target_label(ctx, target) if target else ""
        if count and not target:             # a count held by a player (influence cards)
            target = player_name(ctx, filled.get("player"))
        line = t("q.delta_lots" if count else "q.delta", lang, target=target)
    else:                                     # money: card amounts, corrections, by the game's own sizes
        unit = ctx.game.money_step
        base = max(base, unit // 10) if (unit // 10) % base == 0 else base
        steps = _steps(base, unit, unit * 10, unit * 100)
        step = steps.index(unit) if unit in steps else 0
        start = steps[step] if lo <= steps[step] <= hi or delta else lo
        fmt = (lambda v: money(v, lang, _prefix(ctx), sign=delta))
        own = "q.amount_" + kind           # the kind's own line, else the field's question: never a key
        line = t(own, lang, player=player_name(ctx, filled.get("player"))) if has_text("ui." + own, lang) \
            else field_line(ctx, name)
    start = min(max(start, lo), hi)
    if skip_zero and start == 0:
        start = base
    return Question(name, "amount", title, (line,), lo=lo, hi=hi, start=start, steps=steps, step=step,
                    skip_zero=skip_zero, fmt=fmt)


def field_line(ctx, name) -> str:
    """The question line of a number field asked as a list: the game's own (`q.<prefix><name>`,
    "De combien de cases ?"), the box's (`q.<name>`), or "Quelle valeur ?"."""
    for key in ("q." + _prefix(ctx) + name, "q." + name):
        if has_text("ui." + key, ctx.lang):
            return t(key, ctx.lang)
    return t("q.value", ctx.lang)


def _is(typ, kinds) -> bool:
    """Whether a field's type (Optional already taken off) is one of the action field types `kinds`."""
    return isinstance(typ, type) and issubclass(typ, kinds)


def is_seat(typ):
    return _is(_base(typ), Seat)


def _steps(base, *sizes):
    out = sorted({s for s in sizes if s >= base and s % base == 0} | {base})
    return tuple(out)


def confirm_question(ctx, act) -> Question:
    lines = chance_lines(ctx, act)
    return Question("#ok", "confirm", t("confirm_title", ctx.lang), tuple(lines),
                    (t("yes", ctx.lang), t("no", ctx.lang)), action=act)


def chance_lines(ctx, act) -> list[str]:
    """What an action will do, as the engine previews it (its events, nothing applied),
    in the lines of the game's adapter: a line per company for dice ("DESERT-O grey +3
    200→350"), per player for a payment, a sale's price... An action the engine would
    refuse is shown as what it is: applying it says why."""
    from firmware.games import adapter_of
    try:
        events = ctx.session.preview(act)
    except CorbeilleError:
        return [describe(ctx, act)]
    return adapter_of(ctx.session).confirm_lines(ctx, act, events, describe)
