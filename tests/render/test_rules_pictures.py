"""The /rules pictures: a seat's view of a typical position, the table as play shows it with
the seat's hand under it, one golden per game (redraw with scripts/regen-goldens after
looking)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.i18n import t
from bot.pictures import rules_pictures, table_png
from bot.pictures.table import HEIGHT, WIDTH
from games import positions

GOLDEN = Path(__file__).parent / "golden" / "rules"


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _difference(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255] / (a.width * a.height)


@pytest.mark.parametrize("game", positions.ids())
def test_a_rules_picture_matches_its_golden(game: str) -> None:
    picture = _image(rules_pictures.draw(game, "en"))
    golden = Image.open(GOLDEN / f"{game}.png").convert("RGB")
    assert picture.size == golden.size
    assert _difference(picture, golden) < 0.002, f"{game}'s /rules picture differs"


@pytest.mark.parametrize("game", positions.ids())
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_rules_picture_is_the_table_of_the_seats_view_and_its_hand(game: str,
                                                                     lang: str) -> None:
    position = positions.build(game)
    view = position.view().to_dict()
    picture = _image(rules_pictures.draw(game, lang))
    assert picture.width == WIDTH and HEIGHT + 150 < picture.height < HEIGHT + 300
    names = [t("rules-picture-seat", lang, n=seat + 1) for seat in range(view["players"])]
    table = _image(table_png(view, names, lang))
    # the top is the very table picture a player sees in play, from the seat's view
    assert _difference(picture.crop((0, 0, WIDTH, HEIGHT)), table) == 0
    # and the hand under it is drawn: not the bare felt
    hand = picture.crop((0, HEIGHT, WIDTH, picture.height))
    assert len(hand.getcolors(1 << 16) or []) > 8


def test_the_pictures_differ_between_games_and_languages() -> None:
    drawn = {rules_pictures.draw(g, lang) for g in positions.ids() for lang in ("en", "ja")}
    assert len(drawn) == 2 * len(positions.ids())


def test_a_picture_is_drawn_once_per_game_and_language(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    real = rules_pictures.position_png

    def counted(view: dict[str, Any], names: list[str], lang: str, ring: list[str],
                title: str) -> bytes:
        calls.append((view["game"], lang))
        return real(view, names, lang, ring, title)

    monkeypatch.setattr(rules_pictures, "position_png", counted)
    monkeypatch.setattr(rules_pictures, "_DRAWN", {})

    async def ask() -> list[bytes | None]:
        return [await rules_pictures.picture(g, lang) for g in ("spar", "bear")
                for lang in ("en", "ja", "en", "ja")]

    answers = asyncio.run(ask())
    assert calls == [("spar", "en"), ("spar", "ja"), ("bear", "en"), ("bear", "ja")]
    assert answers[0] == answers[2] and answers[0] != answers[1]
    assert asyncio.run(rules_pictures.picture("no-such-game", "en")) is None


def test_a_position_that_no_longer_fits_leaves_the_text_without_a_picture(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    broken = {**positions.POSITIONS["spar"], "moves": ["1 play:9H", "1 play:8H"]}
    monkeypatch.setitem(positions.POSITIONS, "spar", broken)
    monkeypatch.setattr(rules_pictures, "_DRAWN", {})
    assert asyncio.run(rules_pictures.picture("spar", "en")) is None
    assert "could not be drawn" in caplog.text
