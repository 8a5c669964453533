"""A Vendre!'s box file (AV1, AV15): the 60 squares and the 43 titles, checked against the
schema with errors naming the file and the key, shipped as an unverified template, and
validated by `corbeille box check FILE --game avendre`, which prints what it holds."""
import re

import pytest

from cli_helpers import call

from engines.avendre.box import DEFAULT_BOX, load_box
from engines.core.errors import BoxFileError

TEXT = DEFAULT_BOX.read_text(encoding="utf-8")


def box_check(*args):
    """`corbeille box check` in this process (tests/core/test_smallest_box_files.py runs the real one)."""
    return call("box", "check", *args)


def test_the_template_has_60_squares_and_43_titles_and_is_unverified():
    """"43 titres de propriété portant les noms des commerces ou des différents
    établissements"; the board's 60 squares (AV1); the rulebook gives no values (AV15)."""
    box = load_box()
    assert len(box.titles) == 43 and list(box.titles) == list(range(1, 44)) and len(box.squares) == 60
    assert box.squares[-1].colour == "goal" and box.verified is False
    for sq in box.squares:
        if sq.colour == "blue":
            assert box.titles[sq.title].kind == "shop" and box.titles[sq.title].pa > 0
        if sq.colour == "red":
            assert box.titles[sq.title].kind == "establishment" and box.titles[sq.title].pa == 0


def nth(text, needle, n, replacement):
    """`text` with the n-th (0-based) occurrence of `needle` replaced."""
    spans = [m.start() for m in re.finditer(re.escape(needle), text)]
    i = spans[n]
    return text[:i] + replacement + text[i + len(needle):]


@pytest.mark.parametrize("edit, where, words", [
    (lambda t: t.replace('colour = "goal"', 'colour = "yellow"'), "squares[59].colour",
     "square 60 and only it is the goal"),
    (lambda t: nth(t, 'colour = "blue"\ntitle = 1\n', 0, 'colour = "blue"\ntitle = 31\n'), "squares[0].title",
     "a blue square (square 1) names one of the shops"),
    (lambda t: nth(t, 'colour = "yellow"', 0, 'colour = "pink"'), "squares[3].colour",
     "'pink' is not allowed; allowed: yellow, green, blue, red, goal"),
    (lambda t: t.replace('kind = "shop"\npa = 550\n', 'kind = "shop"\n', 1), "titles[0].pa",
     "a shop needs its purchase price (PA)"),
    (lambda t: t.replace("number = 43\n", "number = 42\n"), "titles[42].number", "42 appears twice"),
    (lambda t: t.rsplit("[[squares]]", 1)[0], "squares", "59 defined; the board has 60 squares"),
])
def test_errors_name_the_file_and_the_dotted_key(tmp_path, edit, where, words):
    path = tmp_path / "mybox.toml"
    path.write_text(edit(TEXT), encoding="utf-8")
    with pytest.raises(BoxFileError) as refused:
        load_box(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: {where}: ") and words in message, message
    done = box_check(path, "--game", "avendre")
    assert done.returncode == 1 and done.stderr.startswith(f"corbeille: {path}: {where}: "), done.stderr


def test_box_check_says_what_an_owners_file_holds(tmp_path):
    path = tmp_path / "my-copy.toml"
    path.write_text(TEXT.replace("verified = false", "verified = true"), encoding="utf-8")
    done = box_check(path, "--game", "avendre")
    assert done.returncode == 0, done.stderr
    assert "43 titles: 30 shops (PA, R) and 13 establishments (R):" in done.stdout
    assert "  1 Boulangerie: PA 550.—, R 70.—" in done.stdout and "  60 squares:" not in done.stdout
    assert "  55 blue 28, 56 yellow, 57 blue 29, 58 blue 30, 59 green, 60 goal" in done.stdout
