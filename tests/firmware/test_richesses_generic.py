"""The generic pieces Richesses du Monde added to core and firmware, each on its own: the
checklist and arrangement domains, the checklist question built from a decision, and the
offer window's roles (tests/firmware/test_e2e_richesses.py plays them on the simulated box)."""
from engines.core.decision import Arrangement, Interactions, Subset
from firmware.controller import Controller
from firmware.menus import CHECK, Ctx, resolve
from firmware.session import Session
from engines.richesses.actions import Buy, First, Plaques, Roll
from engines.richesses.game import Richesses


def test_a_subset_is_distinct_items_of_the_list_between_its_bounds():
    domain = Subset(("A", "B", "C"), 1, 2)
    assert ("A",) in domain and ("C", "A") in domain
    assert () not in domain and ("A", "B", "C") not in domain       # too few, too many
    assert ("A", "A") not in domain and ("D",) not in domain and "A" not in domain
    assert str(domain.describe()) == "1 to 2 of: A, B, C"
    assert domain.describe().text("fr") == "de 1 à 2 parmi : A, B, C"
    assert domain.to_json() == {"subset": ["A", "B", "C"], "lo": 1, "hi": 2}


def test_an_arrangement_holds_each_item_exactly_as_often_as_listed():
    domain = Arrangement(("X", "X", "Y"))
    assert ("Y", "X", "X") in domain and ("X", "Y", "X") in domain
    assert ("X", "Y") not in domain and ("X", "Y", "Y") not in domain and ("X", "X", "Y", "Y") not in domain
    assert str(domain.describe()) == "an order of X x2, Y x1"
    assert domain.describe().text("fr") == "un ordre de X x2, Y x1"


def landed():
    game = Richesses({"game": "richesses", "players": ["Ana", "Ben", "Cid"], "seed": 1})
    game.apply(Plaques(tuple(p for p in game.box.productions for _ in range(2))))
    game.apply(First(0))
    game.apply(Roll(1, 2))                         # Canada
    return game


def test_a_checklist_question_ticks_and_unticks_then_validates():
    game = landed()
    ctx = Ctx(Session(game), "fr")
    option = game.decision().option("buy")
    assert game.decision().interaction.kind == Interactions.CHECKLIST
    filled, question = resolve(ctx, "buy", option, {})
    assert question.key == CHECK + "titles" and all(label.startswith("[ ]") for label, _ in question.items)
    assert "Valider" not in question.items[-1][0]   # nothing ticked: at least one title to buy
    first = question.items[0][1]
    filled, question = resolve(ctx, "buy", option, {question.key: first})
    assert question.items[0][0].startswith("[x]") and question.items[-1][0] == "Valider (1)"
    assert question.items[0][1] == ()               # choosing it again unticks it
    filled, question = resolve(ctx, "buy", option, {question.key: question.items[-1][1]})
    assert question is None and filled == {"player": 0, "titles": first}


def test_an_offer_window_asks_for_overbids_then_for_the_makers_answer():
    game = landed()
    game.apply(Buy(0, ("ARGENT-CANADA",)))
    game.apply(game.ACTIONS.parse("offer Ana ARGENT Ben 1000000", game.players))
    window = game.decision().interaction
    assert window.kind == Interactions.OFFER_WINDOW and window.roles == {"offer": "overbid", "silence": "close_offer"}
    assert window.params["offers"] == [[2, 1_100_000]] and window.params["silence_s"] == 7
    game.apply(game.ACTIONS.parse("close_offer", game.players))
    answer = game.decision()
    assert answer.interaction.roles == {"confirm": "accept", "silence": "lapse"} and answer.actor == 0
    c = Controller(None, seat_buttons=(0, 1, 2))
    c.attach(Session(game))
    assert c.stack[0]["t"] == "open_auction" and c.seats.lit() == {0}
