"""/settings timezone tells the time there on the bot's clock (the table service's, which quiet
hours and the digest are reckoned on), not the wall clock: a test moves it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.tables import ManualClock
from tests.bot import sim_helpers
from tests.bot.test_e2e_long_games import make_bot
from tests.discord_sim import SimulatedDiscord

#: 2031-03-04 03:05 UTC: 12:05 in Tokyo, a time the wall clock of a test run never shows
START = datetime(2031, 3, 4, 3, 5, tzinfo=UTC).timestamp()


async def test_the_time_there_is_the_bots_clocks(tmp_path: Path) -> None:
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Test Server", locale="en-US")
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice", locale="en-US")
        sim.add_member(guild, alice)
        clock = ManualClock(START)
        bot = await make_bot(sim_helpers.DATABASE or str(tmp_path / "deckhand.sqlite3"), clock)
        await sim.start(bot)
        try:
            r = await sim.slash(alice, channel, "settings timezone", {"name": "Asia/Tokyo"})
            assert "Asia/Tokyo (it is 12:05 there)" in (r.content or ""), r
            clock.advance(90 * 60)  # the clock moves; the wall clock has not
            r = await sim.slash(alice, channel, "settings timezone", {"name": "Europe/Paris"},
                                locale="ja")
            assert r.ephemeral and "05:35" in (r.content or ""), r  # 04:35 UTC, winter time
            assert sim.spec_errors == []
        finally:
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()
