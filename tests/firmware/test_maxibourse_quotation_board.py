"""The Maxi Bourse quotation board (firmware/games/maxibourse_board.py): reference images per display, and privacy.

References live in tests/reference/render/ (see tests/firmware/test_render.py for how to
regenerate them: CORBEILLE_UPDATE_REFERENCES=1). The boards are drawn from a snapshot
written here rather than from a played game, so a change in the rules engine cannot
move these pixels; one test renders a real engine snapshot too.
"""
import pytest

from engines.maxibourse.box import load_box
from firmware.games.base import ranking_lines
from firmware.games.maxibourse_board import board_pages, payday_lines, render_board
from firmware.render import render_screen
from firmware.screen import Screen
from maxibourse_helpers import give, play, started
from test_render import assert_matches_reference

BOX = load_box()
PUBLIC_KEYS = {"companies", "round", "turn", "phase"}


class Poison:
    """A private value: any use of it (formatting, arithmetic, comparison...) fails."""

    def __init__(self, what):
        object.__setattr__(self, "what", what)

    def _read(self, *args, **kwargs):
        raise AssertionError(f"the public board read private data: {object.__getattribute__(self, 'what')}")

    __str__ = __repr__ = __format__ = __int__ = __index__ = __float__ = __bool__ = _read
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _read
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __neg__ = __abs__ = _read
    __iter__ = __len__ = __getitem__ = __contains__ = __getattr__ = _read


