"""Catalogs: each game's keys under its own prefix, and no key defined by two catalogs.

Merged silently, a key two catalogs define would show whichever catalog was registered
last, in both games; registration refuses it instead, naming both files.
"""
import json
import re
from importlib import import_module
from pathlib import Path

import pytest

from engines.core import i18n
from engines.core.i18n import CatalogClash, catalog, register_catalog, text
from engines.registry import PACKAGES, GameSpec, add, games
from firmware import texts  # noqa: F401 (registers the box's catalog)
from firmware.setup_flow import options


@pytest.fixture
def fresh_catalogs(monkeypatch):
    """The registered catalogs as they are, restored after the test."""
    monkeypatch.setattr(i18n, "_catalogs", {lang: dict(entries) for lang, entries in i18n._catalogs.items()})
    monkeypatch.setattr(i18n, "_origins", {lang: dict(entries) for lang, entries in i18n._origins.items()})
    monkeypatch.setattr(i18n, "_registered", set(i18n._registered))


def write_catalog(folder, fr, en):
    folder.mkdir()
    (folder / "fr.json").write_text(json.dumps(fr), encoding="utf-8")
    (folder / "en.json").write_text(json.dumps(en), encoding="utf-8")
    return folder


def test_a_key_another_catalog_defines_is_refused_naming_both_files(tmp_path, fresh_catalogs):
    folder = write_catalog(tmp_path / "locale", {"ui.lots": "{amount} F", "ui.zz.new": "neuf"},
                           {"ui.lots": "{amount} F", "ui.zz.new": "new"})
    before = {lang: dict(catalog(lang)) for lang in i18n.LANGUAGES}
    with pytest.raises(CatalogClash) as refused:
        register_catalog(folder)
    message = str(refused.value)
    assert str(folder / "fr.json") in message and str(texts.LOCALE.resolve() / "fr.json") in message
    assert "ui.lots" in message and "ui.zz.new" not in message
    # all or nothing: neither the clashing key nor the new one went in
    assert {lang: catalog(lang) for lang in i18n.LANGUAGES} == before


def test_a_catalog_of_its_own_keys_is_registered(tmp_path, fresh_catalogs):
    folder = write_catalog(tmp_path / "locale", {"ui.zz.new": "neuf"}, {"ui.zz.new": "new"})
    register_catalog(folder)
    register_catalog(folder)  # twice is once, not a clash with itself
    assert catalog("fr")["ui.zz.new"] == "neuf" and catalog("en")["ui.zz.new"] == "new"


def test_the_registry_refuses_a_prefix_two_games_share_or_a_missing_one():
    specs = {}
    add(specs, GameSpec("alpha", "x:Alpha", prefix="al", players=(2, 6)))
    with pytest.raises(ValueError, match="'alpha' and 'beta' both use the catalog prefix 'al'"):
        add(specs, GameSpec("beta", "x:Beta", prefix="al", players=(2, 6)))
    with pytest.raises(ValueError, match="catalog prefix '' must be"):
        add(specs, GameSpec("gamma", "x:Gamma"))
    assert list(specs) == ["alpha"]


def registered_catalogs():
    """Every registered game's package imported (it registers its catalogs: the setup shows
    their labels before any engine is loaded), then the merged catalog of each language."""
    games()
    return {lang: catalog(lang) for lang in i18n.LANGUAGES}


def game_labels(name):
    """The box's labels a registered game needs: the menu label and line of every action
    kind (`ui.kind.<prefix>.<kind>`, `ui.act.<prefix>.<kind>`), and for every declared setting
    (the setup's Options list them) its label and, for one declared with a list of values,
    each value's (a number or a text is shown as it is)."""
    entry = games()[name]
    keys = [f"ui.{section}.{entry.prefix}.{kind}" for kind in entry.engine_class().ACTIONS.kinds()
            for section in ("kind", "act")]
    for setting, allowed in options(name).items():
        keys.append(f"ui.opt.{entry.prefix}.{setting}")
        if isinstance(allowed, tuple):
            keys += [f"ui.opt.{entry.prefix}.{setting}.{value}" for value in allowed]
    return keys


@pytest.mark.parametrize("name", list(games()))
def test_every_registered_game_has_its_labels_in_a_registered_catalog(name):
    """Whichever catalog holds them (a new game's own engines/<name>/locale suffices), every
    kind and every setting the setup offers of every registered game has its labels in both
    languages."""
    merged = registered_catalogs()
    missing = [(lang, key) for lang in i18n.LANGUAGES for key in game_labels(name) if key not in merged[lang]]
    assert not missing, f"{name}: no registered catalog defines {missing}"


def test_the_box_labels_of_a_game_key_belong_to_a_registered_game():
    """ui.kind.<prefix>.*, ui.act.<prefix>.*, ui.opt.<prefix>.*: every such key belongs to one
    registered game."""
    prefixes = {entry.prefix for entry in games().values()}
    for lang, entries in registered_catalogs().items():
        for key in entries:
            if key.startswith(("ui.kind.", "ui.act.", "ui.opt.")):
                assert key.split(".")[2] in prefixes, (lang, key)


