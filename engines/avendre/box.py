"""The A Vendre! box file: the 60 squares of the board (colour, title) and the 43 titles
(shop or establishment, PA, R) (rulings AV1, AV15). Every schema error names the key."""
from pathlib import Path

from engines.core.boxfile import Key, Reader, Table, Tables, check, load_toml
from engines.avendre.rules import COLOURS, ESTABLISHMENT, GOAL, MAX_AMOUNT, SHOP, SQUARES, TITLES
from engines.core.i18n import money, text
from engines.core.records import record

DEFAULT_BOX = Path(__file__).parent / "box" / "avendre.toml"

# The file's schema; load_box then checks what a schema cannot say (43 titles numbered
# 1-43, 60 squares with the goal last, a blue square on a shop, a red one on an
# establishment, a shop with a PA and an establishment without).
# Bounds: a title per square at most (AV1's 60), and a PA or an R the box's amounts reach
# (MAX_AMOUNT, the top of a bid: a shop is auctioned from half its PA, AV11).
SCHEMA = Table({
    "verified": Key(bool, False),
    "titles": Tables(Table({"number": Key(int, minimum=1, maximum=SQUARES), "name": Key(str),
                            "kind": Key(str, allowed=(SHOP, ESTABLISHMENT)),
                            "pa": Key(int, 0, minimum=0, maximum=MAX_AMOUNT),
                            "r": Key(int, minimum=0, maximum=MAX_AMOUNT)})),
    "squares": Tables(Table({"colour": Key(str, allowed=COLOURS + (GOAL,)),
                             "title": Key(int, 0, minimum=0, maximum=SQUARES)})),
})


@record(frozen=True)
class Title:
    number: int
    name: str
    kind: str          # SHOP or ESTABLISHMENT
    pa: int            # the purchase price; 0 for an establishment ("ne représentent donc pas de valeur")
    r: int             # the income


@record(frozen=True)
class Square:
    colour: str        # yellow, green, blue, red; goal for square 60
    title: int         # the title on a blue or red square, 0 otherwise


@record(frozen=True)
class Box:
    path: str
    verified: bool
    titles: dict       # number -> Title, in number order
    squares: tuple     # Square of squares 1..60 (index 0 is square 1)

    def square(self, number: int) -> Square:
        return self.squares[number - 1]

    def shops(self) -> tuple:
        return tuple(n for n, t in self.titles.items() if t.kind == SHOP)

    def establishments(self) -> tuple:
        return tuple(n for n, t in self.titles.items() if t.kind == ESTABLISHMENT)

    def squares_of(self, colour: str) -> tuple:
        return tuple(i for i, sq in enumerate(self.squares, 1) if sq.colour == colour)


def load_box(path: Path | str | None = None) -> Box:
    path = Path(path or DEFAULT_BOX)
    top = Reader(path, load_toml(path))
    check(top, SCHEMA)
    titles = {}
    for item in top.tables("titles"):
        number = item.get("number", int)
        if number in titles:
            item.refuse("number", "av.twice", number=str(number))
        if number > TITLES:
            item.refuse("number", "av.numbered", number=str(number), titles=str(TITLES))
        kind, pa = item.get("kind", str), item.get("pa", int, 0)
        if kind == SHOP and pa <= 0:
            item.refuse("pa", "av.shop_pa")
        if kind == ESTABLISHMENT and pa:
            item.refuse("pa", "av.establishment_pa", pa=str(pa))
        titles[number] = Title(number, item.get("name", str), kind, pa, item.get("r", int))
    if len(titles) != TITLES:
        top.refuse("titles", "av.titles", count=str(len(titles)), titles=str(TITLES))
    titles = dict(sorted(titles.items()))
    squares, seen = [], {}
    items = top.tables("squares")
    if len(items) != SQUARES:
        top.refuse("squares", "av.squares", count=str(len(items)), squares=str(SQUARES))
    for number, item in enumerate(items, 1):
        colour, title = item.get("colour", str), item.get("title", int, 0)
        if (colour == GOAL) != (number == SQUARES):
            item.refuse("colour", "av.goal", colour=repr(colour), number=str(number), squares=str(SQUARES))
        if colour in ("blue", "red"):
            want = SHOP if colour == "blue" else ESTABLISHMENT
            if title not in titles or titles[title].kind != want:
                item.refuse("title", "av.square_" + want, title=str(title), colour=colour, number=str(number),
                            allowed=", ".join(str(n) for n, t in titles.items() if t.kind == want))
            if title in seen:
                item.refuse("title", "av.title_twice", title=str(title), number=str(seen[title]))
            seen[title] = number
        elif title:
            item.refuse("title", "av.no_title", title=str(title), colour=colour, number=str(number))
        squares.append(Square(colour, title))
    return Box(path=str(path), verified=top.get("verified", bool, default=False), titles=titles,
               squares=tuple(squares))


def counts(box: Box) -> tuple[list, list]:
    """What the file holds and what the table will learn (nothing: a board-less game needs
    no file), as (catalog key, count) pairs (`corbeille box check`)."""
    return [("box.av.count.titles", len(box.titles)), ("box.av.count.squares", len(box.squares))], []


def holdings(box: Box, lang: str = "en") -> list[str]:
    """What the box file holds, in words (`corbeille box check`)."""
    shops, establishments = box.shops(), box.establishments()
    lines = [text("box.av.holds", lang, titles=str(len(box.titles)), shops=str(len(shops)),
                  establishments=str(len(establishments)))]
    for t in box.titles.values():
        pa, r = money(t.pa, lang, "av"), money(t.r, lang, "av")
        lines.append(f"  {t.number} {t.name}: " + (f"PA {pa}, R {r}" if t.kind == SHOP else f"R {r}"))
    lines.append(text("box.av.holds_squares", lang, squares=str(len(box.squares))))
    row = []
    for number, sq in enumerate(box.squares, 1):
        row.append(f"{number} {sq.colour}" + (f" {sq.title}" if sq.title else ""))
        if len(row) == 6:
            lines.append("  " + ", ".join(row))
            row = []
    if row:
        lines.append("  " + ", ".join(row))
    return lines
