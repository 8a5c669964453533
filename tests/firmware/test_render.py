"""Operator screens (firmware/render.py) against reviewed reference images.

Each screen kind is drawn and compared pixel for pixel with a PNG in
tests/reference/render/. After an intended change of the drawing, regenerate them with

    CORBEILLE_UPDATE_REFERENCES=1 .venv/bin/python -m pytest tests/firmware/test_render.py tests/firmware/test_maxibourse_quotation_board.py

then look at every changed PNG (scaled up 4x) before committing them. A failing
comparison saves what was drawn under $TMPDIR/corbeille-render/ for a side-by-side look.
"""
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from props import props
from PIL import ImageChops

from firmware import fonts
from firmware.fonts import FONT
from firmware.render import render_screen
from firmware.screen import Screen
from references import assert_matches_reference as compare_with_reference



def assert_matches_reference(image, name):
    compare_with_reference(image, name, "render")


MENU = ("Lancer les dés", "Vendre des lots", "Vue privée", "Annuler la dernière action",
        "Historique", "Clore la séance")

SCREENS = {
    "menu": Screen("menu", "À Ana de jouer", lines=("Tour 3",), items=MENU, selected=3,
                   footer="OK valider  ◄ retour"),
    "menu_top": Screen("menu", "Qui commence ?", items=("Ana", "Ben", "Cid", "Dan", "Élodie", "Fred", "Gaël"),
                       selected=0, footer="OK choisir"),
    "amount": Screen("amount", "Titre ELF à 200", lines=("Combien de lots ?",),
                     items=tuple(f"{n} lots" for n in range(11)), selected=3, footer="▲▼ changer  OK valider"),
    "amount_money": Screen("amount", "Correction : Ben", lines=("Espèces",), items=("+1 250 000 $",),
                           footer="▲▼ changer  OK valider"),
    "confirm": Screen("confirm", "Rémunération", lines=("Fin du tour 3 : payer les dividendes ?",),
                      items=("Oui", "Non"), selected=0, footer="◄ retour"),
    "message": Screen("message", "Dés : 4 et 4", lines=("Ana fait un double ! Elle peut acheter au cours.",),
                      footer="OK continuer"),
    "speaking": Screen("speaking", "Vente : 3 ELF à 200", lines=("Qui achète ?",),
                       items=("Ana : vendeuse", "Ben : passe", "Cid ?", "Dan"), highlight=2,
                       footer="◄ annuler"),
    "auction": Screen("auction", "Enchères ELF", lines=("4 lots à 230 $  7 s",),
                      items=("Ana 2 lots", "Ben 3 lots", "Cid passe"), highlight=1, footer="◄ annuler"),
    "private": Screen("private", "Ana (privé)", lines=("Espèces\t4 250 000", "ELF\t3 lots", "BARCLAYS\t2 lots",
                                                     "MOET-VUITTON\t6 lots", "Fortune\t6 300 000"),
                      footer="OK fermer"),
    "payday": Screen("payday", "Rémunération tour 3",
                     lines=("Ana", " Dividendes\t50 000", " Jetons\t600 000", " Bonus horiz.\t300 000",
                            " Bonus vert.\t600 000", " Total\t1 550 000", "Ben"),
                     selected=1, footer="▲▼ défiler  OK payer"),
    "ranking": Screen("ranking", "Séance close", lines=("1. Ana\t12 300 000", "2. Cid\t9 870 000", "3. Ben\t0"),
                      footer="OK rapport"),
    "error": Screen("error", "Impossible", lines=("Ana ne peut pas payer 1 200 000 : solde 300 000",),
                    footer="OK compris"),
    "status": Screen("message", "À Ben de jouer", lines=("Ben fait 3 et 5.", "Case Titre : ELF"),
                     footer="OK continuer", status="! tableau hors service"),
    "status_menu": Screen("menu", "À Cid de jouer", items=MENU, selected=5, footer="OK valider",
                          status="! siège 3 : bouton muet"),
    "long_texts": Screen("message", "Un titre bien trop long pour l'écran",
                         lines=("Une ligne de texte qui doit passer à la ligne proprement.", "Œuvre ÇA ÿ €"),
                         footer="OK un pied de page beaucoup trop long"),
    # English, and the larger displays
    "menu_en": Screen("menu", "Ana to play", lines=("Round 3",), items=("Roll the dice", "Sell lots", "Private view",
                      "Undo last action", "History", "Close the market"), selected=1, footer="OK choose  ◄ back"),
    "payday_en": Screen("payday", "Payday, round 3", lines=("Ana", " Dividends\t50 000", " Board fees\t600 000",
                        " Horiz. bonus\t300 000", " Vert. bonus\t0", " Total\t950 000"), footer="OK pay"),
    "error_en": Screen("error", "Not allowed", lines=("ELF: no lot left at the bank; choose another company",),
                       footer="OK"),
}

