"""The table picture and the hand picture, drawn from views only.

A game's view becomes a :class:`Scene` (``bot.pictures.scenes``): seats with names, their game's
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
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.pictures import cards, faces, fonts, overlaps

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
MID_W, MID_H = 74, 103  # a crowded trick, and the previous trick drawn in the middle
SMALL_W, SMALL_H = 62, 86
# Text sizes (px on the 1200-px picture). MIN_TEXT is the bar the gallery test holds.
TITLE, NAME, TEXT = 32, 28, 24
MIN_TEXT = 24
SMALL_TEXT = MIN_TEXT  # labels over cards
MIN_RANK = int(SMALL_H * 0.30)
BOX_W = 300
MARGIN = 10
AVATAR = 48
# Partnerships' colours (Finesse's pairs, Sugekari's teams): the seat box's edge and the
# corner's line of that side.
TEAM_COLOURS = [(110, 170, 240), (240, 150, 90)]

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
    team: int | None = None  # the partnership, drawn in its colour
    cards_label: str = ""  # what the cards in front of the seat are ("penalty", "known")

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
    corner_colour: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    result: list[str] = field(default_factory=list)
    trick_best: int = -1  # the play of ``trick`` winning it so far (-1: not known)


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
# What the last pictures drew, in drawing order, when a caller asks (``MARKS = []``): (what,
# box). "seat:N" a seat's box (its face, name and lines inside), "badge:KIND:N" a seat's badge
# (the trick's lead too), "text:WHAT" a line of text, "result" the result box, and for each card
# "GROUP:N" its box followed by "index:GROUP:N", the corner holding its rank and suit, with GROUP
# "trick", "last" (the previous trick drawn in the middle), "cards" (lying in front of seat N),
# "row" (the centre's cards) or "previous" (the previous trick, small).
MARKS: list[tuple[str, Rect]] | None = None


def index_width(w: int) -> int:
    """How wide a card's corner index (rank over suit) is: a card fanned over it must start
    at least this far to its right, or the rank is hidden ("10" is the widest rank)."""
    return int(w * 0.56)


def index_rect(x: int, y: int, w: int, h: int) -> Rect:
    """The corner of a card at (x, y) holding its rank and suit (see ``cards.face``)."""
    return (x, y, x + index_width(w), y + int(h * 0.58))


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(r: Rect) -> bool:
    return r[0] >= 0 and r[1] >= 0 and r[2] <= WIDTH and r[3] <= HEIGHT


def text_rect(x: int, y: int, width: int, size: int, anchor: str = "l") -> Rect:
    """The box a line of text takes: its width, and the height its letters reach."""
    left = x - width // 2 if anchor == "m" else (x - width if anchor == "r" else x)
    half = int(size * 0.62)
    return (left, y - half, left + width, y + half)


@dataclass
class Placement:
    """Everything placed so far, so that nothing placed later covers it: boxes of text, badges
    and seats (nothing may overlap them), cards (text may not lie on them) and cards' indexes
    (no later card may cover one). Each placed thing keeps how to paint it, in order."""

    solid: list[Rect] = field(default_factory=list)
    cards: list[Rect] = field(default_factory=list)
    indexes: list[Rect] = field(default_factory=list)
    paint: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    marks: list[tuple[str, Rect]] = field(default_factory=list)
    owned: dict[Any, Any] = field(default_factory=dict)  # see _owned
    forced: int = 0  # groups placed where they cover something: no free place was found

    def copy(self) -> Placement:
        """A layout to try a way of placing on (this one unchanged)."""
        return Placement(list(self.solid), list(self.cards), list(self.indexes), list(self.paint),
                      list(self.marks), self.owned)

    def text_free(self, r: Rect) -> bool:
        """Whether a box of text (or a badge) may go here."""
        return (_inside(r) and not any(_overlap(r, o) for o in self.solid)
                and not any(_overlap(r, c) for c in self.cards))

    def cards_free(self, rects: list[Rect]) -> bool:
        """Whether cards may go here: inside, clear of text, not over another card's index."""
        # the cards of a row lie side by side: their span first, each card only where an
        # index lies within it (this test runs thousands of times for a crowded table)
        x0, y0, x1, y1 = rects[0][0], rects[0][1], rects[-1][2], rects[-1][3]
        if x0 < 0 or y0 < 0 or x1 > WIDTH or y1 > HEIGHT:
            return False
        for o in self.solid:
            if o[0] < x1 and x0 < o[2] and o[1] < y1 and y0 < o[3]:
                return False
        for i in self.indexes:
            if i[0] < x1 and x0 < i[2] and i[1] < y1 and y0 < i[3] \
                    and any(_overlap(r, i) for r in rects):
                return False
        return True

    def add_text(self, what: str, rect: Rect, op: tuple[Any, ...]) -> None:
        self.solid.append(rect)
        self.marks.append((what, rect))
        self.paint.append(("text", op))

    def add_solid(self, what: str, rect: Rect, kind: str, op: tuple[Any, ...]) -> None:
        self.solid.append(rect)
        self.marks.append((what, rect))
        self.paint.append((kind, op))

    def add_card(self, what: str, code: str | None, x: int, y: int, w: int, h: int,
                 dim: bool = False, marked: bool = False) -> None:
        rect = (x, y, x + w, y + h)
        index = index_rect(x, y, w, h)
        self.cards.append(rect)
        self.indexes.append(index)
        self.marks.append((what, rect))
        self.marks.append((f"index:{what}", index))
        self.paint.append(("card", (code, x, y, w, h, dim, marked)))


