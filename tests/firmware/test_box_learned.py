"""`corbeille box learned` for every game that learns at the table (engines/core/learning.py):
Maxi Bourse's nominal prices (learned before the deal, or corrected with `set_nominal`) and
A Vendre!'s squares and titles read without a board, each written back as a new box file
that `corbeille box check` passes, the owner's file untouched (Richesses du Monde's:
tests/engines/richesses/test_richesses_learning.py)."""
import re
from pathlib import Path

from engines.avendre.box import load_box as load_avendre
from engines.core.learning import LEARNABLES
from engines.maxibourse.box import DEFAULT_BOX as MAXI_BOX, load_box as load_maxi
from test_richesses_learning import cli

FIXTURES = Path(__file__).resolve().parents[1] / "reference" / "journal"


def journal_of(tmp_path, script: str) -> Path:
    path, journal = tmp_path / "evening.txt", tmp_path / "journal.sqlite"
    path.write_text(script, encoding="utf-8")
    done = cli("script", path, "--journal", journal)
    assert done.returncode == 0, done.stderr
    return journal


def learned(tmp_path, journal, game):
    out = tmp_path / "learned.toml"
    done = cli("box", "learned", "--journal", journal, "--out", out)
    assert done.returncode == 0, done.stderr
    check = cli("box", "check", out, "--game", game)
    assert check.returncode == 0, check.stdout + check.stderr
    return out, done.stderr


def test_every_game_that_learns_writes_its_box_file_back():
    from importlib import import_module
    for name in LEARNABLES:
        assert callable(import_module(f"engines.{name}.box_toml").dump)


def test_maxi_bourse_writes_the_nominals_learned_and_corrected(tmp_path):
    owner = tmp_path / "maxi.toml"
    owner.write_text(re.sub(r", nominal = \d+", "", MAXI_BOX.read_text(encoding="utf-8")), encoding="utf-8")
    before = owner.read_text(encoding="utf-8")
    shipped = load_maxi()
    lines = [f"learn_nominal {c} {co.nominal}" for c, co in shipped.companies.items()]
    first = next(iter(shipped.companies))
    corrected = 100 if shipped.companies[first].nominal != 100 else 200
    script = (f"game maxibourse\nbox {owner}\nformat junior\nplayers Ana Ben Cid\nseed 1\n" + "\n".join(lines)
              + f'\nset_nominal {first} {corrected} "misread on the quotation table"\n')
    out, said = learned(tmp_path, journal_of(tmp_path, script), "maxibourse")
    assert f"{len(lines) + 1} entries learned at the table" in said
    box = load_maxi(out)
    assert box.companies[first].nominal == corrected
    assert all(box.companies[c].nominal == co.nominal for c, co in shipped.companies.items() if c != first)
    assert box.sectors == shipped.sectors and box.board == shipped.board
    assert owner.read_text(encoding="utf-8") == before                      # the owner's file untouched


def test_a_vendre_writes_the_squares_and_titles_read_without_a_board(tmp_path):
    """The earlier version's board-less script (its `square`, `colour`, `amounts`): every
    square read is the file's, every title read has its values, and a title read on a
    square other than the template's left that square for the one it came from."""
    from firmware.script import run_script
    script = (FIXTURES / "avendre-v1.txt").read_text(encoding="utf-8").replace(
        "set board none", "set board none\nset squares each_landing")
    game = run_script(script)
    out, said = learned(tmp_path, journal_of(tmp_path, script), "avendre")
    box, template = load_avendre(out), load_avendre()
    assert f"{len(game.s.read) + len(game.s.entered)} entries learned at the table" in said
    for number, (colour, title) in game.s.read.items():
        square = box.square(number)
        assert square.title == title and (title or square.colour == colour)
    assert box.titles[7].pa == 600 and box.titles[7].r == 60 and box.square(2).colour == "blue"
    assert box.titles[31].kind == "establishment" and box.titles[31].r == 150
    assert {sq.colour for sq in box.squares if sq.title == 31} == {"red"}
    old = next(n for n, sq in enumerate(template.squares, 1) if sq.title == 7)
    assert old == 2 or box.square(old) == template.square(2)
    read = {title for _, title in game.s.read.values() if title}
    assert all(sum(1 for sq in box.squares if sq.title == title) == 1 for title in read)


def test_maxi_bourse_keeps_the_nominals_learned_at_the_end_of_the_game(tmp_path, monkeypatch):
    """The session closed ("Clore la séance"): what the table gave is written once to the
    state folder's learned/maxibourse-<game>.toml, which the next setup offers."""
    from e2e_box import E2EBox, journal_script
    from test_e2e_richesses_learning import learned_writes
    owner = tmp_path / "maxi.toml"
    owner.write_text(re.sub(r", nominal = \d+", "", MAXI_BOX.read_text(encoding="utf-8")), encoding="utf-8")
    shipped = load_maxi()
    journal_script(tmp_path, f"game maxibourse\nbox {owner}\nformat junior\nplayers Ana Ben Cid\nseed 1\n"
                   + "".join(f"learn_nominal {c} {co.nominal}\n" for c, co in shipped.companies.items())
                   + "".join(f"pick {p} {c}\n" for c in ("BARCLAYS", "ELF", "FIAT", "NESTLE", "TWA")
                             for p in ("Ana", "Ben", "Cid")) + "first Ana\n")
    writes = learned_writes(monkeypatch)
    box = E2EBox(tmp_path, seats=3)
    try:
        kept = tmp_path / "state" / "learned" / f"maxibourse-{box.c.session.game_id}.toml"
        assert writes == [] and not box.c.session.over
        box.long("ok").choose("Clore la séance")               # the agreed time is up (MB11)
        while not box.c.session.over:
            box.press("ok")
        assert writes == [str(kept)]
        assert {c: co.nominal for c, co in load_maxi(kept).companies.items()} == \
            {c: co.nominal for c, co in shipped.companies.items()}
    finally:
        box.close()
