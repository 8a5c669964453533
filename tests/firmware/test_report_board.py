"""The end-of-game report on the quotation board (firmware.report.board_pages, shown by the
app once a game is over), drawn with the report's own chart code: the fortunes chart and,
for a game with a market, the prices chart on the 800x480 board; a player's fortune a page
on a small board. The report folder is still written.

As in tests/firmware/test_report.py, the charts' lines come from Pillow's line code, so pages are
checked by what they must show (texts, ink only on a 1-bit board, their number and order),
not against stored images."""
import math

import pytest
from PIL import Image, ImageDraw

from drivers.display import PngDisplay
from e2e_box import E2EBox, journal_script
from engines.maxibourse.box import load_box
from firmware.fonts import FONT
from firmware.report import DASHES, PER_PAGE, Layout, _polyline, _swatch, board_pages

BOX = load_box()
FORTUNES = [{"Ana": 5_000_000, "Ben": 5_000_000, "Cid": 5_000_000},
            {"Ana": 6_200_000, "Ben": 4_000_000, "Cid": 5_100_000},
            {"Ana": 3_000_000, "Ben": 8_000_000, "Cid": 5_500_000}]
PRICES = [{c: co.nominal for c, co in BOX.companies.items()},
          {c: co.nominal + 10 for c, co in BOX.companies.items()},
          {c: co.nominal + 30 for c, co in BOX.companies.items()}]


def shows(image, text, ink, scale):
    """Whether ``text`` is drawn in ``image`` (mode "1" or "L") in the colour ``ink``: its
    mask found at some place, pixel for pixel (each row of the image searched for the mask's
    first inked row, the other rows compared where it is found)."""
    mask = FONT.mask(text, scale).convert("1").convert("L")
    grey = image.convert("L").point(lambda v: 255 if v == ink else 0).tobytes()
    width, mw, mh = image.width, mask.width, mask.height
    rows = [mask.tobytes()[r * mw:(r + 1) * mw] for r in range(mh)]
    key = next(r for r, row in enumerate(rows) if any(row))
    for y in range(image.height - mh + 1):
        line = grey[(y + key) * width:(y + key + 1) * width]
        x = line.find(rows[key])
        while x != -1:
            if all(grey[(y + r) * width + x:(y + r) * width + x + mw] == rows[r] for r in range(mh)):
                return True
            x = line.find(rows[key], x + 1)
    return False


def test_the_800x480_board_shows_the_fortunes_then_the_prices_a_few_sectors_a_page():
    pages = board_pages((800, 480), "1", "fr", PRICES, FORTUNES, box=BOX)
    assert len(pages) == 1 + math.ceil(len(BOX.sectors) / PER_PAGE)
    assert all(p.size == (800, 480) and p.mode == "1" for p in pages)
    fortunes = pages[0]
    assert shows(fortunes, "Fortunes au fil de la partie", 255, 2)       # the panel's title, on its bar
    for name, amount in (("Ana", "3 000 000"), ("Ben", "8 000 000"), ("Cid", "5 500 000")):
        assert shows(fortunes, f"{name} {amount}", 0, 2)                 # the legend: who, and where they ended
    assert shows(pages[1], "Banques", 255, 2) and shows(pages[1], "BARCLAYS 330", 0, 2)
    assert shows(pages[-1], "Travaux publics", 255, 2)
    assert fortunes.getpixel((799, 479)) == 255                          # e-ink: dark on light paper


def test_a_one_ink_board_tells_the_lines_apart_by_their_dashes():
    """On a 1-bit board every line is black: each player's line (and its legend stroke, as
    long as _swatch) has its own dashes, and no two read alike within a legend's stroke."""
    page = board_pages((800, 480), "1", "fr", [], FORTUNES)[0]
    assert set(page.convert("L").tobytes()) <= {0, 255}
    stroke = _swatch(Layout(scale=2, mono=True))
    drawn = []
    for dash in DASHES:
        image = Image.new("1", (stroke + 1, 3), 1)
        _polyline(ImageDraw.Draw(image), [(0, 1), (stroke, 1)], 0, 1, dash)
        drawn.append(image.crop((0, 1, stroke + 1, 2)).tobytes())
    assert len(set(drawn)) == len(DASHES)
    assert drawn[0] == Image.new("1", (stroke + 1, 1), 0).tobytes()      # the first player's is solid


