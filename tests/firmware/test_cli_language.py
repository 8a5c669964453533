"""`corbeille --lang fr` says every message of every command in French: each command run on
a bad input and on a good one, its words French and none of the English words of the same
message left. What stays English is what is not ours to word: argparse's own usage lines,
the TOML parser's and SQLite's reasons quoted inside our messages, logs.

Most commands are called in this process (`corbeille`); each command also runs at least once
in its own process (`run`), exit status included."""
import json
from pathlib import Path

import pytest
from cli_helpers import call as corbeille
from cli_helpers import run

ROOT = Path(__file__).resolve().parents[2]
SONY = ROOT / "examples" / "sony.txt"
SHARK = ROOT / "examples" / "shark-under-way.txt"


def french(done, *said, absent=(), code=None):
    """`done` printed each of `said` and none of the English `absent`, and exited `code`."""
    out = done.stdout + done.stderr
    assert code is None or done.returncode == code, out
    for words in said:
        assert words in out, (words, out)
    for words in absent:
        assert words not in out, (words, out)
    assert "Traceback" not in out


@pytest.fixture
def journal(tmp_path):
    """A journal holding Maxi Bourse's example game."""
    path = tmp_path / "journal.sqlite"
    assert corbeille("script", SONY, "--journal", path).returncode == 0
    return path


