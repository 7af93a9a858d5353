"""How a game ends on the simulated Discord when the usual way does not apply: a result the
database fails to store at first (the last move is answered, the table shows the result at once,
and a later try stores it), and a game the deal itself decides."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from tests.bot.sim_helpers import world
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end
from tests.bot.test_e2e_leaderboard import command, text_of
from tests.bot.test_tables import DECIDED_BY_THE_DEAL


async def test_the_last_move_is_answered_and_the_result_stored_later(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with world(tmp_path, people=2) as w:
        manager = w.bot.manager
        manager.conclude_retry = 0.05
        original = w.bot.store.finish
        tries: list[str] = []

        async def flaky(*args: Any) -> None:
            tries.append("failed" if len(tries) < 2 else "stored")
            if tries[-1] == "failed":
                raise OSError("connection lost")
            await original(*args)

        w.bot.store.finish = flaky  # type: ignore[method-assign]
        watch = PublicWatch(w)
        alice, bob = w.users[:2]
        with caplog.at_level(logging.ERROR, logger="bot.tables"):
            await open_table(w, "high-card", [alice, bob], 2, {})
            final = await play_to_the_end(w, [alice, bob], random.Random(3), watch)
            # the result is shown before it is stored (the first try failed) ...
            assert tries[:1] == ["failed"] and "1." in final.content and not final.buttons()
            for _ in range(100):
                if tries[-1] == "stored":
                    break
                await asyncio.sleep(0.02)
            await w.sim.settle()
        # ... and stored by the third try, once, with the table closed
        assert tries == ["failed", "failed", "stored"]
        result = await w.bot.store.result(1)  # the first table of a fresh database
        assert result is not None and result["game"] == "high-card"
        assert manager.live_in(w.channel.id) is None
        assert "The game is over" in w.table_message().content
        assert not w.table_message().buttons()
        # every click was answered (none failed), nothing broke the spec
        assert all(r.callback_type is not None for r in w.sim._interactions.values())
        assert w.sim.spec_errors == [] and w.sim.client_errors == []
        failures = [r for r in caplog.records if "could not be stored" in r.getMessage()]
        assert len(failures) == 2
        # the channel is free: a new table opens
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        assert r.status == "ok" and not r.ephemeral
        await w.sim.settle()
        assert "join" in str(w.table_message().buttons())


async def test_a_game_decided_by_the_deal_shows_its_result_and_frees_the_channel(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        manager = w.bot.manager
        real_open = manager.open

        async def seeded(*args: Any, **kwargs: Any) -> Any:
            kwargs["seed"] = DECIDED_BY_THE_DEAL
            return await real_open(*args, **kwargs)

        manager.open = seeded  # type: ignore[method-assign]
        alice, bob = w.users[:2]
        final = await open_table(w, "1234", [alice, bob], 2, {"games": "1"})
        await w.sim.settle()
        final = w.table_message()
        assert "The game is over" in final.content and "1." in final.content, final.content
        [embed] = final.embeds
        assert "The deal decided this game before anyone could move." in embed["description"]
        assert not final.buttons()  # no hand to open: nobody has a move
        result = await w.bot.store.result(1)
        assert result is not None and result["game"] == "1234"
        assert manager.live_in(w.channel.id) is None
        # the records know it: a game of no moves replays as its deal, and counts in /history
        replay = await command(w, alice, "replay", {"id": 1})
        assert "Move 0 of 0" in text_of(replay)
        assert all(b.get("disabled") for b in replay.buttons()
                   if b.get("label") in ("Next", "Last")), replay.buttons()
        history = await command(w, bob, "history")
        assert "`1` 1234 — place 1 of 2" in text_of(history), text_of(history)
        r = await w.sim.slash(alice, w.channel, "play", {"game": "1234"})
        assert r.status == "ok" and not r.ephemeral
        assert w.sim.spec_errors == [] and w.sim.client_errors == []
