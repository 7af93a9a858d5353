"""A server's caps on open tables: how many a channel may hold, and how many a person may sit
at in the server (Board Game Arena's turn-based limit, 21, is the default).

The caps are the server's stored settings (:class:`bot.storage.store.GuildSettings`), changed
by its managers. They are counted against the open tables of this process: a server's tables
are all in the process of its shard, so no other process opens one there meanwhile.
"""

from __future__ import annotations

import asyncio
import dataclasses

from bot.storage.store import GuildSettings
from bot.tables.model import Refusal
from bot.tables.registry import Registry

#: the widest caps a server may choose (a channel's list of tables and a person's /tables
#: stay readable; a cap of 0 would be no table at all, which removing the bot already says)
TABLES_PER_CHANNEL_MOST = 50
TABLES_PER_PERSON_MOST = 100


class Limits:
    """The servers' caps, read from storage once per server and kept; checked when a table
    opens (see :meth:`opening`)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._known: dict[int, GuildSettings] = {}
        #: held from a cap's check to the new table being open, so that two opens at once
        #: cannot both pass the check for the last place
        self.opening = asyncio.Lock()

    async def of(self, guild_id: int) -> GuildSettings:
        """A server's caps (the defaults when its managers chose none)."""
        found = self._known.get(guild_id)
        if found is None:
            found = self._known[guild_id] = await self.registry.store.guild_settings(guild_id)
        return found

    async def change(self, guild_id: int, per_channel: int | None,
                     per_person: int | None) -> GuildSettings:
        """Set a server's caps (None: that one unchanged) and store them; Refusal
        'bad-limit' for a number out of range, changing nothing."""
        for value, most in ((per_channel, TABLES_PER_CHANNEL_MOST),
                            (per_person, TABLES_PER_PERSON_MOST)):
            if value is not None and not 1 <= value <= most:
                raise Refusal("bad-limit", least=1, most=most)
        settings = await self.of(guild_id)
        if per_channel is not None:
            settings = dataclasses.replace(settings, tables_per_channel=per_channel)
        if per_person is not None:
            settings = dataclasses.replace(settings, tables_per_person=per_person)
        await self.registry.store.set_guild_settings(guild_id, settings)
        self._known[guild_id] = settings  # once stored: a failure leaves the old caps
        return settings

    async def check_open(self, guild_id: int, channel_id: int, host_id: int) -> None:
        """Refuse a new table when its channel is full ('channel-full') or its host already
        sits at as many open tables of the server as it allows ('person-full'); called with
        :attr:`opening` held."""
        settings = await self.of(guild_id)
        most = settings.tables_per_channel
        if len(self.registry.by_channel.get(channel_id, ())) >= most:
            raise Refusal("channel-full", most=most)
        most = settings.tables_per_person
        if len(self.registry.seated(host_id, guild_id)) >= most:
            raise Refusal("person-full", most=most)
