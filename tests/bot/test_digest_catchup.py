"""A daily digest whose hour came while the bot was down is sent once soon after the start:
once a day a person, never twice, none for a day already sent. Through the simulated Discord,
on a manual clock, with restarts on the same database."""

from __future__ import annotations

from pathlib import Path

from bot.tables import pace
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


async def test_a_digest_missed_while_down_is_sent_once_after_the_start(tmp_path: Path) -> None:
    async with week(tmp_path, "en-US") as w:
        day0 = w.clock.now() - w.clock.now() % pace.DAY  # now 10:00 UTC: 19:00 in Tokyo
        for user in (w.alice, w.bob):  # their 09:00 is 00:00 UTC
            await answer(w, user, "settings timezone", {"name": "Asia/Tokyo"}, "en-US")
            await answer(w, user, "settings digest", {"on": True}, "en-US")
        table_id = await open_table(w, w.alice, [w.bob], "high-card", "24h")
        await settle(w)
        [due] = (await w.bot.manager.position(table_id)).people_due
        waits, other = (w.alice, w.bob) if int(w.alice.id) == due else (w.bob, w.alice)
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
        assert (await w.bot.manager.position(table_id)).people_due == {due}  # still waits
        assert w.sim.spec_errors == []
