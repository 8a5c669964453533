"""End to end, Richesses du Monde from the smallest box file (RM13 as amended) on simulated
buttons: a title read off the stock is learned with its production from the list and its
percent and price with the amount entry, journaled, bought, undone in two presses; a
royalty table first owed and the joker pile are asked the same way."""
from e2e_box import E2EBox, journal_script
from engines.richesses.box import load_box
from engines.richesses.box_toml import dump
from firmware.journal.reader import JournalReader


def smallest_box(tmp_path):
    path = tmp_path / "smallest.toml"
    path.write_text(dump(load_box(), keep=("productions", "countries", "squares")), encoding="utf-8")
    return path


def start(tmp_path, lines=""):
    path = smallest_box(tmp_path)
    journal_script(tmp_path, f"game richesses\nbox {path}\nplayers Ana Ben Cid\nseed 3\nplaques\nfirst Ana\n{lines}")
    return E2EBox(tmp_path, seats=3, extra={"game": {"dice": "device"}})


def test_a_title_the_box_does_not_know_is_read_off_the_card_then_bought(tmp_path):
    box = start(tmp_path)
    game = box.game
    box.press("ok")                                            # the device's dice: 4 and 3, square 7
    square = game.step.landed
    assert box.screen.title == "Carte inconnue ?" and box.items()[:2] == ["Titre inconnu", "Rien"]
    box.choose("Titre inconnu")
    assert box.screen.lines == ("Production de la carte ?",) and box.items()[1] == "Argent"
    box.choose("Argent")                                       # the country is the square's: not asked
    assert box.screen.lines[0] == "Pourcentage imprimé ?" and box.items() == ["5 %"]
    box.press("up").press("up").press("ok")                    # 15 %
    assert box.screen.lines[0] == "Prix imprimé ?" and box.items() == ["500 000 F"]
    box.press("up").press("up").press("ok")                    # 1 500 000
    tid = f"ARGENT-{square.country}"
    assert game.log[-1].to_json() == {"kind": "learn_title", "production": "ARGENT", "country": square.country,
                                      "percent": 15, "price": 1_500_000}
    assert box.screen.lines[0].startswith("Titre appris : Argent") and box.items()[0] == "Acheter"
    with JournalReader(tmp_path / "state" / "journal.sqlite") as reader:     # journaled before it was shown
        assert reader.actions(reader.last_game())[-1] == game.log[-1].to_json()
    box.long("back")                                           # undone in two presses
    assert box.screen.lines[0].startswith("Annuler")
    box.press("ok")
    assert tid not in game.box.titles and game.log[-1].kind == "roll"
    box.choose("Titre inconnu").choose("Argent").press("up").press("up").press("ok").press("up").press("up")
    box.press("ok")
    cash = game.cash(0)
    box.choose("Acheter").press("ok").choose("Valider")
    assert game.s.deeds.owner(tid) == 0 and game.cash(0) == cash - 1_500_000


def test_the_joker_pile_is_counted_on_the_amount_entry(tmp_path):
    joker = next(sq for sq in load_box().squares if sq.kind == "joker")
    box = start(tmp_path, f'set_pawn Ana {joker.number - 4} 0 "placed"\nroll 1 3\n')
    game = box.game
    assert box.screen.title == "Jokers ?" and "Cartes Joker ?" in box.screen.lines and box.items() == ["10"]
    box.press("up").press("ok")                                # 11 cards in this copy
    assert game.log[-1].to_json() == {"kind": "learn_jokers", "jokers": 11}
    assert game.s.joker_stock == 11 and game.decision().prompt == "prompt.rm.joker"