# ------------------------------------------------------------------------------ script
@pytest.mark.parametrize("text, said, absent", [
    ("game maxibourse\nplayers Ana Ben\nfoo\n", "action inconnue « foo »", "unknown action"),
    ("game maxibourse\nseed 1 2\nplayers Ana Ben\n", "seed prend un nombre entier", "takes one whole number"),
    ("game maxibourse\nplayers\n", "donnez les noms des joueurs", "give the players"),
    ("game maxibourse\nseed\n", "seed prend un nombre entier", "takes one"),
    ("game maxibourse\nset rounds\n", "set prend un nom et une valeur", "takes a name"),
    ("game maxibourse\nplayers Ana Ben\nadjust_cash Ana +10 \"oops\n", "ligne illisible : guillemet non refermé",
     "No closing quotation"),
    ("game maxibourse\nplayers Ana Ben\nadjust_cash Ana 10 fix\n", "adjust_cash : variation s'écrit avec son signe",
     "must be written with its sign"),
    ("game maxibourse\nplayers Ana Ben\nadjust_cash Ana +1x fix\n", "doit être un nombre entier en chiffres",
     "must be a whole number"),
    ("game maxibourse\nplayers Ana Ben\nadjust_cash Zoe +10 fix\n", "joueur « Zoe » inconnu", "is not a player"),
    ("game shark\nplayers Ana Ben Cid\nput_building Ana Z99 RED\n", "une case s'écrit avec la lettre",
     "a cell is written"),
    ("game maxibourse\nbox nowhere.toml\nplayers Ana Ben\n", "fichier de boîte introuvable ; vérifiez le chemin",
     "not found"),
])
def test_a_scripts_mistakes_are_said_in_french(text, said, absent, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    french(corbeille("--lang", "fr", "script", path), said, absent=(absent,), code=1)


def test_a_script_that_cannot_be_read_and_one_that_plays_in_french(tmp_path):
    french(run("--lang", "fr", "script", tmp_path / "none.txt"), "script introuvable ; vérifiez le chemin",
           absent=("not found",), code=1)
    french(corbeille("--lang", "fr", "script", tmp_path), "est un dossier, pas un script", absent=("is a folder",),
           code=1)
    played = run("--lang", "fr", "script", SONY)
    assert played.returncode == 0 and played.stderr == "" and json.loads(played.stdout)["game"] == "maxibourse"


# --------------------------------------------------------------------------- box check
@pytest.mark.parametrize("text, said, absent", [
    ("lots_per_company = 1" + "0" * 5000 + "\n", "TOML invalide : un nombre de 5001 chiffres", "not valid TOML"),
    ("lots_per_company = " + "[" * 3000 + "\n", "TOML invalide : tableaux ou tables imbriqués", "nested too deeply"),
    (f"lots_per_company = {2 ** 70}\n", "dépasse le maximum 100, ce que le jeu peut contenir", "above the maximum"),
    ("lots_per_company = 1\ncolour = 2\n", "colour: clé inconnue ; clés connues", "unknown key"),
    (b"verified = true\n\xff\n", "l'octet 0xFF (colonne 1) n'est pas du texte UTF-8", "is not UTF-8 text"),
])
def test_box_check_says_a_files_mistake_in_french(text, said, absent, tmp_path):
    path = tmp_path / "mybox.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    french(corbeille("--lang", "fr", "box", "check", path, "--game", "maxibourse"), said, absent=(absent,), code=1)


@pytest.mark.parametrize("name, old, new, said, absent", [
    ("avendre", "number = 2\n", "number = 1\n", "titles[1].number: 1 apparaît deux fois ; chaque numéro de titre",
     "appears twice"),
    ("dividends", "start = 200", "start = 201", "track.start: 201 n'est pas sur la piste ; valeurs : 0, 50",
     "is not on the track"),
    ("maxibourse", '  "ACTION", "BARCLAYS"', '  "BARCLAYS", "ACTION"', "board.squares: doit commencer par 'ACTION'",
     "must start with"),
    ("shark", '  "111122223333",', '  "11112222333x",', "grid.rows[0]: 'x' en L1 n'est pas une zone ; possible : 1 à 6",
     "is not a zone"),
    ("richesses", 'id = "ARGENT"', 'id = "Argent"', "productions[1].id: 'Argent' doit être en majuscules",
     "must be upper case"),
    ("richesses", 'id = "ARGENT"', 'id = "ALUMINIUM"', "productions[1].id: 'ALUMINIUM' apparaît deux fois",
     "appears twice"),
    ("dividends", "0, 50, 100", "0, 100, 50", "track.values[2]: 50 après 100 : les valeurs doivent être croissantes",
     "must be increasing"),
])
def test_box_check_says_each_games_loader_mistakes_in_french(name, old, new, said, absent, tmp_path):
    text = (ROOT / "engines" / name / "box" / f"{name}.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "mybox.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    french(corbeille("--lang", "fr", "box", "check", path, "--game", name), f"{path}: {said}", absent=(absent,), code=1)
    english = corbeille("box", "check", path, "--game", name)
    assert english.returncode == 1 and absent in english.stderr


@pytest.mark.parametrize("name, said, absent", [
    ("avendre", ["43 titres : 30 commerces (PA, R) et 13 établissements (R) :", "60 cases :"], "squares:"),
    ("dividends", ["5 sociétés, 10 certificats chacune ; prix de chaque emplacement", "piste des dividendes 0 50",
                   "cartes influence : 4 par société, 4 pour n'importe quelle société"], "influence cards"),
    ("maxibourse", ["40 sociétés en 10 secteurs, 10 lots de 1000 actions", "plateau : 47 cases depuis ACTION (non vérifié",
                    "appris à la table : rien"], "learned at the table"),
    ("shark", ["carte du monde de 10 lignes x 12 colonnes (A1 en haut à gauche), 120 cases en 6 zones :"], "world map"),
    ("richesses", ["connu : 24 productions, 34 pays, 144 titres, 24 tables de royalties, 63 cases, 10 jokers",
                   "  ARGENT (Argent) : royalties 30 %", "appris à la table : rien"], "known:"),
])
def test_box_check_says_what_each_shipped_file_holds_in_french(name, said, absent):
    french(corbeille("--lang", "fr", "box", "check", ROOT / "engines" / name / "box" / f"{name}.toml", "--game", name),
           *said, absent=(absent, "not yet checked", "a box file of"), code=0)


def test_box_check_says_what_a_smaller_richesses_file_leaves_to_learn_in_french(tmp_path):
    from engines.richesses.box import load_box
    from engines.richesses.box_toml import dump

    path = tmp_path / "mybox.toml"
    path.write_text(dump(load_box(None), keep=("productions", "countries")), encoding="utf-8")
    french(corbeille("--lang", "fr", "box", "check", path, "--game", "richesses"),
           "connu : 24 productions, 34 pays\n", "appris à la table : 144 titres, 24 tables de royalties, le nombre de jokers",
           "manque pour commencer la partie : rien", "  ARGENT (Argent) : royalties inconnues ; titres aucun",
           "plateau : pas d'ordre des cases", absent=("learned at the table", "unknown"), code=0)


def test_box_check_says_a_good_file_its_schema_and_a_missing_argument_in_french(tmp_path):
    french(run("--lang", "fr", "box", "check", ROOT / "engines" / "dividends" / "box" / "dividends.toml"),
           ": un fichier de boîte de Dividends", "verified = false : pas encore vérifié sur la boîte de jeu",
           absent=("a box file of", "not yet checked"), code=0)
    french(corbeille("--lang", "fr", "box", "check", "--schema", "--game", "richesses"),
           "Les clés du fichier de boîte de richesses",
           "jokers: nombre entier, au moins 0, au plus 99, par défaut aucune valeur", "verified: true ou false, par défaut false",
           "bands: liste de nombres entiers, croissants, au plus 100, facultative",
           absent=("box file's keys", "at most", "required", "int,", "None", "False"), code=0)
    french(run("--lang", "fr", "box", "check"), "donnez le fichier de boîte à vérifier",
           absent=("give the box file",), code=2)
    french(corbeille("--lang", "fr", "box", "check", tmp_path), "est un dossier, pas un fichier de boîte",
           absent=("is a folder",), code=1)


# ------------------------------------------------------------------- box learned, import
def test_box_learned_says_a_game_that_learns_nothing_in_french(tmp_path):
    journal = tmp_path / "journal.sqlite"
    assert corbeille("script", SHARK, "--journal", journal).returncode == 0
    french(run("--lang", "fr", "box", "learned", "--journal", journal),
           "shark n'apprend rien à la table ; son fichier de boîte s'écrit à la main",
           absent=("learns nothing",), code=1)


def test_box_learned_says_the_file_it_wrote_in_french(tmp_path, monkeypatch, capsys):
    from firmware import box_files, cli

    shipped = (ROOT / "engines" / "richesses" / "box" / "richesses.toml").read_text(encoding="utf-8")
    monkeypatch.setattr(box_files, "learned_box_text", lambda header, recorded: (shipped, 2))
    monkeypatch.setattr(cli, "open_game", lambda args: (1, {"game": "richesses"}, []))
    out = tmp_path / "learned.toml"
    assert cli.main(["--lang", "fr", "box", "learned", "--out", str(out)]) == 0
    said = capsys.readouterr().err
    assert said == (f"{out} : 2 entrées apprises à la table ajoutées au fichier de boîte livré ; vérifiez-le avec "
                    f"« corbeille box check {out} --game richesses »\n")
    assert out.read_text(encoding="utf-8") == shipped


def test_box_import_says_the_file_it_wrote_in_french(tmp_path):
    sheet = ROOT / "engines" / "richesses" / "box" / "richesses-template.csv"
    out = tmp_path / "mybox.toml"
    french(run("--lang", "fr", "box", "import", sheet, "--game", "richesses", "--out", out),
           f"{out} : écrit depuis {sheet} ; vérifiez-le avec « corbeille box check", absent=("written from",), code=0)


# ------------------------------------------------------------------ export, replay, salvage
@pytest.mark.parametrize("command", ["export", "replay", "box learned"])
def test_a_missing_or_empty_journal_is_said_in_french(command, tmp_path):
    from firmware.journal import Journal

    french(corbeille("--lang", "fr", *command.split(), "--journal", tmp_path / "none.sqlite"),
           f"journal {tmp_path / 'none.sqlite'} : n'existe pas", absent=("does not exist",), code=1)
    french(corbeille("--lang", "fr", *command.split(), "--journal", tmp_path),
           "est un dossier, pas un fichier de journal", absent=("is a directory",), code=1)
    Journal(tmp_path / "empty.sqlite").close()
    french(corbeille("--lang", "fr", *command.split(), "--journal", tmp_path / "empty.sqlite"),
           "aucune partie enregistrée", absent=("no game recorded",), code=1)


def test_export_and_replay_of_a_good_journal_print_no_english(journal):
    exported = run("--lang", "fr", "export", "--journal", journal)
    assert exported.returncode == 0 and exported.stderr == "" and exported.stdout.startswith("game maxibourse\n")
    replayed = run("--lang", "fr", "replay", "--journal", journal)
    assert replayed.returncode == 0 and replayed.stderr == "" and json.loads(replayed.stdout)["game"] == "maxibourse"


def test_salvage_says_what_it_did_and_what_it_refused_in_french(journal, tmp_path):
    french(corbeille("--lang", "fr", "salvage", tmp_path / "none.sqlite"), "fichier introuvable",
           absent=("no such file",), code=1)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(bytes(range(256)) * 32)
    french(corbeille("--lang", "fr", "salvage", junk), f"rien n'a pu être récupéré de {junk}",
           absent=("nothing could be recovered",), code=1)
    out = tmp_path / "copy.sqlite"
    french(run("--lang", "fr", "salvage", journal, "--to", out), "1 partie récupérée et ",
           f"de {journal} dans {out}", "  partie 1 : maxibourse, Sophie, Thierry, Didier, Dominique : ",
           f"Lisez-le avec « corbeille export --journal {out} »", absent=("salvaged", "Read it with"), code=0)
    french(corbeille("--lang", "fr", "salvage", journal, "--to", out), f"{out} existe déjà ; donnez un autre nom",
           absent=("already exists",), code=1)


# ---------------------------------------------------------- web, publish, sim, configuration
@pytest.mark.parametrize("command, said, absent", [
    ("web", "vue web désactivée ([web] enabled dans les réglages d'origine)", "web view disabled"),
    ("publish", "publication vers la salle désactivée ([venue] enabled dans les réglages d'origine)",
     "venue publishing"),
])
def test_web_and_publish_check_say_in_french(command, said, absent, tmp_path, monkeypatch):
    monkeypatch.delenv("CORBEILLE_CONFIG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    french(run("--lang", "fr", command, "--check"), said, absent=(absent,), code=1)
    french(corbeille("--lang", "fr", "--config", tmp_path, command, "--check"),
           "est un dossier, pas un fichier de configuration", absent=("is a folder",), code=1)
    bad = tmp_path / "corbeille.toml"
    bad.write_text("[game]\nrounds = 1" + "0" * 5000 + "\n", encoding="utf-8")
    french(corbeille("--lang", "fr", "--config", bad, command, "--check"),
           f"{bad}:2: TOML invalide : un nombre de 5001 chiffres (les nombres d'un fichier de configuration",
           absent=("not valid TOML",), code=1)


@pytest.mark.parametrize("command", ["web --check", "publish --check", "venue", "export", "replay"])
@pytest.mark.parametrize("text, said, absent", [
    ("[web]\nenabled = 3\n", " : web.enabled = 3 : doit être true ou false", "must be true or false"),
    ("[webb]\n", " : section [webb] inconnue ; sections connues : board, boxes", "unknown section"),
    ("[web]\nenable = true\n", " : clé web.enable inconnue ; clés connues : access_point", "unknown key"),
    ("[game]\nlanguage = \"de\"\n", " : game.language = \"de\" : valeurs possibles : fr, en", "allowed values are"),
    ("[state]\ndir = \"here\"\n", " : state.dir = \"here\" : doit être un chemin absolu, ou \"\" pour la valeur",
     "must be an absolute path"),
    ("[venue]\nbroker = \"a b\"\n", " : venue.broker = \"a b\" : doit être le nom ou l'adresse du serveur MQTT", "broker's host name"),
])
def test_a_configurations_mistakes_are_said_in_french_by_every_command(command, text, said, absent, tmp_path):
    path = tmp_path / "corbeille.toml"
    path.write_text(text, encoding="utf-8")
    french(corbeille("--lang", "fr", "--config", path, *command.split()), f"{path}{said}", absent=(absent,), code=1)
    assert absent in corbeille("--config", path, *command.split()).stderr


def test_a_configuration_named_but_missing_is_said_in_french(tmp_path):
    french(run("--lang", "fr", "--config", tmp_path / "none.toml", "web", "--check"),
           f"{tmp_path / 'none.toml'} : fichier introuvable (nommé par --config)", absent=("no such file",), code=1)


def test_sim_without_a_terminal_says_so_in_french():
    french(run("--lang", "fr", "sim", stdin=""), "l'entrée standard n'est pas un terminal",
           "« corbeille script FICHIER »", absent=("is not a terminal",), code=2)


# ----------------------------------------------------------------------------- --help
def helps(parser, path=""):
    """(command path, name, help) of every help text of `parser`, its commands' too."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for pseudo in action._choices_actions:
                yield path, pseudo.dest, pseudo.help
            for name, sub in action.choices.items():
                yield from helps(sub, f"{path} {name}".strip())
        elif action.help not in (None, argparse.SUPPRESS) and action.dest != "help":
            yield path, action.dest, action.help


def test_every_help_text_of_ours_has_its_french_words():
    from firmware.cli import build_parser, in_language

    english = list(helps(build_parser()))
    translated = list(helps(in_language(build_parser(), "fr")))
    assert len(english) == len(translated) > 40
    same = [(path, name, text) for (path, name, text), (_, _, fr) in zip(english, translated) if text == fr]
    assert same == []


@pytest.mark.parametrize("args, said, absent", [
    (("--help",), "Banquier électronique pour jeux de bourse", "Electronic banker"),
    (("box", "check", "--help"), "afficher les clés que le fichier de boîte du jeu peut", "print the keys"),
    (("salvage", "-h"), "le journal abîmé (laissé tel quel)", "the damaged journal"),
])
def test_help_is_said_in_french(args, said, absent):
    french(run("--lang", "fr", *args), said, absent=(absent,), code=0)
    french(corbeille(*args[:-1], args[-1], "--lang=fr"), said, absent=(absent,), code=0)
    assert absent in corbeille(*args).stdout
