"""The web view in a real browser (headless Chromium), beside the real box.

For each of the five games: `corbeille run` (actions entered on its serial console) and
`corbeille web` as processes; the public page and a seat's page open in Chromium; an
action and an undo, each seen on both pages without a reload (a mark set in each page's
DOM stays). For one game, the same link when the box is killed and started again and the
web process restarted: the link is the same for every game. How soon a page shows an action is
measured by bench/web_bench.py (docs/web.md), never asserted here: these tests wait for
each change with a deadline.

Privacy: in Dividends and Richesses du Monde, whose cash is hidden, the players get
distinctive cash by corrections, and nothing the public side sends (the page's HTML, its
event stream, the DOM as drawn) holds it, while the seat's own page does.

The QR code drawn on the 128x64 operator screen (Menu, Téléphones) is decoded by zbar and
the link it holds opened. Screenshots at a TV's and a phone's size go to
$CORBEILLE_WEB_SCREENSHOTS when it names a folder (docs/web/ holds the reviewed ones).
"""
import os
import signal
from pathlib import Path

import pytest

from engines.core.i18n import format_amount
from test_game_contract import GAMES
from web_helpers import (WebBox, browser, decode_qr, history_numbers, page_text, recorded_game, screenshot,
                         wait_for_page, write_journal)

FIRST = 12           # actions in the journal before the box starts
MORE = 3             # actions entered on the console afterwards
SHOTS = os.environ.get("CORBEILLE_WEB_SCREENSHOTS")
HIDDEN_CASH = ("dividends", "richesses")


@pytest.fixture(scope="module")
def driver():
    chromium = browser()
    chromium.pages = [chromium.current_window_handle]     # its windows, kept from test to test (open_pages)
    yield chromium
    chromium.quit()


@pytest.fixture
def table(tmp_path, monkeypatch):
    box = WebBox(tmp_path, monkeypatch)
    yield box
    box.close()


def open_pages(driver, urls):
    """Each URL in a window of its own, the module's windows serving test after test (a
    window opened costs Chromium more CPU than a page loaded); each page marked, so a
    reload would show."""
    for i, url in enumerate(urls):
        if i < len(driver.pages):
            driver.switch_to.window(driver.pages[i])
        else:
            driver.switch_to.new_window("window")
            driver.pages.append(driver.current_window_handle)
        driver.get(url)
        wait_for_page(lambda: driver.execute_script("return document.body.dataset.link") == "up"
                      and history_numbers(driver) is not None, f"{url} to load")
        driver.execute_script("document.body.dataset.mark = 'not reloaded'")
    return driver.pages[:len(urls)]


def on_every_page(driver, handles, condition, what):
    for handle in handles:
        driver.switch_to.window(handle)
        wait_for_page(lambda: condition(driver), f"{what} ({driver.current_url})")
        assert driver.execute_script("return document.body.dataset.mark") == "not reloaded"


def leave_pages(driver, handles):
    """The first window current again, where the next test opens its page; the others stay
    open for the next test's pages."""
    driver.switch_to.window(handles[0])


@pytest.mark.parametrize("name", GAMES)
def test_both_pages_follow_the_box_live(name, table, driver):
    game = recorded_game(name, FIRST + MORE)
    assert len(game.log) == FIRST + MORE, "the random game ended too soon"
    write_journal(table.state, game, FIRST)
    table.start_box().start_web()
    handles = open_pages(driver, [table.url + "/", table.seat_url(1)])
    try:
        on_every_page(driver, handles, lambda d: max(history_numbers(d) or [0]) == FIRST, "the journal's actions")
        # Actions entered on the box's console show on both pages.
        for n, act in enumerate(game.log[FIRST:], FIRST + 1):
            table.play(game, act)
            on_every_page(driver, handles, lambda d: max(history_numbers(d) or [0]) == n, f"action {n}")
        # An undo is seen as one.
        table.undo()
        on_every_page(driver, handles, lambda d: max(history_numbers(d) or [0]) == FIRST + MORE - 1, "the undo")
        if SHOTS:
            folder = Path(SHOTS)
            folder.mkdir(parents=True, exist_ok=True)
            screenshot(driver, table.url + "/", (1920, 1080), folder / f"{name}-tv.png")
            screenshot(driver, table.seat_url(1), (390, 844), folder / f"{name}-phone.png")
    finally:
        leave_pages(driver, handles)


