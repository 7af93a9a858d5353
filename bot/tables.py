"""The table manager: lobbies, turns, computer players, timers, persistence and resume.

Pure asyncio, no Discord: the cogs turn interactions into calls here and render the
:class:`Update` objects it publishes. One table per channel, one lock per table; the state
version is the number of actions applied, and every action is stored (committed) before
anyone is told about it.

The manager is built in layers, each a module: :mod:`bot.core` (the open tables, lookup,
publishing), :mod:`bot.finish` (a game's result), :mod:`bot.turns` (moves, computers,
timers), :mod:`bot.lobby` (seats, options, start, cancel); restart is here. The data it works
on is in :mod:`bot.model`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from bot.hints import HintTables
from bot.model import (  # re-exported: the names the cogs and tests know
    AWAY_AFTER,
    CANCELLED,
    COMPUTER_LEVELS,
    FINISHED,
    LOBBY,
    PLAYING,
    Listener,
    Move,
    Refusal,
    RulesLookup,
    Seat,
    Table,
    Update,
)
from bot.thinking import best_player
from bot.writer import ActionWriter
from games.core import IllegalAction

__all__ = [
    "AWAY_AFTER", "CANCELLED", "COMPUTER_LEVELS", "FINISHED", "LOBBY", "PLAYING",
    "ActionWriter", "Listener", "Move", "Refusal", "RulesLookup", "Seat", "Table",
    "TableManager", "Update", "best_player",
]

log = logging.getLogger(__name__)


class TableManager(HintTables):
    """Every table of the process, with their locks, computer players and timers."""


    async def resume(self, owns: Callable[[int], bool] | None = None) -> list[Table]:
        """Rebuild every unfinished table from storage and start its computers and timers
        (the computer players' worker processes first, warmed up). A table whose stored moves
        no longer replay (its game's rules changed) is ended, and returned too: its message
        says why."""
        await self.thinker.start()
        resumed: list[Table] = []
        for row in await self.store.open_tables():
            if row.id in self.tables or (owns is not None and not owns(row.guild_id)):
                continue  # ``owns``: only the guilds of this process's shards
            try:
                rules = self.rules_for(row.game)
            except KeyError:
                log.warning("table %s: game %r is not registered; left as it is", row.id, row.game)
                continue
            table = Table(row.id, row.guild_id, row.channel_id, rules, row.host_id, row.status,
                          [Seat.from_dict(s) for s in row.seats], dict(row.options), row.seed,
                          row.timer, row.message_id, level=self._stored_level(row.level),
                          hints=row.hints)
            if table.status == PLAYING:
                try:
                    await self._rebuild(table)
                except (IllegalAction, ValueError):
                    # e.g. a deal the game's corrected rules no longer allow: the table ends,
                    # its message says why, and the channel is free again
                    log.warning("table %s: %s: ended (its stored actions do not replay)",
                                row.id, row.game)
                    table.status = CANCELLED
                    table.ended = "ended-no-replay"
                    await self._save(table)
                    resumed.append(table)
                    continue
            self.tables[table.id] = table
            self.by_channel[table.channel_id] = table.id
            state = table.state
            if state is not None and state.over:  # the bot died between move and result
                async with table.lock:
                    if not await self._conclude(table):
                        self._conclude_later(table)
            resumed.append(table)
        for table in resumed:
            self._kick(table)
        return resumed

    async def close(self) -> None:
        """Stop every computer player, timer and worker process (the tables stay stored)."""
        self._closed = True
        tasks = [t for table in self.tables.values()
                 for t in (table.timer_task, table.drive_task, table.conclude_task)
                 if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.thinker.close()
