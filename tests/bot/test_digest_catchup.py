"""A daily digest whose hour came while the bot was down is sent once soon after the start:
once a day a person, never twice, none for a day already sent. Through the simulated Discord,
on a manual clock, with restarts on the same database."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest

from bot.storage.store import Storage
from bot.tables import pace
from bot.tables.timing import Timing
from tests.bot.test_e2e_long_games import HOUR, Week, answer, make_bot, open_table, settle, week
from tests.discord_sim import SimMessage, SimUser

TITLE = "Your move is waiting at these tables (1):"


def digests(w: Week, user: SimUser) -> list[SimMessage]:
    return [m for m in w.sim.dms(user) if TITLE in m.content]


async def down(w: Week, seconds: float, alive_at: float | None = None) -> None:
    """The bot stops and starts again ``seconds`` later on the same database; ``alive_at``:
    the last instant it was known alive (its heartbeat), when not the stop's."""
    await w.sim.stop_bot()
    await w.bot.manager.close()
    if alive_at is not None:
        await w.bot.store.mark_alive(alive_at)
    await w.bot.store.close()
    w.clock.advance(seconds)
    w.bot = await make_bot(w.db, w.clock)
    await w.sim.start(w.bot)
    await settle(w)


async def waiting(w: Week) -> tuple[int, SimUser, SimUser]:
    """Alice and Bob, in Tokyo's time, take the digest and open a table of 24 h a move: its
    id, the one it waits for and the other."""
    for user in (w.alice, w.bob):  # their 09:00 is 00:00 UTC
        await answer(w, user, "settings timezone", {"name": "Asia/Tokyo"}, "en-US")
        await answer(w, user, "settings digest", {"on": True}, "en-US")
    table_id = await open_table(w, w.alice, [w.bob], "high-card", "24h")
    await settle(w)
    [due] = (await w.bot.manager.position(table_id)).people_due
    waits, other = (w.alice, w.bob) if int(w.alice.id) == due else (w.bob, w.alice)
    return table_id, waits, other


async def test_a_digest_missed_while_down_is_sent_once_after_the_start(tmp_path: Path) -> None:
    async with week(tmp_path, "en-US") as w:
        day0 = w.clock.now() - w.clock.now() % pace.DAY  # now 10:00 UTC: 19:00 in Tokyo
        table_id, waits, other = await waiting(w)
        # down from 19:00 to 21:00 the next day, Tokyo time: that day's 09:00 was missed
        await down(w, 26 * HOUR)
        [sent] = digests(w, waits)
        assert sent.embeds, sent
        assert digests(w, other) == []  # nothing waits for them: nothing sent
        await w.restart()  # the same day again: not sent twice
        await settle(w)
        assert len(digests(w, waits)) == 1
        # the next day's 09:00 with the bot up: the service's own digest
        w.clock.set(day0 + 2 * pace.DAY)
        await settle(w)
        assert len(digests(w, waits)) == 2
        # stopped after sending it, its last heartbeat from before 09:00: not sent again
        await down(w, 2 * HOUR, alive_at=day0 + 2 * pace.DAY - 30)
        assert len(digests(w, waits)) == 2 and digests(w, other) == []
        assert (await w.bot.manager.position(table_id)).people_due == {int(waits.id)}
        assert w.sim.spec_errors == []


async def test_the_catch_up_knows_the_downtime_however_late_it_looks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The resume marks the service alive again right after reading its last heartbeat: the
    downtime is known from what the resume read, not from the store, which holds the new
    mark by then. Here every read of the heartbeat but the resume's own is answered only
    once the new mark is in (as by a busy connection of a pool): the missed digest is sent
    all the same."""
    real = Storage.last_alive

    async def late(store: Storage) -> float | None:
        frame = inspect.currentframe()
        callers = set()
        while frame is not None:
            callers.add(frame.f_code)
            frame = frame.f_back
        if Timing.before_load.__code__ not in callers:
            before = await real(store)
            for _ in range(500):  # until the resumed service marked itself alive
                if await real(store) != before:
                    break
                await asyncio.sleep(0.01)
        return await real(store)

    async with week(tmp_path, "en-US") as w:
        _, waits, other = await waiting(w)
        monkeypatch.setattr(Storage, "last_alive", late)
        await down(w, 26 * HOUR)  # that day's 09:00 in Tokyo was missed
        [sent] = digests(w, waits)
        assert sent.embeds, sent
        assert digests(w, other) == []
