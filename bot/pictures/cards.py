"""Card faces drawn by the project (no third-party art), each drawn once and cached."""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from bot.pictures import fonts

SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
TWO_COLOUR = {"S": (20, 20, 20), "H": (200, 20, 30), "D": (200, 20, 30), "C": (20, 20, 20)}
FOUR_COLOUR = {"S": (20, 20, 20), "H": (200, 20, 30), "D": (20, 70, 200), "C": (20, 130, 40)}
RANK_TEXT = {"T": "10"}
BACK = (34, 52, 120)
BACK_LINE = (70, 95, 170)


def _rounded(w: int, h: int, fill: tuple[int, int, int], outline: tuple[int, int, int]
             ) -> Image.Image:
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=max(3, w // 10), fill=fill, outline=outline,
        width=max(1, w // 45))
    return image


@functools.lru_cache(maxsize=1024)
def face(code: str, w: int, h: int, four_colour: bool = False) -> Image.Image:
    """The face of a card ('TS', 'RJ') at a size: rank and suit readable at phone size."""
    image = _rounded(w, h, (250, 250, 247), (60, 60, 60))
    if code in ("RJ", "BJ"):
        colour = (200, 20, 30) if code == "RJ" else (20, 20, 20)
        fonts.draw_text(image, (w // 2, h // 5), "JOKER", max(8, w // 6), colour, bold=True,
                        anchor="m")
        fonts.draw_text(image, (w // 2, h * 3 // 5), "\u2605", max(10, w // 2), colour,
                        anchor="m")
        return image
    rank, suit = code[0], code[1]
    colour = (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]
    label = RANK_TEXT.get(rank, rank)
    big = max(10, int(h * 0.30))
    fonts.draw_text(image, (max(3, w // 14), int(h * 0.17)), label, big, colour, bold=True)
    fonts.draw_text(image, (max(3, w // 14), int(h * 0.40)), SUIT_SYMBOL[suit],
                    max(9, int(h * 0.22)), colour)
    fonts.draw_text(image, (int(w * 0.64), int(h * 0.70)), SUIT_SYMBOL[suit],
                    max(12, int(h * 0.42)), colour, anchor="m")
    return image


@functools.lru_cache(maxsize=64)
def back(w: int, h: int, face_down_mark: bool = False) -> Image.Image:
    """The card back; with ``face_down_mark``, the mark of a card played face down."""
    image = _rounded(w, h, BACK, (230, 230, 230))
    draw = ImageDraw.Draw(image)
    inset = max(3, w // 12)
    for x in range(-h, w + h, max(4, w // 8)):
        draw.line((x, inset, x + h, h - inset), fill=BACK_LINE, width=1)
    draw.rounded_rectangle((inset, inset, w - inset - 1, h - inset - 1),
                           radius=max(2, w // 14), outline=(230, 230, 230), width=1)
    if face_down_mark:
        r = w // 4
        cx, cy = w // 2, h // 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(240, 240, 240))
        draw.line((cx - r // 2, cy - r // 2, cx + r // 2, cy + r // 2), fill=(180, 30, 30),
                  width=max(2, w // 20))
        draw.line((cx - r // 2, cy + r // 2, cx + r // 2, cy - r // 2), fill=(180, 30, 30),
                  width=max(2, w // 20))
    return image


@functools.lru_cache(maxsize=2048)
def card(code: str | None, w: int, h: int, four_colour: bool = False, marked: bool = False,
         dim: bool = False) -> Image.Image:
    """A card picture: ``code`` None is a face-down card; ``marked`` rings a playable card,
    ``dim`` greys a card that cannot be played now."""
    image = (back(w, h, face_down_mark=True) if code is None
             else face(code, w, h, four_colour)).copy()
    if dim:
        # dark enough that a greyed card never reads as a live one at phone size
        shade = Image.new("RGBA", image.size, (0, 0, 0, 120))
        mask = image.getchannel("A")
        image.paste(Image.alpha_composite(image, shade), (0, 0), mask)
    if marked:
        ImageDraw.Draw(image).rounded_rectangle(
            (1, 1, w - 2, h - 2), radius=max(3, w // 10), outline=(255, 200, 0),
            width=max(3, w // 18))
    return image
