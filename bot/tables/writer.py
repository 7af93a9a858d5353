"""Storing a table's actions: one transaction for the moves that arrive together."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot import tasks
from bot.storage.db import IntegrityError
from bot.storage.store import Storage

log = logging.getLogger("bot.tables")  # the table manager's log, whichever layer writes

ActionRow = tuple[int, int, int, str, int | None, str]


class ActionWriter:
    """Stores actions, committing the ones that arrive together in one transaction.

    A move waits for its own commit. When nothing is being stored, or when the database can
    store it on the spot (SQLite with no other write of this process under way: no turn of
    the event loop at all, see :meth:`bot.storage.db.sqlite.AsyncSqlite.append`), its caller stores
    it
    at once; otherwise the moves gather while one commit is under way and go in the next one,
    so under load a click waits for one transaction instead of a queue of them (on a busy
    event loop even one hop to another task costs a click a whole turn of the loop). When a
    batch cannot be stored, each of its actions is tried alone, so one
    bad row fails only its own move.
    """

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._pending: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._direct = False  # an action is being stored by its own caller
        #: per table, the first action whose store failed and may yet be on disk (a timeout
        #: says nothing of a commit): its person was told it did not count, so the next store
        #: of that table, or :meth:`mend`, deletes it
        self.unsure: dict[int, int] = {}

    async def add(self, *row: Any) -> None:
        """Store one action ``(table_id, idx, seat, action, user_id, how)``; returns once it is
        committed (raises what storing it raised: the action then counts as not stored, and
        is deleted should it be on disk after all)."""
        table_id, idx = int(row[0]), int(row[1])
        try:
            if table_id in self.unsure:
                await self.store.replace_actions(*row)  # what may be there is deleted first
                del self.unsure[table_id]
                return
            await self._add(*row)
        except IntegrityError:
            raise  # refused by the database: surely not stored (and not this row that is there)
        except BaseException:
            self.unsure[table_id] = min(idx, self.unsure.get(table_id, idx))
            raise

    async def mend(self, table_id: int) -> None:
        """Delete what may be on disk of a table's actions that failed (called with the
        table's lock held, as :meth:`add` is); raises when the database still fails."""
        idx = self.unsure.get(table_id)
        if idx is None:
            return
        dropped = await self.store.drop_actions(table_id, idx)
        if self.unsure.get(table_id) == idx:
            del self.unsure[table_id]
        if dropped:
            log.warning("table %s: %d action(s) whose store had failed were on disk after all; "
                        "deleted, as their people were told they did not count",
                        table_id, dropped)

    async def _add(self, *row: Any) -> None:
        if self.store.db.appends_at_once() or (not self._pending and not self._busy()):
            # nothing under way: store it now, with no hop through another task (a store on
            # the event loop's thread then never waits for a turn of the loop)
            self._direct = True
            try:
                await self.store.add_action(*row)
            finally:
                self._direct = False
                self._kick()
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, done))
        self._kick()
        await done

    def _busy(self) -> bool:
        """Whether an action is being stored (by its caller, or by the batch task)."""
        return self._direct or (self._task is not None and not self._task.done())

    def _kick(self) -> None:
        """Start storing the waiting actions, unless a store is under way (it will)."""
        if self._pending and not self._busy():
            self._task = tasks.background(self._flush())  # moves wait on it

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            if len(batch) > 1:
                try:
                    await self.store.add_actions([row for row, _ in batch])
                except Exception:
                    log.warning("%d actions could not be stored together; storing them one by "
                                "one", len(batch), exc_info=True)
                else:
                    for _, done in batch:
                        if not done.done():
                            done.set_result(None)
                    continue
            for row, done in batch:
                try:
                    await self.store.add_action(*row)
                except Exception as exc:
                    if not done.done():
                        done.set_exception(exc)
                else:
                    if not done.done():
                        done.set_result(None)
