"""The renderer's fast paths draw exactly what the slow ones drew: the font
parsed band by band, texts normalised once, one ImageDraw per frame, dotted rules as one
cached bitmap. The reference images (tests/reference/) check whole frames; these check
each piece against the plain way of doing it."""
import pytest
from PIL import Image, ImageDraw

import firmware.render
from firmware import fonts
from firmware.fonts import FONT, fixed6x9
from firmware.render import Canvas, dotted, render_screen
from test_render import SCREENS


def test_every_glyph_is_its_pixel_art():
    """Parse the art pixel by pixel, the plain way, and compare with the font's glyphs."""
    lines = fixed6x9.GLYPHS.strip("\n").split("\n")
    seen = 0
    for i, line in enumerate(lines):
        if not line.startswith(">"):
            continue
        rows = lines[i + 1:i + 1 + fixed6x9.HEIGHT]
        for k in range((len(line) - 2) // 7 + 1):
            char, col = line[2 + 7 * k], 2 + 7 * k
            glyph = Image.new("1", (fixed6x9.WIDTH, fixed6x9.HEIGHT))
            glyph.putdata([1 if row[col + x] == "#" else 0 for row in rows for x in range(fixed6x9.WIDTH)])
            assert FONT.glyphs[char].tobytes() == glyph.tobytes(), char
            seen += 1
    assert seen == len(FONT.glyphs) == len(list(FONT.glyphs))


def test_a_dotted_rule_is_the_dots_drawn_one_by_one():
    for scale in (1, 2, 3):
        for span in range(0, 40):
            by_dots = Image.new("1", (8, 50))
            draw = ImageDraw.Draw(by_dots)
            for y in range(2, 2 + span, 2 * scale):
                draw.rectangle((3, y, 3 + scale - 1, y + scale - 1), fill=255)
            pattern = Image.new("1", (8, 50))
            mask = dotted(scale, span)
            if mask.height:
                ImageDraw.Draw(pattern).bitmap((3, 2), mask, fill=255)
            assert pattern.tobytes() == by_dots.tobytes(), (scale, span)


def test_texts_are_normalised_once_and_the_cache_stays_bounded(monkeypatch):
    text = "Vente forcée\u00a0: 1\u202f200"
    assert FONT.normal(text) is FONT.normal(text) == "Vente forcée : 1 200"
    assert FONT.normal(42) == "42" and FONT.normal("e\u0301") == "é"
    monkeypatch.setattr(fonts, "_NORMAL_CACHE", 3)
    monkeypatch.setattr(FONT, "_normal", {})
    for n in range(10):
        assert FONT.normal(f"ligne {n}") == f"ligne {n}"
        assert len(FONT._normal) <= 3


def test_one_imagedraw_per_frame(monkeypatch):
    made = []
    real = firmware.render.ImageDraw.Draw

    def counting(image):
        made.append(image)
        return real(image)

    monkeypatch.setattr(firmware.render.ImageDraw, "Draw", counting)
    for screen in SCREENS.values():
        made.clear()
        render_screen(screen)
        assert len(made) == 1, screen.kind


@pytest.mark.parametrize("mode", ["1", "L", "RGB"])
@pytest.mark.parametrize("paper", [False, True])
def test_a_blit_draws_what_imagedraw_bitmap_draws(mode, paper):
    """Canvas.blit calls Pillow's C blit itself, with the ink worked out once per colour:
    every colour of every mode, on a lit display and on paper, gives bitmap's pixels."""
    mask = FONT.mask("Ça coûte 1 200 $", 1)
    fast = Canvas.new((128, 64), mode, paper=paper)
    plain = Canvas.new((128, 64), mode, paper=paper)
    for y, colour in enumerate((fast.ink, fast.bg, fast.dim, fast.ink)):
        fast.blit(3, 2 + 11 * y, mask, colour)
        plain.draw.bitmap((3, 2 + 11 * y), mask, fill=colour)
    assert fast.image.tobytes() == plain.image.tobytes()
    assert len(fast.inks) == len({fast.ink, fast.bg, fast.dim})   # one ink per colour, kept


@pytest.mark.parametrize("scale", [1, 2])
def test_a_line_drawn_from_its_kept_mask_is_the_text_cut_and_drawn(scale):
    """Canvas.columns takes a line's mask, already cut to its width, from one cache
    (render.line_mask); the pixels are those of the text cut with "…" and drawn."""
    texts = ["Carte : recevoir", "Vente forcée\u00a0: 1\u202f200 $ pour Ana et Ben", "", "ő?"]
    for text in texts:
        for width in (30, 60, 128 * scale):
            kept = Canvas.new((128 * scale, 64 * scale), "1")
            plain = Canvas.new((128 * scale, 64 * scale), "1")
            kept.columns(0, width, 2, text)
            plain.text(0, 2, plain.fit(text, width))
            assert kept.image.tobytes() == plain.image.tobytes(), (text, width)
