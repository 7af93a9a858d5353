"""The table manager's base: the open tables of the process, lookup, publishing and closing.

The manager is built in layers, each in a module of its own: this base, the storing of results
(:mod:`bot.finish`), the turns, computer players and timers (:mod:`bot.turns`), the lobby
(:mod:`bot.lobby`), and restart on top (:mod:`bot.tables`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import games
from bot import logs
from bot.model import PLAYING, Listener, Refusal, RulesLookup, Table, Update
from bot.storage import Storage
from bot.thinking import Thinker
from bot.writer import ActionWriter
from games.ai import LEVELS
from games.core import IllegalAction

log = logging.getLogger("bot.tables")  # the table manager's log, whichever layer writes


class TableCore:
    """Every table of the process: lookup, publishing updates, storing and closing a table."""

    def __init__(
        self,
        store: Storage,
        rules_for: RulesLookup = games.get,
        ai_delay: float = 1.0,
        timer_scale: float = 1.0,
        ai_level: str = "best",
        ai_workers: int = 0,
        ai_budget: float | None = None,
        ai_scheduler: bool = True,
    ) -> None:
        self.store = store
        self.ai_level = ai_level
        #: computer players' thinking: search in ``ai_workers`` processes (0: in a thread)
        self.thinker = Thinker(ai_level, ai_workers, ai_budget, scheduler=ai_scheduler)
        self._writer = ActionWriter(store)
        self.rules_for = rules_for
        self.ai_delay = ai_delay
        self.timer_scale = timer_scale
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.listeners: list[Listener] = []
        #: awaited with a table's id once its result is stored (records, ratings)
        self.finish_hooks: list[Callable[[int], Awaitable[None]]] = []
        self._closed = False
        #: the first wait before trying again to store a result that could not be stored
        self.conclude_retry = 0.5

    @property
    def default_level(self) -> str:
        """The level a new table's computer players start at: the bot's (``best`` is the
        strongest level, ``hard``)."""
        return "hard" if self.ai_level == "best" else self.ai_level

    def _stored_level(self, level: str) -> str:
        """A stored table's level; the bot's for one stored before tables had levels (or
        one this bot does not know)."""
        return level if level in LEVELS else self.default_level

    # -- lookup -----------------------------------------------------------------------------
    def get(self, table_id: int) -> Table:
        """The table of that id; Refusal 'no-table' when there is none (or it is over)."""
        table = self.tables.get(table_id)
        if table is None:
            raise Refusal("no-table")
        return table

    def in_channel(self, channel_id: int) -> Table | None:
        """The open table of a channel, if any."""
        table_id = self.by_channel.get(channel_id)
        return None if table_id is None else self.tables.get(table_id)

    async def _notify(self, update: Update) -> None:
        for listener in list(self.listeners):
            try:
                await listener(update)
            except Exception as exc:
                log.error("table %s: a listener failed on %s (%s)", update.table.id, update.kind,
                          type(exc).__name__, extra=logs.failure(exc))

    async def _save(self, table: Table) -> None:
        await self.store.save_table(table.row())

    def _close(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        current = asyncio.current_task()
        for task in (table.timer_task, table.drive_task, table.conclude_task):
            if task is not None and task is not current and not task.done():
                task.cancel()
        table.timer_task = table.drive_task = table.conclude_task = None

    def _playing(self, table_id: int, version: int | None) -> Table:
        table = self.get(table_id)
        if table.status != PLAYING or table.state is None or table.state.over:
            raise Refusal("not-started")  # over: its result is still being stored
        if version is not None and version != table.version:
            raise Refusal("stale")
        return table

    async def _rebuild(self, table: Table) -> None:
        """Replay the stored actions into a fresh state."""
        state = table.rules.new_game(len(table.seats), seed=table.seed, options=table.options)
        rows = await self.store.actions(table.id)
        for row in rows:
            try:
                state.apply(row.seat, row.action)
            except (IllegalAction, ValueError) as exc:
                # the game's message may name a card of the seat's hand: its type only
                log.error("table %s: %s: stored action %d of %d (seat %d) does not replay (%s)",
                          table.id, table.rules.id, row.idx, len(rows), row.seat,
                          type(exc).__name__, extra=logs.failure(exc))
                raise
        table.state = state
        table.version = len(rows)
