"""Work per replayed action (the replay of a game from its journal): what a
replay, the JSON reader and the journal's open leave out, and that they read, refuse and
reach exactly what the longer way did.

Counted and compared, never timed: a replay builds no event (nobody reads a replay's) but
`apply` and `unfold` still return them; `ACTIONS.from_json` reads through a reader made once
per class, which accepts and refuses every value the field-by-field reading did (kept here
as the reference); the open's chain walk refuses the same rows as a walk row by row, for the
same reasons; Maxi Bourse's `sellable` is still its rule (the lots held less those on offer).
The shortcuts a replay takes through the rules (a question that stops at its first answer,
a step that plays nothing left uncalled) answer as the long way did in every state.
"""
import copy
import functools
import json
import random
import sqlite3

import pytest

import engines.core.game as core_game
from engines import game_class
from engines.core.actions import Cell, Name, ProtocolError, _base, _field_types, _old_form, list_item
from engines.core.errors import IllegalAction
from engines.maxibourse import steps as F
from engines.maxibourse.board import correct_pawn
from engines.registry import names
from firmware.journal import Journal
from firmware.journal.reader import JournalReader
from firmware.journal.rows import action_checksum, checksum_text, parse_row, parse_rows, stored_checksum
from maxibourse_random import random_game


def mb_game(seed=7, actions=400):
    header, acts = _mb_game(seed, actions)
    return copy.deepcopy(header), list(acts)


@functools.cache
def _mb_game(seed, actions):
    """A random game is drawn once per seed and length: several tests read the same long ones."""
    header, acts, _ = random_game(random.Random(seed), players=5, fmt="senior", max_actions=actions)
    return header, tuple(acts)


# ---- a replay builds no event ------------------------------------------------------------

@pytest.fixture
def events_built(monkeypatch):
    """Every event `Game.emit` builds, and every event made elsewhere (a ledger's transfer,
    a move of lots) that `Game.emit_event` keeps, from now on."""
    built = []
    event, keep = core_game.Event, core_game.Game.emit_event

    def counted(key, params):
        built.append(key)
        return event(key, params)

    def kept(self, made):
        before = len(self._events) if isinstance(self._events, list) else None
        keep(self, made)
        if before is not None and len(self._events) > before:
            built.append(made.key)
    monkeypatch.setattr(core_game, "Event", counted)
    monkeypatch.setattr(core_game.Game, "emit_event", kept)
    return built


@pytest.mark.parametrize("checked", [False, True])
def test_a_replay_builds_no_event_and_reaches_the_state_of_applying_each_action(events_built, checked):
    header, acts = mb_game()
    cls = game_class("maxibourse")
    one_by_one = cls(header)
    events_built.clear()                # drawing the random game built its own
    events = [one_by_one.apply(act) for act in acts]
    assert sum(map(len, events)) == len(events_built) > len(acts)     # apply builds them all
    events_built.clear()
    replayed = cls.replay(header, acts, checked=checked)
    assert events_built == []
    assert replayed.snapshot() == one_by_one.snapshot() and replayed.log == one_by_one.log
    # The same bytes at the first checkpoint and at those an undo starts from; the ones
    # between are left to undo (test_a_replay_takes_only_the_checkpoints_an_undo_starts_from).
    kept = replay_checkpoints(len(acts), cls.CHECKPOINT_EVERY)
    assert len(acts) >= 3 * cls.CHECKPOINT_EVERY and sorted(replayed._checkpoints) == kept
    assert {n: one_by_one._checkpoints[n] for n in kept} == replayed._checkpoints
    # After the replay the game collects events again: the next action returns its own.
    following = cls.replay(header, acts[:-1], checked=checked)
    assert following.apply(acts[-1]) == events[-1] and events_built


