"""Richesses du Monde from the smallest box file (RM13 as amended): the productions' names and
the board's countries, everything else read off the cards at the table (`learn_title`,
`learn_royalties`, `learn_jokers`), journaled and undone like any action."""
import random

import pytest

from cli_helpers import call

from engines.core.deeds import Deed
from engines.core.errors import IllegalAction
from engines.core.learning import LEARNABLES
from engines.richesses.actions import Buy, Done, First, LearnJokers, LearnRoyalties, LearnTitle, Plaques, Roll
from engines.richesses.box import load_box
from engines.richesses.box_toml import dump
from engines.richesses.game import Richesses
from firmware.script import export_script, run_script
from test_game_contract import Drawer

NAMES = ["Ana", "Ben", "Cid"]
SMALLEST = ("productions", "countries", "squares")


@pytest.fixture
def smallest(tmp_path):
    path = tmp_path / "smallest.toml"
    path.write_text(dump(load_box(), keep=SMALLEST), encoding="utf-8")
    return path


def new_game(box, players=3):
    game = Richesses({"game": "richesses", "players": NAMES[:players], "seed": 1, "box": str(box)})
    game.apply(Plaques(tuple(p for p in game.box.productions for _ in range(2))))
    game.apply(First(0))
    return game


def first_country(game):
    """The number of the first country square the dice can reach from the start."""
    return next(sq for sq in game.box.squares if sq.kind == "country" and 2 <= sq.number <= 12)


def roll_to(square):
    white = min(6, square.number - 1)
    return Roll(white, square.number - white) if white != square.number - white else Roll(white - 1, square.number - white + 1)


def to_country(game):
    """Ana rolls onto the first country square; its titles are offered to learn."""
    square = first_country(game)
    game.apply(roll_to(square))
    return square


def shipped_title(country):
    return next(t for t in load_box().titles.values() if t.country == country)


def test_the_smallest_file_reads_and_knows_no_title_no_table_no_joker(smallest):
    box = load_box(smallest)
    assert len(box.productions) == 24 and not box.titles and box.jokers is None
    assert all(not p.bands for p in box.productions.values())
    assert LEARNABLES["richesses"] == ("learn_title", "learn_royalties", "learn_jokers")


def test_a_title_met_on_a_country_is_learned_then_bought(smallest):
    game = new_game(smallest)
    square = to_country(game)
    decision = game.decision()
    assert decision.prompt == "prompt.rm.learn_title"
    play = [o.kind for o in decision.options if game.correction(o.kind) is None]   # corrections beside
    assert play == ["learn_title", "done"]     # nothing known to buy yet
    title = shipped_title(square.country)
    events = game.apply(LearnTitle(title.production, title.country, title.percent, title.price))
    assert events[0].key == "rm.learned_title"
    assert game.box.titles[title.id].percent == title.percent
    assert title.id in game.decision().option("buy").fields["titles"].values
    cash = game.cash(0)
    game.apply(Buy(0, (title.id,)))
    assert game.cash(0) == cash - title.price and game.s.deeds.owner(title.id) == 0


def test_undo_forgets_the_title_and_replay_learns_it_again(smallest):
    game = new_game(smallest)
    square = to_country(game)
    title = shipped_title(square.country)
    before = game.snapshot()
    game.apply(LearnTitle(title.production, title.country, title.percent, title.price))
    after = game.snapshot()
    game.undo()
    assert game.snapshot() == before and title.id not in game.box.titles and title.id not in game.s.deeds.items
    game.apply(game.ACTIONS.parse(f"learn_title {title.production} {title.country} {title.percent} {title.price}",
                                  game.players))
    replayed = Richesses.replay(game.header, game.log)
    assert replayed.snapshot() == after == game.snapshot()


@pytest.mark.parametrize("change, key", [
    ({"percent": 101}, "error.rm.learn_percent"),
    ({"percent": 0}, "error.rm.learn_percent"),
    ({"price": 0}, "error.rm.learn_price"),
    ({"production": "NOPE"}, "error.rm.unknown_production"),
])
def test_a_bad_title_is_refused_with_the_rule_and_changes_nothing(smallest, change, key):
    game = new_game(smallest)
    square = to_country(game)
    title = shipped_title(square.country)
    values = {"production": title.production, "country": title.country, "percent": title.percent,
              "price": title.price} | change
    before = game.snapshot(), len(game.log)
    with pytest.raises(IllegalAction) as refused:
        game.apply(LearnTitle(**values))
    assert refused.value.key == key
    assert (game.snapshot(), len(game.log)) == before


