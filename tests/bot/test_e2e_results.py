"""A game's result that the database fails to store at first, on the simulated Discord: the
last move is answered, the table shows the result at once, and a later try stores it."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from tests.bot.sim_helpers import world
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end


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
        assert manager.in_channel(w.channel.id) is None
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