def keys_naming_a_game(keys):
    """The keys with a segment that is a registered game's prefix or name."""
    marks = {entry.prefix for entry in games().values()} | set(games())
    return [key for key in keys if marks & set(key.split("."))]


def test_the_box_catalog_names_no_game():
    """firmware/locale holds the box's own texts only: no key carries a registered game's
    prefix or name (a game's texts live in its package's catalogs, so adding a game does not
    touch the box's catalog)."""
    for lang in i18n.LANGUAGES:
        keys = json.loads((texts.LOCALE / f"{lang}.json").read_text(encoding="utf-8"))
        assert not keys_naming_a_game(keys), lang


def test_a_game_key_left_in_the_box_catalog_would_be_caught():
    keys = ["ui.kind.mb.pick", "ui.game.dividends", "ui.title.dv.dice", "ui.menu.undo", "ui.q.company"]
    assert keys_naming_a_game(keys) == ["ui.kind.mb.pick", "ui.game.dividends", "ui.title.dv.dice"]


@pytest.mark.parametrize("package", PACKAGES)
def test_a_games_own_catalog_says_everything_in_both_languages(package):
    folder = Path(import_module(f"engines.{package}").__file__).parent / "locale"
    fr, en = (json.loads((folder / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("fr", "en"))
    assert sorted(set(fr) ^ set(en)) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_key_of_a_games_own_catalog_carries_its_prefix(package):
    """error.<prefix>.*, prompt.<prefix>.*, event.<prefix>.*, ui.kind.<prefix>.*, ui.<prefix>.*...:
    a game's key can clash with no other game's, whatever the next game names its own."""
    entry = import_module(f"engines.{package}").GAME
    folder = Path(import_module(f"engines.{package}").__file__).parent / "locale"
    for lang in i18n.LANGUAGES:
        keys = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
        unmarked = [key for key in keys if not {entry.prefix, entry.name} & set(key.split("."))]
        assert not unmarked, (package, lang, unmarked)


# ---- plurals: a number's word agrees with it ------------------------------------
def test_plural_field_agrees_with_its_number_in_each_language():
    from engines.core.i18n import _Formatter, singular
    fr, en = _Formatter("fr"), _Formatter("en")
    line = "{lots} {lots:lot|lots} demandé{lots:|s}"
    assert [fr.format(line, lots=n) for n in (0, 1, 2, 1500)] == [
        "0 lot demandé", "1 lot demandé", "2 lots demandés", "1 500 lots demandés"]
    assert [en.format("{n} {n:turn|turns}", n=n) for n in (0, 1, 2, 1500)] == [
        "0 turns", "1 turn", "2 turns", "1,500 turns"]
    assert fr.format("{players:joueur|joueurs} : {players}", players=["Ana", "Bob"]) == "joueurs : Ana, Bob"
    assert singular(-1, "en") and singular(0, "fr") and not singular(0, "en")


def test_french_elides_de_before_a_value_starting_with_a_vowel():
    """"victoire d'Ana", "Combien d'ELF ?": a template says "de {player}" whoever plays;
    a consonant, a number or English keeps "de" as written."""
    from engines.core.i18n import _Formatter
    fr, en = _Formatter("fr"), _Formatter("en")
    line = "Fin du jeu : victoire de {winners}"
    assert [fr.format(line, winners=w) for w in (["Ana", "Ben"], ["Ben"], ["Émile"], ["Yves"])] == [
        "Fin du jeu : victoire d'Ana, Ben", "Fin du jeu : victoire de Ben",
        "Fin du jeu : victoire d'Émile", "Fin du jeu : victoire d'Yves"]
    assert fr.format("Combien de {company} ?", company="ELF") == "Combien d'ELF ?"
    assert fr.format("de {lo} à {hi}", lo=1000, hi=2000) == "de 1 000 à 2 000"
    assert fr.format("monde {x}", x="Ana") == "monde Ana"           # "de" as a word only
    assert en.format("de {x}", x="Ana") == "de Ana"
    assert text("ui.q.mb.end", "fr", player="Ana") == "Fin du tour d'Ana ?"


def test_a_broken_template_shows_itself_rather_than_stopping_the_game():
    from engines.core import i18n
    i18n._catalogs["en"]["test.broken"] = "{n:x}"
    try:
        assert i18n.text("test.broken", "en", n=3) == "{n:x}"
    finally:
        del i18n._catalogs["en"]["test.broken"]


def test_no_text_hedges_a_plural_or_a_gender():
    """'1 tour(s)', 'ruiné(e)': a number's word agrees with it ({n:tour|tours}) and a
    sentence is turned so it needs no gender."""
    hedged = re.compile(r"\w\((s|e|es|x)\)")
    for lang, entries in registered_catalogs().items():
        found = [(key, value) for key, value in entries.items() if hedged.search(value)]
        assert not found, (lang, found)


def test_french_and_english_typography():
    """French: a space before : ; ! ? (the renderer keeps them on the word's line), « »
    for quotes; both: "→" for a change, "…" in one character, no straight quote or backtick.
    A colon between two words with no space ("case:production") is a notation, not
    punctuation. docs/firmware.md "French texts" says why."""
    rules = {"fr": re.compile(r"[^\s][:;!?](\s|$)|->|\.\.\.|[\"`“”]"),
             "en": re.compile(r"\s[:;!?](\s|$)|->|\.\.\.|[\"`«»]")}
    for lang, entries in registered_catalogs().items():
        found = [(key, value) for key, value in entries.items() if rules[lang].search(value)]
        assert not found, (lang, found)
    assert rules["fr"].search("Dés: joueurs") and rules["fr"].search("{what}?")
    assert not rules["fr"].search("Dés : joueurs") and not rules["fr"].search("(case:production)")
    assert rules["en"].search("Dice : players") and rules["fr"].search("a -> b")


class _Sample(dict):
    """Template values as long as a table's usual ones: a five-letter name (the setup's
    colours), an amount of five characters, a one-digit number."""
    NAMES = {"player", "seller", "buyer", "winner", "winners", "bidder", "company", "production",
             "title", "square", "item", "sector", "target", "game"}

    def __missing__(self, key):
        return "Rouge" if key in self.NAMES else "1 200" if key in {"amount", "high", "minimum", "cash",
                                                                     "price"} else 9


def long_labels(entries, lang):
    """Titles and menu labels longer than the 21 characters of the 128x64 screen."""
    from engines.core.i18n import _Formatter
    shown = {key: _Formatter(lang).vformat(value, (), _Sample()).split("\t")[0]
             for key, value in entries.items() if key.startswith(("ui.title.", "ui.kind."))}
    return {key: text for key, text in shown.items() if len(text) > 21}


def test_titles_and_menu_labels_fit_the_screen_with_a_five_letter_name():
    """A title or a menu label longer than 21 characters is cut with "…" (render.py): the
    end of "Vendre un commerce aux enchères" was lost. The confirmation's buttons hold 6."""
    for lang, entries in registered_catalogs().items():
        assert long_labels(entries, lang) == {}, lang
        buttons = [text(key, lang) for key in ("ui.yes", "ui.no", "ui.setup.go", "ui.setup.options")]
        assert all(len(button) <= 6 for button in buttons), (lang, buttons)
    assert long_labels({"ui.kind.zz.x": "Vendre un commerce aux enchères", "ui.q.zz": "x" * 30}, "fr") == {
        "ui.kind.zz.x": "Vendre un commerce aux enchères"}
    assert long_labels({"ui.title.zz.x": "{player} : lot {n}/{of}"}, "fr") == {}


def _by_formatter(template, lang, params, key=""):
    """What `text` wrote before it cut templates once: string.Formatter on every call (the
    template's key says the money of its `{amount:$}` fields)."""
    try:
        return i18n._Formatter(lang, key).vformat(template, (), params)
    except (KeyError, IndexError, ValueError):
        return template


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_template_reads_as_string_formatter_reads_it(lang, monkeypatch):
    # `text` cuts a template once (i18n._compiled) instead of parsing it on every call; the
    # words must not change: each template of every registered catalog, with its fields
    # given numbers that take either plural form, lists, words and nothing at all.
    import string

    registered_catalogs()                          # every game's catalog registered

    odd = {"ui.zz.1": "{{", "ui.zz.2": "a {{b}} {n}", "ui.zz.3": "{0} {}", "ui.zz.4": "{x!r}",
           "ui.zz.5": "{x:>{w}}", "ui.zz.6": "}", "ui.zz.7": "{x", "ui.zz.8": "", "ui.zz.9": "{a.b} {n:x|y}"}
    for key, template in odd.items():
        monkeypatch.setitem(i18n._catalogs[lang], key, template)
    checked = 0
    for key, template in sorted(catalog(lang).items()):
        try:
            names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        except ValueError:
            names = set()
        for value in (0, 1, 2, 1234567, -3, "FORCE-SELL", ["A", "B"]):
            params = dict.fromkeys(names, value) | ({"w": 6} if "w" in names else {})
            assert i18n.text(key, lang, **params) == _by_formatter(template, lang, params, key), (key, value)
            checked += 1
        if names:                                  # a field left out: the template itself
            assert i18n.text(key, lang) == _by_formatter(template, lang, {}, key), key
    assert checked > 1000


def test_every_field_of_every_games_actions_has_its_name_in_each_language():
    """A refusal names the field it refuses (`title = 9 refusé`, `joueur possible : ...`) by
    the catalog's `field.<name>`: in French "joueur", "société", not the protocol's word."""
    import dataclasses

    names = {f.name for entry in games().values() for cls in entry.engine_class().ACTIONS.classes.values()
             for f in dataclasses.fields(cls)}
    assert {"player", "company", "amount", "title"} <= names
    for lang in i18n.LANGUAGES:
        assert sorted(name for name in names if f"field.{name}" not in catalog(lang)) == [], lang
    assert text("field.company", "fr") == "société" and text("field.player", "fr") == "joueur"
