"""Parsed TOML kept in the box's state folder (engines.core.files.keep_parsed_in): a text
parsed once is read back from its JSON the next time, to the same data; what JSON cannot
hold exactly, a damaged kept file, a bad text and a folder that cannot be written change
nothing of what is read or refused."""
import os
import tomllib

import pytest

from engines.core import files
from engines.core.errors import BoxFileError
from engines.richesses.box import DEFAULT_BOX

TEXT = 'name = "Corbeille"\nprices = [1, 2.5, -3]\n[[companies]]\nid = "SONY"\nlots = 12\nopen = true\n'


@pytest.fixture
def kept(tmp_path):
    folder = tmp_path / "parsed"
    files.keep_parsed_in(folder)
    yield folder
    files.keep_parsed_in(None)


def no_parser(monkeypatch):
    def refuse(text):
        raise AssertionError("parsed again")
    monkeypatch.setattr(tomllib, "loads", refuse)


def test_a_text_parsed_once_is_read_back_to_the_same_data(kept, monkeypatch):
    first = files.parse_toml(TEXT, "box.toml", "box file")
    assert first == tomllib.loads(TEXT) and len(list(kept.glob("toml-*.json"))) == 1
    no_parser(monkeypatch)
    again = files.parse_toml(TEXT, "box.toml", "box file")
    assert again == first and type(again["prices"][1]) is float and again["companies"][0]["open"] is True


def test_the_shipped_richesses_box_reads_back_the_same(kept, monkeypatch):
    text = DEFAULT_BOX.read_text(encoding="utf-8")
    parsed, reference = files.parse_toml(text, DEFAULT_BOX, "box file"), tomllib.loads(text)
    no_parser(monkeypatch)
    assert files.parse_toml(text, DEFAULT_BOX, "box file") == parsed == reference


def test_another_text_is_parsed_and_kept_apart(kept):
    files.parse_toml(TEXT, "a.toml", "box file")
    assert files.parse_toml("extra = 1\n" + TEXT, "a.toml", "box file")["extra"] == 1
    assert len(list(kept.glob("toml-*.json"))) == 2


def test_a_damaged_kept_file_is_parsed_again_and_rewritten(kept):
    files.parse_toml(TEXT, "box.toml", "box file")
    (path,) = kept.glob("toml-*.json")
    for damage in (b'{"name": "Corb', b"[1, 2]", b"\xff\xfe"):
        path.write_bytes(damage)
        assert files.parse_toml(TEXT, "box.toml", "box file") == tomllib.loads(TEXT)
        assert files._kept(TEXT) == tomllib.loads(TEXT)


def test_dates_are_not_kept(kept):
    assert files.parse_toml("when = 2024-05-01\n", "box.toml", "box file")["when"].year == 2024
    assert not list(kept.glob("toml-*.json"))


def test_a_bad_text_is_refused_as_before_and_nothing_is_kept(kept):
    with pytest.raises(BoxFileError, match="box.toml:1: not valid TOML"):
        files.parse_toml("name = ", "box.toml", "box file", BoxFileError)
    assert not list(kept.glob("toml-*.json"))


def test_at_most_keep_parsed_texts_are_kept(kept):
    for n in range(files.KEEP_PARSED + 3):
        files.parse_toml(f"n = {n}\n", "box.toml", "box file")
    assert len(list(kept.glob("toml-*.json"))) == files.KEEP_PARSED


def test_a_folder_that_cannot_be_written_only_costs_a_parse(tmp_path):
    blocker = tmp_path / "parsed"
    blocker.write_text("a file where the folder would be")
    files.keep_parsed_in(blocker)
    try:
        assert files.parse_toml(TEXT, "box.toml", "box file") == tomllib.loads(TEXT)
    finally:
        files.keep_parsed_in(None)
    assert blocker.read_text() == "a file where the folder would be"


def test_nothing_is_kept_unless_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert files._PARSED is None
    files.parse_toml(TEXT, "box.toml", "box file")
    assert os.listdir(tmp_path) == []


def test_the_box_keeps_its_parsed_files_in_its_state_folder(tmp_path):
    from firmware.config import StateConfig

    assert StateConfig(dir=tmp_path).parsed == tmp_path / "parsed"
