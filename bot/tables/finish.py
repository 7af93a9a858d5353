"""The end of a game: its result stored (tried again until it is), the table closed, the
finish hooks run (records, ratings)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot import logs, tasks
from bot.tables.events import GameEnded
from bot.tables.model import CONCLUDE_RETRY_MOST, FINISHED, PLAYING, Table
from bot.tables.registry import Registry

log = logging.getLogger("bot.tables")  # the table service's log, whichever part writes


class Results:
    """Concluding finished games; depends on the registry (storing, closing, events)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        #: awaited with a table's id once its result is stored (records, ratings)
        self.finish_hooks: list[Callable[[int], Awaitable[None]]] = []
        #: the first wait before trying again to store a result that could not be stored
        self.retry = 0.5

    async def conclude(self, table: Table) -> GameEnded | None:
        """Store the result of a game that is over, close the table, queue GameEnded and run
        the finish hooks (called with the table's lock held); the event, or None when the
        result could not be stored: the table then stays open, its last move stored, until a
        later try stores it."""
        state = table.state
        assert state is not None and state.over
        outcome = state.outcome
        row = table.row()
        row.status = FINISHED
        try:
            await self.registry.store.finish(row, {} if outcome is None else outcome.to_dict())
        except Exception as exc:
            log.error("table %s: its result could not be stored (%s); trying again",
                      table.id, type(exc).__name__, extra=logs.failure(exc))
            return None
        table.status = FINISHED
        self.registry.close(table)
        ended = self.registry.publish(table, GameEnded)
        await self._finished(table)
        return ended

    async def settle(self, table: Table) -> None:
        """Conclude a game that is over, or keep trying later (the table's lock held)."""
        if not await self.conclude(table):
            self.later(table)

    def later(self, table: Table) -> None:
        """Try again, more slowly each time, to store the result of a game that is over; the
        table's message shows the result meanwhile. A stop leaves it to the restart (whose
        resume stores the result of a stored game that is over)."""
        if self.registry.closed or (
                table.conclude_task is not None and not table.conclude_task.done()
                and table.conclude_task is not asyncio.current_task()):
            return

        async def again() -> None:
            delay = self.retry
            while not self.registry.closed:
                await asyncio.sleep(delay)
                async with self.registry.locked(table):
                    if table.status != PLAYING:
                        return
                    if await self.conclude(table) is not None:
                        return
                delay = min(delay * 2, CONCLUDE_RETRY_MOST)

        table.conclude_task = tasks.background(again())

    async def _finished(self, table: Table) -> None:
        """Run the finish hooks; a failing hook is logged (its work is caught up on restart)."""
        for hook in list(self.finish_hooks):
            try:
                await hook(table.id)
            except Exception as exc:
                log.error("table %s: a finish hook failed (%s)", table.id, type(exc).__name__,
                          extra=logs.failure(exc))
