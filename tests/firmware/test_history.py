"""The evening's history on the box: every action with the cash it moved, and an undo back
to any earlier action, with what it undoes shown first, in one journal transaction."""
from e2e_box import E2EBox, journal_script
from engines.maxibourse.game import MaxiBourse
from engines.core.i18n import format_amount
from firmware.journal import Journal
from firmware.journal.reader import JournalReader

PICKS = "\n".join(f"pick {p} {c}" for p, c in zip(["Ana", "Ben", "Cid"] * 5, [
    "BARCLAYS", "CHASE", "DEUTSCHE", "BP", "ELF", "ESSO", "LEYLAND", "FIAT", "GM",
    "BSN", "COCA-COLA", "NESTLE", "COLGATE", "LOREAL", "UNILEVER"]))
SCRIPT = ("game maxibourse\nformat junior\nplayers Ana Ben Cid\nseed 3\nset rounds 2\n" + PICKS
          + "\nfirst Ana\nroll 1 2\nend\nroll 1 3\nend\n"
          + 'adjust_cash Cid -20000 "miscount"\n')


def open_history(box):
    box.long("ok")
    box.choose("Historique")
    assert box.screen.title == "Historique"


def test_history_shows_the_cash_each_action_moved_and_undoes_back_to_a_chosen_action(tmp_path):
    game = journal_script(tmp_path, SCRIPT)
    length = len(game.log)
    box = E2EBox(tmp_path)
    try:
        open_history(box)
        screen = box.screen
        assert screen.items[0] == f"{length}. " + screen.items[0].split(". ", 1)[1]   # newest first
        assert screen.lines == ("Cid -20 000 $",)                 # the correction's cash, signed, in dollars
        box.press("down")
        assert box.screen.lines == ("sans paiement",)             # an end of turn moves no cash
        box.press("down").press("down")                           # the roll of the turn before: action length-3
        undos = []
        journal_undo = Journal.undo
        Journal.undo = lambda self, gid, count=1: undos.append(count) or journal_undo(self, gid, count)
        try:
            box.press("ok")
            assert box.screen.title == f"Revenir avant l'action {length - 3} ?"
            assert box.screen.lines[0] == "4 actions annulées :"
            assert box.screen.items[box.screen.selected] == "Non"       # No first: it goes back several steps
            box.choose("Oui")
        finally:
            Journal.undo = journal_undo
        assert undos == [4]                                       # one transaction, one flush
        assert len(box.game.log) == length - 4
        assert box.c.news == (f"Retour avant l'action {length - 3} : 4 actions annulées",)
        with JournalReader(tmp_path / "state" / "journal.sqlite") as journal:
            gid = journal.last_game()
            replayed = MaxiBourse.replay(journal.header(gid), [MaxiBourse.ACTIONS.from_json(a) for a in journal.actions(gid)])
        expected = MaxiBourse.replay(game.header, game.log[:length - 4])
        assert replayed.snapshot() == box.game.snapshot() == expected.snapshot()
    finally:
        box.close()


def test_no_on_the_question_and_back_change_nothing(tmp_path):
    game = journal_script(tmp_path, SCRIPT)
    box = E2EBox(tmp_path)
    try:
        before = box.game.snapshot()
        open_history(box)
        box.press("down").press("ok")
        box.choose("Non")
        assert box.screen.title == "Historique"
        box.press("ok").press("back")                              # the question again, then Back
        assert box.screen.title == "Historique"
        assert box.game.snapshot() == before and len(box.game.log) == len(game.log)
    finally:
        box.close()


def test_past_games_are_listed_newest_first_with_their_standings(tmp_path):
    first = journal_script(tmp_path, SCRIPT + "close\n")
    journal_script(tmp_path, SCRIPT.replace("Ana", "Zoé").replace("Ben", "Yann").replace("Cid", "Xavier"))
    box = E2EBox(tmp_path)
    try:
        box.long("ok")
        box.choose("Parties")
        assert box.screen.items == ("2. Maxi Bourse * · Zoé Yann Xavier", "1. Maxi Bourse · Ana Ben Cid")
        box.press("down").press("ok")
        screen = box.screen
        assert screen.title == "Partie 1 · Maxi Bourse"
        assert screen.lines[:3] == ("Ana, Ben, Cid", f"{len(first.log)} actions", "Terminée")
        ranking = [f"{r}. {first.players[s]}  {format_amount(w)} $" for r, s, w in first.ranking()]
        assert list(screen.lines[3:3 + len(ranking)]) == ranking and len(ranking) == 3
        assert first.over
        box.press("ok").press("back").press("back")
        assert box.screen.title != "Menu" and len(box.game.log) == len(first.log) - 1   # nothing changed
    finally:
        box.close()
