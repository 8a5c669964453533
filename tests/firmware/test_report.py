"""The end-of-game report (firmware/report.py): files, content, determinism.

The chart's lines are drawn by Pillow's line code, whose pixels may shift between
Pillow versions, so the report is checked by what it must contain (colours, legend
text, Markdown rows) and by being identical from one run to the next, not against a
stored image.
"""
import random

from PIL import Image, ImageChops

from engines.maxibourse.box import load_box
from firmware.fonts import FONT
from firmware.report import LINE_COLOURS, SECTOR_COLOURS, write_report

BOX = load_box()
RANKING = [{"rank": 1, "name": "Ana", "fortune": 12_300_000}, {"rank": 2, "name": "Cid", "fortune": 9_870_000},
           {"rank": 2, "name": "Bérénice", "fortune": 9_870_000}, {"rank": 4, "name": "Ben", "fortune": 0}]


def history(steps=40, seed=5):
    rnd = random.Random(seed)
    prices = {c: company.nominal for c, company in BOX.companies.items()}
    out = [dict(prices)]
    for _ in range(steps):
        for c in rnd.sample(sorted(prices), 4):
            prices[c] = max(10, prices[c] + rnd.choice([-100, -50, -20, 10, 20, 50, 100]))
        out.append(dict(prices))
    return out


def contains_text(image, text, colour):
    """Whether ``text`` is drawn somewhere in ``image`` in ``colour``, at the report's 2x size."""
    mask = FONT.mask(text, 2)
    first = next(i for i, v in enumerate(mask.convert("L").tobytes()) if v)   # its first ink pixel
    dx, dy = first % mask.width, first // mask.width
    bands = [band.point(lambda v, c=c: 255 if v == c else 0) for band, c in zip(image.split(), colour)]
    ink = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2]).convert("1")
    pixels = ink.load()
    for y in range(dy, image.height - mask.height + dy + 1):
        for x in range(dx, image.width - mask.width + dx + 1):
            if pixels[x, y]:
                box = (x - dx, y - dy, x - dx + mask.width, y - dy + mask.height)
                if ink.crop(box).tobytes() == mask.tobytes():
                    return True
    return False


def test_writes_chart_standings_and_markdown(tmp_path):
    paths = write_report(tmp_path / "partie", {"title": "Maxi Bourse", "Format": "junior", "Tours": 12},
                         history(), RANKING, box=BOX)
    assert [p.name for p in paths] == ["prices.png", "standings.png", "standings.md"]
    assert all(p.exists() and p.stat().st_size > 0 for p in paths)
    with Image.open(paths[0]) as chart, Image.open(paths[1]) as standings:
        assert chart.mode == "RGB" and chart.width >= 1000
        assert standings.mode == "RGB"
        colours = {colour for _, colour in chart.getcolors(maxcolors=1 << 24)}
    # a panel header per sector (10), in its colour; lines in the company colours
    assert set(SECTOR_COLOURS[:len(BOX.sectors)]) <= colours
    assert set(LINE_COLOURS[:6]) <= colours        # Automobile has six companies


def test_markdown_has_ranking_header_and_prices(tmp_path):
    hist = history()
    md = write_report(tmp_path, {"title": "Maxi Bourse", "Format": "junior"}, hist, RANKING, box=BOX)[2]
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# Maxi Bourse\n")
    assert "- Format : junior" in text                    # French spaces the colon
    english = write_report(tmp_path / "en", {"title": "Maxi Bourse", "Format": "junior"}, hist, RANKING,
                           lang="en", box=BOX)[2]
    assert "- Format: junior" in english.read_text(encoding="utf-8")
    assert "| 1 | Ana | 12 300 000 $ |" in text                    # in the game's money, as the screens say it
    assert "| 2 | Bérénice | 9 870 000 $ |" in text            # ties keep their shared rank
    assert f"| Banques | BARCLAYS | 300 $ | {hist[-1]['BARCLAYS']} $ |" in text
    assert text.count("\n| ") == 2 + len(RANKING) + 2 + len(BOX.companies) - 2   # rows past the headers


