"""A game the bot runs but the games registry does not have is drawn from its view alone."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import games
from bot.pictures import table_png
from bot.pictures.scenes import scene_for
from tests.bot.fakegame import RULES


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_game_outside_the_registry_is_drawn(lang: str) -> None:
    assert RULES.id not in games.ids()
    with pytest.raises(KeyError):
        games.get(RULES.id)
    state = RULES.new_game(3, seed=4)
    view = state.view(None).to_dict()
    names = ["Alice", "Bob", "Carol"]
    scene = scene_for(view, names, lang)
    assert scene.title == RULES.id  # no registered name to show: the view's own id
    assert [s.name for s in scene.seats] == names
    assert [s.hand_count for s in scene.seats] == view["hand_counts"]
    assert sum(s.acting for s in scene.seats) == len(view["to_act"]) == 1
    with Image.open(io.BytesIO(table_png(view, names, lang))) as picture:
        assert picture.format == "PNG" and picture.width > 0


def test_a_registered_game_keeps_its_name() -> None:
    rules = games.get("spar")
    view = rules.new_game(2, seed=1).view(None).to_dict()
    assert scene_for(view, ["A", "B"], "en").title == rules.name
    assert scene_for(view, ["A", "B"], "ja").title == rules.title("ja") == "スパー"