def test_a_colour_board_gets_the_reports_colours_and_a_game_without_prices_only_its_fortunes():
    pages = board_pages((800, 480), "RGB", "en", [{}, {}, {}], FORTUNES)
    assert len(pages) == 1 and pages[0].mode == "RGB"
    colours = {c for _, c in pages[0].getcolors(1 << 20)}
    assert (0, 114, 178) in colours and (213, 94, 0) in colours           # the report's line colours
    assert shows(pages[0], "Ana 3,000,000", 0, 2)                          # in English: its amounts too


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_a_small_board_shows_one_players_fortune_a_page(size):
    pages = board_pages(size, "1", "fr", PRICES, FORTUNES, box=BOX)
    assert len(pages) == 3 and all(p.size == size for p in pages)
    # an OLED lights its text: the page's title bar is lit, the name and final fortune dark on it
    assert shows(pages[0], "Ana 3 000 000", 0, 1) and shows(pages[1], "Ben 8 000 000", 0, 1)
    assert pages[0].getpixel((size[0] - 1, size[1] - 1)) == 0             # light on dark
    # the same scale on every page: Ben's line ends higher than Ana's
    def last_ink_row(page):
        column = page.crop((size[0] - 4, 16, size[0] - 3, size[1]))   # under the title bar
        return min(y for y, v in enumerate(column.convert("L").tobytes()) if v)
    assert last_ink_row(pages[1]) < last_ink_row(pages[0])


# ------------------------------------------------------------------ on the box
def pixels(image):
    return image.convert("L").tobytes()


def test_when_the_game_ends_the_board_shows_the_report_before_the_final_board(tmp_path):
    journal_script(tmp_path, "\n".join([
        "game maxibourse", "format junior", "players Rouge Bleu", "seed 1",
        *[f"pick {p} {c}" for p, c in zip(["Rouge", "Bleu"] * 5,
                                          ["BARCLAYS", "CHASE", "BP", "ELF", "LEYLAND", "FIAT", "BSN", "COCA-COLA",
                                           "COLGATE", "LOREAL"])],
        "first Rouge", "roll 1 2", "price ELF +30", "close"]))
    board = PngDisplay((800, 480), "1", name="board", keep=20)
    box = E2EBox(tmp_path, seats=2, board=board)
    try:
        assert box.c.session.over and box.screen.kind == "ranking"
        report = box.app.board_pages.report
        assert len(report) == 1 + math.ceil(len(BOX.sectors) / PER_PAGE)
        assert box.app.board_pages.pages == len(report) + 1                             # then the game's own final board
        assert pixels(board.last_frame) == pixels(report[0])                   # the fortunes first
        assert shows(board.last_frame, "Rouge", 0, 2)
        # the pages turn at the report's pace, and come back to the fortunes after the game's board
        box.app.pump()                                   # the first tick sets the page clock
        seen = [pixels(board.last_frame)]
        for _ in range(box.app.board_pages.pages):
            box.clock.advance(box.app.board_pages.report_page_s + 0.1)
            box.app.pump()
            seen.append(pixels(board.last_frame))
        assert seen[1] == pixels(report[1]) and seen[-1] == pixels(report[0])
        assert len(set(seen)) == box.app.board_pages.pages
        folder = tmp_path / "state" / "reports" / f"game-{box.c.session.game_id}"
        assert sorted(p.name for p in folder.iterdir()) == ["fortunes.png", "prices.png", "standings.md",
                                                           "standings.png"]
    finally:
        box.close()


def test_while_the_game_is_played_the_board_shows_no_report(tmp_path):
    board = PngDisplay((800, 480), "1", name="board", keep=5)
    box = E2EBox(tmp_path, board=board)
    try:
        box.choose("Maxi Bourse").choose("Junior").choose("3 joueurs").choose("Couleurs").choose("2 tour")
        box.choose("Continuer").choose("Jouer")
        assert not box.c.session.over and box.app.board_pages.report == [] and box.app.board_pages.pages == 1
    finally:
        box.close()
