"""What Richesses du Monde learns at the table (RM13 as amended; engines/core/learning.py).

The smallest box file that plays names the 24 productions and the board's countries with
their continents (docs/rules/richesses.md). The rest is read off the cards when play
reaches it:

- a title (`learn_title`): on a buying square, a card in the stock the box does not know
  yet; its production and country chosen from the lists, its percent and price entered as
  printed. Offered beside the purchase while a production has fewer than 6 titles known;
- a royalty table (`learn_royalties`): the first time a trust whose table is unknown earns
  royalties, play waits on its four bands and amounts (the plaque's back);
- the joker count (`learn_jokers`): the first landing on a joker square, the cards in the
  box's pile.

Each is refused when the box knows it already, or when it breaks what the rulebook
counts: 6 titles a trust whose percents add up to 100 % at most, bands from 30 %.
"""
import dataclasses

from engines.core.decision import Choice, Fixed, IntRange, Items, Option
from engines.core.deeds import Deed
from engines.core.errors import IllegalAction
from engines.core.learning import Learn, finish_learning, remember
from engines.richesses.box import Production, Title
from engines.richesses.rules import CASH_UNIT, MAX_AMOUNT, MAX_JOKERS, ROYALTY_MIN, TITLES_PER_PRODUCTION

BANDS = 4                  # a plaque's table: four bands, from 30 % (the shipped file's shape)


def with_learned(box, learned: tuple):
    """`box` with every learned entry folded in, in the order learned."""
    productions, titles, jokers = dict(box.productions), dict(box.titles), box.jokers
    for entry in learned:
        if entry[0] == "title":
            _, tid, production, country, percent, price = entry
            titles[tid] = Title(tid, production, country, box.countries[country][1], percent, price)
        elif entry[0] == "royalties":
            _, pid, bands, royalties = entry
            productions[pid] = Production(pid, box.productions[pid].name, tuple(bands), tuple(royalties))
        elif entry[0] == "jokers":
            jokers = entry[2]
    return dataclasses.replace(box, productions=productions, titles=titles, jokers=jokers)


def open_productions(box) -> tuple:
    """The productions with fewer than 6 titles known: a card of theirs may be met. Asked
    at every buying decision: counted once per box (a learned title makes a new box)."""
    cached = _OPEN.get(id(box))
    if cached is not None and cached[0] is box:
        return cached[1]
    counts = {p: 0 for p in box.productions}
    for title in box.titles.values():
        counts[title.production] += 1
    found = tuple(p for p, n in counts.items() if n < TITLES_PER_PRODUCTION)
    if len(_OPEN) > 64:
        _OPEN.clear()
    _OPEN[id(box)] = (box, found)
    return found


_OPEN: dict = {}    # id(box) -> (box, its open productions); the box kept, so its id is not reused


def title_option(game, seat, square) -> tuple:
    """On a buying square, while titles are unknown: the card read off the stock, in one of
    the countries the square sells (the country; the continent's; any on a world choice, in
    the productions `seat` holds, the only ones he may buy there)."""
    box = game.box
    productions = open_productions(box)
    if square.kind != "country":
        held = set(game.trusts(seat))
        productions = tuple(p for p in productions if p in held)
    if not productions or square.kind not in ("country", "continental", "world"):
        return ()
    if square.kind == "country":
        countries = (square.country,)
    else:
        countries = tuple(c for c, (_, continent) in box.countries.items()
                          if square.kind == "world" or continent == square.continent)
    countries = tuple(c for c in countries if any(f"{p}-{c}" not in box.titles for p in productions))
    if not countries:
        return ()
    return (Option("learn_title", {"production": Choice(productions), "country": Choice(countries),
                                   "percent": IntRange(1, 100), "price": IntRange(CASH_UNIT, MAX_AMOUNT, CASH_UNIT)}),)