class RecordingSnapshot(dict):
    """A snapshot that notes which top-level keys are read and refuses bulk reads."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)

    def _bulk(self, *args):
        raise AssertionError("the board must read named public keys, not the whole snapshot")

    __iter__ = keys = values = items = copy = _bulk


def board_snapshot(poisoned=False, **overrides):
    """A mid-game snapshot with every kind of row: rises, falls, unchanged, 4-digit
    prices, empty and full bank, a long name."""
    changes = [20, -10, 0, 100, -100, 50, 0, 1500, -30, 10]
    companies = {}
    for i, (cid, company) in enumerate(BOX.companies.items()):
        change = changes[i % len(changes)]
        companies[cid] = {"price": max(10, company.nominal + change + (1000 if change == 1500 else 0)),
                          "bank_lots": (i * 7) % 11, "sector": company.sector, "last_change": change}
    secret = Poison if poisoned else (lambda what: 123_456_789)
    players = [{"name": n, "cash": secret(f"{n}'s cash"), "lots": secret(f"{n}'s lots"),
                "wealth": secret(f"{n}'s wealth"), "status": "playing", "skip_turns": 0, "rumours": secret("rumours")}
               for n in ("Ana", "Ben", "Cid")]
    snap = {"game": "maxibourse", "format": "junior", "box_verified": False, "round": 3, "turn": "Ben",
            "phase": "Turn", "players": players, "companies": companies,
            "pending": secret("the pending decision (lists a seller's holdings)"),
            "last_payday": secret("the last payday (reveals portfolios)"), "actions": 57}
    snap.update(overrides)
    return snap


def test_page_counts():
    assert board_pages(BOX, (128, 64)) == len(BOX.sectors) == 10    # a sector a page
    assert board_pages(BOX, (256, 64)) == 5                          # two sectors a page
    assert board_pages(BOX, (800, 480)) == 1                         # all 40 at once
    assert board_pages(BOX, (400, 300)) == 1


@pytest.mark.parametrize("page", range(10))
def test_board_128x64_pages(page):
    image = render_board(board_snapshot(), BOX, (128, 64), "1", page=page)
    assert image.size == (128, 64) and image.mode == "1"
    assert_matches_reference(image, f"board_128x64_p{page}")


@pytest.mark.parametrize("page", range(5))
def test_board_256x64_greyscale_pages(page):
    image = render_board(board_snapshot(), BOX, (256, 64), "L", page=page)
    assert image.size == (256, 64) and image.mode == "L"
    assert_matches_reference(image, f"board_256x64_L_p{page}")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_board_800x480_eink_shows_everything(lang):
    image = render_board(board_snapshot(), BOX, (800, 480), "1", lang=lang)
    assert image.size == (800, 480) and image.mode == "1"
    assert image.getpixel((799, 479)) == 255            # paper white: the e-ink convention
    assert_matches_reference(image, f"board_800x480_{lang}")


def test_board_english_page_and_market_closed():
    assert_matches_reference(render_board(board_snapshot(), BOX, (128, 64), "1", lang="en", page=2),
                             "board_128x64_en_p2")
    closed = board_snapshot(phase="Over", turn=None)
    assert_matches_reference(render_board(closed, BOX, (400, 300), "1", lang="en"), "board_400x300_en_closed")


def test_page_number_wraps_around():
    snap = board_snapshot()
    assert render_board(snap, BOX, (128, 64), page=10).tobytes() == render_board(snap, BOX, (128, 64), page=0).tobytes()


@pytest.mark.parametrize("size,mode", [((128, 64), "1"), ((256, 64), "L"), ((800, 480), "1"), ((400, 300), "1")])
def test_the_board_reads_only_public_data(size, mode):
    snap = RecordingSnapshot(board_snapshot(poisoned=True))
    for page in range(board_pages(BOX, size)):
        render_board(snap, BOX, size, mode, page=page)
    assert snap.read <= PUBLIC_KEYS, snap.read - PUBLIC_KEYS


def test_a_real_engine_snapshot_renders_and_stays_private():
    game = started(["Ana", "Ben", "Cid"])
    play(game, 'set_price ELF 250 "test"', 'set_price BP 150 "test"')
    snap = RecordingSnapshot(game.snapshot())
    for size, mode in [((128, 64), "1"), ((256, 64), "L"), ((800, 480), "1")]:
        assert render_board(snap, BOX, size, mode).size == size
    assert snap.read <= PUBLIC_KEYS


def test_a_company_missing_from_the_snapshot_does_not_stop_the_board():
    snap = board_snapshot()
    del snap["companies"]["ELF"]
    assert render_board(snap, BOX, (128, 64), page=1).size == (128, 64)


def test_a_price_change_changes_the_board():
    before = board_snapshot()
    after = board_snapshot()
    after["companies"]["BARCLAYS"] = dict(after["companies"]["BARCLAYS"], price=990, last_change=-10)
    def page(snap, n):
        return render_board(snap, BOX, (128, 64), page=n).tobytes()
    assert page(before, 0) != page(after, 0)          # BARCLAYS is on the first page
    assert page(before, 1) == page(after, 1)


# ------------------------------------------------------------------- screen lines
PAYDAY = {
    "Ana": {"dividends": 90_000, "jetons": {"ELF": 250_000, "BP": 200_000}, "horizontal": ["ENERGIE"],
            "vertical_groups": 0, "vertical": 0, "total": 840_000},
    "Ben": {"dividends": 30_000, "jetons": {}, "horizontal": [], "vertical_groups": 0, "vertical": 0, "total": 30_000},
}


def test_payday_lines_french():
    assert payday_lines(PAYDAY, "fr") == [
        "Ana", " Dividendes\t90 000 $", " Jetons\t450 000 $", " Bonus horiz.\t300 000 $", " Bonus vert.\t0 $",
        " Total\t840 000 $",
        "Ben", " Dividendes\t30 000 $", " Jetons\t0 $", " Bonus horiz.\t0 $", " Bonus vert.\t0 $", " Total\t30 000 $"]


def test_payday_lines_english():
    assert payday_lines(PAYDAY, "en")[:6] == [
        "Ana", " Dividends\t$90,000", " Board fees\t$450,000", " Horiz. bonus\t$300,000", " Vert. bonus\t$0",
        " Total\t$840,000"]


def test_payday_lines_from_the_engine_add_up():
    game = started(["Ana", "Ben"], payday="manual")
    for company, lots in {"ELF": 6, "ESSO": 3, "SHELL": 3, "IBM": 6, "BOUYGUES": 6}.items():
        give(game, "Ana", company, lots)       # jetons, a horizontal and a vertical bonus
    play(game, "payday")
    last = game.snapshot()["last_payday"]
    lines = payday_lines(last, "fr")
    assert len(lines) == 6 * len(last)
    assert lines[0] == "Ana" and not any(line.endswith("\t0 $") for line in lines[1:6])   # every part paid
    for block in range(len(last)):
        shown = [line.split("\t")[1] for line in lines[6 * block + 1:6 * block + 6]]
        amounts = [int(amount.removesuffix(" $").replace(" ", "")) for amount in shown]
        assert sum(amounts[:4]) == amounts[4]


def test_ranking_lines():
    ranking = [{"rank": 1, "name": "Ana", "fortune": 12_300_000}, {"rank": 2, "name": "Cid", "fortune": 9_870_000},
               {"rank": 2, "name": "Dan", "fortune": 9_870_000}, {"rank": 4, "name": "Ben", "fortune": 0}]
    assert ranking_lines(ranking, "fr") == ["1. Ana\t12 300 000 $", "2. Cid\t9 870 000 $", "2. Dan\t9 870 000 $",
                                           "4. Ben\t0 $"]
    assert ranking_lines(ranking, "en")[0] == "1. Ana\t$12,300,000"
    assert ranking_lines(ranking, "fr", prefix="sh")[0] == "1. Ana\t12 300 000 FT"      # in the game's money


def test_payday_screen_from_the_lines():
    screen = Screen("payday", "Rémunération tour 3", lines=tuple(payday_lines(PAYDAY, "fr")),
                    footer="▲▼ défiler  OK payer")
    assert_matches_reference(render_screen(screen), "screen_payday_from_lines")
