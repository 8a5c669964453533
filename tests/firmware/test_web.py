"""The web view in the test process: the feed's events, the seats' tokens, what the public
and seat pages hold, the security headers, the live channel, the box's Téléphones menu.
The same pages in a real browser beside the real box: tests/firmware/test_web_browser.py."""
import json
import os
import re
import time

import pytest

from engines.core.i18n import format_amount
from firmware import tokens
from firmware.channel import STALE_S, LiveChannel, LiveReader, live_path, web_info_path, write_json
from firmware.config import ConfigError, config_from_dict
from firmware.feed import TableFeed
from firmware.journal import Journal
from firmware.session import Session
from firmware.web.network import access_point_command, wifi_qr
from firmware.web.server import build
from web_helpers import decode_qr, read_stream, recorded_game, serving


class Clock:
    def __init__(self, now=1_800_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


def journal_with(tmp_path, game, count):
    journal = Journal(tmp_path / "journal.sqlite")
    session = Session.new(game.header, journal)
    for act in game.log[:count]:
        session.apply(act)
    return journal, session


# ---- the feed ----------------------------------------------------------------------------

def test_event_ids_only_grow_and_an_undo_is_an_event_of_its_own(tmp_path):
    game = recorded_game("dividends", 20)
    journal, session = journal_with(tmp_path, game, 15)
    clock = Clock()
    feed = TableFeed(tmp_path / "journal.sqlite", clock=clock)
    [start] = feed.poll()
    assert start.kind == "game" and start.data["actions"] == 15
    assert feed.poll() == []                                 # nothing new: nothing read, nothing sent
    session.apply(game.log[15])
    [action] = feed.poll()
    session.undo()
    [undo] = feed.poll()
    session.apply(game.log[15])
    [again] = feed.poll()
    assert (action.kind, undo.kind, again.kind) == ("action", "undo", "action")
    assert action.data["n"] == again.data["n"] == 16 and undo.data["to"] == 15
    assert start.id < action.id < undo.id < again.id         # the position's id is never reused
    assert [e.id for e in feed.since(action.id)] == [undo.id, again.id]
    assert feed.since(again.id) == [] and feed.since(start.id - 10) is None
    # A feed started again (the web process restarted, which takes more than a millisecond
    # an event) gives larger ids than any before.
    clock.now += 1.0
    later = TableFeed(tmp_path / "journal.sqlite", clock=clock)
    assert later.poll()[0].id > again.id
    journal.close()


def test_an_undo_of_several_actions_then_others_is_followed(tmp_path):
    game = recorded_game("shark", 24)
    journal, session = journal_with(tmp_path, game, 20)
    feed = TableFeed(tmp_path / "journal.sqlite")
    feed.poll()
    session.undo_to(17)
    made = feed.poll()
    assert [e.kind for e in made] == ["undo"] and made[0].data == {**made[0].data, "to": 17, "undone": 3}
    assert len(feed.session.game.log) == 17 and max(e.n for e in feed.history) == 17
    assert feed.prices.length == 18                          # the start, then one point an action
    journal.close()


def test_the_public_history_names_a_hidden_games_corrections_without_amounts(tmp_path):
    game = recorded_game("dividends", 12)
    journal, session = journal_with(tmp_path, game, 12)
    feed = TableFeed(tmp_path / "journal.sqlite")
    feed.poll()
    correction = session.actions.classes["adjust_cash"](player=0, delta=4_321, reason="audit")
    session.apply(correction)
    [event] = feed.poll()
    assert "4 321" not in event.data["text"]["fr"] and "4,321" not in event.data["text"]["en"]
    journal.close()


# ---- pages -------------------------------------------------------------------------------

@pytest.fixture
def served(tmp_path, monkeypatch):
    """A table served in the test process: (client, session, secret). Starlette's test
    client (and httpx with it) is imported by the worker that runs these tests alone."""
    from starlette.testclient import TestClient

    monkeypatch.setenv("CORBEILLE_RUN", str(tmp_path / "run"))
    opened = []

    def serve(name, actions=14):
        game = recorded_game(name, actions)
        journal, session = journal_with(tmp_path, game, actions)
        secret = tokens.ensure_secret(tmp_path)
        _, app = build(config_from_dict({"state": {"dir": str(tmp_path)}}))
        client = TestClient(app)
        client.__enter__()
        opened.append((client, journal))
        return client, session, secret

    yield serve
    for client, journal in opened:
        client.__exit__(None, None, None)
        journal.close()


def token(session, secret, seat):
    return tokens.seat_token(secret, session.game_id, session.game.header, seat)


def test_a_seats_token_opens_that_seat_alone(served):
    client, session, secret = served("maxibourse")
    for seat, name in enumerate(session.players):
        page = client.get("/s/" + token(session, secret, seat)).text
        assert f"{name} : vue privée" in page
        assert not [other for other in session.players if other != name and f"{other} : vue privée" in page]
    lower = client.get("/s/" + token(session, secret, 1).lower())
    assert lower.status_code == 200 and f"{session.players[1]} : vue privée" in lower.text
    real = token(session, secret, 0)
    last_changed = real[:-1] + ("B" if real[-1] == "A" else "A")       # as long, one character off
    for wrong in ("A" * tokens.TOKEN_CHARS, last_changed, real[:-1], "x"):
        answer = client.get("/s/" + wrong)
        assert answer.status_code == 404 and "Ce lien n&#39;ouvre rien" in answer.text


def test_an_earlier_games_token_opens_nothing(served, tmp_path):
    client, session, secret = served("avendre")
    old = token(session, secret, 0)
    assert client.get("/s/" + old).status_code == 200
    new = Session.new({**session.game.header, "seed": 99}, session.journal)
    deadline = time.monotonic() + 10
    while client.get("/s/" + old).status_code != 404:
        assert time.monotonic() < deadline, "the old token still opens a page"
        time.sleep(0.05)
    assert token(new, secret, 0) != old
    assert client.get("/s/" + token(new, secret, 0)).status_code == 200


def test_nothing_can_be_written_through_the_pages(served):
    client, session, secret = served("shark")
    paths = ["/", "/events", "/s/" + token(session, secret, 0), "/s/" + token(session, secret, 0) + "/events",
             "/static/web.js", "/static/web.css"]
    for path in paths:
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            assert client.request(method, path).status_code == 405, (method, path)


def test_every_answer_has_a_strict_content_security_policy(served):
    client, session, secret = served("richesses")
    for path in ("/", "/s/" + token(session, secret, 0), "/static/web.js", "/s/" + "B" * 26):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy and "unsafe" not in policy
        assert headers["referrer-policy"] == "no-referrer" and headers["x-content-type-options"] == "nosniff"
    page = client.get("/").text
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == []            # no inline script
    assert " style=" not in page and not re.findall(r"\son[a-z]+=", page)   # no inline style or handler
    assert "http://" not in page.replace(client.base_url.host, "") and "https://" not in page   # no CDN


@pytest.mark.parametrize("name", ["dividends", "richesses"])
def test_the_public_page_and_stream_hold_no_hidden_cash(served, name, tmp_path):
    client, session, secret = served(name, 16)
    cash = {seat: session.game.cash(seat) for seat in range(len(session.players))}
    forms = [f(amount) for amount in cash.values() for f in (lambda a: format_amount(a, "fr"),
                                                              lambda a: format_amount(a, "en"), str)]
    page = client.get("/").text
    assert not [form for form in forms if form in page]
    assert "argent reste caché" in page
    with serving(*build(config_from_dict({"state": {"dir": str(tmp_path)}}))) as port:   # a stream, read live
        sent = read_stream(port, "/events")
    assert "event: main" in sent and not [form for form in forms if form in sent]
    mine = client.get("/s/" + token(session, secret, 0)).text
    assert format_amount(cash[0], "fr") in mine


def test_a_public_games_page_has_standings_history_and_charts(served):
    client, session, secret = served("maxibourse", 30)
    page = client.get("/").text
    assert "Classement" in page and "Fortunes au fil de la partie" in page and "<svg" in page
    assert page.count("<polyline") >= len(session.players)
    assert 'value="30"' in page                               # the last action, numbered



def test_the_history_says_the_cash_moved_in_the_games_money(tmp_path):
    """As the box's screens say it: A Vendre!'s "+150.—", not a bare "+150"."""
    from firmware.web.views import build as page_of

    journal, _ = journal_with(tmp_path, recorded_game("avendre", 40), 40)
    feed = TableFeed(tmp_path / "journal.sqlite")
    feed.poll()
    moved = [cash for _, _, cash in page_of(feed, "fr").history if cash]
    assert moved and all(re.fullmatch(r"(\S+ [+-][0-9\u202f\u00a0 ]+\.—(  )?)+", cash) for cash in moved), moved
    journal.close()


# ---- the live channel --------------------------------------------------------------------------

def test_the_live_channel_says_when_the_box_stops(tmp_path):
    clock = Clock()
    path = tmp_path / "live.json"
    channel, reader = LiveChannel(path), LiveReader(path, clock=lambda: time.time() + clock.now - 1_800_000_000.0)
    channel.publish({"game": 1, "lang": "fr"}, 0.0)
    clock.now = 1_800_000_000.0
    assert reader.read()["game"] == 1 and reader.read()["box"] == channel.box
    clock.now += STALE_S + 1                  # untouched that long: the box is gone or hangs
    assert reader.read() is None
    clock.now = 1_800_000_000.0
    channel.close()
    assert reader.read() is None and not path.exists()


def test_the_live_channel_writes_only_when_it_changes_and_touches_otherwise(tmp_path):
    path = tmp_path / "live.json"
    channel = LiveChannel(path)
    channel.publish({"game": 1}, 10.0)
    first = path.stat().st_ino
    channel.publish({"game": 1}, 10.5)                    # unchanged, soon: nothing at all
    assert path.stat().st_ino == first
    os.utime(path, (0, 0))
    channel.publish({"game": 1}, 11.2)                    # unchanged, a second later: touched
    assert path.stat().st_ino == first and path.stat().st_mtime > 0
    channel.publish({"game": 2}, 11.3)                    # changed: the file replaced whole
    assert json.loads(path.read_text())["game"] == 2


def test_the_channel_folders_are_shared_by_state_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("CORBEILLE_RUN", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    a, b = live_path(tmp_path / "a"), live_path(tmp_path / "b")
    assert a != b and a.parent.parent == web_info_path(tmp_path / "a").parent.parent
    monkeypatch.setenv("CORBEILLE_RUN", "/run")
    assert str(live_path(tmp_path / "a")) == "/run/corbeille/live.json"
    assert str(web_info_path(tmp_path / "a")) == "/run/corbeille-web/web.json"


# ---- configuration, network ----------------------------------------------------------------------

@pytest.mark.parametrize("web, says", [
    ({"port": 0}, "web.port = 0: must be an integer from 1 to 65535"),
    ({"ap_password": "short"}, 'web.ap_password = "short": must be "" (an open network) or 8 to 63'),
    ({"ap_ssid": ""}, 'web.ap_ssid = "": must be a network name of 1 to 32 bytes'),
    ({"host": "every one"}, "web.host"),
    ({"enabled": "yes"}, "web.enabled"),
])
def test_a_wrong_web_setting_is_refused_naming_it(web, says):
    with pytest.raises(ConfigError, match=re.escape(says)):
        config_from_dict({"web": web})


def test_the_wifi_code_and_the_access_point_without_a_password():
    assert wifi_qr("Table;1", "") == "WIFI:T:nopass;S:Table\\;1;;"
    assert wifi_qr("Corbeille", 'a"b:c,d\\e') == 'WIFI:T:WPA;S:Corbeille;P:a\\"b\\:c\\,d\\\\e;;'
    command = access_point_command("Corbeille", "")
    assert "wifi-sec.key-mgmt" not in command and command[command.index("ssid") + 1] == "Corbeille"


# ---- the box's side ----------------------------------------------------------------------------

def phones_box(tmp_path, monkeypatch, web, board=None):
    from e2e_box import E2EBox, journal_script

    monkeypatch.setenv("CORBEILLE_RUN", str(tmp_path / "run"))
    journal_script(tmp_path, "game maxibourse\nformat junior\nplayers Ana Ben Cid\nseed 1\n")
    return E2EBox(tmp_path, extra={"web": web}, board=board)


def test_the_menu_offers_phones_only_with_the_web_view(tmp_path, monkeypatch):
    box = phones_box(tmp_path, monkeypatch, {"enabled": False})
    box.long("ok")
    assert "Téléphones" not in box.items()
    assert box.app.channel is None and not tokens.secret_path(box.config.state.dir).exists()
    box.close()


def test_the_phones_menu_shows_each_pages_code_and_the_wifi(tmp_path, monkeypatch):
    from drivers.display import PngDisplay

    board = PngDisplay((800, 480), "1", name="board", keep=3)
    box = phones_box(tmp_path, monkeypatch, {"enabled": True, "access_point": True, "ap_password": "12345678"},
                     board=board)
    box.long("ok")
    box.choose("Téléphones")
    assert box.items() == ["Table (TV)", "Ana", "Ben", "Cid", "Wi-Fi du boîtier"]
    box.choose("Ben")
    assert box.screen.kind == "message" and box.screen.lines == ("Vue web en démarrage…",)   # no web process yet
    box.press("back")
    write_json(web_info_path(box.config.state.dir), {"urls": ["http://10.42.0.1:8080"],
                                                     "names": ["http://corbeille.local:8080"]})
    box.choose("Ben")
    frame = tmp_path / "qr.png"
    box.frame().save(frame)
    session = box.c.session
    secret = tokens.read_secret(box.config.state.dir)
    link = f"HTTP://10.42.0.1:8080/S/{token(session, secret, 1)}"
    assert decode_qr(frame) == link
    assert box.screen.lines == ("10.42.0.1:8080", "corbeille.local:8080")
    board.last_frame.save(frame)                  # the e-ink board shows it too, dark on paper
    assert decode_qr(frame) == link
    box.press("back")
    box.choose("Wi-Fi")
    box.frame().save(frame)
    assert decode_qr(frame) == "WIFI:T:WPA;S:Corbeille;P:12345678;;"
    live = json.loads(live_path(box.config.state.dir).read_text())
    assert live["game"] == session.game_id and live["lang"] == "fr" and live["actions"] == len(session.game.log)
    box.close()
