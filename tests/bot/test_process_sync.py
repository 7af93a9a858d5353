"""The commands are sent to Discord once, and again only when they change or ``sync`` asks;
only by the process of shard 0; and the server commands are not offered in direct messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord import app_commands

from bot.client.deckhand import Deckhand
from tests.bot.realbot import RealBot
from tests.bot.sim_helpers import make_bot
from tests.bot.test_e2e_shards import sharded_bot
from tests.discord_sim import SimulatedDiscord

SERVER_ONLY = {"play", "leaderboard", "stats", "history", "replay", "privacy", "status",
               "review"}
ANYWHERE = {"help", "rules", "games", "settings"}


def puts(sim: SimulatedDiscord) -> int:
    """Bulk overwrites of the application's commands the bot has made."""
    return sum(1 for r in sim.requests if r.method == "PUT" and r.path.endswith("/commands"))


async def run_once(sim: SimulatedDiscord, bot: Deckhand, *, sync: bool | None) -> None:
    """Start the bot (waiting for a sync if ``sync``), let it settle, stop it, close it."""
    await sim.start(bot, wait_for_sync=sync)
    await sim.settle(idle=0.2)
    await sim.stop_bot()
    await bot.manager.close()
    await bot.store.close()


async def test_commands_are_sent_on_the_first_start_and_again_only_after_a_change(
        tmp_path: Path) -> None:
    db = tmp_path / "deckhand.sqlite3"
    async with SimulatedDiscord() as sim:
        await run_once(sim, await make_bot(db), sync=True)
        assert puts(sim) == 1
        await run_once(sim, await make_bot(db), sync=False)  # the same commands
        assert puts(sim) == 1
        changed = await make_bot(db)

        async def ping(interaction: object) -> None:
            """A command added since the last start."""

        changed.tree.add_command(app_commands.Command(
            name="ping", description="A new command", callback=ping))
        await run_once(sim, changed, sync=True)
        assert puts(sim) == 2
        assert "ping" in {c["name"] for c in sim.commands()}
        await run_once(sim, await make_bot(db), sync=True)  # the command taken away again
        assert puts(sim) == 3
        assert "ping" not in {c["name"] for c in sim.commands()}


async def test_only_the_process_of_shard_0_sends_the_commands(tmp_path: Path) -> None:
    async with SimulatedDiscord(shards=2) as sim:
        await run_once(sim, await sharded_bot(tmp_path / "a.sqlite3", (1,), 2), sync=False)
        assert puts(sim) == 0
        await run_once(sim, await sharded_bot(tmp_path / "b.sqlite3", (0,), 2), sync=True)
        assert puts(sim) == 1


async def test_deckhand_sync_sends_the_commands_even_when_unchanged(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        await run_once(sim, await make_bot(tmp_path / "deckhand.sqlite3"), sync=True)
        assert puts(sim) == 1
        before = len(sim.requests)
        forced = RealBot(tmp_path, sim, "sync")
        status, seconds = await forced.run(60)
        assert status == 0, forced.stderr
        assert puts(sim) == 2
        assert forced.errors() == []
        assert any("commands synced with Discord for every server" in str(line.get("event"))
                   for line in forced.lines), forced.stderr
        made = [(r.method, r.path.rsplit("/", 1)[-1]) for r in sim.requests[before:]]
        assert made.count(("PUT", "commands")) == 1 and ("GET", "bot") not in made, made
        assert seconds < 60


async def test_server_commands_are_not_offered_in_direct_messages(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        guild = sim.add_guild("Harbour")
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice")
        sim.add_member(guild, alice)
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot)
        try:
            commands = {c["name"]: c for c in sim.commands()}
            assert set(commands) >= SERVER_ONLY | ANYWHERE
            for name in SERVER_ONLY:
                assert commands[name]["contexts"] == [0], (name, commands[name])
            for name in ANYWHERE:
                assert commands[name].get("contexts") in (None, [0, 1, 2]), name
            dm = sim.dm_channel(alice)
            with pytest.raises(AssertionError, match="not offered"):
                await sim.slash(alice, dm, "play", {"game": "high-card"})
            r = await sim.slash(alice, dm, "help")
            assert r.status == "ok" and r.callback_type == 4, r
            r = await sim.slash(alice, channel, "play", {"game": "high-card"})
            assert r.status == "ok", r
            assert sim.spec_errors == []
        finally:
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()
