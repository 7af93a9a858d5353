"""Fonts for pictures: a chain of faces so that names in any script draw without tofu.

The chain is Noto Sans (Latin, Greek, Cyrillic), Noto Sans CJK JP, Noto Sans Thai, Noto Sans
Devanagari, DejaVu Sans (symbols such as ♠♥♦♣) and Noto Color Emoji, found under the system font
folders (``scripts/setup`` installs them from Debian's packages). Each character is drawn with the
first face whose character map has it; with no face installed, Pillow's built-in font is used.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIRS = [
    Path(p) for p in os.environ.get("DECKHAND_FONT_DIRS", "").split(os.pathsep) if p
] + [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts"]

# (file name, face name inside a collection or "", bold file name)
CHAIN: list[tuple[str, str, str]] = [
    ("NotoSans-Regular.ttf", "", "NotoSans-Bold.ttf"),
    ("NotoSansCJK-Regular.ttc", "Noto Sans CJK JP", "NotoSansCJK-Bold.ttc"),
    ("NotoSansThai-Regular.ttf", "", "NotoSansThai-Bold.ttf"),
    ("NotoSansDevanagari-Regular.ttf", "", "NotoSansDevanagari-Bold.ttf"),
    ("DejaVuSans.ttf", "", "DejaVuSans-Bold.ttf"),
]
EMOJI_FILE = "NotoColorEmoji.ttf"
EMOJI_SIZE = 109  # the one size of Noto Color Emoji's bitmaps


@functools.cache
def _find(name: str) -> Path | None:
    for folder in FONT_DIRS:
        if folder.is_dir():
            for found in folder.rglob(name):
                return found
    return None


@dataclass(frozen=True)
class Face:
    """One font file (and face index) with the set of characters it covers."""

    path: str
    index: int
    bold_path: str
    bold_index: int
    coverage: frozenset[int]
    emoji: bool = False


def _collection_index(path: Path, family: str) -> int:
    from fontTools.ttLib import TTCollection  # type: ignore[import-untyped]

    if path.suffix.lower() != ".ttc" or not family:
        return 0
    collection = TTCollection(str(path), lazy=True)
    for i, font in enumerate(collection.fonts):
        if font["name"].getDebugName(1) == family:
            return i
    return 0


def _coverage(path: Path, index: int) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    font = TTFont(str(path), fontNumber=index, lazy=True)
    cmap = font.getBestCmap() or {}
    return frozenset(cmap)


@functools.cache
def chain() -> tuple[Face, ...]:
    """The installed faces, in order of preference."""
    faces: list[Face] = []
    for name, family, bold in CHAIN:
        path = _find(name)
        if path is None:
            continue
        index = _collection_index(path, family)
        bold_path = _find(bold) or path
        bold_index = _collection_index(bold_path, family) if bold_path != path else index
        faces.append(Face(str(path), index, str(bold_path), bold_index, _coverage(path, index)))
    emoji = _find(EMOJI_FILE)
    if emoji is not None:
        faces.append(Face(str(emoji), 0, str(emoji), 0, _coverage(emoji, 0), emoji=True))
    return tuple(faces)


@functools.lru_cache(maxsize=256)
def font(face: Face | None, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A loaded font of a face (None: Pillow's built-in) at a size."""
    if face is None:
        default = ImageFont.load_default(size)
        if not isinstance(default, ImageFont.FreeTypeFont):  # a Pillow without FreeType
            raise RuntimeError("the pictures need Pillow built with FreeType")
        return default
    if face.emoji:
        return ImageFont.truetype(face.path, EMOJI_SIZE, index=0)
    path, index = (face.bold_path, face.bold_index) if bold else (face.path, face.index)
    return ImageFont.truetype(path, size, index=index)


def missing(text: str) -> list[str]:
    """Characters of ``text`` that no installed face covers (would draw as boxes)."""
    faces = chain()
    return [ch for ch in text if not ch.isspace() and _face_for(ch, faces) is None]


def _face_for(ch: str, faces: tuple[Face, ...]) -> Face | None:
    point = ord(ch)
    for face in faces:
        if point in face.coverage:
            return face
    return None


_JOINERS = {0x200D, 0xFE0F, 0xFE0E}


def runs(text: str) -> Iterator[tuple[Face | None, str]]:
    """Split text into runs each drawn with one face (joiners stay with their run)."""
    faces = chain()
    current: Face | None = None
    buf = ""
    for ch in text:
        # A space stays in the run before it, except after an emoji (whose font's space is as
        # wide as an emoji).
        keep = ord(ch) in _JOINERS or (ch.isspace() and buf and not (current and current.emoji))
        face = current if keep else _face_for(ch, faces)
        if face is None and not faces:
            face = None
        if buf and face is not current:
            yield current, buf
            buf = ""
        current = face
        buf += ch
    if buf:
        yield current, buf


@functools.lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """How wide ``text`` draws at ``size`` (kept: a table's lines mostly repeat)."""
    total = 0
    for face, part in runs(text):
        f = font(face, size, bold)
        width = f.getlength(part)
        if face is not None and face.emoji:
            width = width * size / EMOJI_SIZE
        total += round(width)
    return total


@functools.lru_cache(maxsize=8192)
def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so that it fits ``width`` (kept, as its width)."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def draw_text(
    image: Image.Image, xy: tuple[int, int], text: str, size: int,
    fill: tuple[int, int, int] = (255, 255, 255), bold: bool = False, anchor: str = "l",
) -> int:
    """Draw ``text`` with per-character font fallback; returns its width.

    ``anchor`` is 'l' (xy is the left middle), 'm' (centre) or 'r' (right middle). The text is
    drawn once into a cached transparent tile, then pasted.
    """
    tile = text_tile(text, size, fill, bold)
    x, y = xy
    if anchor == "m":
        x -= tile.width // 2
    elif anchor == "r":
        x -= tile.width
    image.paste(tile, (x, y - tile.height // 2), tile)
    return tile.width


@functools.lru_cache(maxsize=4096)
def text_tile(text: str, size: int, fill: tuple[int, int, int], bold: bool = False
              ) -> Image.Image:
    """``text`` drawn on a transparent tile whose vertical middle is the text's middle."""
    width = max(1, text_width(text, size, bold))
    height = int(size * 1.6)
    tile = Image.new("RGBA", (width + 2, height), (*fill, 0))
    _draw_runs(tile, (0, height // 2), text, size, fill, bold)
    return tile


def _draw_runs(image: Image.Image, xy: tuple[int, int], text: str, size: int,
               fill: tuple[int, int, int], bold: bool) -> None:
    x, y = xy
    draw = ImageDraw.Draw(image)
    for face, part in runs(text):
        f = font(face, size, bold)
        if face is not None and face.emoji:
            w = int(f.getlength(part)) or EMOJI_SIZE
            tile = Image.new("RGBA", (w, int(EMOJI_SIZE * 1.2)), (0, 0, 0, 0))
            ImageDraw.Draw(tile).text((0, 0), part, font=f, embedded_color=True)
            scale = size / EMOJI_SIZE
            tile = tile.resize((max(1, int(w * scale)), max(1, int(tile.height * scale))),
                               Image.Resampling.LANCZOS)
            image.paste(tile, (x, y - int(size * 0.6)), tile)
            x += tile.width
            continue
        draw.text((x, y), part, font=f, fill=fill, anchor="lm")
        x += round(f.getlength(part))
