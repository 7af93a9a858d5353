"""The standings and bracket pictures (bot/pictures/standings.py): every row drawn in its band,
the podium in gold, a long name cut before the numbers, Japanese drawn, the bracket's columns."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.fonts import missing
from bot.pictures.standings import (
    GOLD,
    LINE,
    TOP,
    WIDTH,
    BracketTable,
    Row,
    amount,
    bracket_png,
    standings_png,
)

HEADERS = ("#", "Player", "Points", "Opponents", "Beaten", "Wins")


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _has(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]
         ) -> bool:
    """Whether some pixel of ``box`` is near ``colour`` (the palette shifts it a little)."""
    region = image.crop(box)
    return any(sum(abs(a - b) for a, b in zip(px, colour, strict=True)) < 60
               for px in region.get_flattened_data())


def test_points_are_shown_as_the_standings_keep_them() -> None:
    assert [amount(v) for v in (3.0, 2.5, 10 / 3, 0.0)] == ["3", "2.5", "3.3", "0"]


def test_a_row_per_player_the_podium_in_gold_and_a_long_name_stops_before_the_points() -> None:
    rows = [Row(1, "Alice", 6, 7.5, 4, 2), Row(2, "Bob", 5.5, 8, 3.5, 1),
            Row(3, "Carol", 5.5, 6, 2, 1), Row(4, "W" * 80, 2, 3, 1, 0, dropped=True),
            Row(5, "Erin", 0, 0, 0, 0)]
    image = _image(standings_png(rows, "Standings", HEADERS, "dropped", "Ties: …"))
    assert image.width == WIDTH
    assert image.height == TOP + LINE * 5 + 40
    for rank in (1, 2, 3):  # the rank numbers of the podium are gold
        y = TOP + LINE * (rank - 1)
        assert _has(image, (30, y + 8, 60, y + LINE - 12), GOLD), rank
    y = TOP + LINE * 4  # fifth: white, not gold
    assert not _has(image, (30, y + 8, 60, y + LINE - 12), GOLD)
    y = TOP + LINE * 3  # the long name is cut: the gap before the points column stays clear
    band = image.crop((440, y + 8, 500, y + LINE - 12))
    assert len(set(band.get_flattened_data())) == 1, "the name ran into the points"


def test_japanese_names_and_headers_have_glyphs() -> None:
    assert missing("ボブ・プレイヤー対戦相手勝った相手") == []
    image = _image(standings_png([Row(1, "ボブ", 3, 0, 0, 1)], "順位表",
                                 ("#", "プレイヤー", "点", "対戦相手", "勝った相手", "1位"),
                                 "途中離脱"))
    assert image.height == TOP + LINE + 16


def test_the_bracket_has_a_column_per_round_and_the_players_through_marked() -> None:
    rounds = [("Round 1", [BracketTable("Table 1", (("Alice", True), ("Bob", False))),
                           BracketTable("Table 2", (("Carol", True), ("Dave", False)))]),
              ("Final", [BracketTable("Table 1", (("Alice", None), ("Carol", None)))])]
    image = _image(bracket_png(rounds, "Bracket", "Champion: Alice"))
    assert image.width == WIDTH
    # the first column's first seat went through: its band is the "through" green
    assert _has(image, (30, 160, 400, 200), (60, 140, 90))
    # the final's column (right half) has no gold: nobody through yet
    assert not _has(image, (470, 130, WIDTH - 30, image.height - 10), GOLD)
