"""The benchmark's own machinery (bench/): its floors draw what the renderer draws, and
`python -m bench --no-write` reaches every part as --no-write. No timing is asserted."""
from pathlib import Path

import pytest

import bench.__main__ as bench_main
from bench import targets as bench_targets
from bench import dv_bench, mb_bench, press_bench
from bench.frames import record
from bench.press_bench import BusRecorder
from firmware.games.maxibourse_board import render_board
from firmware.render import render_screen
from test_render import SCREENS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size, mode", [((128, 64), "1"), ((256, 128), "L"), ((800, 480), "1")])
def test_the_pillow_alone_floor_draws_the_renderers_pixels(size, mode):
    for screen in SCREENS.values():
        image, frame = record(render_screen, screen, size, mode)
        assert frame.floor().tobytes() == image.tobytes()
        assert frame.floor(blit=True).tobytes() == image.tobytes()
        assert frame.texts > 0 and frame.texts < len(frame.ops) + 1


def test_the_recorder_reads_the_texts_whatever_the_renderer_keeps_cached():
    """The recorder stands in for Pillow's ImageDraw and reads each text back from its mask:
    a frame recorded with the renderer's caches warm is the frame recorded with them cold,
    and the renderer knows nothing of the bench."""
    import inspect

    import firmware.render

    for screen in SCREENS.values():
        firmware.render.line_mask.cache_clear()
        _, cold = record(render_screen, screen, (128, 64), "1")
        render_screen(screen, (128, 64), "1")
        _, warm = record(render_screen, screen, (128, 64), "1")
        assert [op[:2] for op in warm.ops] == [op[:2] for op in cold.ops] and warm.texts == cold.texts > 0
    assert "bench" not in inspect.getsource(firmware.render)


def test_the_board_floor_draws_the_boards_pixels():
    from engines.maxibourse.game import MaxiBourse

    game = MaxiBourse({"game": "maxibourse", "format": "junior", "players": ["Ana", "Ben"], "seed": 1})
    image, frame = record(render_board, game.snapshot(), game.box, (800, 480), "1")
    assert frame.floor().tobytes() == image.tobytes() and frame.texts > 50


def test_no_write_reaches_every_part(monkeypatch):
    seen = []
    for part in (mb_bench, dv_bench, press_bench):
        monkeypatch.setattr(part, "main", lambda argv, part=part: seen.append((part.__name__, argv)) or 0)
    assert bench_main.main(["--no-write"]) == 0
    assert seen == [(p, ["--no-write"]) for p in ("bench.mb_bench", "bench.dv_bench", "bench.press_bench")]
    assert bench_main.main(["3"]) == 2


def test_each_part_reads_no_write_as_an_option(monkeypatch, capsys):
    written = []
    monkeypatch.setattr(dv_bench, "write_section", lambda *a: written.append(a))
    monkeypatch.setattr(dv_bench, "run", lambda games, seed, players, journal_dir: (f"{games} {seed} {players}", {}))
    assert dv_bench.main(["--no-write"]) == 0
    assert capsys.readouterr().out.startswith("5 2026 12") and written == []
    monkeypatch.setattr(mb_bench, "run", lambda *a: ("text", {}))
    monkeypatch.setattr(mb_bench, "write_section", lambda *a: written.append(a))
    assert mb_bench.main(["--no-write"]) == 0 and written == []


def test_the_bus_recorder_counts_i2c_framing():
    bus = BusRecorder()
    bus.command(0x21, 0, 127, 0x22, 0, 7)
    bus.data([0] * 1024)
    assert bus.payload == 1030 and bus.messages == 2 and bus.wire == 1034


