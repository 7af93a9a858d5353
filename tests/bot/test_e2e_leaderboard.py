"""Leaderboards, statistics, history, replays and forget-me through the simulated Discord."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

from bot.pictures import table_png
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import World, card_forms, world
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end
from tests.discord_sim import SimMessage, SimUser

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


async def play_one(w: World, seed: int = 7) -> None:
    """A whole two-person game of the test game, three cards each."""
    await open_table(w, "high-card", w.users[:2], 2, {"hand": "3"})
    await play_to_the_end(w, w.users[:2], random.Random(seed), PublicWatch(w))
    await w.sim.settle()


async def records(w: World) -> int:
    row = await w.bot.store.db.one("SELECT COUNT(*) FROM records")
    assert row is not None
    return int(row[0])


async def command(w: World, user: SimUser, name: str, options: dict[str, Any] | None = None,
                  locale: str = "en-US") -> SimMessage:
    r = await w.sim.slash(user, w.channel, name, options or {}, locale=locale)
    for _ in range(200):  # a picture may take a moment (fonts load on first use)
        await w.sim.settle()
        if r.message is not None:
            break
        await asyncio.sleep(0.05)
    assert r.status == "ok", r
    assert r.message is not None and r.message.ephemeral
    return r.message


async def edited(w: World, before: int) -> None:
    """Wait until the bot has edited a message after a click (requests since ``before``)."""
    for _ in range(200):
        await w.sim.settle()
        if any(q.method == "PATCH" for q in w.sim.requests[before:]):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the message was not edited")


def text_of(message: SimMessage) -> str:
    return message.content + json.dumps(message.embeds, ensure_ascii=False)


def buttons(message: SimMessage) -> dict[str, dict[str, Any]]:
    return {b["label"]: b for b in message.buttons()}


async def test_a_game_updates_the_leaderboard_exactly_once(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users
        await play_one(w)
        assert await records(w) == 1
        board = await command(w, alice, "leaderboard", {"game": "high-card"})
        text = text_of(board)
        assert "Alice" in text and "Bob" in text and "Carol" not in text
        assert re.search(r"· 1 game ·", text) and "Rank " in text
        assert [a["filename"] for a in board.attachments] == ["leaderboard.png"]
        overall = await command(w, carol, "leaderboard")
        assert "all games" in text_of(overall) and "not on this leaderboard" in text_of(overall)
        assert buttons(overall)["Next"]["disabled"]
        stats = await command(w, alice, "stats", {"user": str(bob.id)})
        # High Card is played alone: no partner is named
        assert "Games 1" in text_of(stats) and "partner" not in text_of(stats).lower()
        history = await command(w, bob, "history")
        assert "place" in text_of(history) and "rated" in text_of(history)
        ja = await command(w, alice, "leaderboard", {"game": "high-card"}, locale="ja")
        assert "ランキング" in text_of(ja) and "ハイカード" in text_of(ja)
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert w.sim.client_errors == []


async def test_a_restart_at_the_end_of_a_game_neither_loses_nor_repeats_it(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice = w.users[0]
        cog: Any = w.bot.get_cog("StatsCog")
        w.bot.manager.finish_hooks.remove(cog.on_finish)  # the bot dies before recording
        await play_one(w)
        assert await records(w) == 0
        await w.restart()
        assert await records(w) == 1
        await w.restart()
        assert await records(w) == 1
        board = await command(w, alice, "leaderboard", {"game": "high-card"})
        assert re.findall(r"· 1 game ·", text_of(board)) and "2 games" not in text_of(board)


async def test_replays_step_through_the_game_showing_no_hidden_card(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice = w.users[0]
        await play_one(w, seed=3)
        cog: Any = w.bot.get_cog("StatsCog")
        record = await cog.records.game(1)
        rules = lookup("high-card")
        state = rules.new_game(2, seed=record.seed, options=record.options)
        public: set[str] = set(CARD.findall(json.dumps(state.view(None).to_dict())))
        names = [str(s.get("name", "")) for s in record.seats]
        message = await command(w, alice, "replay", {"id": 1})
        steps = 0
        while True:
            hidden = {c for seat in range(2) for c in state.view(seat)["hand"]} - public
            # the words, and what Discord shows of each picture (its name and description)
            shown = text_of(message) + json.dumps(
                [{k: v for k, v in a.items() if k != "bytes"} for a in message.attachments])
            assert hidden, "the hands are hidden all through this replay"
            for code in hidden:
                for form in card_forms(code):
                    assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])",
                                         shown), (steps, form, shown)
            assert f"Move {steps} of {len(record.actions)}" in shown
            # the picture is the drawing of the public view at this step, nothing more
            [picture] = message.attachments
            assert picture["bytes"] == table_png(state.view(None).to_dict(), names)
            nxt = buttons(message)["Next"]
            if nxt["disabled"]:
                break
            before = len(w.sim.requests)
            r = await w.sim.click(alice, message, nxt["custom_id"])
            await edited(w, before)
            assert r.status == "ok" and r.message is not None
            message = r.message
            seat, action = record.actions[steps]
            for event in state.apply(seat, action):
                public.update(str(c) for c in event.for_seat(None).cards)
            public.update(CARD.findall(json.dumps(state.view(None).to_dict())))
            steps += 1
            if steps == len(record.actions) - 1:
                break  # the last position shows every hand emptied; nothing left to hide
        assert steps >= 4
        before = len(w.sim.requests)
        r = await w.sim.click(alice, message, buttons(message)["First"]["custom_id"])
        await edited(w, before)
        assert r.message is not None and "Move 0 of" in text_of(r.message)
        missing = await command(w, alice, "replay", {"id": 99})
        assert "no finished game 99" in text_of(missing)
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_forget_me_takes_a_player_off_the_leaderboard(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        await play_one(w)
        ask = await command(w, bob, "privacy forget-me")
        confirm = buttons(ask)["Forget me"]
        r = await w.sim.click(bob, ask, confirm["custom_id"])
        await w.sim.settle()
        assert r.message is not None and "1 game record of yours was" in r.message.content
        board = await command(w, alice, "leaderboard", {"game": "high-card"})
        assert "Bob" not in text_of(board) and "Alice" not in text_of(board)  # a lone player
        history = await command(w, bob, "history")
        assert "no recorded games" in text_of(history)
        stats = await command(w, alice, "stats")
        assert "Games 1" in text_of(stats) and "unrated" in text_of(stats)