def test_a_new_game_plays_the_owners_file_from_the_boxes_folder(tmp_path):
    """[boxes] dir: a new game of Richesses du Monde reads <dir>/richesses.toml (what `box
    learned --out` writes), recorded in its header so a replay reads the same file."""
    folder = tmp_path / "boxes"
    folder.mkdir()
    owner = folder / "richesses.toml"
    owner.write_text(dump(load_box(), keep=("productions", "countries", "squares")).replace(
        "verified = false", "verified = true"), encoding="utf-8")
    box = E2EBox(tmp_path, seats=3, extra={"boxes": {"dir": str(folder)}})
    assert box.screen.title == "Nouvelle partie"
    box.choose("Richesses du Monde").choose("3 joueurs").choose("Couleurs").choose("Jouer")
    box.press("ok")                                            # the plaques
    assert box.game.header["box"] == str(owner) and not box.game.box.titles


def learned_writes(monkeypatch) -> list:
    """The durable writes (fsyncs) of files in the state folder's learned/, as they happen."""
    import os
    writes, fsync = [], os.fsync

    def counted(fd):
        path = os.readlink(f"/proc/self/fd/{fd}")
        if "/learned/" in path:
            writes.append(path.replace(".partial", ".toml"))
        return fsync(fd)
    monkeypatch.setattr(os, "fsync", counted)
    return writes


def test_what_the_table_learned_is_kept_when_the_menu_asks_and_nothing_is_written_meanwhile(tmp_path, monkeypatch):
    """Learning writes nothing (the journal has it; the card wears with every write): the
    menu's "Sauver données apprises" writes learned/richesses-<game>.toml once, the owner's
    file with what was learned folded in, which the next new game reads unless [boxes] dir
    has the owner's own; menu moves and a second save with nothing new write nothing."""
    writes = learned_writes(monkeypatch)
    box = start(tmp_path)
    game = box.game
    kept = tmp_path / "state" / "learned" / f"richesses-{box.c.session.game_id}.toml"
    box.press("ok")                                            # the dice; nothing learned yet
    square = game.step.landed
    box.choose("Titre inconnu").choose("Argent").press("ok").press("ok")
    assert game.s.learned and not kept.exists() and writes == []
    box.long("ok")
    assert "Sauver données apprises" in box.items()
    box.press("down").press("up")                              # menu moves: nothing written
    assert writes == []
    box.choose("Sauver données apprises")
    assert writes == [str(kept)] and box.screen.title == "Données apprises"
    assert box.screen.lines == (f"1 donnée apprise sauvée dans {kept.name} : la prochaine partie les propose.",)
    learned = load_box(kept)
    assert learned.titles[f"ARGENT-{square.country}"].percent == 5 and len(learned.titles) == 1
    assert box.c.defaults.owner_box("richesses") == kept
    box.press("ok").long("ok").choose("Sauver données apprises")
    assert writes == [str(kept)]                               # the file holds it already


def test_what_the_table_learned_is_kept_when_the_unfinished_game_is_left(tmp_path, monkeypatch):
    writes = learned_writes(monkeypatch)
    box = start(tmp_path)
    kept = tmp_path / "state" / "learned" / f"richesses-{box.c.session.game_id}.toml"
    box.press("ok")
    box.choose("Titre inconnu").choose("Argent").press("ok").press("ok")
    box.long("ok").choose("Nouvelle partie")
    assert writes == []                                        # asked, not left yet
    box.choose("Oui")
    assert writes == [str(kept)] and len(load_box(kept).titles) == 1


def test_the_menu_offers_no_save_before_anything_is_learned(tmp_path):
    box = start(tmp_path)
    box.long("ok")
    assert "Sauver données apprises" not in box.items() and "Parties" in box.items()


def test_an_owners_file_with_a_mistake_is_named_and_the_box_goes_on(tmp_path):
    folder = tmp_path / "boxes"
    folder.mkdir()
    (folder / "richesses.toml").write_text('verified = true\njokers = "dix"\n', encoding="utf-8")
    box = E2EBox(tmp_path, seats=3, extra={"boxes": {"dir": str(folder)}})
    box.choose("Richesses du Monde").choose("3 joueurs").choose("Couleurs").choose("Continuer").choose("Jouer")
    shown = " ".join(box.screen.lines)
    assert "richesses.toml" in shown and "jokers" in shown and box.c.session is None


