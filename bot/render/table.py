"""The table picture and the hand picture, drawn from views only.

A game's view becomes a :class:`Scene` (``bot.render.scenes``): seats with names, their game's
numbers, badges and the cards that lie in front of them, the trick with who played each card,
the previous trick, and the centre rows of cards and lines of text. Drawing a scene knows nothing
of any game.

Made for a phone: Discord shows a table picture about 400 px wide there, a third of its size, so
no text is drawn smaller than :data:`MIN_TEXT` px (8 px at 400 px wide) and a card's rank stays
at least :data:`MIN_RANK` px tall (10 px at 400 px wide). Seats sit along the table's edges by a
layout per seat count, so the felt between them holds big cards.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.render import cards, faces, fonts

WIDTH, HEIGHT = 1200, 675
FELT = (24, 94, 56)
TABLE = (30, 110, 66)
RIM = (14, 60, 34)
GOLD = (255, 200, 0)
WHITE = (255, 255, 255)
MUTED = (190, 210, 195)
BOX = (12, 48, 28)
BOX_OUT = (70, 70, 70)
GREY = (200, 200, 200)
INK = (30, 30, 30)
RED_BADGE = (230, 120, 110)
# Card sizes: in the centre, and in front of a seat or in the previous trick.
CARD_W, CARD_H = 92, 128
SMALL_W, SMALL_H = 62, 86
# Text sizes (px on the 1200-px picture). MIN_TEXT is the bar the gallery test holds.
TITLE, NAME, TEXT = 32, 28, 24
MIN_TEXT = 24
MIN_RANK = int(SMALL_H * 0.30)
BOX_W = 300
MARGIN = 10
AVATAR = 48

# Badge colours by kind: what the badge means decides how it looks.
BADGE_FILL = {"turn": GOLD, "winner": GOLD, "safe": (150, 215, 160), "loser": RED_BADGE,
              "out": GREY, "declarer": (160, 190, 240), "lead": GOLD, "lead-last": GREY}


@dataclass
class SeatScene:
    """One seat as drawn: name, lines under it, badges, and cards in front of it."""

    name: str
    lines: list[str] = field(default_factory=list)
    acting: bool = False
    dealer: bool = False
    live: bool = True
    badges: list[tuple[str, str]] = field(default_factory=list)  # (kind, text)
    cards: list[str | None] = field(default_factory=list)
    hand_count: int = 0
    avatar: bytes | None = None
    computer: bool = False

    def badge(self, kind: str, text: str) -> None:
        """Add a badge once (a kind shows one badge)."""
        if all(k != kind for k, _ in self.badges):
            self.badges.append((kind, text))

    def drop_badge(self, kind: str) -> None:
        """Remove a kind of badge."""
        self.badges = [(k, t) for k, t in self.badges if k != kind]


@dataclass
class Scene:
    """Everything a table picture shows."""

    title: str
    subtitle: str = ""
    seats: list[SeatScene] = field(default_factory=list)
    trick: list[tuple[int, list[str | None]]] = field(default_factory=list)
    lead_label: str = ""
    last_trick: list[tuple[int, list[str | None]]] = field(default_factory=list)
    last_label: str = ""
    rows: list[tuple[str, list[str | None]]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    corner: list[str] = field(default_factory=list)
    result: list[str] = field(default_factory=list)


# Where seats sit, per seat count: (x, y) with y "B" for the bottom edge and "T" for the top
# edge; seat 0 at the bottom, then clockwise (each seat to the left of the one before).
LAYOUTS: dict[int, list[tuple[int, float | str]]] = {
    1: [(600, "B")],
    2: [(600, "B"), (600, "T")],
    3: [(600, "B"), (170, 250), (1030, 250)],
    4: [(600, "B"), (160, 330), (600, "T"), (1040, 330)],
    5: [(600, "B"), (160, 430), (440, "T"), (760, "T"), (1040, 430)],
    6: [(600, "B"), (160, 470), (160, 250), (600, "T"), (1040, 250), (1040, 470)],
    7: [(600, "B"), (160, 510), (160, 300), (440, "T"), (760, "T"), (1040, 300), (1040, 510)],
    8: [(600, "B"), (280, "B"), (160, 410), (160, 235), (600, "T"), (1040, 235), (1040, 410),
        (920, "B")],
}


def box_height(lines: int) -> int:
    """A seat box's height for a number of lines under the name."""
    return 52 + 30 * lines


