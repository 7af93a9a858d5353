"""The open tables of the process: lookup, the lock and its events, storing, closing, loading.

Every other part of the table service reaches a table through here: :meth:`Registry.locked`
holds a table's lock and, once it is let go, delivers the events collected under it
(:class:`bot.tables.events.EventBus`), so no front end is ever called with a table's lock held.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, TypeVar

from bot import logs
from bot.storage.store import Storage
from bot.tables.events import EventBus, TableEvent
from bot.tables.model import CANCELLED, LOBBY, PLAYING, Refusal, RulesLookup, Seat, Table
from bot.tables.position import Position, position_of
from games.core import IllegalAction, State

Event = TypeVar("Event", bound=TableEvent)
log = logging.getLogger("bot.tables")  # the table service's log, whichever part writes
#: how many lately closed tables are kept for :meth:`Registry.latest` (their final messages
#: and panels are drawn from them a moment after the close)
RECENT_KEPT = 256


class Registry:
    """Every open table of the process, by id and by channel."""

    def __init__(self, store: Storage, rules_for: RulesLookup, bus: EventBus) -> None:
        self.store = store
        self.rules_for = rules_for
        self.bus = bus
        self.tables: dict[int, Table] = {}
        #: a channel's open tables by id, in the order opened (a channel holds many: its
        #: server caps them, bot.tables.limits)
        self.by_channel: dict[int, dict[int, Table]] = {}
        #: tables closed lately, oldest first (see RECENT_KEPT)
        self.recent: dict[int, Table] = {}
        #: set once the service stops: no computer, timer or retry starts any more
        self.closed = False

    # -- lookup -----------------------------------------------------------------------------
    def get(self, table_id: int) -> Table:
        """The table of that id; Refusal 'no-table' when there is none (or it is over)."""
        table = self.tables.get(table_id)
        if table is None:
            raise Refusal("no-table")
        return table

    def in_channel(self, channel_id: int) -> Table | None:
        """A channel's first open table (the oldest), if any."""
        return next(iter(self.by_channel.get(channel_id, {}).values()), None)

    def requested(self, table_id: int, guild_id: int | None, channel_id: int | None) -> Table:
        """The open table a request names, when the request comes from where the table is:
        its server and its channel or thread. A request from no server (a hand sent by direct
        message) has no place to compare; its person's seat is checked instead, by the caller.

        Every permission a front end passes on (a server manager's, a host's) is its
        server's: without this check, one server's manager could cancel another server's
        table by naming its id. A foreign request is refused (``foreign-table``) and logged.
        """
        table = self.get(table_id)
        if guild_id is not None and (
                table.guild_id != guild_id
                or channel_id not in (table.channel_id, table.thread_id)):
            log.warning("a request from server %s, channel %s named table %s of server %s, "
                        "channel %s (thread %s): refused", guild_id, channel_id, table_id,
                        table.guild_id, table.channel_id, table.thread_id)
            raise Refusal("foreign-table")
        return table

    async def publics(self, table_ids: Iterable[int]) -> tuple[Position, ...]:
        """The public positions of those of the tables still open, in the order given (each
        taken under its lock)."""
        found = []
        for table_id in list(table_ids):
            table = self.tables.get(table_id)
            if table is not None:  # (closed while an earlier one's lock was waited for)
                found.append(await self.snapshot(table))
        return tuple(found)

    def in_channel_all(self, channel_id: int) -> list[Table]:
        """Every open table of a channel (those playing in its threads too), by id."""
        return sorted(self.by_channel.get(channel_id, {}).values(), key=lambda t: t.id)

    def seated(self, user_id: int, guild_id: int | None) -> list[Table]:
        """The open tables where a person holds a seat (of one server, or of any), by id: a
        walk over the open tables, which a person's list and the open's cap read seldom
        (10,000 tables take a millisecond or two)."""
        return sorted((table for table in self.tables.values()
                       if (guild_id is None or table.guild_id == guild_id)
                       and table.seat_of(user_id) is not None), key=lambda t: t.id)

    def playing(self, table_id: int, version: int | None) -> Table:
        """A table in play (at ``version``, when given); Refusal 'not-started' or 'stale'."""
        table = self.get(table_id)
        if table.status != PLAYING or table.state is None or table.state.over:
            raise Refusal("not-started")  # over: its result is still being stored
        if version is not None and version != table.version:
            raise Refusal("stale")
        return table

    def lobby(self, table_id: int) -> Table:
        """A table still in its lobby; Refusal 'already-started'."""
        table = self.get(table_id)
        if table.status != LOBBY:
            raise Refusal("already-started")
        return table

    def add(self, table: Table) -> None:
        """Open a table (made or loaded)."""
        self.tables[table.id] = table
        self.by_channel.setdefault(table.channel_id, {})[table.id] = table

    # -- the lock and the events ------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def locked(self, table: Table) -> AsyncIterator[Table]:
        """Hold the table's lock; once it is let go, deliver the events collected under it."""
        try:
            async with table.lock:
                yield table
        finally:
            await self.bus.deliver(table.id)

    def publish(self, table: Table, kind: type[Event], **fields: Any) -> Event:
        """Queue an event of a table with its public position now (the lock held)."""
        event = kind(position_of(table), **fields)
        self.bus.add(event)
        return event

    async def position(self, table_id: int, seat: int | None = None) -> Position:
        """The table now for a seat (or a spectator): taken under its lock, so never a move
        applied but not yet stored. A closed table's id: Refusal 'no-table'."""
        return await self.snapshot(self.get(table_id), seat)

    async def snapshot(self, table: Table, seat: int | None = None) -> Position:
        """A table's position for a seat (or a spectator), taken under its lock so never a
        move applied but not yet stored. Unlike :meth:`position`, a table just closed still
        answers, with its last position (its final message and panels show it)."""
        async with table.lock:
            return position_of(table, seat)

    async def latest(self, table_id: int, seat: int | None = None) -> Position | None:
        """The table now for a seat (or a spectator), or, for one closed lately, its last
        position; None for a table neither open nor lately closed."""
        table = self.tables.get(table_id) or self.recent.get(table_id)
        return None if table is None else await self.snapshot(table, seat)

    def keep_recent(self, table: Table) -> None:
        """Keep a closed table a while for the front ends still showing it (its final
        message, its panels)."""
        self.recent[table.id] = table
        while len(self.recent) > RECENT_KEPT:
            del self.recent[next(iter(self.recent))]

    def settled(self, table: Table) -> Position | None:
        """The table's public position at once when no move is being applied and stored
        (its lock is free); None while one is, since that move may not be shown yet."""
        if table.lock.locked():
            return None
        return position_of(table)

    async def position_for(self, table_id: int, user_id: int) -> Position:
        """The table now as a person sees it: from their seat, or as a spectator when they
        hold none."""
        table = self.get(table_id)
        return await self.snapshot(table, table.seat_of(user_id))

    # -- storing and closing ----------------------------------------------------------------
    async def save(self, table: Table) -> None:
        """Store the table's row (seats, options, status...)."""
        await self.store.save_table(table.row())

    @contextlib.asynccontextmanager
    async def saving(self, table: Table) -> AsyncIterator[Table]:
        """Change a table's row (seats, options, status...) inside, stored at the end (the
        lock held). When storing fails the changes are undone from what was kept in memory
        (the database just failed: it is not asked) and Refusal 'not-saved' says so, so the
        table is exactly as stored; a refusal inside undoes them too."""
        before = _Kept.of(table)
        try:
            yield table
            await self.save(table)
        except BaseException as exc:
            before.restore(table)
            if isinstance(exc, Exception) and not isinstance(exc, Refusal):
                log.error("table %s: a change could not be stored (%s); undone", table.id,
                          type(exc).__name__, extra=logs.failure(exc))
                raise Refusal("not-saved") from exc
            raise

    def close(self, table: Table) -> None:
        """Forget a finished or cancelled table and stop its tasks."""
        self.tables.pop(table.id, None)
        self.keep_recent(table)
        here = self.by_channel.get(table.channel_id)
        if here is not None:
            here.pop(table.id, None)
            if not here:
                del self.by_channel[table.channel_id]
        current = asyncio.current_task()
        for task in (table.timer_task, table.drive_task, table.conclude_task):
            if task is not None and task is not current and not task.done():
                task.cancel()
        table.timer_task = table.drive_task = table.conclude_task = None

    async def rebuild(self, table: Table) -> None:
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

    async def load(self, owns: Callable[[int], bool] | None,
                   level: Callable[[str], str]) -> list[Table]:
        """Open every unfinished stored table (of the guilds ``owns`` accepts), games in
        play rebuilt from their actions; ``level``: a stored level as this bot plays it. A
        table whose stored moves no longer replay (its game's rules changed) is ended, and
        returned too: its message says why."""
        loaded: list[Table] = []
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
                          row.timer, row.message_id, level=level(row.level), hints=row.hints,
                          thread_id=row.thread_id)
            # the running deadline as stored (the downtime already added): bot.tables.timing
            table.deadline_at, table.reminded = row.deadline_at, row.reminded
            table.on_deadline = row.on_deadline
            if table.status == PLAYING:
                try:
                    await self.rebuild(table)
                    if row.deadline_version not in (None, table.version):
                        # the bot stopped after a move was stored, before its turn's deadline
                        # was: that deadline is the turn before's; this turn's starts now
                        table.deadline_at, table.reminded = None, False
                except (IllegalAction, ValueError):
                    # e.g. a deal the game's corrected rules no longer allow: the table ends,
                    # its message says why, and the channel is free again
                    log.warning("table %s: %s: ended (its stored actions do not replay)",
                                row.id, row.game)
                    table.status = CANCELLED
                    table.ended = "ended-no-replay"
                    await self.save(table)
                    self.keep_recent(table)  # its message is drawn once more, saying why
                    loaded.append(table)
                    continue
            self.add(table)
            loaded.append(table)
        return loaded


@dataclasses.dataclass(frozen=True)
class _Kept:
    """What :meth:`Registry.saving` may change of a table, kept to undo it."""

    status: str
    host_id: int
    seats: tuple[Seat, ...]
    options: dict[str, Any]
    timer: str
    level: str
    hints: bool
    message_id: int | None
    thread_id: int | None
    state: State | None
    version: int
    on_deadline: str = "computer"

    @classmethod
    def of(cls, table: Table) -> _Kept:
        """What the table holds now."""
        return cls(table.status, table.host_id, tuple(dataclasses.replace(s) for s in table.seats),
                   dict(table.options), table.timer, table.level, table.hints, table.message_id,
                   table.thread_id, table.state, table.version, table.on_deadline)

    def restore(self, table: Table) -> None:
        """Put the table back as it was kept."""
        table.status, table.host_id = self.status, self.host_id
        table.seats[:] = self.seats  # the same list: whoever holds it sees the seats undone
        table.options.clear()
        table.options.update(self.options)
        table.timer, table.level, table.hints = self.timer, self.level, self.hints
        table.message_id, table.state, table.version = self.message_id, self.state, self.version
        table.thread_id, table.on_deadline = self.thread_id, self.on_deadline
