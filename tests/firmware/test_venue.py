"""A venue in the test process: the publisher's ids and cursor, resuming with no gap and no
duplicate, undo, private data, the board's checks, the league; the broker in memory
(tests/venue_helpers.py). The same against a real Mosquitto: tests/firmware/test_venue_broker.py."""
import json
import os

import pytest

from engines.core.i18n import format_amount
from firmware.config import ConfigError, config_from_dict
from firmware.publish import Publisher, VenueFeed, is_default_name
from firmware.venue.board import VenueBoard
from firmware.venue.league import League
from web_helpers import recorded_game
from venue_helpers import Box, MemoryBroker, drain, played

VENUE = "club"


class Venue:
    """Publishers of tables on one broker, the venue's board reading it."""

    def __init__(self, broker=None, league=None):
        self.broker = broker or MemoryBroker()
        self.board = VenueBoard(VENUE, league)
        self.link = self.broker.link()
        self.link.subscribe(f"corbeille/{VENUE}/+/events")
        self.link.subscribe(f"corbeille/{VENUE}/+/state")

    def publisher(self, box, table="t1"):
        return Publisher(box.path, VENUE, table, self.broker.link)

    def run(self, publisher, rounds=3):
        for _ in range(rounds):
            publisher.step()
        drain(self.link, self.board)
        return self.board

    def events(self, table="t1"):
        return [json.loads(body) for name, body in self.broker.sent if name == f"corbeille/{VENUE}/{table}/events"]


def check_whole(board, box, table="t1"):
    """The venue has every action of the box's game, none twice, ids with no gap."""
    t = board.tables[table]
    assert t.gaps == 0
    assert t.position == len(box.session.game.log)
    assert t.state["n"] == len(box.session.game.log) and t.state["id"] == t.last_id


def test_ids_grow_one_by_one_per_game_and_an_undo_is_an_event(tmp_path):
    box = Box(tmp_path, played("maxibourse", 40), 10)
    venue = Venue()
    publisher = venue.publisher(box)
    venue.run(publisher)
    box.play(5)
    venue.run(publisher)
    box.session.undo()
    venue.run(publisher)
    box.play(1)
    venue.run(publisher)
    events = venue.events()
    assert [e["id"] for e in events] == list(range(1, len(events) + 1))
    assert [e["kind"] for e in events] == ["game"] + ["action"] * 10 + ["action"] * 5 + ["undo", "action"]
    assert {e["game"] for e in events} == {publisher.feed.key}
    check_whole(venue.board, box)
    box.new_game(played("dividends", 20), 3)                 # a new game: its ids start again at 1
    venue.run(publisher)
    assert [e["id"] for e in venue.events()[len(events):]] == [1, 2, 3, 4]
    check_whole(venue.board, box)
    box.close()


def test_a_restarted_publisher_resumes_from_the_brokers_cursor_with_no_gap(tmp_path):
    box = Box(tmp_path, played("shark", 60), 12)
    venue = Venue()
    venue.run(venue.publisher(box))
    box.play(8)                                              # played while no publisher ran
    venue.run(venue.publisher(box))
    events = venue.events()
    ids = [e["id"] for e in events]
    assert ids.count(13) == 2 and sorted(set(ids)) == list(range(1, 22))   # the cursor's event sent again
    assert venue.board.duplicates == 1
    check_whole(venue.board, box)
    box.close()


@pytest.mark.parametrize("budget", [0, 1, 2, 3, 4, 5, 8, 13])
def test_a_publisher_killed_mid_publish_leaves_no_gap_and_no_duplicate(tmp_path, budget):
    """The broker stops acknowledging after `budget` messages (cursor, event, cursor, event,
    ..., state): what it got stays; a new publisher then resumes."""
    box = Box(tmp_path, played("avendre", 40), 4)
    venue = Venue()
    venue.run(venue.publisher(box))
    box.play(6)
    venue.broker.budget = budget
    venue.run(venue.publisher(box))                          # dies somewhere in there
    box.session.undo()                                       # and the box goes on meanwhile
    box.play(3)
    venue.broker.come_back()
    venue.run(venue.publisher(box))
    check_whole(venue.board, box)
    box.close()


