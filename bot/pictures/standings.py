"""A tournament's standings and an elimination's bracket as pictures, in the leaderboard's style
(the tables' felt green, the podium in gold; cogs/stats.py draws the leaderboard).

The words (title, column headers, marks) are given by the caller from the catalogues: nothing
here is written in a language. Numbers are drawn as the standings keep them (halves and
thirds shown to one decimal, whole numbers bare), so the picture and the text agree.

Width: 900 pixels, the leaderboard's, which a phone shows at about 400: the text sizes (24 for
names, 20 for headers) stay readable at that scale, and a long name is cut with an ellipsis
rather than running into the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.pictures.fonts import draw_text, fit
from bot.pictures.table import png

# the leaderboard's colours (cogs/stats.py), and a muted red for a dropped player's mark
BG, ROW, ROW_ALT, HEAD = (24, 94, 56), (30, 110, 66), (26, 100, 60), (12, 48, 28)
GOLD, WHITE, MUTED, THROUGH = (255, 200, 0), (255, 255, 255), (190, 210, 195), (60, 140, 90)
DROPPED = (230, 150, 140)
WIDTH, TOP, LINE = 900, 100, 48
#: the most rows one picture shows (the text lists everyone; a picture of 100 rows is unread)
MOST_ROWS = 32


@dataclass(frozen=True)
class Row:
    """One line of the standings picture, as shown."""

    rank: int
    name: str
    points: float
    opponents: float
    beaten: float
    wins: int
    dropped: bool = False


def amount(value: float) -> str:
    """A number of points as shown: whole numbers bare, others to one decimal."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def standings_png(rows: Sequence[Row], title: str,
                  headers: tuple[str, str, str, str, str, str], dropped_mark: str,
                  footer: str = "") -> bytes:
    """The standings as a PNG: rank, name, points, then the tie-breaks (opponents, beaten,
    wins) per line; the first three in gold, a dropped player's name marked."""
    shown = list(rows)[:MOST_ROWS]
    lines = len(shown) or 1
    foot = 40 if footer else 16
    image = Image.new("RGB", (WIDTH, TOP + LINE * lines + foot), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 54), fill=HEAD)
    draw_text(image, (24, 27), fit(title, 28, WIDTH - 48, bold=True), 28, GOLD, bold=True)
    # rank, player, points, opponents, beaten, wins: x and anchor of each column
    columns = ((44, "m"), (92, "l"), (560, "r"), (680, "r"), (790, "r"), (872, "r"))
    for (x, anchor), text in zip(columns, headers, strict=True):
        draw_text(image, (x, 78), fit(text, 18, 150), 18, MUTED, anchor=anchor)
    for i, row in enumerate(shown):
        y = TOP + LINE * i
        draw.rectangle((12, y, WIDTH - 12, y + LINE - 4), fill=ROW if i % 2 == 0 else ROW_ALT)
        middle = y + (LINE - 4) // 2
        colour = GOLD if row.rank <= 3 and not row.dropped else WHITE
        draw_text(image, (columns[0][0], middle), str(row.rank), 24, colour, anchor="m")
        # a dropped player's mark sits after the name: the name gives it room
        room = columns[2][0] - columns[1][0] - 90 - (130 if row.dropped else 0)
        name = fit(row.name, 24, room)
        width = draw_text(image, (columns[1][0], middle), name, 24,
                          MUTED if row.dropped else WHITE)
        if row.dropped:
            draw_text(image, (columns[1][0] + width + 10, middle), fit(dropped_mark, 18, 120),
                      18, DROPPED)
        for (x, _), value in zip(columns[2:], (amount(row.points), amount(row.opponents),
                                               amount(row.beaten), str(row.wins)), strict=True):
            draw_text(image, (x, middle), value, 24, colour if x == columns[2][0] else WHITE,
                      anchor="r")
    if footer:
        draw_text(image, (24, TOP + LINE * lines + 16), fit(footer, 18, WIDTH - 48), 18, MUTED)
    return png(image)


@dataclass(frozen=True)
class BracketTable:
    """One table of a bracket as shown: its label and each seat's name, with whether that
    seat went through (None: not played yet)."""

    label: str
    seats: tuple[tuple[str, bool | None], ...]


COLUMN_GAP, SEAT_LINE, TABLE_GAP = 24, 34, 18


def bracket_png(rounds: Sequence[tuple[str, Sequence[BracketTable]]], title: str,
                champion: str = "") -> bytes:
    """An elimination's bracket as a PNG: a column per round (its heading given), each table a
    box of its seats; who went through in gold, who went out muted, a table not yet played in
    white. The champion, once known, under the title."""
    columns = max(1, len(rounds))
    column_w = (WIDTH - COLUMN_GAP * (columns + 1)) // columns
    heights = [sum(SEAT_LINE * len(table.seats) + 40 + TABLE_GAP for table in tables)
               for _, tables in rounds] or [0]
    top = TOP + (30 if champion else 0)
    image = Image.new("RGB", (WIDTH, top + max(heights) + 16), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 54), fill=HEAD)
    draw_text(image, (24, 27), fit(title, 28, WIDTH - 48, bold=True), 28, GOLD, bold=True)
    if champion:
        draw_text(image, (24, 76), fit(champion, 24, WIDTH - 48, bold=True), 24, GOLD,
                  bold=True)
    for c, (heading, tables) in enumerate(rounds):
        x = COLUMN_GAP + c * (column_w + COLUMN_GAP)
        draw_text(image, (x, top - 16), fit(heading, 20, column_w), 20, MUTED)
        y = top
        for table in tables:
            height = SEAT_LINE * len(table.seats) + 40
            draw.rounded_rectangle((x, y, x + column_w, y + height), radius=8, fill=ROW,
                                   outline=HEAD, width=2)
            draw_text(image, (x + 12, y + 18), fit(table.label, 18, column_w - 24), 18, MUTED)
            for s, (name, through) in enumerate(table.seats):
                middle = y + 40 + SEAT_LINE * s + SEAT_LINE // 2 - 4
                colour = WHITE if through is None else GOLD if through else MUTED
                if through:
                    draw.rectangle((x + 4, middle - 13, x + column_w - 4, middle + 13),
                                   fill=THROUGH)
                draw_text(image, (x + 14, middle), fit(name, 20, column_w - 28), 20, colour,
                          bold=bool(through))
            y += height + TABLE_GAP
    return png(image)
