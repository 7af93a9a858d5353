"""The table picture and the hand picture, drawn from views only.

A game's view becomes a :class:`Scene` (``bot.render.scenes``): seats with names, counts,
badges and the cards that lie in front of them, the trick, and the centre rows of cards and
lines of text. Drawing a scene knows nothing of any game.
"""

from __future__ import annotations

import functools
import io
import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.render import cards, fonts

WIDTH, HEIGHT = 1200, 675
FELT = (24, 94, 56)
TABLE = (30, 110, 66)
RIM = (14, 60, 34)
GOLD = (255, 200, 0)
WHITE = (255, 255, 255)
MUTED = (190, 210, 195)
BOX = (12, 48, 28)
BOX_OUT = (70, 70, 70)
CARD_W, CARD_H = 62, 87
SMALL_W, SMALL_H = 40, 56


@dataclass
class SeatScene:
    """One seat as drawn: name, a line under it, badges, and cards in front of it."""

    name: str
    line: str = ""
    acting: bool = False
    dealer: bool = False
    live: bool = True
    badge: str = ""
    cards: list[str | None] = field(default_factory=list)
    hand_count: int = 0


@dataclass
class Scene:
    """Everything a table picture shows."""

    title: str
    subtitle: str = ""
    seats: list[SeatScene] = field(default_factory=list)
    trick: list[tuple[int, list[str | None]]] = field(default_factory=list)
    rows: list[tuple[str, list[str | None]]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    corner: list[str] = field(default_factory=list)


def seat_position(seat: int, players: int) -> tuple[int, int]:
    """Where a seat's box is centred: seat 0 at the bottom, then clockwise (to its left)."""
    angle = math.pi / 2 + 2 * math.pi * seat / players
    return (int(WIDTH / 2 + 470 * math.cos(angle)), int(HEIGHT / 2 + 20 + 232 * math.sin(angle)))



@functools.cache
def _background() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.ellipse((70, 70, WIDTH - 70, HEIGHT - 40), fill=TABLE, outline=RIM, width=10)
    return image


def _paste(image: Image.Image, tile: Image.Image, x: int, y: int) -> None:
    image.paste(tile, (x, y), tile)


def _card_row(image: Image.Image, codes: list[str | None], cx: int, y: int, w: int, h: int,
              four_colour: bool, max_width: int) -> None:
    """Cards side by side centred on cx (overlapping when they do not fit)."""
    if not codes:
        return
    step = min(w + 6, max(12, (max_width - w) // max(1, len(codes) - 1))) if len(codes) > 1 \
        else w
    total = step * (len(codes) - 1) + w
    x = cx - total // 2
    for code in codes:
        _paste(image, cards.card(code, w, h, four_colour), x, y)
        x += step


def draw_scene(scene: Scene, four_colour: bool = False) -> Image.Image:
    """The picture of a scene, 1200 × 675."""
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    fonts.draw_text(image, (24, 28), fonts.fit(scene.title, 26, 700), 26, WHITE, bold=True)
    if scene.subtitle:
        fonts.draw_text(image, (24, 60), fonts.fit(scene.subtitle, 18, 700), 18, MUTED)
    players = len(scene.seats)
    centre = (WIDTH // 2, HEIGHT // 2 + 10)
    for seat, seat_scene in enumerate(scene.seats):
        x, y = seat_position(seat, players)
        _draw_seat(image, draw, seat_scene, x, y, four_colour)
    for seat, codes in scene.trick:
        x, y = seat_position(seat, players)
        tx = int(centre[0] + (x - centre[0]) * 0.38)
        ty = int(centre[1] + (y - centre[1]) * 0.38) - CARD_H // 2
        _card_row(image, codes, tx, ty, CARD_W, CARD_H, four_colour, CARD_W + 22 * 7)
    rows = scene.rows[:3]
    corner = list(scene.corner)
    if scene.trick:
        # The trick fills the centre: other rows of cards are named in the corner instead.
        corner += [f"{label}: " + " ".join(_pretty(c) for c in codes) for label, codes in rows]
        rows = []
    top = centre[1] - (len(rows) * (CARD_H + 28)) // 2 - (10 if scene.lines else 0)
    for label, codes in rows:
        fonts.draw_text(image, (centre[0], top + 10), fonts.fit(label, 17, 520), 17, MUTED,
                        anchor="m")
        _card_row(image, codes, centre[0], top + 22, CARD_W, CARD_H, four_colour, 520)
        top += CARD_H + 30
    for i, text in enumerate(corner[:5]):
        fonts.draw_text(image, (WIDTH - 24, 28 + 26 * i), fonts.fit(text, 18, 420), 18, WHITE,
                        anchor="r")
    line_top = max(top + 6, centre[1] - 10) if rows else centre[1] - 12 * len(scene.lines)
    if scene.trick and not rows:
        line_top = centre[1] + 70
    for text in scene.lines[:4]:
        fonts.draw_text(image, (centre[0], line_top + 10), fonts.fit(text, 19, 560), 19, WHITE,
                        anchor="m")
        line_top += 26
    return image


def _pretty(code: str | None) -> str:
    if code is None:
        return "▢"
    if code in ("RJ", "BJ"):
        return "Joker"
    return ("10" if code[0] == "T" else code[0]) + cards.SUIT_SYMBOL[code[1]]


def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatScene, x: int, y: int,
               four_colour: bool) -> None:
    w, h = 232, 64
    left, top = x - w // 2, y - h // 2
    outline = GOLD if seat.acting else (BOX_OUT if not seat.live else (90, 140, 110))
    draw.rounded_rectangle((left, top, left + w, top + h), radius=12,
                           fill=BOX if seat.live else (40, 40, 40), outline=outline,
                           width=4 if seat.acting else 2)
    name_width = w - 24 - (30 if seat.dealer else 0)
    fonts.draw_text(image, (left + 12, top + 20), fonts.fit(seat.name, 20, name_width), 20,
                    WHITE if seat.live else MUTED, bold=True)
    if seat.line:
        fonts.draw_text(image, (left + 12, top + 46), fonts.fit(seat.line, 16, w - 24), 16, MUTED)
    if seat.dealer:
        cx, cy = left + w - 20, top + 20
        draw.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=(240, 240, 240),
                     outline=(40, 40, 40))
        fonts.draw_text(image, (cx, cy), "D", 16, (30, 30, 30), bold=True, anchor="m")
    if seat.badge:
        bw = fonts.text_width(seat.badge, 15, True) + 16
        draw.rounded_rectangle((left + w - bw, top - 14, left + w, top + 8), radius=8,
                               fill=GOLD if seat.acting else (200, 200, 200))
        fonts.draw_text(image, (left + w - bw // 2, top - 3), seat.badge, 15, (30, 30, 30),
                        bold=True, anchor="m")
    if seat.cards:
        below = y > HEIGHT // 2 + 100
        cy = top - SMALL_H - 6 if below else top + h + 6
        _card_row(image, seat.cards, x, cy, SMALL_W, SMALL_H, four_colour, w)


def hand_picture(codes: list[str], playable: set[str] | None, four_colour: bool = False,
                 title: str = "") -> Image.Image:
    """A hand: playable cards ringed, the others dimmed (``playable`` None marks nothing)."""
    w, h = 84, 118
    per_row = 13
    rows = [codes[i:i + per_row] for i in range(0, len(codes), per_row)] or [[]]
    step = 56
    width = max(360, 24 + step * (min(len(codes), per_row) - 1) + w + 24)
    head = 40 if title else 12
    height = head + len(rows) * (h + 10) + 8
    image = Image.new("RGB", (width, height), FELT)
    if title:
        fonts.draw_text(image, (16, 22), fonts.fit(title, 20, width - 32), 20, WHITE, bold=True)
    for r, row in enumerate(rows):
        for i, code in enumerate(row):
            marked = playable is not None and code in playable
            dim = playable is not None and code not in playable
            _paste(image, cards.card(code, w, h, four_colour, marked=marked, dim=dim),
                   24 + i * step, head + r * (h + 10))
    if not codes:
        fonts.draw_text(image, (width // 2, head + h // 2), "—", 30, MUTED, anchor="m")
    return image


# The colours pictures are made of, and the steps between pairs of them that anti-aliased
# edges and text produce: a fixed palette makes PNG encoding several times faster than RGB.
_INKS = [FELT, TABLE, RIM, BOX, (40, 40, 40), WHITE, MUTED, GOLD, (250, 250, 247),
         (20, 20, 20), (200, 20, 30), (20, 70, 200), (20, 130, 40), cards.BACK,
         cards.BACK_LINE, (60, 60, 60), (90, 140, 110), (70, 70, 70), (200, 200, 200),
         (180, 30, 30), (240, 240, 240), (30, 30, 30)]
_PAIRS = [(FELT, WHITE), (TABLE, WHITE), (BOX, WHITE), (BOX, MUTED), (TABLE, MUTED),
          (FELT, MUTED), ((250, 250, 247), (20, 20, 20)), ((250, 250, 247), (200, 20, 30)),
          ((250, 250, 247), (20, 70, 200)), ((250, 250, 247), (20, 130, 40)),
          (GOLD, (30, 30, 30)), ((240, 240, 240), (30, 30, 30)), (TABLE, (60, 60, 60)),
          (cards.BACK, cards.BACK_LINE), (cards.BACK, (230, 230, 230)), (BOX, GOLD),
          (TABLE, GOLD), (TABLE, (250, 250, 247)), ((40, 40, 40), MUTED), (TABLE, RIM)]


@functools.cache
def _palette() -> Image.Image:
    colours: list[tuple[int, int, int]] = list(_INKS)
    for a, b in _PAIRS:
        for step in range(1, 11):
            t = step / 11
            colours.append((round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
                            round(a[2] + (b[2] - a[2]) * t)))
    unique = list(dict.fromkeys(colours))[:256]
    flat = [v for colour in unique for v in colour]
    flat += [0] * (768 - len(flat))
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


def png(image: Image.Image) -> bytes:
    """PNG bytes on the fixed palette, compressed lightly (speed before the last kilobytes)."""
    out = io.BytesIO()
    image.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE).save(
        out, "PNG", compress_level=1)
    return out.getvalue()