def test_actions_undone_while_the_publisher_was_away_are_undone_at_the_venue(tmp_path):
    box = Box(tmp_path, played("richesses", 60), 20)
    venue = Venue()
    venue.run(venue.publisher(box))
    other = played("richesses", 60, draws="otherwise")     # the same game, played otherwise from `fork`
    fork = next(n for n, (a, b) in enumerate(zip(box.game.log, other.log)) if a != b)
    assert fork < 20
    box.session.undo_to(fork)
    for act in other.log[fork:fork + 3]:
        box.session.apply(act)
    venue.run(venue.publisher(box))
    kinds = [(e["kind"], e.get("to", e.get("n"))) for e in venue.events()[21:]]
    assert kinds[0] == ("action", 20)                        # the cursor's last event again
    assert kinds[1:] == [("undo", fork), ("action", fork + 1), ("action", fork + 2), ("action", fork + 3)]
    check_whole(venue.board, box)
    box.close()


def test_a_game_finished_while_the_broker_was_away_is_published_whole_before_the_next(tmp_path):
    first = played("dividends")
    assert first.over
    box = Box(tmp_path, first, 10)
    league = League(":memory:")
    venue = Venue(league=league)
    publisher = venue.publisher(box)
    venue.run(publisher)
    venue.broker.go_down()
    box.play(len(first.log))                                 # to its end
    box.new_game(played("maxibourse", 30), 5)
    venue.run(publisher)
    venue.broker.come_back()
    venue.run(venue.publisher(box), rounds=4)
    states = [json.loads(b) for n, b in venue.broker.sent if n.endswith("/state")]
    assert any(s["over"] and s["n"] == len(first.log) for s in states)
    check_whole(venue.board, box)
    assert league.games() == 1
    box.close()


@pytest.mark.parametrize("name", ["dividends", "richesses"])
def test_hidden_cash_is_never_published(tmp_path, name):
    box = Box(tmp_path, recorded_game(name, 16), 16)        # the web view's test game: its cash is distinctive
    session = box.session
    venue = Venue()
    venue.run(venue.publisher(box))
    cash = [session.game.cash(seat) for seat in range(len(session.players))]
    forms = {f(a) for a in cash for f in (str, lambda a: format_amount(a, "fr"), lambda a: format_amount(a, "en"))}
    sent = b"".join(body for _, body in venue.broker.sent).decode()
    assert not [form for form in forms if form in sent]
    state = venue.board.tables["t1"].state
    assert state["hidden"] and state["standings"] is None
    box.close()


def test_the_publisher_writes_nothing_beside_the_box_and_waits_for_a_broker(tmp_path):
    """The box plays the same: the publisher only reads; a broker down for long costs it
    nothing but tries, and everything arrives once it is back."""
    box = Box(tmp_path, played("maxibourse", 60), 5)
    venue = Venue()
    venue.broker.go_down()
    publisher = venue.publisher(box)
    before = sorted(os.listdir(tmp_path))
    for _ in range(20):
        box.play(2)
        assert publisher.step() is False
    assert sorted(os.listdir(tmp_path)) == before and venue.broker.sent == []
    venue.broker.come_back()
    venue.run(publisher, rounds=3)
    check_whole(venue.board, box)
    box.close()


# ---- the board ---------------------------------------------------------------------------

def bad_states():
    good = {"game": "1-a", "id": 3, "n": 2, "players": [{"name": "Ana"}], "prices": {"X": 5},
            "standings": [[1, "Ana", 10]], "over": True, "ranking": [[1, "Ana"]]}
    changes = [{"players": ["Ana"]}, {"prices": {"X": "5"}}, {"prices": [1]}, {"standings": [1]},
               {"standings": [[1, "Ana", "10"]]}, {"ranking": [["1", "Ana"]]}, {"ranking": [[1, "Bob"]]},
               {"title": "x"}, {"n": None}]
    return [("corbeille/club/t1/state", json.dumps({**good, **change}).encode()) for change in changes]


def test_foreign_and_malformed_messages_are_ignored_and_the_board_keeps_working(tmp_path):
    box = Box(tmp_path, played("shark", 30), 6)
    venue = Venue()
    board = venue.board
    for name, body in [("corbeille/club/t1/events", b"\xff\xfe"), ("corbeille/club/t1/events", b"[1, 2]"),
                       ("corbeille/club/t1/events", b'{"kind": "action", "id": "7", "game": "x"}'),
                       ("corbeille/club/t1/state", b'{"game": 3}'), ("corbeille/other/t1/events", b"{}"),
                       ("elsewhere/t1", b"{}"), ("corbeille/club/t1/what", b"{}"), *bad_states()]:
        assert board.handle(name, body) is False
    assert board.ignored == 7 + len(bad_states()) and board.tables == {}
    venue.run(venue.publisher(box))
    check_whole(board, box)


