"""A seat's face: the player's avatar in a circle, their initials when there is none (yet), and
for a computer a mark of its own.

Avatars arrive as image bytes (fetched and kept by :mod:`bot.pictures.avatars`); each is decoded and
scaled once per size.
"""

from __future__ import annotations

import functools
import io
import zlib

from PIL import Image, ImageDraw

from bot.pictures import fonts

# Initials' discs, one colour per seat (eight seats at most), each one the picture's palette
# holds exactly (see table._INKS); a seat's colour is its own, whatever its name.
DISCS = [(70, 110, 190), (170, 80, 150), (200, 110, 40), (40, 140, 140), (120, 120, 60),
         (150, 70, 70), (100, 80, 180), (60, 130, 70)]
COMPUTER = (96, 106, 120)
COMPUTER_EYES = (120, 230, 255)
WHITE = (255, 255, 255)


def initials(name: str) -> str:
    """Up to two letters for a name: the first of each of its first two words."""
    words = [w for w in name.split() if w[0].isalnum()]
    letters = "".join(w[0] for w in words[:2])
    return letters.upper() if letters else "?"


@functools.lru_cache(maxsize=128)
def _circle_mask(size: int) -> Image.Image:
    mask = Image.new("L", (size * 3, size * 3), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, size * 3 - 1, size * 3 - 1), fill=255)
    return mask.resize((size, size), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=256)
def avatar_tile(data: bytes, size: int) -> Image.Image | None:
    """An avatar decoded, cropped square and scaled to a circle (None if it is no image)."""
    try:
        with Image.open(io.BytesIO(data)) as raw:
            raw.draft("RGB", (size * 2, size * 2))
            image = raw.convert("RGBA")
    except Exception:  # a broken avatar draws initials instead
        return None
    side = min(image.size)
    image = image.crop(((image.width - side) // 2, (image.height - side) // 2,
                        (image.width + side) // 2, (image.height + side) // 2))
    image = image.resize((size, size), Image.Resampling.LANCZOS)
    alpha = Image.new("L", (size, size), 0)
    alpha.paste(_circle_mask(size), (0, 0), image.getchannel("A"))
    image.putalpha(alpha)
    return image


@functools.lru_cache(maxsize=512)
def initials_tile(name: str, size: int, mark: str | None = None, seat: int | None = None
                  ) -> Image.Image:
    """A coloured disc with ``mark`` (the name's initials when None), in the seat's colour
    (a colour found from the name when the seat is not known)."""
    tile = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    colour = DISCS[(zlib.crc32(name.encode()) if seat is None else seat) % len(DISCS)]
    ImageDraw.Draw(tile).ellipse((0, 0, size - 1, size - 1), fill=colour)
    text = initials(name) if mark is None else mark
    fonts.draw_text(tile, (size // 2, size // 2), text, size // 2, WHITE, bold=True,
                    anchor="m")
    return tile


@functools.lru_cache(maxsize=8)
def computer_tile(size: int) -> Image.Image:
    """A computer's mark: a square robot head with two eyes and an antenna, not a disc."""
    tile = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    top = size // 5
    draw.rounded_rectangle((2, top, size - 3, size - 3), radius=size // 6, fill=COMPUTER,
                           outline=WHITE, width=2)
    draw.line((size // 2, 2, size // 2, top), fill=WHITE, width=2)
    draw.ellipse((size // 2 - 4, 0, size // 2 + 4, 8), fill=COMPUTER_EYES)
    eye = size // 8
    for cx in (size * 3 // 10, size * 7 // 10):
        cy = (top + size) // 2 - 2
        draw.ellipse((cx - eye, cy - eye, cx + eye, cy + eye), fill=COMPUTER_EYES)
    draw.line((size * 3 // 10, size - size // 5, size * 7 // 10, size - size // 5),
              fill=WHITE, width=2)
    return tile


def face_tile(name: str, avatar: bytes | None, computer: bool, size: int,
              mark: str | None = None, seat: int | None = None) -> Image.Image:
    """The face to draw for a seat (``mark`` and ``seat``: the initials' disc's)."""
    if computer:
        return computer_tile(size)
    if avatar:
        tile = avatar_tile(avatar, size)
        if tile is not None:
            return tile
    return initials_tile(name, size, mark, seat)


def draw_face(image: Image.Image, name: str, avatar: bytes | None, computer: bool, x: int,
              y: int, size: int, mark: str | None = None, seat: int | None = None) -> None:
    """Paste a seat's face with its top left at (x, y)."""
    tile = face_tile(name, avatar, computer, size, mark, seat)
    image.paste(tile, (x, y), tile)