def test_the_replay_figure_reads_the_box_file_as_the_box_does(tmp_path, monkeypatch):
    """`corbeille run` keeps its box files parsed in its state folder (keep_parsed_in):
    the bench's replay reads the copy `long_journal` left there, and parses no TOML."""
    import tomllib

    from engines.core import files

    press_bench.long_journal(tmp_path, target=120)
    assert list((tmp_path / "parsed").glob("toml-*.json"))
    parsed = []
    real = tomllib.loads
    monkeypatch.setattr(files.tomllib, "loads", lambda text: parsed.append(text) or real(text))
    assert press_bench.replay_from_journal(tmp_path / "journal.sqlite", runs=2) > 0
    assert parsed == []
    assert files._PARSED is None            # kept only while the figure runs
    for kept in (tmp_path / "parsed").glob("toml-*.json"):
        kept.unlink()
    press_bench.replay_from_journal(tmp_path / "journal.sqlite", runs=1)
    assert len(parsed) == 1                 # the mechanism: without the copy, parsed again


PRODUCT = ROOT.parent / "shared" / "PRODUCT.md"       # the project's shared texts, beside the checkout


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_targets_quote_product_md_word_for_word():
    assert PRODUCT.exists(), f"PRODUCT.md is read from {PRODUCT} (the shared texts beside the checkout)"
    product = words(PRODUCT.read_text(encoding="utf-8"))
    targets = product[product.index("## Targets"):]
    missing = [quoted for quoted, *_ in bench_targets.TARGETS if quoted not in targets]
    assert not missing, f"bench/targets.py quotes words PRODUCT.md's targets do not say: {missing}"


def test_the_targets_table_says_held_or_not_for_each_figure_and_where_one_is_missing():
    figures = {key: most for _, key, most, _ in bench_targets.TARGETS}
    figures["applied_p99_ms"] = 2.5
    del figures["action_syncs"]
    text = bench_targets.section(figures, runs=5)
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| ") and " | " in line}
    assert "best of 5 runs" in text
    assert rows["an applied action (engine, hash-chained append, next screen, one commit) at most 2 ms here at p99"] \
        .endswith("| 2.50 ms | NOT held |")
    assert rows["at most 1.5x the time Pillow alone takes to draw that frame (menu move)"].endswith("| 1.50x | held |")
    assert "not measured (strace missing)" in rows["one flush per acknowledged action"]
    assert sum(line.endswith("| held |") for line in rows.values()) == len(bench_targets.TARGETS) - 2


def test_the_docs_targets_table_is_the_one_the_bench_writes():
    doc = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    start = doc.index(bench_targets.SECTION + "\n")
    table = doc[start:doc.index("\n## ", start + 1)]
    quoted = [line.split(" | ")[0][2:] for line in table.splitlines() if line.startswith("| ") and " | " in line]
    assert quoted[1:] == [words for words, *_ in bench_targets.TARGETS]         # [0]: the header row
    assert "best of 5 runs" in words(table)


def test_the_best_of_several_runs_takes_each_press_kind_from_its_lowest_p99_run():
    slow = {"menu": [0.2] * 100, "applied": [0.001] * 99 + [0.009], "menu_bus": [388] * 100, "menu_floor": 0.3,
            "actions_in_game": 12}
    fast = {"menu": [0.1] * 100, "applied": [0.001] * 99 + [0.003], "menu_bus": [300] * 100, "menu_floor": 0.2,
            "actions_in_game": 13}
    best = press_bench.best_run([slow, fast])
    assert best["menu"] is fast["menu"] and best["menu_floor"] == 0.2
    assert best["menu_bus"] is slow["menu_bus"] and best["actions_in_game"] == 12   # counts: the first run's


@pytest.mark.parametrize("runs", ["0", "-1", "two"])
def test_runs_is_a_whole_number_of_one_or_more(runs, capsys):
    with pytest.raises(SystemExit):
        press_bench.main(["--runs", runs, "--no-write"])
    assert "give a whole number of runs, 1 or more" in capsys.readouterr().err


def test_the_performance_doc_is_a_short_reference():
    """docs/performance.md holds the figures and what stays; how they were reached is in git."""
    size = len((ROOT / "docs" / "performance.md").read_bytes())
    assert size < 15 * 1024, f"docs/performance.md is {size} bytes; keep it under 15 KB (history lives in git)"
    assert not (ROOT / "docs" / "benchmarks.md").exists(), "docs/performance.md is the one place for the figures"