def seat_position(seat: int, players: int, lines: int = 1) -> tuple[int, int]:
    """Where a seat's box is centred."""
    layout = LAYOUTS.get(players)
    if layout is None:  # more seats than any game has: round the edges evenly
        layout = [LAYOUTS[8][i % 8] for i in range(players)]
    x, y = layout[seat]
    h = box_height(lines)
    if y == "B":
        return x, HEIGHT - MARGIN - h // 2
    if y == "T":
        return x, MARGIN + h // 2
    return x, int(y)


CENTRE = (WIDTH // 2, HEIGHT // 2 + 6)


def trick_spot(x: int, y: int, h: int, crowded: bool) -> tuple[int, int]:
    """Where a seat's trick card is centred: between its box and the centre, clear of the
    boxes (and of the cards lying in front of them when ``crowded``) at the top and bottom."""
    dx, dy = x - CENTRE[0], y - CENTRE[1]
    tx = CENTRE[0] + int(dx * (0.34 if crowded else 0.5))
    room = 40 + (SMALL_H + 12 if crowded else 0)
    high = MARGIN + h + room + CARD_H // 2
    low = HEIGHT - MARGIN - h - room - CARD_H // 2
    ty = min(max(CENTRE[1] + int(dy * 0.62), high), low)
    return tx, ty


Rect = tuple[int, int, int, int]
# Where each part of the last pictures went, when a caller asks (``MARKS = []``): (what, box).
# "seat:N" boxes, "badge:KIND:N" badges, "trick:N", "last:N" and "cards:N" cards, "row" centre
# cards, "previous" the previous trick, "result" the result.
MARKS: list[tuple[str, Rect]] | None = None


def _mark(what: str, rect: Rect) -> None:
    if MARKS is not None:
        MARKS.append((what, rect))


@functools.cache
def _background() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((40, 40, WIDTH - 40, HEIGHT - 40), radius=200, fill=TABLE,
                           outline=RIM, width=8)
    return image


def _paste(image: Image.Image, tile: Image.Image, x: int, y: int) -> None:
    image.paste(tile, (x, y), tile)


def _card_row(image: Image.Image, codes: list[str | None], cx: int, y: int, w: int, h: int,
              four_colour: bool, max_width: int, what: str = "cards", dim: bool = False
              ) -> tuple[int, int]:
    """Cards side by side centred on cx (overlapping when they do not fit); their x span."""
    if not codes:
        return cx, cx
    step = min(w + 6, max(w // 3, (max_width - w) // max(1, len(codes) - 1))) \
        if len(codes) > 1 else w
    total = step * (len(codes) - 1) + w
    x = cx - total // 2
    start = x
    for code in codes:
        _paste(image, cards.card(code, w, h, four_colour, dim=dim), x, y)
        x += step
    _mark(what, (start, y, start + total, y + h))
    return start, start + total


def _label(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str,
           kind: str, anchor: str = "m", seat: int = -1) -> int:
    """A badge: dark text on a coloured pill; returns its width."""
    width = fonts.text_width(text, TEXT, True) + 18
    x, y = xy
    left = x - width // 2 if anchor == "m" else (x - width if anchor == "r" else x)
    _mark(f"badge:{kind}:{seat}", (left, y - 16, left + width, y + 16))
    draw.rounded_rectangle((left, y - 16, left + width, y + 16), radius=12,
                           fill=BADGE_FILL.get(kind, GREY), outline=INK, width=1)
    fonts.draw_text(image, (left + width // 2, y), text, TEXT, INK, bold=True, anchor="m")
    return width


def draw_scene(scene: Scene, four_colour: bool = False) -> Image.Image:
    """The picture of a scene, 1200 × 675."""
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    players = len(scene.seats)
    wrapped = [_wrap(s.lines) for s in scene.seats]
    lines = max([1, *(len(w) for w in wrapped)])
    spots = [seat_position(seat, players, lines) for seat in range(players)]
    h = box_height(lines)
    top_band = [x for x, y in spots if y - h // 2 < 100]
    right_top = min([HEIGHT, *(y - h // 2 for x, y in spots if x + BOX_W // 2 > 860)])
    corner_left = max([860, *(x + BOX_W // 2 + 16 for x in top_band if x > WIDTH // 2)])
    title_right = min([560, *(x - BOX_W // 2 - 16 for x in top_band
                              if x - BOX_W // 2 < 560)])
    title, size = _title_fit(scene.title, title_right - 22)
    fonts.draw_text(image, (22, 30), title, size, WHITE, bold=True)
    if scene.subtitle:
        fonts.draw_text(image, (22, 68), fonts.fit(scene.subtitle, TEXT, title_right - 22),
                        TEXT, MUTED)
    for i, text in enumerate(scene.corner[:max(2, (right_top - 12) // 32)]):
        fonts.draw_text(image, (WIDTH - 22, 28 + 32 * i),
                        fonts.fit(text, TEXT, WIDTH - 22 - corner_left), TEXT, WHITE,
                        anchor="r")
    crowded = any(s.cards for s in scene.seats)
    for seat, seat_scene in enumerate(scene.seats):
        x, y = spots[seat]
        below_free = all(not (abs(ox - x) < BOX_W and 0 < oy - y < h + SMALL_H + 40)
                         for ox, oy in spots)
        _draw_seat(image, draw, seat_scene, seat, wrapped[seat], x, y, h, four_colour,
                   below_free)
    if scene.trick and not scene.result:
        _draw_trick(image, draw, scene, spots, h, crowded, four_colour)
    elif scene.last_trick and not scene.result:
        _draw_trick(image, draw, scene, spots, h, crowded, four_colour, last=True)
    if scene.trick and scene.last_trick and not scene.result:
        _draw_previous(image, scene, spots, h, four_colour)
    if scene.result:
        _draw_result(image, draw, scene.result)
        return image
    rows = [] if scene.trick else scene.rows[:2]
    block = len(rows) * (CARD_H + 40) + len(scene.lines[:3]) * 34
    top = CENTRE[1] - block // 2
    for label, codes in rows:
        if label:
            fonts.draw_text(image, (CENTRE[0], top + 14), fonts.fit(label, TEXT, 560), TEXT,
                            MUTED, anchor="m")
        _card_row(image, codes, CENTRE[0], top + 32, CARD_W, CARD_H, four_colour, 560, "row")
        top += CARD_H + 40
    for text in scene.lines[:3]:
        fonts.draw_text(image, (CENTRE[0], top + 17), fonts.fit(text, NAME, 560, True), NAME,
                        WHITE, bold=True, anchor="m")
        top += 34
    return image


def _title_fit(title: str, width: int) -> tuple[str, int]:
    """The title and its size for a width: whole if it fits (smaller if need be), else without
    its reading in brackets ('1234 (ヌン・ソーン…)' → '1234'), else shortened."""
    short = title.replace("（", "(").split("(")[0].strip() or title
    for text, size in ((title, TITLE), (title, NAME), (short, TITLE), (short, NAME)):
        if fonts.text_width(text, size, True) <= width:
            return text, size
    return fonts.fit(short, NAME, width, True), NAME


def _draw_trick(image: Image.Image, draw: ImageDraw.ImageDraw, scene: Scene,
                spots: list[tuple[int, int]], h: int, crowded: bool, four_colour: bool,
                last: bool = False) -> None:
    """Each card of a trick in front of the seat that played it, the lead marked."""
    plays = scene.last_trick if last else scene.trick
    drawn: list[Rect] = []
    for i, (seat, codes) in enumerate(plays):
        tx, ty = trick_spot(*spots[seat], h, crowded)
        x0, x1 = _card_row(image, codes, tx, ty - CARD_H // 2, CARD_W, CARD_H, four_colour,
                           CARD_W + 30 * 5, f"{'last' if last else 'trick'}:{seat}", dim=last)
        drawn.append((x0, ty - CARD_H // 2, x1, ty + CARD_H // 2))
        if i == 0 and scene.lead_label:  # the previous trick's cards and lead are greyed
            _label(image, draw, ((x0 + x1) // 2, ty - CARD_H // 2 - 18), scene.lead_label,
                   "lead-last" if last else "lead", seat=seat)
    if last and scene.last_label:
        fonts.draw_text(image, (CENTRE[0], _label_y(drawn)),
                        fonts.fit(scene.last_label, TEXT, 360), TEXT, WHITE, bold=True,
                        anchor="m")


def _label_y(cards_drawn: list[Rect]) -> int:
    """Where the previous trick's label goes: the centre, or above the trick's cards (clear of
    the lead badge) when a card lies there."""
    y = CENTRE[1] + 2
    if all(bottom < y - 18 or top > y + 18 or right < CENTRE[0] - 180 or left > CENTRE[0] + 180
           for left, top, right, bottom in cards_drawn):
        return y
    return min(top for _, top, _, _ in cards_drawn) - 52


def _draw_previous(image: Image.Image, scene: Scene, spots: list[tuple[int, int]], h: int,
                   four_colour: bool) -> None:
    """The previous trick, small, in a free bottom corner: cards in the order played."""
    bottom = HEIGHT - MARGIN - SMALL_H
    taken = [x for x, y in spots if y + h // 2 > bottom - 40 and y != spots[0][1]]
    taken += [x for x, y in spots if y - h // 2 < HEIGHT and y > HEIGHT - 200]
    left_free = all(x - BOX_W // 2 > 20 + 4 * (SMALL_W // 2 + 4) + 40 or x > WIDTH // 2
                    for x in taken)
    if not left_free:
        return
    codes = [c for _, cs in scene.last_trick for c in cs][:8]
    x = 24
    fonts.draw_text(image, (x, bottom - 20), fonts.fit(scene.last_label, TEXT,
                                                       spots[0][0] - BOX_W // 2 - 40),
                    TEXT, MUTED)
    step = min(SMALL_W + 4, max(SMALL_W // 3, (spots[0][0] - BOX_W // 2 - 40 - SMALL_W)
                                // max(1, len(codes) - 1)))
    for code in codes:
        _paste(image, cards.card(code, SMALL_W, SMALL_H, four_colour), x, bottom - 2)
        x += step
    _mark("previous", (24, bottom - 2, x - step + SMALL_W, bottom - 2 + SMALL_H))


def _draw_result(image: Image.Image, draw: ImageDraw.ImageDraw, result: list[str]) -> None:
    """A finished game's result in the middle: a heading, then the places."""
    shown = result[:6]
    width = max(fonts.text_width(line, NAME, True) for line in shown) + 60
    width = min(max(width, 360), 600)
    height = 30 + 40 * len(shown)
    left, top = CENTRE[0] - width // 2, CENTRE[1] - height // 2
    _mark("result", (left, top, left + width, top + height))
    draw.rounded_rectangle((left, top, left + width, top + height), radius=18, fill=BOX,
                           outline=GOLD, width=3)
    for i, line in enumerate(shown):
        fonts.draw_text(image, (CENTRE[0], top + 35 + 40 * i),
                        fonts.fit(line, NAME, width - 30, True), NAME,
                        GOLD if i == 0 else WHITE, bold=True, anchor="m")


LINE_WIDTHS = (BOX_W - 30 - AVATAR - 10, BOX_W - 24)  # beside the face, then the full box


def _wrap(parts: list[str], most: int = 3) -> list[str]:
    """A seat's parts joined with ' · ' into lines that fit its box (a part never split)."""
    lines: list[str] = []
    for part in parts:
        width = LINE_WIDTHS[min(len(lines) - 1, 1)] if lines else LINE_WIDTHS[0]
        if lines and fonts.text_width(lines[-1] + " · " + part, TEXT) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines[:most]


def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatScene, index: int,
               lines: list[str], x: int, y: int, h: int, four_colour: bool,
               below_free: bool = True) -> None:
    w = BOX_W
    left, top = x - w // 2, y - h // 2
    _mark(f"seat:{index}", (left, top, left + w, top + h))
    outline = GOLD if seat.acting else (BOX_OUT if not seat.live else (90, 140, 110))
    draw.rounded_rectangle((left, top, left + w, top + h), radius=14,
                           fill=BOX if seat.live else (40, 40, 40), outline=outline,
                           width=5 if seat.acting else 2)
    faces.draw_face(image, seat.name, seat.avatar, seat.computer, left + 10, top + 10, AVATAR)
    text_left = left + 10 + AVATAR + 10
    name_width = left + w - 10 - text_left - (34 if seat.dealer else 0)
    fonts.draw_text(image, (text_left, top + 28), fonts.fit(seat.name, NAME, name_width, True),
                    NAME, WHITE if seat.live else MUTED, bold=True)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (text_left if i == 0 else left + 12, top + 62 + 30 * i),
                        fonts.fit(line, TEXT, LINE_WIDTHS[min(i, 1)]),
                        TEXT, MUTED if seat.live else GREY)
    if seat.dealer:
        cx, cy = left + w - 22, top + 34  # under the badges along the top edge
        draw.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), fill=(240, 240, 240),
                     outline=(40, 40, 40))
        fonts.draw_text(image, (cx, cy), "D", TEXT, INK, bold=True, anchor="m")
    # Badges side by side along the box's outer edge, never over each other.
    bx = left + w
    by = top + h + 18 if top <= MARGIN + 4 else top - 6  # a top-edge seat: under its box
    for kind, text in reversed(seat.badges):
        bx -= _label(image, draw, (bx, by), text, kind, anchor="r", seat=index) + 6
    if seat.cards:
        _seat_cards(image, seat.cards, index, x, y, h, four_colour, below_free)


def _seat_cards(image: Image.Image, codes: list[str | None], index: int, x: int, y: int, h: int,
                four_colour: bool, below_free: bool = True) -> None:
    """Cards lying in front of a seat: on the side of its box that faces the centre."""
    width = min(len(codes) * (SMALL_W + 6), BOX_W)
    if abs(x - CENTRE[0]) > WIDTH // 4 and not below_free:  # a side seat with one under it
        width = min(width, 170)  # clear of the top and bottom seats' cards
        x += (BOX_W + width) // 2 + 8 if x < CENTRE[0] else -((BOX_W + width) // 2 + 8)
        cy = y - SMALL_H // 2
    elif abs(x - CENTRE[0]) > WIDTH // 4:  # a side seat: under its box
        cy = y + h // 2 + 8
    elif y > CENTRE[1]:
        cy = y - h // 2 - SMALL_H - 22
    else:
        cy = y + h // 2 + 40  # under the badges
    _card_row(image, codes, x, cy, SMALL_W, SMALL_H, four_colour, width, f"cards:{index}")


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


#: how much larger a hand is drawn under a table than alone (it is read at the table's scale)
HAND_SCALE = 1.4


def table_and_hand(table: Image.Image, hand: Image.Image) -> Image.Image:
    """A table picture with a hand picture under it, centred, enlarged to the table's scale."""
    scale = min(HAND_SCALE, (WIDTH - 2 * MARGIN) / hand.width)
    size = (round(hand.width * scale), round(hand.height * scale))
    hand = hand.resize(size, Image.Resampling.LANCZOS)
    image = Image.new("RGB", (WIDTH, HEIGHT + hand.height), FELT)
    image.paste(table, (0, 0))
    image.paste(hand, ((WIDTH - hand.width) // 2, HEIGHT))
    return image


# The colours pictures are made of, and the steps between pairs of them that anti-aliased
# edges and text produce: a fixed palette makes PNG encoding several times faster than RGB.
_INKS = [FELT, TABLE, RIM, BOX, (40, 40, 40), WHITE, MUTED, GOLD, (250, 250, 247),
         (20, 20, 20), (200, 20, 30), (20, 70, 200), (20, 130, 40), cards.BACK,
         cards.BACK_LINE, (60, 60, 60), (90, 140, 110), (70, 70, 70), (200, 200, 200),
         (180, 30, 30), (240, 240, 240), (30, 30, 30), *BADGE_FILL.values(), *faces.DISCS,
         faces.COMPUTER, faces.COMPUTER_EYES]
_PAIRS = [(FELT, WHITE), (TABLE, WHITE), (BOX, WHITE), (BOX, MUTED), (TABLE, MUTED),
          (FELT, MUTED), ((250, 250, 247), (20, 20, 20)), ((250, 250, 247), (200, 20, 30)),
          ((250, 250, 247), (20, 70, 200)), ((250, 250, 247), (20, 130, 40)),
          (GOLD, (30, 30, 30)), ((240, 240, 240), (30, 30, 30)), (TABLE, (60, 60, 60)),
          (cards.BACK, cards.BACK_LINE), (cards.BACK, (230, 230, 230)), (BOX, GOLD),
          (TABLE, GOLD), (TABLE, (250, 250, 247)), ((40, 40, 40), MUTED), (TABLE, RIM),
          ((40, 40, 40), GREY), *((disc, WHITE) for disc in faces.DISCS), (BOX, faces.COMPUTER),
          *((fill, INK) for fill in BADGE_FILL.values())]


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
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    rgb.quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, "PNG", compress_level=1)
    return out.getvalue()
