"""Names in Thai and Devanagari are shaped on pictures: Pillow has complex text layout (Raqm with
FriBiDi, which ``scripts/setup`` and the image install), and the fonts the pictures draw with use
it. Without it Pillow falls back to its basic layout, which draws these scripts letter by letter
(vowel signs on the wrong side, marks piled up), and these tests fail."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from bot.pictures import fonts

SIZE = 40
# Devanagari: conjuncts (क्ष, त्र) and a vowel sign drawn before its consonant (कि).
DEVANAGARI = "क्षत्रिय किताब"
# Thai: tone marks stacked over vowel signs (ผู้, ที่, น้ำ).
THAI = "ผู้ที่นี่ น้ำ"


def test_pillow_has_complex_text_layout() -> None:
    assert features.check("raqm"), "Pillow has no Raqm: run scripts/setup as root (Debian)"
    assert features.check("fribidi"), "FriBiDi is missing: apt-get install libfribidi0"


def picture_fonts(text: str) -> tuple[ImageFont.FreeTypeFont, ImageFont.FreeTypeFont]:
    """The pictures' font for a script, and the same face with the basic layout."""
    face = next((f for f in fonts.chain() if all(ord(ch) in f.coverage for ch in text
                                                 if not ch.isspace())), None)
    assert face is not None, f"no installed font covers {text!r}: run scripts/setup"
    shaped = fonts.font(face, SIZE)
    basic = ImageFont.truetype(face.path, SIZE, index=face.index,
                               layout_engine=ImageFont.Layout.BASIC)
    return shaped, basic


def drawn(text: str, font: ImageFont.FreeTypeFont) -> Image.Image:
    picture = Image.new("L", (16 * SIZE, 2 * SIZE))
    ImageDraw.Draw(picture).text((SIZE // 4, SIZE // 4), text, font=font, fill=255)
    return picture


@pytest.mark.parametrize("text", [DEVANAGARI, THAI], ids=["devanagari", "thai"])
def test_the_picture_fonts_shape_text(text: str) -> None:
    shaped, basic = picture_fonts(text)
    assert shaped.layout_engine == ImageFont.Layout.RAQM
    difference = ImageChops.difference(drawn(text, shaped), drawn(text, basic))
    assert difference.getbbox() is not None, "shaped and unshaped drawings are the same"


def test_devanagari_conjuncts_join_into_fewer_wider_glyphs() -> None:
    shaped, basic = picture_fonts(DEVANAGARI)
    # unshaped, every consonant, virama and vowel sign takes its own advance
    assert shaped.getlength(DEVANAGARI) < 0.9 * basic.getlength(DEVANAGARI)