def learned_then_setup(tmp_path, extra=None):
    """A game that learned a title, left for the setup (which keeps what it learned), the
    next game's setup taken to its summary: (the box, the learned file)."""
    box = start(tmp_path) if extra is None else E2EBox(tmp_path, seats=3, extra=extra)
    kept = tmp_path / "state" / "learned" / f"richesses-{box.c.session.game_id}.toml"
    box.press("ok")
    box.choose("Titre inconnu").choose("Argent").press("ok").press("ok")
    return next_setup(box), kept


def next_setup(box):
    """The game left for a new one of Richesses du Monde, taken to the setup's summary."""
    box.long("ok").choose("Nouvelle partie").choose("Oui")
    box.choose("Nouvelle partie").choose("Richesses du Monde").choose("3 joueurs").choose("Couleurs")
    if box.screen.title == "Boîte de jeu":                    # the file is unverified, as the owner's was
        box.choose("Continuer")
    return box


def test_the_next_setup_offers_the_learned_box_by_default(tmp_path):
    box, kept = learned_then_setup(tmp_path)
    game_id = box.c.session.game_id
    box.choose("Régler")
    assert f"Boîte : apprise (partie {game_id})" in box.items()
    box.choose("Terminé").choose("Jouer")
    assert box.c.session.game_id != game_id and box.game.header["box"] == str(kept)
    assert len(box.game.box.titles) == 1                      # the title learned, known without asking


def test_the_setup_steps_the_box_to_the_owners_and_the_shipped_file(tmp_path):
    folder = tmp_path / "boxes"
    folder.mkdir()
    owner = folder / "richesses.toml"
    owner.write_text(smallest_box(tmp_path).read_text(encoding="utf-8"), encoding="utf-8")
    journal_script(tmp_path, f"game richesses\nbox {owner}\nplayers Ana Ben Cid\nseed 3\nplaques\nfirst Ana\n")
    box, kept = learned_then_setup(tmp_path, extra={"game": {"dice": "device"}, "boxes": {"dir": str(folder)}})
    box.choose("Régler").choose("Boîte : apprise")             # OK steps it to the next file
    assert "Boîte : du propriétaire" in box.items()
    box.choose("Terminé").choose("Jouer")
    assert box.game.header["box"] == str(owner) and not box.game.box.titles
    next_setup(box).choose("Régler").choose("Boîte : apprise").choose("Boîte : du propriétaire")
    assert "Boîte : livrée" in box.items()
    box.choose("Terminé").choose("Jouer")
    assert "box" not in box.game.header and len(box.game.box.titles) == 144



def test_a_save_the_card_refuses_is_said_and_the_game_goes_on(tmp_path):
    box = start(tmp_path)
    box.press("ok")
    box.choose("Titre inconnu").choose("Argent").press("ok").press("ok")
    (tmp_path / "state" / "learned").write_text("not a folder", encoding="utf-8")   # the folder cannot be made
    actions = len(box.game.log)
    box.long("ok").choose("Sauver données apprises")
    assert box.screen.kind == "error" and any("Données apprises non sauvées" in line for line in box.screen.lines)
    assert len(box.game.log) == actions and box.game.s.learned


def test_in_english_the_setup_names_the_box_files_and_the_menu_saves(tmp_path):
    box = start(tmp_path)
    box.press("ok")
    box.choose("Titre inconnu").choose("Argent").press("ok").press("ok")
    box.long("ok").choose("English")
    if box.screen.title != "Menu":
        box.long("ok")
    box.choose("Save box data learned")
    assert box.screen.title == "Box data learned" and "1 entry learned saved in" in box.screen.lines[0]
    box.press("ok").long("ok").choose("New game").choose("Yes")
    box.choose("New game").choose("Richesses du Monde").choose("3 players").choose("Colours")
    if box.screen.title == "Game box":
        box.choose("Continue")
    box.choose("Adjust")
    assert f"Box: learned (game {box.c.session.game_id})" in box.items()
    box.choose("Box: learned")
    assert "Box: as shipped" in box.items()
