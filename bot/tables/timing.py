"""Time at the tables: every turn timer, reminder, away period and digest, on one scheduler.

Every turn timer — live (``relaxed``, ``normal``, ``fast``) and correspondence (``1h`` … ``7d``) —
is one ``expire`` entry of one :class:`bot.tables.deadlines.Deadlines` (no task or timer per
table, so thousands of idle tables cost one sleep). A turn's deadline is an instant on the
service's clock, kept in the table (``deadline_at``) and stored (``tables.deadline_at``) before
the move that began the turn is announced: a restart resumes it, and the time the bot was down
(its last heartbeat, :meth:`bot.storage.store.Storage.mark_alive`, to its start) is added to every
running deadline (:meth:`bot.storage.store.Storage.shift_deadlines`), so nobody loses a seat to
an outage. A deadline fires once: the entry stops being live when it fires, a move makes a new
turn (a new version, which drops the older entries), and the new turn's deadline is stored
before the move is told to anyone.

At a deadline the computer moves once for the person due; ``AWAY_AFTER`` misses in a row and
the computer keeps the seat until "I'm back" (the live rule, unchanged). At a correspondence
table whose host chose ``drop``, the second miss in a row drops the person: the computer keeps
the seat to the end (``Seat.dropped``: no "I'm back"; an abandoned seat in the records). Each
missed correspondence deadline is said (:class:`bot.tables.events.DeadlineMissed`).

Correspondence only: a :class:`bot.tables.events.TurnReminder` at 80 % of the turn's time
(``remind`` entries). Whether the person is in their quiet hours is looked up when the reminder
comes (their settings may have changed since the turn began): in them, it waits for their end,
and is dropped when that is at or past the deadline. A person away
(:meth:`Timing.set_away`) has their correspondence clocks paused at every table: a running
deadline is pushed by the away period, a turn that begins while they are away starts its
clock when they are back; ending the period early (:meth:`Timing.end_away`) takes the unused
part back from the deadlines and refunds it to the yearly budget.

Person-level news (:class:`bot.tables.events.PersonEvent`) goes to the person subscribers:
the daily digest at 09:00 in the person's time zone (``digest`` entries) and the end of an away
period (``away-ends``).

Instants shown to a person (``Position.deadline``, ``SeatShown.away_until``, what
:meth:`Timing.set_away` answers) are wall-clock instants (``clock.wall``), so a Discord
timestamp shows them right under a timer scale; instants stored are the clock's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from bot import logs, tasks
from bot.storage.store import UserSettings
from bot.tables import pace
from bot.tables.clock import Clock, SystemClock
from bot.tables.computers import NOT_STORED, Computers
from bot.tables.deadlines import Deadlines, Due
from bot.tables.events import (
    AwayEnded,
    DigestDue,
    PersonEvent,
    SeatAwayUntil,
    TurnReminder,
)
from bot.tables.model import CONCLUDE_RETRY_MOST, PLAYING, Refusal, Table
from bot.tables.position import Position, position_of
from bot.tables.registry import Registry

log = logging.getLogger("bot.tables")  # the table service's log, whichever part writes

#: a person's handler of person-level news; its failure is logged and the service goes on
PersonSubscriber = Callable[[PersonEvent], Awaitable[None]]
#: clock seconds between the marks of the bot being alive (the downtime a restart adds is
#: measured from the last one, so a crash costs at most this much more than the outage)
ALIVE_EVERY = 60.0
#: real seconds between those marks at least (a fast simulated clock does not write often)
ALIVE_REAL_LEAST = 1.0


def _year(instant: float) -> int:
    return datetime.fromtimestamp(instant, UTC).year


class Timing:
    """The turn timers, reminders, away periods and digests of every table; depends on the
    registry (its storage too), the computers (a missed turn's move) and a clock."""

    def __init__(self, registry: Registry, computers: Computers, clock: Clock) -> None:
        self.registry = registry
        self.store = registry.store
        self.computers = computers
        self.clock = clock
        self.deadlines = Deadlines(clock, self._due)
        #: people away now: user id → the instant (clock) their away period ends
        self.away: dict[int, float] = {}
        #: the subscribers to person-level news
        self.person_subscribers: list[PersonSubscriber] = []
        #: tables whose deadline in memory is not stored yet
        self._dirty: set[int] = set()
        self._writer: asyncio.Task[None] | None = None
        self._alive: asyncio.Task[None] | None = None

    # -- arming a turn's deadline (the lock held) --------------------------------------------
    def arm(self, table: Table) -> None:
        """Give the turn now at ``table`` its deadline, or none (called with the lock held,
        after every change of who is due). A deadline already running for this version is
        kept (a second look at the same turn does not give more time); one loaded from
        storage is resumed."""
        seconds = pace.seconds(table.timer) if table.timer in pace.PACES else None
        due = table.people_due() if table.status == PLAYING else frozenset()
        if seconds is None or not due or self.registry.closed:
            self.clear(table)
            return
        running = table.deadline_at is not None and (
            table.deadline is None or table.deadline[0] == table.version)
        if not running:
            deadline = self.clock.now() + seconds
            if pace.is_correspondence(table.timer):
                for user_id in due:  # a turn begun while its person is away waits for them
                    until = self.away.get(user_id)
                    if until is not None:
                        deadline = max(deadline, until + seconds)
            table.deadline_at, table.reminded = deadline, False
            self._dirty.add(table.id)
        self._schedule(table, seconds)

    def _schedule(self, table: Table, seconds: float) -> None:
        """Schedule the table's running deadline (and its reminder) at its version."""
        instant = table.deadline_at
        assert instant is not None
        table.deadline = (table.version, self.clock.wall(instant))
        self.deadlines.schedule("expire", table.id, instant, table.version)
        if pace.is_correspondence(table.timer) and not table.reminded:
            self.deadlines.schedule("remind", table.id,
                                    instant - (1 - pace.REMIND_AT) * seconds, table.version)
        else:
            self.deadlines.cancel(table.id, ("remind",))
        self.start()

    def clear(self, table: Table) -> None:
        """No deadline runs at the table now."""
        self.deadlines.cancel(table.id)
        table.deadline = None
        if table.deadline_at is not None or table.reminded:
            table.deadline_at, table.reminded = None, False
            self._dirty.add(table.id)
        if table.id in self._dirty:
            self._write_later()

    async def flush(self, table: Table) -> None:
        """Store the table's deadline if it changed (the lock held): called after a move is
        stored and before it is announced, so a restart never applies the old turn's
        deadline to the new one. A database that fails here is logged; the deadline in
        memory runs on and is stored by the next try."""
        if table.id not in self._dirty:
            return
        self._dirty.discard(table.id)
        try:
            await self.store.set_deadline(table.id, table.deadline_at, table.reminded,
                                          table.version)
        except Exception as exc:
            log.error("table %s: its deadline could not be stored (%s)", table.id,
                      type(exc).__name__, extra=logs.failure(exc))
            self._dirty.add(table.id)
            self._write_later()

    def _write_later(self) -> None:
        """Store the deadlines changed outside a move (a lobby's start, "I'm back") soon."""
        if self._writer is not None and not self._writer.done():
            return

        async def write() -> None:
            delay = 0.0
            while self._dirty and not self.registry.closed:
                await asyncio.sleep(delay)
                for table_id in list(self._dirty):
                    table = self.registry.tables.get(table_id)
                    if table is None:
                        self._dirty.discard(table_id)
                        continue
                    async with table.lock:
                        await self.flush(table)
                delay = min(max(delay * 2, self.computers.turns.retry), CONCLUDE_RETRY_MOST)

        self._writer = tasks.background(write())

    def start(self) -> None:
        """Start the scheduler (in the running loop) unless the service stopped."""
        if not self.registry.closed:
            self.deadlines.start()

    # -- the scheduler's callback ------------------------------------------------------------
    async def _due(self, due: Due) -> None:
        if due.kind == "expire":
            await self._expire(due)
        elif due.kind == "remind":
            await self._remind(due)
        elif due.kind == "away-ends":
            await self._end_away(due.subject, self.clock.now(), due)
        elif due.kind == "digest":
            await self._digest(due.subject)

    def _current(self, due: Due) -> Table | None:
        """The table of a table entry, when it is still at the entry's turn."""
        table = self.registry.tables.get(due.subject)
        if (table is None or table.status != PLAYING or table.state is None
                or table.state.over or table.version != due.version
                or table.deadline_at is None):
            return None
        return table

    async def _expire(self, due: Due) -> None:
        """A person's time ran out: the computer moves for them (tried again while the
        database fails: the time is still out)."""
        table = self._current(due)
        if table is None:
            return
        state = table.state
        assert state is not None
        late = [s for s in state.to_act if not table.seats[s].auto]
        failed = self.computers.turns.retry
        while late and not self.registry.closed:
            try:
                await self.computers.computer_move(table, late[0], "timeout")
                break
            except Refusal as refusal:
                if refusal.key not in NOT_STORED:
                    raise
                await asyncio.sleep(failed)
                failed = min(failed * 2, CONCLUDE_RETRY_MOST)
                if table.version != due.version:
                    break
        self.computers.kick(table)

    async def _remind(self, due: Due) -> None:
        """80 % of the turn's time has gone: remind the people due, out of quiet hours."""
        table = self._current(due)
        if table is None or table.reminded:
            return
        now = self.clock.now()
        quiet_until = now
        for user_id in table.people_due():
            quiet = _quiet(await self.store.user_settings(user_id))
            if quiet is not None:
                quiet_until = max(quiet_until, quiet.end_after(now))
        async with self.registry.locked(table):
            if self._current(due) is None or table.reminded or table.deadline_at is None:
                return
            if quiet_until > now:  # someone due sleeps: reminded when their quiet hours end
                if quiet_until < table.deadline_at:
                    self.deadlines.schedule("remind", table.id, quiet_until, table.version)
                return
            table.reminded = True
            self._dirty.add(table.id)
            await self.flush(table)
            for seat, info in enumerate(table.seats):
                if info.user_id is not None and info.user_id in table.people_due():
                    self.registry.publish(table, TurnReminder, seat=seat, user_id=info.user_id)

    # -- away -------------------------------------------------------------------------------
    def _tables_of(self, user_id: int) -> list[Table]:
        return [table for table in list(self.registry.tables.values())
                if table.seat_of(user_id) is not None]

    async def set_away(self, user_id: int, days: int) -> float:
        """The person is away for ``days`` days from now: their correspondence clocks stop at
        every table. The (wall-clock) instant it ends; Refusal ``bad-away`` (with the whole
        days ``left`` in the year's budget) for a number of days outside 1 to that."""
        now = self.clock.now()
        settings = await self.store.user_settings(user_id)
        if settings.away_until is not None and settings.away_until > now:
            settings = await self._end_away(user_id, now)  # a new period in its place
        left = int(pace.away_left(settings.away_used, settings.away_year, now) // pace.DAY)
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= left:
            raise Refusal("bad-away", left=left)
        until = now + days * pace.DAY
        year = _year(now)
        used = (settings.away_used if settings.away_year == year else 0.0) + days * pace.DAY
        await self.store.set_user_settings(user_id, dataclasses.replace(
            settings, away_until=until, away_used=used, away_year=year))
        self.away[user_id] = until
        self.deadlines.schedule("away-ends", user_id, until)
        self.start()
        await self._move_deadlines(user_id, until - now, self.clock.wall(until))
        return self.clock.wall(until)

    async def end_away(self, user_id: int) -> None:
        """The person is back before their away period ended (nothing when not away): the
        unused days go back to the budget and the clocks run again."""
        await self._end_away(user_id, self.clock.now())

    async def _end_away(self, user_id: int, now: float, due: Due | None = None) -> UserSettings:
        settings = await self.store.user_settings(user_id)
        until = settings.away_until
        if due is not None and until is not None and until > now:
            return settings  # an old entry: the period was set anew since
        self.deadlines.cancel(user_id, ("away-ends",))
        self.away.pop(user_id, None)
        if until is None:
            return settings
        unused = max(0.0, until - now)
        used = settings.away_used
        if settings.away_year == _year(now):
            used = max(0.0, used - unused)
        settings = dataclasses.replace(settings, away_until=None, away_used=used)
        await self.store.set_user_settings(user_id, settings)
        await self._move_deadlines(user_id, -unused, None)
        await self._tell(AwayEnded(user_id))
        return settings

    async def _move_deadlines(self, user_id: int, seconds: float,
                              shown: float | None) -> None:
        """Push (or pull back) by ``seconds`` the running correspondence deadlines where the
        person is due, and show their seats as away until ``shown`` (None: back)."""
        now = self.clock.now()
        for table in self._tables_of(user_id):
            async with self.registry.locked(table):
                seat = table.seat_of(user_id)
                if seat is None or table.id not in self.registry.tables:
                    continue
                table.seats[seat].away_until = shown
                if (seconds and table.deadline_at is not None
                        and pace.is_correspondence(table.timer)
                        and user_id in table.people_due()):
                    pace_seconds = pace.seconds(table.timer)
                    assert pace_seconds is not None
                    table.deadline_at = max(now, table.deadline_at + seconds)
                    self._dirty.add(table.id)
                    self._schedule(table, pace_seconds)
                    await self.flush(table)
                self.registry.publish(table, SeatAwayUntil, seat_away=seat, user_id=user_id,
                                      until=shown)

    # -- person-level news ------------------------------------------------------------------
    async def refresh_person(self, user_id: int) -> None:
        """Read a person's settings again (their digest or time zone changed)."""
        settings = await self.store.user_settings(user_id)
        if settings.digest:
            self.deadlines.schedule("digest", user_id,
                                    pace.next_digest(self.clock.now(), _tz(settings.tz)))
            self.start()
        else:
            self.deadlines.cancel(user_id, ("digest",))

    async def _digest(self, user_id: int) -> None:
        """The person's 09:00: the tables waiting for their move, if any; then tomorrow's."""
        settings = await self.store.user_settings(user_id)
        if not settings.digest:
            return
        self.deadlines.schedule("digest", user_id,
                                pace.next_digest(self.clock.now(), _tz(settings.tz)))
        waiting: list[Position] = []
        for table in self._tables_of(user_id):
            if user_id in table.people_due():
                async with table.lock:
                    waiting.append(position_of(table, table.seat_of(user_id)))
        if waiting:
            await self._tell(DigestDue(user_id, tuple(waiting)))

    async def _tell(self, event: PersonEvent) -> None:
        for subscriber in list(self.person_subscribers):
            try:
                await subscriber(event)
            except Exception as exc:
                log.error("a person subscriber failed on %s (%s)", event.kind,
                          type(exc).__name__, extra=logs.failure(exc))

    # -- restart and stop -------------------------------------------------------------------
    async def before_load(self) -> float | None:
        """Before the tables are loaded: the clock carries on from the last instant the bot
        was alive (a scaled clock would otherwise start again from the wall clock's), and
        the downtime is added to every running deadline. Answers that instant (None on a
        first start): :meth:`after_load` overwrites it, so whoever needs to know how long
        the bot was down (the missed digests) reads this answer, not the store."""
        last = await self.store.last_alive()
        if last is None:
            return None
        if isinstance(self.clock, SystemClock):
            self.clock.carry_on(last)
        now = self.clock.now()
        if now > last:
            shifted = await self.store.shift_deadlines(now - last, last)
            log.info("the bot was down %.0f s: %d running deadlines moved on", now - last,
                     shifted)
        return last

    async def after_load(self) -> None:
        """After the tables are loaded: away periods and digests scheduled, the heartbeat
        started."""
        now = self.clock.now()
        for user_id, until in (await self.store.people_away()).items():
            self.away[user_id] = until
            self.deadlines.schedule("away-ends", user_id, until)
            shown = self.clock.wall(until)
            for table in self._tables_of(user_id):
                seat = table.seat_of(user_id)
                if seat is not None:
                    table.seats[seat].away_until = shown
        for user_id, tz in (await self.store.digest_people()).items():
            self.deadlines.schedule("digest", user_id, pace.next_digest(now, _tz(tz)))
        await self.store.mark_alive(now)
        self.start()
        if self._alive is None and not self.registry.closed:
            self._alive = tasks.background(self._heartbeat())

    async def _heartbeat(self) -> None:
        while not self.registry.closed:
            mark = self.clock.now()
            await asyncio.sleep(ALIVE_REAL_LEAST)
            await self.clock.sleep_until(mark + ALIVE_EVERY)
            try:
                await self.store.mark_alive(self.clock.now())
            except Exception as exc:
                log.warning("the bot's heartbeat could not be stored (%s)", type(exc).__name__)

    async def close(self) -> None:
        """Stop the scheduler and the heartbeat; the last instant alive is now."""
        for task in (self._alive, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.deadlines.close()
        if self._alive is not None:
            with contextlib.suppress(Exception):
                await self.store.mark_alive(self.clock.now())


def _quiet(settings: UserSettings) -> pace.Quiet | None:
    """A person's quiet hours, or None (none set, or set wrong)."""
    if settings.quiet_from is None or settings.quiet_to is None:
        return None
    try:
        return pace.Quiet.of(_tz(settings.tz), settings.quiet_from, settings.quiet_to)
    except Refusal:
        return None


def _tz(name: str) -> str:
    """A stored time zone, UTC when it is no longer one."""
    try:
        pace.zone(name)
    except Refusal:
        return "UTC"
    return name