def _offsets(step: int, reach: int) -> list[tuple[int, int]]:
    """Shifts from a preferred place, nearest first: where to look for room."""
    found = [(dx, dy) for dx in range(-reach, reach + 1, step)
             for dy in range(-reach, reach + 1, step)]
    return sorted(found, key=lambda d: (d[0] ** 2 + d[1] ** 2, abs(d[1]), d))


NEAR = _offsets(12, 96)
#: how far past the halfway line to a neighbour a trick card may lie when no way of placing a
#: crowded table finds room otherwise (px; a card is 62-92 px wide, so it still lies mostly on
#: its own seat's side)
TRICK_SLACK = 24
FAR = _offsets(24, 312)


def fan_step(n: int, w: int, max_width: int) -> int:
    """The distance between cards side by side: apart when they fit, else overlapping, but
    never over each other's index."""
    if n <= 1:
        return w
    return max(index_width(w), min(w + 6, (max_width - w) // (n - 1)))


def row_rects(n: int, cx: int, top: int, w: int, h: int, step: int) -> list[Rect]:
    """The boxes of n cards side by side, centred on cx."""
    total = step * (n - 1) + w
    x = cx - total // 2
    return [(x + i * step, top, x + i * step + w, top + h) for i in range(n)]


@dataclass
class CardGroup:
    """Cards to place together (a seat's play, the cards in front of it, a centre row) with
    a label above them or a badge on them."""

    what: str
    codes: list[str | None]
    sizes: list[tuple[int, int]]
    max_width: int
    label: str = ""  # small text above the cards
    label_kind: str = ""  # a badge above (or under) the cards instead: its kind
    seat: int = -1
    dim: bool = False
    winning: bool = False  # the play winning the trick so far: its cards ringed


Owner = Callable[[int, int], bool]
#: the shifts around a place at which a row of a width lies in a seat's cell, found once per
#: table (the ways a layout tries search the same places again)
_OwnedKey = tuple[Owner, int, int, int, int]


def _owned(owner: Owner | None, cx: int, cy: int, total: int, w: int,
           offsets: Sequence[tuple[int, int]],
           found: dict[_OwnedKey, tuple[list[tuple[int, int]], Iterator[tuple[int, int]]]]
           ) -> Iterator[tuple[int, int]]:
    """The offsets at which a row ``total`` wide centred at (cx, cy) + offset lies in the cell
    of the seat ``owner`` stands for (a cell is convex: a row whose end cards lie in it lies
    in it whole), nearest first; found as far as a search reads them, and kept."""
    if owner is None:
        yield from offsets
        return
    key = (owner, cx, cy, total, len(offsets))
    if key not in found:
        first, last = -total // 2 + w // 2, total - total // 2 - w // 2
        found[key] = ([], (d for d in offsets if owner(cx + d[0] + first, cy + d[1])
                           and owner(cx + d[0] + last, cy + d[1])))
    known, rest = found[key]
    yield from list(known)
    for offset in rest:
        known.append(offset)
        yield offset


def _group_fits(layout: Placement, g: CardGroup, cx: int, cy: int, w: int, h: int, step: int
                ) -> tuple[list[Rect], Rect | None] | None:
    n = len(g.codes)
    total = step * (n - 1) + w
    x0, y0 = cx - total // 2, cy - h // 2
    x1, y1 = x0 + total, y0 + h
    # the row's span first: most places fail there, before any card's box is made
    if x0 < 0 or y0 < 0 or x1 > WIDTH or y1 > HEIGHT:
        return None
    for o in layout.solid:
        if o[0] < x1 and x0 < o[2] and o[1] < y1 and y0 < o[3]:
            return None
    rects = row_rects(n, cx, y0, w, h, step)
    if not layout.cards_free(rects):
        return None
    left, right = rects[0][0], rects[-1][2]
    if not (g.label or g.label_kind):
        return rects, None
    tops: tuple[tuple[int, int], ...]
    if g.label_kind:
        width = fonts.text_width(g.label, TEXT, True) + 18
        tops = ((cy - h // 2 - 36, cy - h // 2 - 4), (cy + h // 2 + 4, cy + h // 2 + 36))
    else:
        width = fonts.text_width(g.label, SMALL_TEXT, True)
        half = int(SMALL_TEXT * 0.62)
        tops = ((cy - h // 2 - 2 - 2 * half, cy - h // 2 - 2),)
    middle = (left + right) // 2
    for top, bottom in tops:
        box = (middle - width // 2, top, middle - width // 2 + width, bottom)
        if layout.text_free(box):
            return rects, box
    return None


def place_group(layout: Placement, g: CardGroup, cx: int, cy: int,
                owner: Owner | None = None,
                offsets: Sequence[tuple[int, int]] = NEAR, required: bool = True) -> bool:
    """Place a group at the nearest free place around (cx, cy), in the largest size that
    finds one; when none does, at (cx, cy) in its smallest size if ``required`` (so that
    nothing is lost: the layout tests would show the overlap), else not at all."""
    found = None
    for w, h in g.sizes:
        total = fan_step(len(g.codes), w, g.max_width) * (len(g.codes) - 1) + w
        step = fan_step(len(g.codes), w, g.max_width)
        for dx, dy in _owned(owner, cx, cy, total, w, offsets, layout.owned):
            fit = _group_fits(layout, g, cx + dx, cy + dy, w, h, step)
            if fit is not None:
                found = (fit, w, h)
                break
        if found:
            break
    if found is None and g.max_width > 0 and len(g.codes) > 1:  # fanned as tight as may be
        return place_group(layout, CardGroup(g.what, g.codes, g.sizes, 0, g.label, g.label_kind,
                                         g.seat, g.dim, g.winning), cx, cy, owner, offsets,
                           required)
    if found is None and g.label and not g.label_kind:  # the cards without their label
        return place_group(layout, CardGroup(g.what, g.codes, g.sizes, BOX_W, "", "", g.seat,
                                         g.dim, g.winning), cx, cy, owner, offsets, required)
    if found is None:
        if not required:
            return False
        layout.forced += 1
        w, h = g.sizes[-1]
        step = fan_step(len(g.codes), w, g.max_width)
        rects = row_rects(len(g.codes), cx, cy - h // 2, w, h, step)
        badge = None
        if g.label_kind:  # the lead's badge still shown, where it covers nothing if it can
            width = fonts.text_width(g.label, TEXT, True) + 18
            left = (rects[0][0] + rects[-1][2] - width) // 2
            top = rects[0][1] - 36
            badge = (left, top, left + width, top + 32)
            for dx, dy in NEAR:
                moved = (left + dx, top + dy, left + width + dx, top + 32 + dy)
                if layout.text_free(moved):
                    badge = moved
                    break
        found = ((rects, badge), w, h)
    (rects, box), w, h = found
    for code, r in zip(g.codes, rects, strict=True):
        layout.add_card(f"{g.what}:{g.seat}" if g.seat >= 0 else g.what, code, r[0], r[1], w,
                        h, g.dim, g.winning)
    if box is not None and g.label_kind:
        layout.add_solid(f"badge:{g.label_kind}:{g.seat}", box, "badge",
                         (box, g.label, g.label_kind))
    elif box is not None:
        layout.add_text(f"text:label:{g.what}:{g.seat}", box,
                        ((box[0], (box[1] + box[3]) // 2), g.label, SMALL_TEXT, MUTED, True,
                         "l"))
    return True


def place_text(layout: Placement, what: str, spots: Sequence[tuple[int, int]], text: str,
               size: int, colour: tuple[int, int, int], bold: bool = False,
               anchor: str = "l", max_width: int = 560,
               offsets: Sequence[tuple[int, int]] = ((0, 0),)) -> bool:
    """A line of text at the first free spot (each tried with the shifts ``offsets``)."""
    text = fonts.fit(text, size, max_width, bold)
    width = fonts.text_width(text, size, bold)
    for x, y in spots:
        for dx, dy in offsets:
            r = text_rect(x + dx, y + dy, width, size, anchor)
            if layout.text_free(r):
                layout.add_text(f"text:{what}", r, ((x + dx, y + dy), text, size, colour, bold,
                                                   anchor))
                return True
    return False


@functools.cache
def _background() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((40, 40, WIDTH - 40, HEIGHT - 40), radius=200, fill=TABLE,
                           outline=RIM, width=8)
    return image


def _badge_box(x: int, y: int, text: str, anchor: str = "m") -> Rect:
    width = fonts.text_width(text, TEXT, True) + 18
    left = x - width // 2 if anchor == "m" else (x - width if anchor == "r" else x)
    return (left, y - 16, left + width, y + 16)


def seat_marks(names: Sequence[str]) -> list[str]:
    """What each seat's disc shows: the name's initials, or the seat's number where the first
    letter of the initials repeats at the table (席1, 席2 … all start with 席)."""
    found = [faces.initials(name) for name in names]
    firsts = [mark[0] for mark in found]
    return [str(seat + 1) if firsts.count(firsts[seat]) > 1 or mark == "?" else mark
            for seat, mark in enumerate(found)]


def layout_scene(scene: Scene) -> Placement:
    """Where everything of a scene goes: the seats by the layout of their count, then every
    other part at the nearest place where it covers nothing placed before it."""
    layout = Placement()
    players = len(scene.seats)
    wrapped = [_wrap(s.lines) for s in scene.seats]
    lines = max([1, *(len(w) for w in wrapped)])
    spots = [seat_position(seat, players, lines) for seat in range(players)]
    h = box_height(lines)
    discs = seat_marks([s.name for s in scene.seats])
    for seat, seat_scene in enumerate(scene.seats):
        x, y = spots[seat]
        rect = (x - BOX_W // 2, y - h // 2, x + BOX_W // 2, y + h // 2)
        layout.add_solid(f"seat:{seat}", rect, "seat",
                         (seat_scene, seat, wrapped[seat], rect, discs[seat]))
        # Badges side by side along the box's outer edge, never over each other; a top-edge
        # seat's under its box.
        bx = rect[2]
        by = rect[3] + 18 if rect[1] <= MARGIN + 4 else rect[1] - 6
        for kind, text in reversed(seat_scene.badges):
            box = _badge_box(bx, by, text, "r")
            layout.add_solid(f"badge:{kind}:{seat}", box, "badge", (box, text, kind))
            bx = box[0] - 6
    _head(layout, scene, spots, h)

    @functools.cache  # one per seat: the search keeps what it found per owner (_owned)
    def owner_of(seat: int, slack: int = 0) -> Callable[[int, int], bool]:
        # a card lies nearer its seat than any other: on its side of the line halfway to each
        # other seat (2 p·(o − s) ≤ |o|² − |s|²), or at most ``slack`` px past it
        sx, sy = spots[seat]
        lines = [(2 * (ox - sx), 2 * (oy - sy), ox * ox + oy * oy - sx * sx - sy * sy
                  + slack * math.hypot(2 * (ox - sx), 2 * (oy - sy)))
                 for ox, oy in spots]

        def owns(x: int, y: int) -> bool:
            return all(a * x + b * y <= c for a, b, c in lines)
        return owns

    crowded = any(s.cards for s in scene.seats)
    if scene.result:  # the result first: the cards in front of the seats find room around it
        _place_result(layout, scene.result)
    last = not scene.trick and bool(scene.last_trick)
    plays = [] if scene.result else scene.last_trick if last else scene.trick

    def seat_cards(into: Placement, required: bool, labelled: bool = True) -> bool:
        placed = True
        for seat, seat_scene in enumerate(scene.seats):
            if seat_scene.cards and not scene.result:  # the result says each seat's number
                cx, cy = _seat_cards_spot(spots[seat], h)
                placed &= place_group(into, CardGroup("cards", list(seat_scene.cards),
                                                  [(SMALL_W, SMALL_H)], BOX_W,
                                                  seat_scene.cards_label if labelled else "",
                                                  seat=seat),
                                      cx, cy, owner_of(seat), FAR, required)
        return placed

    def trick(into: Placement, sizes: list[tuple[int, int]], required: bool,
              slack: int | None = 0) -> bool:
        placed = True
        for i, (seat, codes) in enumerate(plays):
            tx, ty = trick_spot(*spots[seat], h, crowded)
            lead = i == 0 and bool(scene.lead_label)
            group = CardGroup("last" if last else "trick", list(codes), sizes, CARD_W + 30 * 5,
                          scene.lead_label if lead else "",
                          ("lead-last" if last else "lead") if lead else "",
                          seat=seat, dim=last, winning=i == scene.trick_best and not last)
            owner = None if slack is None else owner_of(seat, slack)
            placed &= place_group(into, group, tx, ty, owner, FAR, required)
        return placed

    # The ways to try, until one places everything: the seats' cards first, then the trick in
    # its largest size (the previous trick one size smaller than a live one); the trick first;
    # smaller; the seats' card labels left out. When none does, the first way, with anything
    # that found no room where it would best go (the layout tests count those).
    big = [(CARD_W, CARD_H), (MID_W, MID_H), (SMALL_W, SMALL_H)][1 if last else 0:]
    # (in the order that most often succeeds soonest at eight seats, where most ways fail)
    # Last, the same ways with each trick card let past the halfway line to the next seat, a
    # little then more (TRICK_SLACK, up to four times it): at eight seats with cards in front of
    # them, or plays of several cards, a seat's cell can be too small for its cards and its play.
    # (Never further: a play drawn in front of another seat would say that seat played it.)
    ways = [(first, sizes, labelled, slack)
            for slack in (0, TRICK_SLACK, 2 * TRICK_SLACK, 4 * TRICK_SLACK)
            for labelled in (True, False)
            for sizes in (big, big[-1:], big[1:]) for first in (False, True)]
    for trick_first, sizes, labelled, slack in ways:
        trial = layout.copy()
        if trick_first:
            done = trick(trial, sizes, False, slack) and seat_cards(trial, False, labelled)
        else:
            done = seat_cards(trial, False, labelled) and trick(trial, sizes, False, slack)
        if done:
            layout = trial
            break
    else:  # every way leaves something without room: the way that breaks the fewest rules
        tried = []
        for trick_first, sizes, labelled, slack in ways:
            trial = layout.copy()
            if trick_first:
                trick(trial, sizes, True, slack)
                seat_cards(trial, True, labelled)
            else:
                seat_cards(trial, True, labelled)
                trick(trial, sizes, True, slack)
            tried.append(trial)
        layout = min(tried, key=lambda t: (len(overlaps.problems(t.marks, WIDTH, HEIGHT)),
                                           t.forced))
    if scene.result:
        return layout
    if last and scene.last_label:
        place_text(layout, "last", [CENTRE], scene.last_label, TEXT, WHITE, True, "m", 420,
                   FAR)
    if scene.trick and scene.last_trick:
        _place_previous(layout, scene)
    rows = [] if plays else scene.rows[:2]
    block = len(rows) * (CARD_H + 40) + len(scene.lines[:3]) * 34
    top = CENTRE[1] - block // 2
    for label, codes in rows:
        group = CardGroup("row", list(codes), [(CARD_W, CARD_H), (MID_W, MID_H)], 560, label)
        place_group(layout, group, CENTRE[0], top + 32 + CARD_H // 2, None, FAR)
        top += CARD_H + 40
    for i, text in enumerate(scene.lines[:3]):
        place_text(layout, f"line:{i}", [(CENTRE[0], top + 17)], text, NAME, WHITE, True, "m",
                   560, FAR)
        top += 34
    return layout


def _head(layout: Placement, scene: Scene, spots: list[tuple[int, int]], h: int) -> None:
    """The title and subtitle at the top left, the game's lines at the top right, each clear of
    the seats (lines that find no room there go under the title)."""
    top_band = [x for x, y in spots if y - h // 2 < 100]
    title_right = min([560, *(x - BOX_W // 2 - 16 for x in top_band
                              if x - BOX_W // 2 < 560)])
    title, size = _title_fit(scene.title, title_right - 22)
    place_text(layout, "title", [(22, 30)], title, size, WHITE, True, "l", title_right - 22)
    if scene.subtitle:
        place_text(layout, "subtitle", [(22, 68)], scene.subtitle, TEXT, MUTED, False, "l",
                   title_right - 22)
    corner_left = max([860, *(x + BOX_W // 2 + 16 for x in top_band if x > WIDTH // 2)])
    left_y = 104
    for i, text in enumerate(scene.corner):
        colour = scene.corner_colour.get(i, WHITE)
        if place_text(layout, f"corner:{i}", [(WIDTH - 22, 28 + 32 * i)], text, TEXT,
                      colour, False, "r", WIDTH - 22 - corner_left):
            continue
        while left_y < HEIGHT // 2 and not place_text(
                layout, f"corner:{i}", [(22, left_y)], text, TEXT, colour, False, "l",
                title_right - 22):
            left_y += 32
        left_y += 32


def _seat_cards_spot(spot: tuple[int, int], h: int) -> tuple[int, int]:
    """Where the cards lying in front of a seat would best go: on its side facing the centre."""
    x, y = spot
    if abs(x - CENTRE[0]) > WIDTH // 4:  # a side seat: under (or over) its box
        return x, y + h // 2 + 14 + SMALL_H // 2 if y < CENTRE[1] + 100 else \
            y - h // 2 - 28 - SMALL_H // 2
    if y > CENTRE[1]:
        return x, y - h // 2 - 28 - SMALL_H // 2
    return x, y + h // 2 + 44 + SMALL_H // 2


def _place_previous(layout: Placement, scene: Scene) -> None:
    """The previous trick, small, in a free corner, cards in the order played, under who took
    it; when no corner is free, who took it alone."""
    codes = [c for _, cs in scene.last_trick for c in cs][:8]
    group = CardGroup("previous", codes, [(SMALL_W, SMALL_H)], 4 * (SMALL_W + 6),
                  scene.last_label)
    bottom = HEIGHT - MARGIN - SMALL_H // 2 - 2
    for cx, cy in ((24 + 2 * (SMALL_W + 6), bottom), (WIDTH - 24 - 2 * (SMALL_W + 6), bottom),
                   (24 + 2 * (SMALL_W + 6), 170), (WIDTH - 24 - 2 * (SMALL_W + 6), 170)):
        if place_group(layout, group, cx, cy, None, NEAR, required=False):
            return
    if scene.last_label:
        place_text(layout, "last", [CENTRE], scene.last_label, TEXT, WHITE, True, "m", 420, FAR)


def _place_result(layout: Placement, result: list[str]) -> None:
    """A finished game's result in the middle: a heading, then every place."""
    step = 40 if len(result) <= 4 else 34
    width = max(fonts.text_width(line, NAME, True) for line in result) + 60
    width = min(max(width, 360), 640)
    height = 24 + step * len(result)
    left, top = CENTRE[0] - width // 2, CENTRE[1] - height // 2
    box = (left, top, left + width, top + height)
    for dx, dy in FAR:  # the middle, or the nearest place clear of the seats' cards
        moved = (left + dx, top + dy, left + width + dx, top + height + dy)
        if layout.text_free(moved):
            box = moved
            break
    layout.add_solid("result", box, "result", (box, result, step))


def draw_scene(scene: Scene, four_colour: bool = False) -> Image.Image:
    """The picture of a scene, 1200 × 675."""
    layout = layout_scene(scene)
    if MARKS is not None:
        MARKS.extend(layout.marks)
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    for kind, op in layout.paint:
        if kind == "text":
            xy, text, size, colour, bold, anchor = op
            fonts.draw_text(image, xy, text, size, colour, bold=bold, anchor=anchor)
        elif kind == "card":
            code, x, y, w, h, dim, marked = op
            tile = cards.card(code, w, h, four_colour, marked=marked, dim=dim)
            image.paste(tile, (x, y), tile)
        elif kind == "badge":
            box, text, badge_kind = op
            _badge(image, draw, box, text, badge_kind)
        elif kind == "seat":
            _draw_seat(image, draw, *op)
        elif kind == "result":
            _draw_result(image, draw, *op)
    return image


def _badge(image: Image.Image, draw: ImageDraw.ImageDraw, box: Rect, text: str,
           kind: str) -> None:
    """A badge: dark text on a coloured pill."""
    draw.rounded_rectangle(box, radius=12, fill=BADGE_FILL.get(kind, GREY), outline=INK,
                           width=1)
    fonts.draw_text(image, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), text, TEXT, INK,
                    bold=True, anchor="m")


def _title_fit(title: str, width: int) -> tuple[str, int]:
    """The title and its size for a width: whole if it fits (smaller if need be), else without
    its reading in brackets ('1234 (ヌン・ソーン…)' → '1234'), else shortened."""
    short = title.replace("（", "(").split("(")[0].strip() or title
    for text, size in ((title, TITLE), (title, NAME), (short, TITLE), (short, NAME)):
        if fonts.text_width(text, size, True) <= width:
            return text, size
    return fonts.fit(short, NAME, width, True), NAME


def _draw_result(image: Image.Image, draw: ImageDraw.ImageDraw, box: Rect, result: list[str],
                 step: int) -> None:
    """A finished game's result: a heading, then the places."""
    left, top, right, _ = box
    draw.rounded_rectangle(box, radius=18, fill=BOX, outline=GOLD, width=3)
    for i, line in enumerate(result):
        fonts.draw_text(image, ((left + right) // 2, top + 12 + step // 2 + step * i),
                        fonts.fit(line, NAME, right - left - 30, True), NAME,
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
               lines: list[str], rect: Rect, disc: str) -> None:
    left, top, right, bottom = rect
    w = right - left
    team = TEAM_COLOURS[seat.team % len(TEAM_COLOURS)] if seat.team is not None else None
    outline = GOLD if seat.acting else (BOX_OUT if not seat.live else team or (90, 140, 110))
    draw.rounded_rectangle(rect, radius=14, fill=BOX if seat.live else (40, 40, 40),
                           outline=outline,
                           width=5 if seat.acting else 4 if team is not None else 2)
    if team is not None:  # the partnership's colour down the box's left edge, seen at 400 px
        draw.rounded_rectangle((left + 3, top + 10, left + 10, bottom - 10), radius=3,
                               fill=team)
    faces.draw_face(image, seat.name, seat.avatar, seat.computer, left + 12, top + 10, AVATAR,
                    disc, index)
    text_left = left + 12 + AVATAR + 10
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


def _paste(image: Image.Image, tile: Image.Image, x: int, y: int) -> None:
    image.paste(tile, (x, y), tile)


def hand_picture(codes: list[str], playable: set[str] | None, four_colour: bool = False,
                 title: str = "") -> Image.Image:
    """A hand: playable cards ringed, the others dimmed. ``playable`` None or empty marks
    nothing: no card is to be chosen now (a bid, a pass, an exchange's other choices), and a
    hand greyed all over would read as "you may play nothing"."""
    if not playable:
        playable = None
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
         faces.COMPUTER, faces.COMPUTER_EYES, *TEAM_COLOURS]
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