def learn_refusal(game, act):
    """Why a learned entry is refused, in the rulebook's terms, or None."""
    box = game.box
    if act.kind == "learn_title":
        if act.production not in box.productions:
            return IllegalAction("error.rm.unknown_production", production=act.production,
                                 known=", ".join(box.productions))
        if act.country not in box.countries:
            return IllegalAction("error.rm.unknown_country", country=act.country)
        if f"{act.production}-{act.country}" in box.titles:
            return IllegalAction("error.rm.title_known", title=box.title_name(f"{act.production}-{act.country}"))
        held = [t for t in box.titles.values() if t.production == act.production]
        if len(held) >= TITLES_PER_PRODUCTION:
            return IllegalAction("error.rm.trust_known", production=box.production_name(act.production))
        if not 1 <= act.percent <= 100 or sum(t.percent for t in held) + act.percent > 100:
            return IllegalAction("error.rm.learn_percent", percent=act.percent,
                                 most=100 - sum(t.percent for t in held))
        if act.price <= 0 or act.price % CASH_UNIT:
            return IllegalAction("error.rm.learn_price", amount=act.price, step=CASH_UNIT)
    elif act.kind == "learn_royalties":
        if act.production not in box.productions:
            return IllegalAction("error.rm.unknown_production", production=act.production,
                                 known=", ".join(box.productions))
        if box.productions[act.production].bands:
            return IllegalAction("error.rm.royalties_known", production=box.production_name(act.production))
        bands, amounts = list(act.table[0::2]), list(act.table[1::2])
        if (len(bands) != BANDS or bands[0] != ROYALTY_MIN or bands[-1] > 100
                or any(b <= a for a, b in zip(bands, bands[1:]))):
            return IllegalAction("error.rm.learn_bands", bands=" ".join(map(str, bands)), first=ROYALTY_MIN)
        if len(amounts) != BANDS or amounts[0] < CASH_UNIT or any(b < a for a, b in zip(amounts, amounts[1:])):
            return IllegalAction("error.rm.learn_royalties", step=CASH_UNIT)
    elif act.kind == "learn_jokers" and box.jokers is not None:
        return IllegalAction("error.rm.jokers_known", jokers=box.jokers)
    return None


class Learning:
    """The game's part of the mechanic: the options, the Learn step's question, and the
    handlers of what is learned (mixed into the game class)."""

    learn_prefix = "rm"

    def learned_entries(self) -> tuple:
        return self.s.learned

    def vet(self, act):
        return learn_refusal(self, act) if act.kind.startswith("learn_") else super().vet(act)

    def learned_box(self):
        """The box file with what the table learned folded in (`corbeille box learned`)."""
        return self.box

    def learn_option(self, what, key):
        if what == "royalties":
            band, amount = IntRange(ROYALTY_MIN, 100), IntRange(CASH_UNIT, MAX_AMOUNT, CASH_UNIT)
            return Option("learn_royalties", {
                "production": Fixed(key),
                "table": Items((band, amount) * BANDS, labels=tuple(f"{i // 2 + 1}" for i in range(2 * BANDS)))})
        return Option("learn_jokers", {"jokers": IntRange(0, MAX_JOKERS)})

    def learn_params(self, what, key):
        return {"production": key} if key else {}

    def royalties_known(self, lander, production) -> bool:
        """True when the plaque's royalties can be paid; else play waits on its table, the
        first time a holder of 30 % or more is owed (RM2: "un minimum de 30 %")."""
        if self.box.productions[production].bands:
            return True
        if not any(self.share(s, production) >= ROYALTY_MIN for s in self.in_game() if s != lander):
            return True                     # nobody is owed: nothing to read yet
        self.push(Learn("royalties", production))
        return False

    def jokers_known(self) -> bool:
        if self.box.jokers is not None:
            return True
        self.push(Learn("jokers"))
        return False

    def _learned(self, act, entry, what, key=""):
        refused = learn_refusal(self, act)
        if refused:
            raise refused
        remember(self, entry)
        self.emit(f"rm.learned_{what}", **self.learned_params(act))
        finish_learning(self, what, key)

    def learned_params(self, act):
        if act.kind == "learn_title":
            tid = f"{act.production}-{act.country}"
            return {"title": self.box.title_name(tid), "percent": act.percent, "price": act.price}
        if act.kind == "learn_royalties":
            return {"production": self.box.production_name(act.production), "bands": len(act.table) // 2}
        return {"jokers": act.jokers}

    def on_learn_title(self, act):
        tid = f"{act.production}-{act.country}"
        self._learned(act, ("title", tid, act.production, act.country, act.percent, act.price), "title")
        self.s.deeds.items[tid] = Deed(tid, act.price)     # in the stock, to be bought

    def on_learn_royalties(self, act):
        entry = ("royalties", act.production, tuple(act.table[0::2]), tuple(act.table[1::2]))
        self._learned(act, entry, "royalties", act.production)

    def on_learn_jokers(self, act):
        self._learned(act, ("jokers", "", act.jokers), "jokers")
        self.s.joker_stock += act.jokers