def test_config_venue_section():
    v = config_from_dict({"venue": {"enabled": True, "broker": "192.168.1.5", "table": "salon-2"}}).venue
    assert (v.enabled, v.broker, v.port, v.venue, v.table) == (True, "192.168.1.5", 1883, "club", "salon-2")
    with pytest.raises(ConfigError, match=r"venue.table = \"a/b\": must be 1 to 32 letters"):
        config_from_dict({"venue": {"table": "a/b"}})
    with pytest.raises(ConfigError, match=r"venue.venue = \"#\""):
        config_from_dict({"venue": {"venue": "#"}})
    with pytest.raises(ConfigError, match=r"venue.broker = \"\": must be the broker's host name or address"):
        config_from_dict({"venue": {"broker": ""}})


# ---- the league ------------------------------------------------------------------------------

def finished_state(game_key, names, ranking, cards=None, name="dividends"):
    cards = cards or {}
    return {"game": game_key, "id": 9, "name": name, "over": True, "n": 60,
            "players": [{"name": n, "card": cards.get(n), "default": is_default_name(n)} for n in names],
            "ranking": [[rank, n] for rank, n in ranking]}


def test_the_league_counts_names_and_cards_not_default_names(tmp_path):
    league = League(tmp_path / "league.sqlite")
    league.record("t1", finished_state("1-a", ["Alice", "Rouge", "Bob"], [(1, "Rouge"), (2, "Alice"), (3, "Bob")]))
    league.record("t2", finished_state("1-b", ["J1", "alice", "Zoé"], [(1, "alice"), (2, "Zoé"), (3, "J1")],
                                       cards={"Zoé": "c0ffee"}))
    league.record("t2", finished_state("2-b", ["Zed", "Bob"], [(1, "Zed"), (2, "Bob")], cards={"Zed": "c0ffee"}))
    rows = league.standings()["dividends"]
    by = {r["player"]: (r["played"], r["wins"], r["mean_rank"]) for r in rows}
    assert by == {"alice": (2, 1, 1.5), "Zed": (2, 1, 1.5), "Bob": (2, 0, 2.5)}   # the card's latest name
    assert not {"Rouge", "J1"} & set(by)
    league.close()
    assert League(tmp_path / "league.sqlite").games() == 3                         # across evenings: on disk


def test_an_undo_reopening_a_finished_game_takes_it_out_of_the_league(tmp_path):
    game = played("dividends")
    box = Box(tmp_path, game, len(game.log))
    league = League(":memory:")
    venue = Venue(league=league)
    publisher = venue.publisher(box)
    venue.run(publisher)
    assert league.games() == 1 and venue.board.tables["t1"].state["over"]
    box.session.undo()
    venue.run(publisher)
    assert league.games() == 0
    box.play(1)
    venue.run(publisher)
    assert league.games() == 1
    box.close()


def test_the_resumed_feed_starts_from_the_cursors_position(tmp_path):
    box = Box(tmp_path, played("maxibourse", 30), 10)
    cursor = {"game": "1-nothing", "gid": 1, "id": 99, "n": 4, "chain": []}
    feed = VenueFeed(box.path, cursor)
    events = feed.poll()
    assert events[0].kind == "game" and events[0].id == 1       # another game's cursor: a game of its own
    assert [e.data["n"] for e in events[1:]] == list(range(1, 11))
    box.close()


def test_a_venue_started_mid_game_counts_from_the_first_event_it_sees(tmp_path):
    box = Box(tmp_path, played("shark", 40), 6)
    venue = Venue()
    publisher = venue.publisher(box)
    venue.run(publisher)
    late = VenueBoard(VENUE)                                 # started now: the retained state only
    late_link = venue.broker.link()
    late_link.subscribe(f"corbeille/{VENUE}/+/#")
    box.play(4)
    venue.run(publisher)
    drain(late_link, late)
    assert late.tables["t1"].gaps == 0 and late.tables["t1"].position == 10 and late.tables["t1"].state["n"] == 10
    box.close()