@pytest.mark.parametrize("change, rule", [
    ({"percent": 101}, ("add up to 100 % at most", "font au plus 100 %")),
    ({"price": 0}, ("a title costs more than 0", "un titre coûte plus de 0")),
])
def test_a_bad_title_is_refused_naming_the_rule_in_both_languages(smallest, change, rule):
    game = new_game(smallest)
    title = shipped_title(to_country(game).country)
    values = {"production": title.production, "country": title.country, "percent": title.percent,
              "price": title.price} | change
    with pytest.raises(IllegalAction) as refused:
        game.apply(LearnTitle(**values))
    assert rule[0] in refused.value.message("en") and rule[1] in refused.value.message("fr")


def test_a_title_known_already_is_refused(smallest):
    game = new_game(smallest)
    square = to_country(game)
    title = shipped_title(square.country)
    act = LearnTitle(title.production, title.country, title.percent, title.price)
    game.apply(act)
    with pytest.raises(IllegalAction) as refused:
        game.apply(act)
    assert refused.value.key == "error.rm.title_known"


def test_percents_of_a_trust_never_add_up_above_100(smallest):
    game = new_game(smallest)
    square = to_country(game)
    others = [c for c in game.box.countries if c != square.country][:1]
    game.s.learned = (("title", f"ARGENT-{others[0]}", "ARGENT", others[0], 90, 500_000),)
    game._checkpoints = {len(game.log): game.frozen_state()}
    with pytest.raises(IllegalAction) as refused:
        game.apply(LearnTitle("ARGENT", square.country, 15, 500_000))
    assert refused.value.key == "error.rm.learn_percent" and refused.value.params["most"] == 10


def test_royalties_owed_on_an_unknown_table_wait_for_it_then_are_paid(smallest):
    full = load_box()
    game = new_game(smallest)
    square = first_country(game)
    production = game.s.plaques[str(square.number)]
    # Ben holds the whole trust of the plaque's production, its titles read at an earlier turn
    for t in (t for t in full.titles.values() if t.production == production):
        game.s.learned += (("title", t.id, t.production, t.country, t.percent, t.price),)
        game.s.deeds.items[t.id] = Deed(t.id, t.price, 1)
    game._checkpoints = {len(game.log): game.frozen_state()}
    game.apply(roll_to(square))
    assert game.decision().prompt == "prompt.rm.learn_royalties"
    assert game.decision().params["production"] == production
    table = full.productions[production]
    with pytest.raises(IllegalAction) as refused:
        game.apply(LearnRoyalties(production, (40, 1_000_000, 50, 2_000_000, 70, 3_000_000, 90, 4_000_000)))
    assert refused.value.key == "error.rm.learn_bands"
    ana, ben = game.cash(0), game.cash(1)
    events = game.apply(LearnRoyalties(production, tuple(v for pair in zip(table.bands, table.royalties)
                                                          for v in pair)))
    assert [e.key for e in events][:2] == ["rm.learned_royalties", "rm.royalties"]
    paid = table.royalty(100)
    assert game.cash(0) == ana - paid and game.cash(1) == ben + paid
    assert game.decision().prompt in ("prompt.rm.learn_title", "prompt.rm.buy")


def test_the_joker_pile_is_counted_at_the_first_joker_square(smallest):
    game = new_game(smallest)
    joker = next(sq for sq in game.box.squares if sq.kind == "joker")
    game.s.track.positions[0] = joker.number - 4
    game._checkpoints = {len(game.log): game.frozen_state()}
    game.apply(Roll(1, 3))
    assert game.decision().prompt == "prompt.rm.learn_jokers"
    game.apply(LearnJokers(10))
    assert game.s.joker_stock == 10 and game.decision().prompt == "prompt.rm.joker"
    with pytest.raises(IllegalAction) as refused:
        game.apply(LearnJokers(12))
    assert refused.value.key == "error.rm.jokers_known" and game.s.joker_stock == 10


# ------------------------------------------------------- the same game, two box files
def teach(small, full, complete):
    """What the operator reads off the cards: every learning the small game asks for, from
    the complete box, until it waits on the same decision as the complete game."""
    while True:
        decision = small.decision()
        option = decision.option("learn_title")
        if decision.prompt == "prompt.rm.learn_royalties":
            p = full.productions[decision.params["production"]]
            small.apply(LearnRoyalties(p.id, tuple(v for pair in zip(p.bands, p.royalties) for v in pair)))
        elif decision.prompt == "prompt.rm.learn_jokers":
            small.apply(LearnJokers(full.jokers))
        elif option is not None:
            countries, productions = option.fields["country"].values, option.fields["production"].values
            todo = [t for t in full.titles.values() if t.country in countries and t.production in productions
                    and t.id not in small.box.titles]
            if not todo:       # no card left to read here: the table goes on as the complete game
                if decision.prompt == "prompt.rm.learn_title" and complete.decision().prompt != "prompt.rm.buy":
                    small.apply(Done(decision.actor))
                return
            t = todo[0]
            small.apply(LearnTitle(t.production, t.country, t.percent, t.price))
        else:
            return