def replay_checkpoints(n, every):
    """The checkpoints a replay of `n` actions takes: the first (the game made), the one an
    undo of its last action starts from, and one at its very end."""
    return sorted({0} | {k for k in range(every, n + 1, every) if k >= (n - 1) // every * every})


@pytest.mark.parametrize("n", [450, 400, 401])
def test_a_replay_takes_only_the_checkpoints_an_undo_starts_from_and_an_undo_past_them_takes_the_others(n):
    header, acts = mb_game(seed=5, actions=n)
    acts = acts[:n]
    cls = game_class("maxibourse")
    applied = cls(header)
    for act in acts:
        applied.apply(act)
    every = cls.CHECKPOINT_EVERY
    assert len(acts) == n and sorted(applied._checkpoints) == list(range(0, n + 1, every))
    replayed = cls.replay(header, acts, checked=False)
    kept = replay_checkpoints(n, every)
    assert sorted(replayed._checkpoints) == kept and kept[-2 if n % every == 0 else -1] == (n - 1) // every * every
    assert all(replayed._checkpoints[k] == applied._checkpoints[k] for k in kept)
    # An undo of the last action starts from a checkpoint the replay took: none is added...
    replayed.undo()
    assert sorted(replayed._checkpoints) == [k for k in kept if k <= n - 1]
    # ... and an undo past them replays from the start once, taking every checkpoint on the
    # way (the same bytes as those apply took), so the next undos start near where they go.
    last = (n - 1) // every * every
    target = last - every - 3
    replayed.undo_to(target)
    assert sorted(replayed._checkpoints) == list(range(0, target + 1, every))
    assert all(replayed._checkpoints[k] == applied._checkpoints[k] for k in replayed._checkpoints)
    assert replayed.snapshot() == cls.replay(header, acts[:target]).snapshot() and replayed.log == acts[:target]
    # A stream of actions (a resume reading its rows) has no known end: every checkpoint.
    streamed = cls.replay(header, iter(acts), checked=False)
    assert streamed._checkpoints == applied._checkpoints


def test_unfold_and_undo_still_give_what_apply_gives(events_built):
    header, acts = mb_game(seed=11, actions=250)
    cls = game_class("maxibourse")
    applied = cls(header)
    events = [applied.apply(act) for act in acts]
    assert [e for _, _, e in cls.unfold(header, acts, checked=False)] == events
    undone = cls.replay(header, acts)
    undone.undo_to(len(acts) - 120)                                  # a replay from a checkpoint
    assert undone.snapshot() == cls.replay(header, acts[:len(acts) - 120]).snapshot()
    assert undone.apply(acts[len(acts) - 120]) == events[len(acts) - 120]


def test_an_action_refused_half_way_still_leaves_the_state_and_the_events_as_they_were():
    # A refusal inside a handler rebuilds the state by a replay from the last checkpoint
    # (Game.apply, atomic): the game then goes on and reports its events as if never refused.
    from engines.maxibourse.actions import ACTIONS
    header, acts = mb_game(seed=3, actions=150)
    cls = game_class("maxibourse")
    game = cls.replay(header, acts[:-1])
    before = game.snapshot()
    seat = next(s for s in range(len(game.players)) if not game.s.ruined[s])
    company = next(c for c in game.companies if game.s.lots.of(c, seat) == 0)
    with pytest.raises(IllegalAction):        # accepted by the check, refused by lots.move
        game.apply(ACTIONS.classes["adjust_lots"](player=seat, company=company, delta=-1, reason="x"))
    assert game.snapshot() == before and game._events is None
    assert game.apply(acts[-1]) == cls.replay(header, acts[:-1]).apply(acts[-1]) != []


# ---- from_json: the reader made once per class reads as the field-by-field reading did ---

def reference_read(actions, data):
    """ActionSet.from_json read step by step, field by field, without the reader made
    once per class: the reference for the comparison below."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ProtocolError(f"an action must be an object with a 'kind', got {data!r}")
    if isinstance(data["kind"], str) and data["kind"] in actions.aliases:
        data = {**data, "kind": actions.aliases[data["kind"]]}
    cls = actions.classes.get(data["kind"])
    if cls is None:
        raise ProtocolError(f"unknown action {data['kind']!r}; known: {', '.join(actions.classes)}")
    data = _old_form(cls, data) if cls.old_forms else data
    values = {}
    fields = _field_types(cls)
    for name, typ, optional in fields:
        if name not in data:
            if optional:
                continue
            raise ProtocolError(f"action {cls.kind}: field {name!r} is missing")
        values[name] = reference_value(cls.kind, name, typ, data[name])
    extra = set(data) - {"kind"} - {n for n, _, _ in fields}
    if extra:
        raise ProtocolError(f"action {cls.kind}: unknown field(s) {', '.join(sorted(extra))}")
    return cls(**values)


def reference_value(kind, name, typ, value):
    typ = _base(typ)
    if value is None and list_item(typ) is None:
        return None
    if list_item(typ) is not None:
        if not isinstance(value, (list, tuple)):
            raise ProtocolError(f"action {kind}: {name} must be a list, got {value!r}")
        return tuple(reference_value(kind, name, list_item(typ), v) for v in value)
    if issubclass(typ, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProtocolError(f"action {kind}: {name} must be an integer, got {value!r}")
        return typ(value)
    if not isinstance(value, str):
        raise ProtocolError(f"action {kind}: {name} must be text, got {value!r}")
    if issubclass(typ, Cell):
        return Cell(value)
    return typ(value.upper()) if issubclass(typ, Name) else typ(value)


def outcome(read, data):
    try:
        act = read(data)
    except Exception as error:   # the same refusal: its type and its message
        return "refused", type(error).__name__, str(error)
    return "read", type(act), repr(act), {n: type(v) for n, v in act.__dict__.items()}, act.to_json()


VALUES = [0, 3, -2, 10**17, True, False, None, 1.5, "", "sony", "B4", "z9", "a 1", [], [1, 2], ["x", None],
          [True], {"a": 1}]


@pytest.mark.parametrize("game", names())
def test_from_json_reads_and_refuses_every_field_as_the_field_by_field_reading(game):
    actions = game_class(game).ACTIONS
    compared = 0
    for kind, cls in actions.classes.items():
        fields = _field_types(cls)
        base = {"kind": kind}
        for name, typ, _ in fields:                       # a value each field takes
            item = list_item(_base(typ))
            one = (1 if issubclass(_base(item), int) else "A1" if issubclass(_base(item), Cell) else "X") \
                if item is not None else None
            base[name] = [one, one] if item is not None else \
                1 if issubclass(_base(typ), int) else "A1" if issubclass(_base(typ), Cell) else "ab"
        cases = [base, {**base, "extra": 1}, {**base, "zz": 0, "aa": 0}, {"kind": kind}]
        for name, _, _ in fields:
            cases.append({k: v for k, v in base.items() if k != name})
            cases += [{**base, name: value} for value in VALUES]
        for numbered in cls.old_forms.values():
            cases.append({**{k: v for k, v in base.items() if k not in cls.old_forms}, numbered[0]: 1})
        for data in cases:
            assert outcome(actions.from_json, data) == outcome(lambda d: reference_read(actions, d), data), data
            compared += 1
    for data in [None, [], {"kind": "nope"}, {"kind": 5}, {"x": 1}, {"kind": ["a"]}]:
        assert outcome(actions.from_json, data) == outcome(lambda d: reference_read(actions, d), data), data
    assert compared > 20 * len(actions.classes)


def test_from_json_reads_the_json_of_recorded_games_as_before():
    import recorded_games
    from firmware.script import run_script
    seen = 0
    for name in ("maxibourse", "dividends"):
        cls = game_class(name)
        for record in recorded_games.load(name)[:4]:
            for act in run_script(record["script"], name).log:
                data = act.to_json()
                assert outcome(cls.ACTIONS.from_json, data) == outcome(lambda d: reference_read(cls.ACTIONS, d), data)
                assert cls.ACTIONS.from_json(data) == act
                seen += 1
    assert seen > 500


# ---- the journal: the chain walk refuses what it refused, rows read as json.loads reads them

def journal_with(tmp_path, bodies):
    """A journal of one game whose rows are `bodies` (text, or bytes stored as such), each
    with the checksum its stored bytes chain to (what a writer that wrote them would have)."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        game = journal.new_game({"game": "demo"})
        for _ in bodies:
            journal.append(game, {"kind": "x"})
    with sqlite3.connect(path) as db:
        prev = db.execute("SELECT checksum FROM games WHERE id=?", (game,)).fetchone()[0]
        for seq, body in enumerate(bodies):
            text = body.decode("utf-8", "surrogateescape") if isinstance(body, bytes) else body
            checksum = action_checksum(game, seq, text, prev)
            value = sqlite3.Binary(body) if isinstance(body, bytes) else body
            db.execute("UPDATE actions SET body=?, checksum=? WHERE game_id=? AND seq=?",
                       (value, stored_checksum(checksum), game, seq))
            prev = checksum
    return path, game


@pytest.mark.parametrize("bodies, cut, reason", [
    (['{"kind":"a"}', ' {"kind":"b"}\n', '{"kind":"c"}'], None, None),       # whitespace around: json.loads reads it
    (['{"kind":"a"}', '["kind"]', '{"kind":"c"}'], 1, "unparsable JSON at action 2"),   # not an object
    (['{"kind":"a"}', '{"kind":"a"} x', '{"kind":"c"}'], 1, "unparsable JSON at action 2"),
    (['{"kind":"a"}', '{"kind":NaN}', '{"kind":"c"}'], None, None),          # json.loads takes NaN
    (['{"kind":"a"}', '{"kind":"é"}', '{"kind":"c"}'], None, None),          # UTF-8 hashed as stored
    (['{"kind":"a"}', b'{"kind":"b"}', '{"kind":"c"}'], 1, "checksum mismatch at action 2"),   # a BLOB
])
def test_the_chain_walk_accepts_and_cuts_rows_as_json_and_the_checksums_say(tmp_path, bodies, cut, reason):
    path, game = journal_with(tmp_path, bodies)
    with Journal(path) as journal:
        if cut is None:
            assert journal.repairs == []
            assert journal.actions(game) == [json.loads(b) for b in bodies]
        else:
            assert journal.repairs == [f"journal {path}: game {game} cut back to action {cut} of {len(bodies)} "
                                       f"({reason})"]
            assert journal.actions(game) == [json.loads(b) for b in bodies[:cut]]


def test_a_body_that_is_not_utf8_is_a_checksum_mismatch(tmp_path):
    # Rows are UTF-8 text: bytes that are not cannot be what a checksum covered.
    path, game = journal_with(tmp_path, ['{"kind":"a"}', '{"kind":"b"}'])
    with sqlite3.connect(path) as db:
        raw = b'{"kind":"\xff"}'
        prev = checksum_text(db.execute("SELECT checksum FROM actions WHERE game_id=? AND seq=0", (game,)).fetchone()[0])
        from firmware.journal.rows import sha256
        forged = sha256(f"{game}:1:{prev}:".encode() + raw).digest()   # over the very bytes stored
        db.execute("UPDATE actions SET body=CAST(? AS TEXT), checksum=? WHERE game_id=? AND seq=1",
                   (raw, forged, game))
    with Journal(path) as journal:
        assert journal.repairs == [f"journal {path}: game {game} cut back to action 1 of 2 "
                                   "(checksum mismatch at action 2)"]


def read_back(path, game):
    """The game's actions as its rows say, read apart from the journal."""
    with sqlite3.connect(path) as db:
        return [json.loads(body) for body, in
                db.execute("SELECT body FROM actions WHERE game_id=? AND seq>=0 ORDER BY seq", (game,))]


def body_reads(journal):
    """The statements reading action bodies back that `journal` runs from now on."""
    reads = []
    journal._conn.set_trace_callback(lambda sql: reads.append(sql) if sql.startswith("SELECT body") else None)
    return reads


def two_games(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        first = journal.new_game({"game": "demo"})
        journal.append(first, {"kind": "x", "n": 0})
        last = journal.new_game({"game": "demo"})
        for n in range(5):
            journal.append(last, {"kind": "y", "n": n, "t": "é"})
    return path, first, last


def test_the_open_hands_the_objects_its_walk_read_to_the_first_read_of_the_last_game(tmp_path):
    path, first, last = two_games(tmp_path)
    with Journal(path) as journal:
        reads = body_reads(journal)
        assert journal.actions(first) == read_back(path, first) and len(reads) == 1   # not the last game: read
        assert journal.actions(last) == read_back(path, last) and len(reads) == 1     # the walk's, no read
        assert journal.actions(last) == read_back(path, last) and len(reads) == 2     # given once: read again
    with Journal(path) as journal:                                                   # a resume's stream
        reads = body_reads(journal)
        assert list(journal.iter_actions(last)) == read_back(path, last) and reads == []
    with JournalReader(path) as journal:
        reads = body_reads(journal)
        assert journal.actions(last) == read_back(path, last) and reads == []


def test_rows_written_since_the_open_are_read_not_taken_from_its_walk(tmp_path):
    path, _, last = two_games(tmp_path)
    with Journal(path) as journal:                  # this writer's own append
        journal.append(last, {"kind": "y", "n": 5})
        assert journal.actions(last) == read_back(path, last) and len(journal.actions(last)) == 6
    with Journal(path) as journal:                  # an undo
        journal.undo(last)
        assert journal.actions(last) == read_back(path, last) and len(journal.actions(last)) == 5
    reader = JournalReader(path)          # another process writing beside a reader
    try:
        with Journal(path) as writer:
            writer.append(last, {"kind": "y", "n": 6})
        assert reader.actions(last) == read_back(path, last) and reader.actions(last)[-1] == {"kind": "y", "n": 6}
    finally:
        reader.close()
    with Journal(path) as journal:                  # texts read: the walk's objects are not kept for later
        journal.bodies(last)
        assert journal._chain.walked is None


def test_a_deferred_or_cut_chain_keeps_nothing_for_the_read(tmp_path):
    path, _, last = two_games(tmp_path)
    with Journal(path, defer_chain=True) as journal:   # the box: the last game's chain checked later
        assert journal._chain.walked is None
        assert journal.verify_deferred() == [] and journal._chain.walked is None
        assert journal.actions(last) == read_back(path, last)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE actions SET body='{\"kind\":\"z\"}' WHERE game_id=? AND seq=3", (last,))
    with Journal(path) as journal:           # cut at the damage: the rows before it
        assert journal._chain.walked is None and journal.actions(last) == read_back(path, last)[:3]


@pytest.mark.parametrize("text", ['{"a":1}', ' {"a":[1,2]} ', '[1]', '1', '"s"', '{"a":NaN}', '{"a":1} x', '', '{',
                                  '\ufeff{}', '{"a":"\\ud800"}', None, 5])
def test_rows_read_back_as_json_loads_reads_them(text):
    def loads(t):
        try:
            return "value", json.loads(t)
        except Exception as error:
            return type(error).__name__, str(error)

    def ours(read):
        try:
            return "value", read(text)
        except Exception as error:
            return type(error).__name__, str(error)
    got = ours(parse_row), ours(lambda t: parse_rows([t])[0])
    expected = loads(text)
    assert got == (expected, expected) or (expected[1] != expected[1] and got[0][0] == "value")   # NaN != NaN


# ---- Maxi Bourse: what may be sold ---------------------------------------------------------

def test_sellable_and_free_lots_are_the_lots_held_less_those_on_offer_in_every_state():
    """In every state of long random games (nested sales included: a seller in debt whose
    own sale is lower in the stack), `sellable` and `free_lots` say what the rule says."""
    cls = game_class("maxibourse")
    nested = 0
    for seed in (2028, 5):
        header, acts = mb_game(seed=seed, actions=900)
        for game, _, _ in cls.unfold(header, acts, checked=False):
            sales = [f for f in game.s.steps if isinstance(f, F.Sale)]
            for seat in range(len(game.players)):
                offered = {c: sum(f.lots for f in sales if f.seller == seat and f.company == c)
                           for c in game.companies}
                nested += any(offered.values())
                free = {c: game.s.lots.of(c, seat) - offered[c] for c in game.companies}
                assert game.sellable(seat) == tuple(c for c in game.companies if free[c] > 0)
                assert game.can_sell(seat) is any(free[c] > 0 for c in game.companies)
                assert all(game.free_lots(seat, c) == free[c] for c in game.companies)
    assert nested > 0, "no state with a sale of the seat's under way: the test would not see one"


def test_the_shortcuts_of_the_fold_answer_as_the_long_way_in_every_state(monkeypatch):
    """Asked in every state of long random games: whether the bank holds a lot (what closes
    a session) and whether a seat holds one, as the lists they stop early on say; the
    speaking rounds' order, as the two comprehensions made it."""
    from engines.core.ledger import BANK
    from engines.core.lots import Holdings
    from engines.core.rounds import clockwise

    cls = game_class("maxibourse")
    closed = 0
    for seed in (2028, 5):
        header, acts = mb_game(seed=seed, actions=900)
        for game, _, _ in cls.unfold(header, acts, checked=False):
            lots, companies = game.s.lots, game.companies
            assert lots.any_in_bank(companies) is bool(lots.in_bank(companies))
            closed += not lots.any_in_bank(companies)
            for seat in (BANK, *range(len(game.players))):
                assert lots.holds_any(seat, companies) is bool(lots.held_by(seat, companies))
                portfolio = lots.portfolio(seat)
                assert lots.held_by(seat, companies) == tuple(c for c in companies if portfolio.get(c))
    assert closed == 0          # the bank never ran out in these games: its last lots sold here
    emptied = Holdings(["AA", "BB", "CC"], 2, 2)
    for company, seat in (("AA", 0), ("BB", 1), ("CC", 1)):
        assert emptied.any_in_bank(["AA", "BB", "CC"])
        emptied.move(company, BANK, seat, 2)
    assert not emptied.any_in_bank(["AA", "BB", "CC"]) and not emptied.in_bank(["AA", "BB", "CC"])
    assert emptied.holds_any(0, ["AA"]) and not emptied.holds_any(0, ["BB", "CC"])
    rng = random.Random(11)
    for _ in range(500):
        seats = rng.sample(range(8), rng.randint(0, 8))
        first = rng.randint(0, 8)
        ordered = sorted(seats)
        assert clockwise(first, seats) == [s for s in ordered if s >= first] + [s for s in ordered if s < first]


def test_a_step_that_plays_nothing_is_not_asked_to_and_the_states_are_the_same(monkeypatch):
    """`StepGame.advance` leaves uncalled a step that keeps `Step.advance` (it plays nothing,
    so the step waits): every state of a replay is the one calling it would reach, and it is
    called for none but the steps that play something (the debts' own `advance`)."""
    import pickle

    import engines.core.steps as core_steps

    cls = game_class("maxibourse")
    header, acts = mb_game(seed=2028, actions=900)
    short = [pickle.dumps(game.s) for game, _, _ in cls.unfold(header, acts, checked=False)]
    asked = []
    plain = core_steps.Step.advance

    def counted(step, game):
        asked.append(type(step).__name__)
        return plain(step, game)

    monkeypatch.setattr(core_steps.Step, "advance", counted)     # every step asked, not only `_WAITS`
    long = [pickle.dumps(game.s) for game, _, _ in cls.unfold(header, acts, checked=False)]
    assert long == short
    assert len(asked) > len(acts) / 2                           # the long way asks them all
    monkeypatch.setattr(core_steps, "_WAITS", counted)          # the shortcut knows the plain one again
    asked.clear()
    assert [pickle.dumps(game.s) for game, _, _ in cls.unfold(header, acts, checked=False)] == short
    assert asked == []


def test_a_pawn_corrected_stands_on_the_first_such_square_ahead():
    """`correct_pawn` finds the square ahead by index as the smallest distance round the
    board did, from every square to every square."""
    cls = game_class("maxibourse")
    header, _ = mb_game(seed=7, actions=10)
    game = cls(dict(header, players=["A", "B", "C"]))
    board = game.box.board
    if not board:
        pytest.skip("the test box has no board")
    for here in range(len(board)):
        for square in set(board):
            game.s.pawns[0] = here
            correct_pawn(game, 0, square)
            if board[here] == square:
                assert game.s.pawns[0] == here
            else:
                assert game.s.pawns[0] == min((i for i, sq in enumerate(board) if sq == square),
                                              key=lambda i: (i - here) % len(board))


def test_the_horizontal_groups_counted_in_one_pass_are_the_rulebooks():
    """MB10's horizontal bonus: a majority (6 lots) and two others of 3 lots or more per
    group of three; counted in one pass, which relies on a majority holding the 3 lots."""
    from engines.maxibourse.payday import HORIZONTAL_MIN_LOTS, MAJORITY_LOTS, horizontal_groups

    assert (MAJORITY_LOTS, HORIZONTAL_MIN_LOTS) == (6, 3)
    rng = random.Random(3)
    companies = ["A", "B", "C", "D", "E", "F"]
    for _ in range(2000):
        portfolio = {c: rng.randint(0, 10) for c in rng.sample(companies, rng.randint(0, 6))}
        majors = sum(1 for c in companies if portfolio.get(c, 0) >= MAJORITY_LOTS)
        enough = sum(1 for c in companies if portfolio.get(c, 0) >= HORIZONTAL_MIN_LOTS)
        assert horizontal_groups(companies, portfolio) == min(majors, enough // 3)
