"""The Shark box file (SH11): the map's grid as rows of zone digits, checked with errors
naming the file and the key; the shipped grid is a template marked unverified; without a
grid (`grid = "none"`) the game needs no box file at all."""
import pytest

from cli_helpers import call

from engines.core.errors import BoxFileError
from engines.shark.box import DEFAULT_BOX, load_box
from engines.shark.game import Shark

TEMPLATE = DEFAULT_BOX.read_text(encoding="utf-8")


def write(tmp_path, text):
    path = tmp_path / "mybox.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_grid_has_6_zones_of_20_cells_and_is_unverified():
    """"La mappemonde est divisée en 6 zones (numérotées de 1 à 6). [...] Chaque zone comprend
    20 petites cases.\""""
    box = load_box()
    assert box.verified is False and box.size == (10, 12)
    assert [len(box.cells_of(z)) for z in range(1, 7)] == [20] * 6


@pytest.mark.parametrize("change, key, words", [
    (('  "111122223333",\n  "444455556666",\n  "444455556666",\n  "444455556666",\n  "444455556666",\n  "444455556666",',
      '  "111122223333",\n  "44445555666",\n  "444455556666",\n  "444455556666",\n  "444455556666",\n  "444455556666",'),
     "grid.rows[5]", "11 cells; every row must have as many as the first (12)"),
    (('"444455556666",\n]', '"444455556667",\n]'), "grid.rows[9]", "'7' at L10 is not a zone; allowed: 1 to 6"),
    (('"444455556666",\n]', '"444455556661",\n]'), "grid.rows", "zone 1 has 21 cells; the rulebook's zones have 20 each"),
    (("[grid]", "[grids]"), "grids", "unknown key; known keys: grid, verified"),
])
def test_a_wrong_grid_is_refused_naming_the_file_and_the_key(tmp_path, change, key, words):
    old, new = change
    assert old in TEMPLATE
    path = write(tmp_path, TEMPLATE.replace(old, new, 1))
    with pytest.raises(BoxFileError) as refused:
        load_box(path)
    assert str(refused.value).startswith(f"{path}: {key}: ") and words in str(refused.value), str(refused.value)


def grid_file(tmp_path, rows):
    return write(tmp_path, "verified = false\n[grid]\nrows = [" + ", ".join(f'"{r}"' for r in rows) + "]\n")


def test_off_map_squares_are_allowed_and_are_no_cells(tmp_path):
    rows = [line.strip().strip('",') for line in TEMPLATE.splitlines() if line.startswith('  "')]
    box = load_box(grid_file(tmp_path, [r + "." for r in rows]))
    assert box.size == (10, 13) and (0, 12) in box.holes and (0, 12) not in box.zones


def test_rows_that_are_not_strings_are_refused(tmp_path):
    with pytest.raises(BoxFileError, match=r"mybox.toml: grid.rows: 3 is not a list"):
        load_box(write(tmp_path, "[grid]\nrows = 3\n"))
    with pytest.raises(BoxFileError, match=r"mybox.toml: grid.rows\[0\]: 12 is not a string of zone digits"):
        load_box(write(tmp_path, "[grid]\nrows = [12]\n"))


def test_box_check_says_what_a_shark_file_holds(tmp_path):
    done = call("box", "check", DEFAULT_BOX, "--game", "shark")
    assert done.returncode == 0, done.stderr
    assert "world map of 10 rows x 12 columns (A1 top left), 120 cells in 6 zones:" in done.stdout
    assert "   1 111122223333" in done.stdout and "verified = false" in done.stdout
    bad = write(tmp_path, TEMPLATE.replace('"444455556666",\n]', '"444455556667",\n]'))
    done = call("box", "check", bad, "--game", "shark")
    assert done.returncode == 1 and done.stderr.startswith(f"corbeille: {bad}: grid.rows[9]: ")


def test_without_a_grid_no_box_file_is_read():
    """SH11: "Sans grille" the operator enters the values; a missing box file is no matter."""
    game = Shark({"game": "shark", "players": ["A", "B"], "seed": 1, "settings": {"grid": "none"},
                  "box": "/nonexistent/shark.toml"})
    assert game.grid is None and game.snapshot()["map"] is None
    with pytest.raises(BoxFileError):
        Shark({"game": "shark", "players": ["A", "B"], "seed": 1, "settings": {}, "box": "/nonexistent/shark.toml"})