def test_english_report(tmp_path):
    text = write_report(tmp_path, "Maxi Bourse", history(3), RANKING, lang="en", box=BOX)[2].read_text()
    assert "## Final standings" in text and "| 1 | Ana | $12,300,000 |" in text
    assert "| Banks | BARCLAYS |" in text
    from engines import game_class
    game_class("shark")                                          # its catalog says its money
    shark = write_report(tmp_path / "shark", "Shark", [{}], RANKING[:1], lang="fr", money_of="sh")[2].read_text()
    assert "| 1 | Ana | 12 300 000 FT |" in shark


def test_the_legend_names_companies_with_their_final_price(tmp_path):
    hist = history(10)
    chart = write_report(tmp_path, "t", hist, RANKING, box=BOX)[0]
    with Image.open(chart) as image:
        part = image.convert("RGB").crop((0, 0, image.width, 280))   # the first row of panels
        assert contains_text(part, f"BARCLAYS {hist[-1]['BARCLAYS']}", (0, 0, 0))


def test_same_game_same_files(tmp_path):
    hist = history()
    first = [p.read_bytes() for p in write_report(tmp_path / "a", "Maxi Bourse", hist, RANKING, box=BOX)]
    second = [p.read_bytes() for p in write_report(tmp_path / "b", "Maxi Bourse", hist, RANKING, box=BOX)]
    assert first == second


def test_degenerate_games_still_give_a_report(tmp_path):
    for i, (hist, ranking, box) in enumerate([
        ([], [], BOX),                                        # closed before any action
        ([{"ELF": 200}], RANKING[:1], BOX),                   # one reading, one company
        ([{"X": 10}, {"X": 10}], RANKING, None),              # flat prices, no box
        (history(5), [{"rank": 1, "name": "Un nom de joueur vraiment très long", "fortune": -5}], None),
    ]):
        paths = write_report(tmp_path / str(i), "", hist, ranking, box=box)
        assert all(p.exists() for p in paths)


def test_fortunes_chart_draws_each_player_and_a_game_without_prices_has_no_price_chart(tmp_path):
    fortunes = [{"Ana": 5100, "Bob": 5100}, {"Ana": 6200, "Bob": 4000}, {"Ana": 3000, "Bob": 8000}]
    paths = write_report(tmp_path / "a", "A Vendre!", [{}, {}, {}], RANKING[:2], fortunes=fortunes)
    assert [p.name for p in paths] == ["fortunes.png", "standings.png", "standings.md"]
    chart = Image.open(paths[0]).convert("RGB")
    assert contains_text(chart, "Ana 3 000", (0, 0, 0)) and contains_text(chart, "Bob 8 000", (0, 0, 0))
    assert chart.getcolors(1 << 20) and any(c == LINE_COLOURS[1] for _, c in chart.getcolors(1 << 20))
    with_prices = write_report(tmp_path / "b", "t", history(2), RANKING, box=BOX, fortunes=fortunes)
    assert [p.name for p in with_prices] == ["fortunes.png", "prices.png", "standings.png", "standings.md"]


def test_a_single_chart_takes_the_whole_width_and_its_legend_is_not_cut(tmp_path):
    """Read on the report of every game: a fortunes chart (one panel) used half the image,
    its legend cut "Dominique 6 550 0…" and its lines squeezed flat; and the price panels'
    title bars ran into each other."""
    fortunes = [{"Dominique": 5_000_000, "Ana": 5_000_000}, {"Dominique": 6_550_000, "Ana": 12_345_000}]
    path = write_report(tmp_path / "a", "t", [{}, {}], RANKING[:2], fortunes=fortunes)[0]
    chart = Image.open(path).convert("RGB")
    assert contains_text(chart, "Dominique 6 550 000", (0, 0, 0)) and contains_text(chart, "Ana 12 345 000", (0, 0, 0))
    first = [(x, y) for x in range(chart.width) for y in range(0, chart.height, 2)
             if chart.getpixel((x, y)) == LINE_COLOURS[0]]
    assert max(x for x, _ in first) > chart.width * 3 // 4                  # across the page
    assert chart.height > 400                                               # not squeezed flat
    prices = Image.open(write_report(tmp_path / "b", "t", history(3), RANKING, box=BOX)[0]).convert("RGB")
    bar = 16 * 2 + 4                                                        # the first row of title bars
    gap = [x for x in range(prices.width) if prices.getpixel((x, bar)) == (255, 255, 255)]
    assert any(600 < x < 800 for x in gap)                                  # white between the two panels
