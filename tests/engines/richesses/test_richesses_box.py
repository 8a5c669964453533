"""The Richesses du Monde box file (RM1, RM7, RM13): 24 productions with their royalty
tables, 144 titles, the board's squares with their plaques; what the rulebook states is
in the shipped file, the rest named placeholders, marked unverified; every mistake named
by file and key, on a desktop with `corbeille box check FILE`."""
import pytest

from cli_helpers import call

from engines.core.errors import BoxFileError
from engines.richesses.box import DEFAULT_BOX, load_box

TEXT = DEFAULT_BOX.read_text(encoding="utf-8")


def box_check(*args):
    """`corbeille box check` in this process (tests/core/test_smallest_box_files.py runs the real one)."""
    return call("box", "check", *args)


def test_the_shipped_box_holds_what_the_rulebook_states():
    """"Il y a 24 productions" "144 titres d'exploitation (6 par trust-monopoles)" "48 petites
    plaquettes rectangulaires Royalties, soit 2 par production" and the special squares:
    "CHOIX CONTINENTAL (Amérique : 2; Europe : 2; Asie : 1; Afrique : 1)", "CHOIX MONDIAL (2
    cases)", "ENCHÈRES (4 cases)", "JOKER (3 cases)", "ACTUALITÉ (6 cases)", "500.000 (8 cases)"."""
    box = load_box()
    assert box.verified is False
    assert len(box.productions) == 24 and len(box.titles) == 144 and len(box.plaque_squares()) == 48
    kinds = [sq.kind for sq in box.squares]
    assert {k: kinds.count(k) for k in set(kinds) - {"country"}} == \
        {"continental": 6, "world": 2, "auction": 4, "joker": 3, "news": 6, "bonus": 8}
    assert sorted(sq.continent for sq in box.squares if sq.kind == "continental") == \
        ["AFRIQUE", "AMERIQUE", "AMERIQUE", "ASIE", "EUROPE", "EUROPE"]
    assert not any(sq.plaque for sq in box.squares if sq.kind == "world")
    # "ALUMINIUM / SCANDINAVIE : Norvège / 5 % / ... 500 000"
    title = box.titles["ALUMINIUM-SCANDINAVIE"]
    assert (title.percent, title.price, box.countries["SCANDINAVIE"][0]) == (5, 500_000, "Scandinavie : Norvège")
    aluminium = box.productions["ALUMINIUM"]
    assert (aluminium.royalty(29), aluminium.royalty(30), aluminium.royalty(49), aluminium.royalty(50)) == \
        (0, 900_000, 900_000, 4_500_000)
    assert box.productions["ARGENT"].royalty(60) == 3_500_000
    assert "PRODUCTION-05" in box.productions and "EUROPE-3" in box.countries      # named placeholders


@pytest.mark.parametrize("change, where, words", [
    ('percent = 35\n', "titles[", "is not an int"),
    ('continent = "AMERIQUE"\n', "countries[", "is not allowed"),
    ('kind = "world"\nplaque = false', "squares", "world square"),
    ('jokers = 10 ', "jokers", "below the minimum"),   # left out, the pile is counted at the table
])
def test_mistakes_are_named_by_file_and_key(tmp_path, change, where, words):
    text = TEXT
    if change.startswith("percent"):
        text = text.replace("percent = 35\n", 'percent = "35"\n', 1)
    elif change.startswith("continent"):
        text = text.replace('continent = "AMERIQUE"\n', 'continent = "ATLANTIDE"\n', 1)
    elif change.startswith("kind"):
        text = text.replace('kind = "world"\nplaque = false', 'kind = "world"\nplaque = true', 1)
    else:
        text = text.replace("jokers = 10 ", "jokers = -1 ", 1)
    assert text != TEXT
    path = tmp_path / "mybox.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoxFileError) as error:
        load_box(path)
    assert str(error.value).startswith(f"{path}: {where}") and words in str(error.value), str(error.value)


def test_the_rulebooks_counts_are_checked(tmp_path):
    path = tmp_path / "mybox.toml"
    path.write_text(TEXT.replace('kind = "auction"', 'kind = "joker"', 1), encoding="utf-8")
    with pytest.raises(BoxFileError, match=r"squares: 3 auction squares; the rulebook has 4 \(or leave \[\[squares\]\] out"):
        load_box(path)
    path.write_text(TEXT.replace('production = "RIZ"', 'production = "PLOMB"', 1), encoding="utf-8")
    with pytest.raises(BoxFileError, match="already has a title in|has 7 titles"):
        load_box(path)


