"""Running the real bot against the simulated Discord, and acting as its users."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games
from bot.client import Deckhand
from bot.config import Settings
from bot.storage import Storage
from tests.bot.fakegame import RULES as HIGH_CARD
from tests.bot.fakegame import lookup
from tests.discord_sim import SimChannel, SimGuild, SimMessage, SimulatedDiscord, SimUser


def game_ids() -> list[str]:
    """Every registered game and the test game."""
    return [*games.ids(), HIGH_CARD.id]


async def make_bot(db: Path, ai_delay: float = 0.0, timer_scale: float = 1.0) -> Deckhand:
    """A bot on a database file, with no computer pause."""
    settings = Settings(token="sim-token", db_path=str(db), ai_delay=ai_delay,
                        timer_scale=timer_scale)
    store = await Storage.open(settings.db_path)
    return Deckhand(settings, store, rules_for=lookup, game_ids=game_ids)


@dataclass
class World:
    """A simulated server with a channel, some members and the running bot."""

    sim: SimulatedDiscord
    guild: SimGuild
    channel: SimChannel
    users: list[SimUser]
    bot: Deckhand
    db: Path
    bots: list[Deckhand] = field(default_factory=list)

    async def restart(self) -> Deckhand:
        """Stop the bot abruptly and start a new one on the same database."""
        await self.sim.stop_bot()
        await self.bot.store.close()
        self.bot = await make_bot(self.db)
        self.bots.append(self.bot)
        await self.sim.start(self.bot)
        await self.sim.settle()
        return self.bot

    def table_message(self) -> SimMessage:
        """The last message the bot posted in the channel (the table)."""
        found = self.sim.last_message(self.channel)
        assert found is not None
        return found


@asynccontextmanager
async def world(tmp_path: Path, people: int = 4, locale: str = "en-US",
                ai_delay: float = 0.0) -> AsyncIterator[World]:
    """A running bot in a simulated server."""
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Test Server", locale=locale)
        channel = sim.add_channel(guild, "cards")
        users = []
        for i, name in enumerate(["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"][:people]):
            user = sim.add_user(name, locale="en-US")
            sim.add_member(guild, user, manage_guild=(i == people - 1))
            users.append(user)
        db = tmp_path / "deckhand.sqlite3"
        bot = await make_bot(db, ai_delay=ai_delay)
        await sim.start(bot)
        here = World(sim, guild, channel, users, bot, db, [bot])
        try:
            yield here
        finally:
            await sim.stop_bot()
            await here.bot.manager.close()
            await here.bot.store.close()


def button(message: SimMessage, verb: str) -> dict[str, Any]:
    """The button of a message whose custom id has that verb."""
    for found in message.buttons():
        if str(found.get("custom_id", "")).split(":")[1:2] == [verb]:
            return found
    raise AssertionError(f"no {verb!r} button on {message.buttons()}")
