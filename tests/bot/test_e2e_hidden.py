"""The hidden-card checks of the whole-game tests catch what they are meant to catch.

``PublicWatch`` (text of public requests and table pictures) and ``LogWatch`` (log lines) run
over whole games of every registered game in ``test_e2e_games``; here each is shown failing on
a leak made on purpose, and a game with takes and pick-ups (cards moving between hands, and
public cards going back into a hand) is played under all three checks.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest

from bot.pictures import hand_png
from bot.tables.position import position_of
from cogs.views import Picture
from games.cards import parse, pretty
from tests.bot.sim_helpers import World, world
from tests.bot.test_e2e_games import (
    LogWatch,
    PublicWatch,
    hidden_in,
    open_table,
    play_to_the_end,
)


def a_hidden_card(w: World) -> str:
    table = w.bot.manager.tables[1]
    assert table.state is not None
    return sorted(hidden_in(table.state))[0]


async def test_a_hidden_card_in_a_public_message_is_caught(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await open_table(w, "high-card", w.users[:2], 2, {"hand": "4"})
        watch = PublicWatch(w)
        watch.look()
        code = a_hidden_card(w)
        channel: Any = w.bot.get_channel(int(w.channel.id))
        await channel.send(f"psst: {pretty(parse(code))}")
        await w.sim.settle()
        with pytest.raises(AssertionError, match="hidden card"):
            watch.look()


async def test_a_table_picture_not_drawn_from_the_public_view_is_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, people=1) as w:
        original = Picture.png

        async def leaky(picture: Picture) -> bytes:
            if picture.kind != "table":
                return await original(picture)
            table = w.bot.manager.tables[1]
            assert table.state is not None
            return hand_png(table.state.view(0).to_dict())  # seat 1's cards, in public

        watch = PublicWatch(w, pictures=True)
        monkeypatch.setattr(Picture, "png", leaky)
        await open_table(w, "bhabhi", w.users[:1], 3, {})
        for _ in range(20):
            await w.sim.settle(idle=0.1)
            if any(f.get("filename") == "table.png" for q in w.sim.requests for f in q.files):
                break
        with pytest.raises(AssertionError, match="version"):
            watch.look()


async def test_a_hidden_card_in_a_log_line_is_caught(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await open_table(w, "high-card", w.users[:2], 2, {"hand": "4"})
        code = a_hidden_card(w)
        with LogWatch(w) as logs:
            logging.getLogger("bot.tables").debug("table %s: nothing secret", 1)
            assert logs.leaks == [] and logs.lines == 1
            logging.getLogger("bot.tables").debug("table %s: seat 1 holds %s", 1, code)
        assert len(logs.leaks) == 1 and code in logs.leaks[0]
        logging.getLogger("bot.tables").warning("after the watch: %s", code)
        assert len(logs.leaks) == 1


async def test_takes_and_pick_ups_show_no_hidden_card(tmp_path: Path) -> None:
    """Getaway with takes from anyone: whole hands change owners and picked-up cards, public
    a moment before, go back into a hand."""
    async with world(tmp_path, people=2) as w:
        watch = PublicWatch(w, pictures=True)
        with LogWatch(w) as logs:
            await open_table(w, "bhabhi", w.users[:2], 4, {"take_hand": "any"})
            await play_to_the_end(w, w.users[:2], random.Random(5), watch)
            await w.sim.settle()
        moves = [a.action for a in await w.bot.store.actions(1)]
        assert any(m.startswith("take=") for m in moves), moves
        assert watch.checked > 0 and watch.pictures_checked > 0
        assert logs.lines > 0 and logs.leaks == [], logs.leaks[:3]
        assert w.sim.spec_errors == []


async def test_an_old_event_naming_a_card_now_in_a_hand_is_left_out(tmp_path: Path) -> None:
    """An earlier deal's play is not shown once its card is dealt into a hand again."""
    from games.core import Event

    async with world(tmp_path, people=2) as w:
        await open_table(w, "high-card", w.users[:2], 2, {"hand": "4"})
        table = w.bot.manager.tables[1]
        cog: Any = w.bot.get_cog("PlayCog")
        code = a_hidden_card(w)
        board = cog.messages.board(1)
        board.log.append(("event", {"event": Event("played", 0, (parse(code),))}))
        board.log.append(("event", {"event": Event("said", 1, (), f"{pretty(parse(code))}!")}))
        board.log.append(("event", {"event": Event("passed", 1)}))
        async with table.lock:
            embed = cog.messages.render(position_of(table)).embed
        assert embed is not None
        text = str(embed.to_dict())
        assert pretty(parse(code)) not in text and code not in text
        assert "passed" in text  # the events that name no hidden card stay


def test_a_hidden_card_is_looked_for_under_every_languages_name() -> None:
    """A joker reads 'Red Joker' in English and '赤ジョーカー' in Japanese: a public line in
    either language naming a hidden joker is left out."""
    from cogs.views import card_words

    words = card_words({"RJ", "BJ", "AS"})
    assert sorted(words) == sorted(["Red Joker", "赤ジョーカー", "Black Joker", "黒ジョーカー",
                                    "A♠"])