def same(node):
    """A snapshot with its lists of names in order (a title learned late is last in the box),
    without what only the knowledge of the box changes: the stock holds the titles known,
    the pending decision offers to learn the others."""
    if isinstance(node, dict) and "royalty" in node:      # a trust: its table may be unread yet
        return {k: same(v) for k, v in node.items() if k != "royalty"}
    if isinstance(node, dict):
        return {k: same(v) for k, v in node.items() if k not in ("learned", "stock", "pending", "joker_stock", "actions")}
    if isinstance(node, list):
        items = [same(v) for v in node]
        return sorted(items) if all(isinstance(v, str) for v in items) else items
    return node


@pytest.mark.parametrize("seed", [3, 11])
def test_a_game_from_the_smallest_file_is_the_game_of_the_complete_file(smallest, tmp_path, seed):
    full = load_box()
    small, complete = new_game(smallest), new_game(load_box().path)
    teach(small, full, complete)
    draw = Drawer(random.Random(seed))
    for _ in range(400):
        if complete.over:
            break
        act = draw(complete)
        try:
            complete.apply(act)
        except IllegalAction:
            continue
        small.apply(act)
        teach(small, full, complete)
        assert same(small.snapshot()) == same(complete.snapshot())
        assert set(small.view()["stock"]) <= set(complete.view()["stock"])
        if small.box.jokers is not None:     # the pile counted
            assert small.s.joker_stock == complete.s.joker_stock
    assert complete.over and small.over, "played to the end"
    assert {entry[0] for entry in small.s.learned} >= {"title", "royalties"}
    # replayed, and exported as a script run again, it is the same game; written back, what
    # it learned is a box file that `box check` passes
    replayed = Richesses.replay(small.header, small.log)
    assert replayed.snapshot() == small.snapshot()
    exported = run_script(export_script(small.header, small.log))
    assert exported.snapshot() == small.snapshot() and same(exported.snapshot()) == same(complete.snapshot())
    learned = tmp_path / "learned.toml"
    learned.write_text(dump(small.learned_box()), encoding="utf-8")
    again = load_box(learned)
    assert all(again.titles[t] == full.titles[t] for t in small.box.titles)
    checked = call("box", "check", learned, "--game", "richesses")
    assert checked.returncode == 0, checked.stdout + checked.stderr


# ------------------------------------------------ kept: the box file the table learned
def cli(*args):
    """`corbeille ARGS` in a process of its own, as the owner runs `box learned`; the other
    commands here are asked of firmware.cli in this process (`call`)."""
    import subprocess
    import sys
    from pathlib import Path
    return subprocess.run([sys.executable, "-m", "firmware.cli", *map(str, args)],
                          cwd=Path(__file__).resolve().parents[3], capture_output=True, text=True, timeout=60)


def test_box_learned_writes_the_owners_file_with_what_the_table_read_and_box_check_passes(smallest, tmp_path):
    game = new_game(smallest)
    square = to_country(game)
    title = shipped_title(square.country)
    script = tmp_path / "evening.txt"
    script.write_text(f"game richesses\nbox {smallest}\nplayers Ana Ben Cid\nseed 1\n"
                      + "".join(game.ACTIONS.format(a, game.players) + "\n" for a in game.log)
                      + f"learn_title {title.production} {title.country} {title.percent} {title.price}\n",
                      encoding="utf-8")
    journal = tmp_path / "journal.sqlite"
    done = call("script", script, "--journal", journal)
    assert done.returncode == 0, done.stderr
    before = smallest.read_text(encoding="utf-8")
    out = tmp_path / "learned.toml"
    done = cli("box", "learned", "--journal", journal, "--out", out)
    assert done.returncode == 0, done.stderr
    assert "1 entry learned at the table" in done.stderr
    assert smallest.read_text(encoding="utf-8") == before                   # the owner's file untouched
    learned = load_box(out)
    assert learned.titles[title.id] == title and len(learned.titles) == 1
    done = call("box", "check", out, "--game", "richesses")
    assert done.returncode == 0 and ", 1 title," in done.stdout and "learned at the table: 143 titles" in done.stdout, done.stderr
    # the next game from the learned file knows the title without asking
    again = new_game(out)
    to_country(again)
    assert title.id in again.decision().option("buy").fields["titles"].values
