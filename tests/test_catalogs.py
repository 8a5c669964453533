"""Catalogs: each game's keys under its own prefix, and no key defined by two catalogs.

Merged silently, a key two catalogs define would show whichever catalog was registered
last, in both games; registration refuses it instead, naming both files.
"""
import json

import pytest

from engines.core import i18n
from engines.core.i18n import CatalogClash, catalog, register_catalog
from engines.registry import GameSpec, add, games
from firmware import texts  # noqa: F401 (registers the box's catalog)
from firmware.flows.setup import options
from firmware.games import PLAYABLE


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
    folder = write_catalog(tmp_path / "locale", {"ui.money": "{amount} F", "ui.zz.new": "neuf"},
                           {"ui.money": "{amount} F", "ui.zz.new": "new"})
    before = {lang: dict(catalog(lang)) for lang in i18n.LANGUAGES}
    with pytest.raises(CatalogClash) as refused:
        register_catalog(folder)
    message = str(refused.value)
    assert str(folder / "fr.json") in message and str(texts.LOCALE.resolve() / "fr.json") in message
    assert "ui.money" in message and "ui.zz.new" not in message
    # all or nothing: neither the clashing key nor the new one went in
    assert {lang: catalog(lang) for lang in i18n.LANGUAGES} == before


def test_a_catalog_of_its_own_keys_is_registered(tmp_path, fresh_catalogs):
    folder = write_catalog(tmp_path / "locale", {"ui.zz.new": "neuf"}, {"ui.zz.new": "new"})
    register_catalog(folder)
    register_catalog(folder)  # twice is once, not a clash with itself
    assert catalog("fr")["ui.zz.new"] == "neuf" and catalog("en")["ui.zz.new"] == "new"


def test_the_registry_refuses_a_prefix_two_games_share_or_a_missing_one():
    specs = {}
    add(specs, GameSpec("alpha", "x:Alpha", prefix="al"))
    with pytest.raises(ValueError, match="'alpha' and 'beta' both use the catalog prefix 'al'"):
        add(specs, GameSpec("beta", "x:Beta", prefix="al"))
    with pytest.raises(ValueError, match="catalog prefix '' must be"):
        add(specs, GameSpec("gamma", "x:Gamma"))
    assert list(specs) == ["alpha"]


def test_the_box_names_each_games_actions_under_the_games_prefix():
    """ui.kind.<prefix>.*, ui.act.<prefix>.*, ui.opt.<prefix>.*: every such key belongs to one
    registered game; every action kind of a game with screens has both texts in both languages,
    and every setting the setup's Options offers has its label and its values' labels."""
    prefixes = {entry.prefix for entry in games().values()}
    for lang in i18n.LANGUAGES:
        for key in catalog(lang):
            if key.startswith(("ui.kind.", "ui.act.", "ui.opt.")):
                assert key.split(".")[2] in prefixes, (lang, key)
    for name in PLAYABLE:
        entry = games()[name]
        for kind in entry.engine_class().ACTIONS.kinds():
            for lang in i18n.LANGUAGES:
                for section in ("kind", "act"):
                    assert f"ui.{section}.{entry.prefix}.{kind}" in catalog(lang), (name, kind, section, lang)
    for name in PLAYABLE:
        entry = games()[name]
        for setting, allowed in options(name).items():
            for lang in i18n.LANGUAGES:
                for key in [f"ui.opt.{entry.prefix}.{setting}"] + [f"ui.opt.{entry.prefix}.{setting}.{v}" for v in allowed]:
                    assert key in catalog(lang), (name, key, lang)


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


def test_a_broken_template_shows_itself_rather_than_stopping_the_game():
    from engines.core import i18n
    i18n._catalogs["en"]["test.broken"] = "{n:x}"
    try:
        assert i18n.text("test.broken", "en", n=3) == "{n:x}"
    finally:
        del i18n._catalogs["en"]["test.broken"]
