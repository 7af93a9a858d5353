"""Sharding on the simulated Discord: one process with two shards, and two processes'
worth of bots each running one shard slice on one database."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

from bot.client.deckhand import Deckhand, shard_of
from bot.config import Settings
from bot.storage.store import Storage
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import World, button, game_ids, table_of
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end
from tests.discord_sim import SimGuild, SimulatedDiscord, SimUser


async def sharded_bot(db: Path, shard_ids: tuple[int, ...] | None = None,
                      shard_count: int | None = None) -> Deckhand:
    """A bot on a database file running these shards (None: as many as Discord says)."""
    settings = Settings(token="sim-token", db_path=str(db), ai_delay=0.0, ai_level="normal",
                        shard_ids=shard_ids, shard_count=shard_count)
    bot = Deckhand(settings, await Storage.open(settings.db_path), rules_for=lookup,
                   game_ids=game_ids)
    bot.identify_pause = 0.0  # the simulation has no IDENTIFY rate limit
    return bot


async def guild_on_shard(sim: SimulatedDiscord, shard: int, count: int) -> SimGuild:
    """A new guild whose id puts it on ``shard`` (ids follow the clock: try a few)."""
    for attempt in range(200):
        guild = sim.add_guild(f"Server {shard}.{attempt}")
        if shard_of(int(guild.id), count) == shard:
            return guild
        await asyncio.sleep(0.001)  # the next millisecond gives the next id prefix
    raise AssertionError(f"no guild id landed on shard {shard}")


def people(sim: SimulatedDiscord, guild: SimGuild, names: list[str]) -> list[SimUser]:
    """Members of a guild."""
    found = []
    for name in names:
        user = sim.add_user(name)
        sim.add_member(guild, user)
        found.append(user)
    return found


async def play_a_game(sim: SimulatedDiscord, bot: Deckhand, guild: SimGuild,
                      users: list[SimUser], db: Path, seed: int) -> None:
    """A whole game of the test game in the guild's channel, as its members."""
    channel = next(c for c in sim._channels.values() if c.guild_id == guild.id)
    here = World(sim, guild, channel, users, bot, db, [bot])
    watch = PublicWatch(here)
    await open_table(here, "high-card", users, 2, {"hand": "2"})
    final = await play_to_the_end(here, users, random.Random(seed), watch)
    assert "game is over" in final.content


async def test_one_process_with_two_shards_plays_in_guilds_on_both(tmp_path: Path) -> None:
    async with SimulatedDiscord(interaction_deadline=3.0, shards=2) as sim:
        guilds = [await guild_on_shard(sim, 0, 2), await guild_on_shard(sim, 1, 2)]
        users = {}
        for guild in guilds:
            sim.add_channel(guild, "cards")
            users[guild.id] = people(sim, guild, [f"Ann {guild.name}", f"Ben {guild.name}"])
        db = tmp_path / "deckhand.sqlite3"
        bot = await sharded_bot(db)  # automatic: the count from GET /gateway/bot
        await sim.start(bot)
        try:
            assert bot.shard_count == 2
            assert sorted(bot.shards) == [0, 1]
            identified = sorted(s.shard for s in sim._gateways if s.shard is not None)
            assert identified == [(0, 2), (1, 2)]
            for guild in guilds:  # each shard's connection got only its own guilds
                session = sim._active_gateway(guild.id)
                assert session.shard == (shard_of(int(guild.id), 2), 2)
                assert bot.get_guild(int(guild.id)) is not None
            for seed, guild in enumerate(guilds):
                await play_a_game(sim, bot, guild, users[guild.id], db, seed)
            for table_id in (1, 2):
                assert await bot.store.result(table_id) is not None
            assert sim.spec_errors == [], sim.spec_errors[:3]
            assert sim.client_errors == []
        finally:
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()


async def test_two_bots_with_one_shard_slice_each_serve_their_own_guilds(tmp_path: Path) -> None:
    async with SimulatedDiscord(interaction_deadline=3.0, shards=2) as sim:
        guilds = [await guild_on_shard(sim, 0, 2), await guild_on_shard(sim, 1, 2)]
        users = {}
        for guild in guilds:
            sim.add_channel(guild, "cards")
            users[guild.id] = people(sim, guild, [f"Ann {guild.name}", f"Ben {guild.name}"])
        db = tmp_path / "deckhand.sqlite3"  # one database shared by both, as on PostgreSQL
        first = await sharded_bot(db, (0,), 2)
        second = await sharded_bot(db, (1,), 2)
        await sim.start(first)
        second._connection.guild_ready_timeout = 0.05
        running = asyncio.create_task(second.start("sim-token"))
        bots = [first, second]
        try:
            await asyncio.wait_for(second.wait_until_ready(), timeout=10)
            assert sorted(first.shards) == [0] and sorted(second.shards) == [1]
            assert first.get_guild(int(guilds[0].id)) is not None
            assert first.get_guild(int(guilds[1].id)) is None  # not its shard
            assert second.get_guild(int(guilds[1].id)) is not None
            assert second.get_guild(int(guilds[0].id)) is None

            for seed, (guild, bot) in enumerate(zip(guilds, bots, strict=True)):
                await play_a_game(sim, bot, guild, users[guild.id], db, seed)
                assert [t.guild_id for t in bot.manager.tables.values()] == []
                assert await bot.store.result(seed + 1) is not None

            # A lobby in each guild, each held by its own shard's bot.
            for guild, bot in zip(guilds, bots, strict=True):
                channel = next(c for c in sim._channels.values() if c.guild_id == guild.id)
                r = await sim.slash(users[guild.id][0], channel, "play", {"game": "high-card"})
                assert r.status == "ok", r
                await sim.settle()
                lobby = table_of(sim, channel)
                assert lobby is not None and button(lobby, "join")
                assert [t.guild_id for t in bot.manager.tables.values()] == [int(guild.id)]

            # The first bot restarts: it resumes its own guild's lobby, not the other one.
            await sim.stop_bot()
            await first.manager.close()
            await first.store.close()
            first = bots[0] = await sharded_bot(db, (0,), 2)
            await sim.start(first)
            await sim.settle(idle=0.1)
            assert [t.guild_id for t in first.manager.tables.values()] == [int(guilds[0].id)]
            assert [t.guild_id for t in second.manager.tables.values()] == [int(guilds[1].id)]
            assert sim.spec_errors == [], sim.spec_errors[:3]
            assert sim.client_errors == []
        finally:
            await sim.stop_bot()
            await second.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await running
            for bot in bots:
                await bot.manager.close()
                await bot.store.close()
