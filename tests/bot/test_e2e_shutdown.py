"""A bot that is asked to stop answers the clicks under way first, on the simulated Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.bot.sim_helpers import world
from tests.bot.test_e2e_safety import first_move, mover, open_hand, two_player_table, use


async def test_a_shutdown_answers_the_click_under_way(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        table = await two_player_table(w)
        user, _ = mover(w, table)
        hand = await open_hand(w, user)
        control = first_move(hand)
        manager = w.bot.manager
        entered, release = asyncio.Event(), asyncio.Event()
        real_act = manager.act

        async def slow_act(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await release.wait()
            return await real_act(*args, **kwargs)

        manager.act = slow_act  # type: ignore[method-assign]
        click = asyncio.create_task(use(w, user, hand, control))
        await asyncio.wait_for(entered.wait(), 5.0)
        closing = asyncio.create_task(w.sim.stop_bot(graceful=True))
        await asyncio.sleep(0.3)
        assert not closing.done()  # the shutdown waits for the click being answered
        release.set()
        r = await click
        await asyncio.wait_for(closing, 10.0)
        assert r.status == "ok" and r.callback_type is not None, r
        assert len(await w.bot.store.actions(1)) == 1  # the move was made and stored
        assert w.sim.client_errors == [] and w.sim.spec_errors == []


async def test_a_shutdown_answers_a_play_command_under_way(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        [alice] = w.users
        manager = w.bot.manager
        entered, release = asyncio.Event(), asyncio.Event()
        real_open = manager.open

        async def slow_open(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await release.wait()
            return await real_open(*args, **kwargs)

        manager.open = slow_open  # type: ignore[method-assign]
        command = asyncio.create_task(
            w.sim.slash(alice, w.channel, "play", {"game": "high-card"}))
        await asyncio.wait_for(entered.wait(), 5.0)
        closing = asyncio.create_task(w.sim.stop_bot(graceful=True))
        await asyncio.sleep(0.3)
        assert not closing.done()  # the shutdown waits for the command being answered
        release.set()
        r = await command
        await asyncio.wait_for(closing, 10.0)
        assert r.status == "ok" and r.callback_type is not None, r
        assert "High Card" in str(w.table_message().embeds)  # the lobby was posted
        assert w.sim.client_errors == [] and w.sim.spec_errors == []


async def test_a_shutdown_answers_a_refusal_under_way(tmp_path: Path) -> None:
    from bot.tables import Refusal

    async with world(tmp_path, people=1) as w:
        [alice] = w.users
        manager = w.bot.manager
        entered, release = asyncio.Event(), asyncio.Event()

        async def refusing_open(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await release.wait()
            raise Refusal("channel-busy", game="High Card")

        manager.open = refusing_open  # type: ignore[method-assign]
        command = asyncio.create_task(
            w.sim.slash(alice, w.channel, "play", {"game": "high-card"}))
        await asyncio.wait_for(entered.wait(), 5.0)
        closing = asyncio.create_task(w.sim.stop_bot(graceful=True))
        await asyncio.sleep(0.3)
        assert not closing.done()
        release.set()
        r = await command
        await asyncio.wait_for(closing, 10.0)
        assert r.status == "ok" and r.ephemeral and "already has a table" in (r.content or ""), r
        assert w.sim.client_errors == [] and w.sim.spec_errors == []