LARGE = {
    "menu_256x64_L": ("menu", (256, 64), "L"),
    "payday_800x480": ("payday", (800, 480), "1"),
    "confirm_256x128_L": ("confirm", (256, 128), "L"),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_reference(name):
    image = render_screen(SCREENS[name])
    assert image.size == (128, 64) and image.mode == "1"
    assert_matches_reference(image, f"screen_{name}")


@pytest.mark.parametrize("name", sorted(LARGE))
def test_larger_displays_match_reference(name):
    kind, size, mode = LARGE[name]
    image = render_screen(SCREENS[kind], size, mode)
    assert image.size == size and image.mode == mode
    assert_matches_reference(image, f"screen_{name}")


def test_rendering_is_pure_and_deterministic():
    screen = SCREENS["menu"]
    first = render_screen(screen).tobytes()
    render_screen(SCREENS["error"])                       # nothing carries over
    assert render_screen(screen).tobytes() == first
    assert render_screen(screen) is not render_screen(screen)


def test_same_pixels_in_a_fresh_process():
    """No hash seed, cache or import order changes a frame (reference images rely on it)."""
    code = ("import hashlib, sys; from firmware.render import render_screen; from test_render import SCREENS;"
            "sys.stdout.write(hashlib.sha256(b''.join(render_screen(s).tobytes() for s in SCREENS.values()))"
            ".hexdigest())")
    root = Path(__file__).parents[2]
    env = dict(os.environ, PYTHONHASHSEED="123", PYTHONPATH=os.pathsep.join(map(str, (root, Path(__file__).parent, root / "tests"))))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    here = hashlib.sha256(b"".join(render_screen(s).tobytes() for s in SCREENS.values())).hexdigest()
    assert out.stdout == here


def test_the_font_covers_french_and_money():
    for char in "àâçéèêëîïôöùûüÿœÀÂÇÉÈÊËÎÏÔÖÙÛÜŸŒ€$▲▼◄►«»…":
        assert char in FONT.glyphs, char
        assert FONT.glyphs[char].getbbox() is not None, f"{char} is blank"
    assert FONT.normal("e\u0301") == "é"                  # decomposed accents are composed
    assert FONT.normal("1\u202f200\u00a0000") == "1 200 000"   # French spaces
    assert FONT.normal("ő✓") == "o?"                      # base letter, else "?"


def test_amounts_and_french_punctuation_are_not_broken_across_lines():
    assert FONT.wrap("Ana doit 1 200 000 et a 300 000 : vendre", 21 * 6) == [
        "Ana doit 1 200 000 et", "a 300 000 : vendre"]
    assert FONT.wrap("Combien de lots pour ELF ?", 24 * 6)[-1].endswith("ELF ?")


def test_status_is_drawn_even_when_the_body_overflows():
    with_status = render_screen(Screen("payday", "T", lines=tuple(f"l{i}" for i in range(30)), status="tableau"))
    without = render_screen(Screen("payday", "T", lines=tuple(f"l{i}" for i in range(30))))
    status_row = (0, 64 - 9, 128, 64)
    assert with_status.crop(status_row).getbbox() is not None
    assert with_status.crop(status_row).tobytes() != without.crop(status_row).tobytes()


def test_menu_scrolls_to_keep_the_selection_visible():
    items = tuple(f"Entrée {i}" for i in range(20))
    for selected in (0, 7, 19):
        image = render_screen(Screen("menu", "Menu", items=items, selected=selected))
        expected = FONT.mask(f"Entrée {selected}")
        # The selected entry is inverted: find the row whose pixels are the inverse of its text.
        rows = [image.crop((1, y, 1 + expected.width, y + 9)) for y in range(10, 64 - 8, 9)]
        inverted = [ImageChops.invert(r.convert("L")).convert("1") for r in rows]
        assert any(r.tobytes() == expected.tobytes() for r in inverted), selected


def test_paper_displays_draw_dark_on_light():
    image = render_screen(SCREENS["message"], (800, 480), "1")
    assert image.getpixel((799, 479)) == 255              # e-ink: white paper
    assert render_screen(SCREENS["message"]).getpixel((127, 63)) == 0   # OLED: dark
    assert render_screen(SCREENS["message"], (800, 480), "1", paper=False).getpixel((799, 479)) == 0


def test_unknown_kind_and_odd_values_still_render():
    for screen in (Screen("nouveau", "?", lines=("x",)), Screen("menu", "", items=(), selected=4),
                   Screen("menu", "t", items=("a",), selected=-3), Screen("amount", "t", items=("1",), selected=9),
                   Screen("confirm", "t", items=("Oui", "Non", "Plus tard"), selected=2),
                   Screen("message", "t", lines=("a\nb", 42)), Screen("auction", "t", items=("a", "b"))):
        assert render_screen(screen).size == (128, 64)


# --------------------------------------------------------------- the 21 characters
GLYPH_TEXT = st.text(alphabet=st.sampled_from(sorted(FONT.glyphs) + [" "]), min_size=1, max_size=21)


class Cuts:
    """Records every text the renderer had to cut or wrap."""

    def __init__(self, monkeypatch):
        self.cut = []
        fit, wrap = fonts.BitmapFont.fit, fonts.BitmapFont.wrap

        def recording_fit(font, text, width, scale=1, ellipsis=True):
            out = fit(font, text, width, scale, ellipsis)
            if out != font.normal(text):
                self.cut.append((text, out))
            return out

        def recording_wrap(font, text, width, scale=1):
            out = wrap(font, text, width, scale)
            if len(out) > 1:
                self.cut.append((text, out))
            return out

        monkeypatch.setattr(fonts.BitmapFont, "fit", recording_fit)
        monkeypatch.setattr(fonts.BitmapFont, "wrap", recording_wrap)


@props(60)
@given(text=GLYPH_TEXT, kind=st.sampled_from(["menu", "message", "error", "speaking", "amount", "payday"]))
def test_any_text_up_to_21_characters_fits_128_pixels(text, kind):
    text = text.strip() or "x"
    with pytest.MonkeyPatch.context() as monkeypatch:
        cuts = Cuts(monkeypatch)
        render_screen(Screen(kind, title=text, lines=(text,), items=(text, text), footer=text, status=text,
                             highlight=0))
    assert cuts.cut == []


@props(30)
@given(text=GLYPH_TEXT)
def test_a_21_character_title_is_drawn_whole(text):
    """The pixel-level check behind the property above: the title bar holds the text's
    own glyphs, inverted, at the left margin."""
    image = render_screen(Screen("message", title=text))
    mask = FONT.mask(text)
    bar = image.crop((1, 0, 1 + mask.width, 9))
    assert ImageChops.invert(bar.convert("L")).convert("1").tobytes() == mask.tobytes()


def test_longer_texts_are_cut_with_an_ellipsis():
    assert FONT.fit("Annuler la dernière action", 126) == "Annuler la dernière…"
    assert FONT.fit("x" * 22, 126).endswith("…") and FONT.measure(FONT.fit("x" * 22, 126)) <= 126


@pytest.mark.parametrize("size", [(128, 64), (256, 128)])
@pytest.mark.parametrize("status", ["", "! tableau"])
def test_a_highlighted_last_row_never_touches_the_key_caps_under_it(size, status):
    """The speaking footer's glitch (speaking_sale.png): the highlighted last row and the
    key caps below it ("1×", "◄") made one white shape. The caps' top line under such a
    row is background, so the row and each cap stay apart; the caps keep their height
    elsewhere."""
    items = ("Rouge", "Bleu\t–", "Vert\t?")
    footer = "1× par lot  ◄ pause"
    last = Screen("speaking", "Vente CHASE\t2 s", ("Bleu vend 1 à 300 $ : Vert ?",), items,
                  footer=footer, status=status, highlight=2)
    image = render_screen(last, size)
    s = size[0] // 128
    below = size[1] - 9 * s * (2 if status else 1)   # the first line of the row under the body
    assert image.getpixel((0, below - 1)) == 255                 # the highlighted row's bar
    assert all(image.getpixel((x, below + i)) == 0 for x in range(0, 3 * s) for i in range(s))
    assert image.getpixel((0, below + s)) == 255                 # the cap itself is still there
    first = render_screen(Screen("speaking", "Vente CHASE\t2 s", ("Bleu vend 1 à 300 $ : Vert ?",), items,
                                 footer=footer, status=status, highlight=0), size)
    assert first.getpixel((0, below)) == 255                     # no highlighted row above: whole caps