def test_box_check_validates_an_owners_file_on_a_desktop(tmp_path):
    done = box_check(DEFAULT_BOX, "--game", "richesses")
    assert done.returncode == 0, done.stderr
    assert "known: 24 productions, 34 countries, 144 titles, 24 royalty tables, 63 squares, 10 jokers" in done.stdout
    assert "learned at the table: nothing\nmissing for the game to start: nothing\n" in done.stdout
    assert "ALUMINIUM (Aluminium): royalties 30 %: 900,000 F, 50 %: 4,500,000 F" in done.stdout   # in its money
    path = tmp_path / "mine.toml"
    path.write_text(TEXT.replace('price = 500_000\n', 'price = -1\n', 1), encoding="utf-8")
    done = box_check(path, "--game", "richesses")
    assert done.returncode == 1 and "price: -1 is below the minimum 1" in done.stderr, done.stderr


# ------------------------------------------------------- without the square order (RM8)
def without_squares(text=TEXT):
    """The shipped file with its [[squares]] left out, as an owner who has not copied his
    board's order writes it."""
    head, _, _ = text.partition("[[squares]]")
    return head


def test_a_box_file_without_the_square_order_is_checked_and_played_by_the_operator(tmp_path):
    """RM8: "the box counts [the world tour] from the dice when the box file has the square
    order, else the operator answers once per player": the squares may be left out; the
    productions, titles and countries are checked as with the order."""
    path = tmp_path / "noorder.toml"
    path.write_text(without_squares(), encoding="utf-8")
    box = load_box(path)
    assert not box.ordered and box.squares == () and len(box.titles) == 144 and len(box.productions) == 24
    assert load_box().ordered
    assert box.place("CANADA").kind == "country" and box.place("CONTINENTAL-ASIE").continent == "ASIE"
    assert box.place("CONTINENTAL-OCEANIE") is None and box.place("ATLANTIDE") is None   # no such square
    assert box.place("WORLD").plaque is False and box.place("BONUS").plaque is True      # RM7
    done = box_check(path, "--game", "richesses")
    assert done.returncode == 0, done.stderr
    assert "known: 24 productions, 34 countries, 144 titles, 24 royalty tables, 10 jokers\n" in done.stdout
    assert "no square order; the operator says where each pawn lands" in done.stdout


@pytest.mark.parametrize("old, new, where, words", [
    ('percent = 35\n', 'percent = "35"\n', "titles[", "is not an int"),
    ('production = "RIZ"', 'production = "RIS"', "titles[", "'RIS' is no production"),
    ('id = "CANADA"', 'id = "JOKER"', "countries[", "names a special square"),
    ('bands = [30, 50, 70, 90]', 'bands = [20, 50, 70, 90]', "productions[", "the first band starts at 30"),
])
def test_mistakes_without_the_square_order_are_named_by_file_and_key(tmp_path, old, new, where, words):
    text = without_squares().replace(old, new, 1)
    assert text != without_squares()
    path = tmp_path / "noorder.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoxFileError) as error:
        load_box(path)
    assert str(error.value).startswith(f"{path}: {where}") and words in str(error.value), str(error.value)
    done = box_check(path, "--game", "richesses")
    assert done.returncode == 1 and where in done.stderr and words in done.stderr, done.stderr


def test_every_square_of_the_board_is_named_by_the_word_a_landing_gives_it():
    # `word` is `place`'s inverse: each landing word names a square that gives the word back,
    # and every square of the ordered board has the word of the same kind and place.
    box = load_box()
    for word in box.places():
        assert box.word(box.place(word)) == word
    for square in box.squares:
        found = box.place(box.word(square))
        assert (found.kind, found.country, found.continent) == (square.kind, square.country, square.continent)


def test_box_check_of_the_smallest_file_says_what_the_table_will_learn(tmp_path):
    """RM13 as amended: the productions' names and the countries with their continents are
    enough to start; `box check` says what will be read off the cards at the table, and a
    file without them is refused naming the key."""
    from engines.richesses.box_toml import dump
    path = tmp_path / "smallest.toml"
    path.write_text(dump(load_box(), keep=("productions", "countries")), encoding="utf-8")
    done = box_check(path, "--game", "richesses")
    assert done.returncode == 0, done.stderr
    assert "known: 24 productions, 34 countries\n" in done.stdout
    assert "learned at the table: 144 titles, 24 royalty tables, the joker count\n" in done.stdout
    assert "missing for the game to start: nothing\n" in done.stdout
    path.write_text(dump(load_box(), keep=("productions",)), encoding="utf-8")
    done = box_check(path, "--game", "richesses")
    assert done.returncode == 1 and "countries: missing" in done.stderr, done.stderr
    assert done.stderr.endswith("missing for the game to start: countries\n")