def test_the_pages_say_the_box_or_the_web_process_is_gone_and_follow_again_once_back(table, driver):
    """The link between the box, the web process and the pages is the same for every game
    (the journal's rows and the event stream; what a page draws of a game is the test
    above's): played for one game."""
    game = recorded_game(GAMES[0], FIRST + 1)
    write_journal(table.state, game, FIRST)
    table.start_box().start_web()
    handles = open_pages(driver, [table.url + "/", table.seat_url(1)])
    try:
        on_every_page(driver, handles, lambda d: max(history_numbers(d) or [0]) == FIRST, "the journal's actions")
        # The box killed: the pages say it is unreachable; started again, they recover.
        table.box.kill()
        on_every_page(driver, handles, lambda d: d.execute_script("return document.body.dataset.box") == "down",
                      "the box unreachable")
        assert "Boîtier injoignable" in page_text(driver)
        table.start_box()
        on_every_page(driver, handles, lambda d: d.execute_script("return document.body.dataset.box") == "up",
                      "the box back")
        table.play(game, game.log[FIRST])
        on_every_page(driver, handles, lambda d: max(history_numbers(d) or [0]) == FIRST + 1, "an action after")
        # The web process restarted: the pages reconnect and resume where they were.
        table.stop_web()
        on_every_page(driver, handles, lambda d: d.execute_script("return document.body.dataset.link") == "down",
                      "the connection lost")
        table.start_web()
        on_every_page(driver, handles, lambda d: d.execute_script("return document.body.dataset.link") == "up"
                      and max(history_numbers(d) or [0]) == FIRST + 1, "the connection back")
    finally:
        leave_pages(driver, handles)


def cash_forms(amount: int) -> list[str]:
    """How an amount may be written on a page: grouped in either language, or bare."""
    return [format_amount(amount, "fr"), format_amount(amount, "en"), str(amount)]


@pytest.mark.parametrize("name", HIDDEN_CASH)
def test_hidden_cash_never_reaches_the_public_side(name, table, driver):
    played = recorded_game(name, FIRST + 30)
    game = type(played)(played.header)
    for act in played.log:           # up to where the table may correct cash
        if len(game.log) >= FIRST and game.decision().option("adjust_cash") is not None:
            break
        game.apply(act)
    count = len(game.log)
    write_journal(table.state, game, count)
    table.start_box().start_web()
    marks = {}
    for seat, delta in ((0, 7_321), (1, 6_143), (2, 5_987)):
        correction = game.ACTIONS.classes["adjust_cash"](player=seat, delta=delta, reason="audit")
        game.apply(correction)
        table.play(game, correction)
        marks[seat] = (delta, game.cash(seat))
    secrets = {seat: cash_forms(delta) + cash_forms(cash) for seat, (delta, cash) in marks.items()}
    public = open_pages(driver, [table.url + "/"])
    wait_for_page(lambda: max(history_numbers(driver) or [0]) == count + 3, "the corrections")
    sent = {"HTML": driver.page_source, "DOM": page_text(driver), "event stream": table.stream("/events")}
    for what, text in sent.items():
        for seat, forms in secrets.items():
            assert not [form for form in forms if form in text], f"seat {seat}'s cash in the public {what}"
    # The seat's own page shows its cash, and nobody else's.
    driver.get(table.seat_url(1))
    wait_for_page(lambda: "vue privée" in page_text(driver), "the seat's page")
    mine = page_text(driver)
    assert format_amount(marks[1][1], "fr") in mine
    mine += driver.page_source + table.stream(driver.current_url[len(table.url):] + "/events")
    for seat in (0, 2):
        assert not [form for form in secrets[seat] if form in mine], f"seat {seat}'s cash on seat 1's page"
    leave_pages(driver, public)


def test_the_qr_code_on_the_operator_screen_opens_the_seats_page(table, driver):
    game = recorded_game("maxibourse", FIRST)
    write_journal(table.state, game, FIRST)
    table.start_box().start_web()
    table.box.key("ok long")
    table.choose("Téléphones")
    table.choose(game.players[2])
    frame = table.state / "screens" / "operator-latest.png"
    link = wait_for_page(lambda: decode_qr(frame), "a QR code on the operator screen")
    assert link.startswith(table.url.upper() + "/S/")
    driver.get(link)
    wait_for_page(lambda: f"{game.players[2]} : vue privée" in page_text(driver), "the page the code opens")
    assert f"{game.players[1]} : vue privée" not in page_text(driver)


def test_an_earlier_games_link_opens_nothing_of_the_new_one(table, driver):
    first = recorded_game("shark", FIRST)
    write_journal(table.state, first, FIRST)
    table.start_box().start_web()
    old = table.seat_url(0)
    driver.get(old)
    wait_for_page(lambda: "vue privée" in page_text(driver), "the seat's page")
    table.box.kill()
    write_journal(table.state, recorded_game("dividends", FIRST, seed=5), FIRST)     # a new game
    table.start_box()
    wait_for_page(lambda: "Ce lien n'ouvre rien" in page_text(driver), "the old link refused")
    assert "vue privée" not in page_text(driver)
    assert table.seat_url(0) != old
