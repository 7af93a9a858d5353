"""Storing a finished game's result, trying again until it is stored, then the finish hooks."""

from __future__ import annotations

import asyncio
import logging

from bot import logs, tasks
from bot.core import TableCore
from bot.model import FINISHED, PLAYING, Table, Update

log = logging.getLogger("bot.tables")  # the table manager's log, whichever layer writes
#: the longest wait between tries to store a finished game's result (seconds)
CONCLUDE_RETRY_MOST = 30.0


class Finishing(TableCore):
    """The end of a game: its result stored, the table closed, the finish hooks run."""

    async def _conclude(self, table: Table) -> bool:
        """Store the result of a game that is over, close the table and run the finish hooks
        (called with the table's lock held); False when the result could not be stored: the
        table then stays open, its last move stored, until a later try stores it."""
        state = table.state
        assert state is not None and state.over
        outcome = state.outcome
        row = table.row()
        row.status = FINISHED
        try:
            await self.store.finish(row, {} if outcome is None else outcome.to_dict())
        except Exception as exc:
            log.error("table %s: its result could not be stored (%s); trying again",
                      table.id, type(exc).__name__, extra=logs.failure(exc))
            return False
        table.status = FINISHED
        self._close(table)
        await self._finished(table)
        return True

    def _conclude_later(self, table: Table) -> None:
        """Try again, more slowly each time, to store the result of a game that is over; the
        table's message shows the result meanwhile. A stop leaves it to the restart (whose
        resume stores the result of a stored game that is over)."""
        if self._closed or (table.conclude_task is not None and not table.conclude_task.done()
                            and table.conclude_task is not asyncio.current_task()):
            return

        async def again() -> None:
            delay = self.conclude_retry
            while not self._closed:
                await asyncio.sleep(delay)
                async with table.lock:
                    if table.status != PLAYING:
                        return
                    if await self._conclude(table):
                        await self._notify(Update(table, "finish"))
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

