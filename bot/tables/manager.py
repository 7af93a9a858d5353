"""The table service: lobbies, turns, computer players, timers, results, hints, restart.

Pure asyncio, no Discord: the front ends (the cogs) turn interactions into calls here, read
tables as :class:`bot.tables.position.Position` snapshots and show the typed events
(:mod:`bot.tables.events`) it publishes. Many tables per channel (each maybe in a thread of
it, up to the server's caps: :mod:`bot.tables.limits`), one lock per table; the state
version
is the number of actions applied, and every action is stored (committed) before anyone is told
about it. No subscriber is ever called with a table's lock held: events are collected under
the lock and delivered, in order per table, once it is let go.

The service is made of parts, each a class that receives what it uses in its constructor
(no part inherits another, no module imports one that imports it back)::

    EventBus   (bot.tables.events)    subscribers; per-table queues delivered after the lock.
                               Depends on nothing.
    Registry   (bot.tables.registry)  the open tables: lookup, by channel, the lock + delivery,
                               positions, storing a table, closing, loading from storage.
                               Depends on the storage, the rules lookup and the bus.
    Results    (bot.tables.finish)    a finished game's result stored (tried again until it is),
                               the table closed, the finish hooks (records, ratings).
                               Depends on the registry.
    Turns      (bot.tables.turns)     a person's choice resolved against the rules; every move
                               applied, stored, announced (MoveApplied, DealEnded).
                               Depends on the registry, the action writer and the results;
                               calls its ``after`` hooks (the computers' kick) after a move.
    Computers  (bot.tables.computers) computer players, out-of-turn weighing, turn timers, away
                               and back. Depends on the registry, the turns, the thinker.
    Lobby      (bot.tables.lobby)     open, seats, computers, options, timer, level, start, cancel.
                               Depends on the registry, the results and the computers.
    Hints      (bot.tables.hints)     the host's option and a person's hint.
                               Depends on the registry, the lobby and the thinker.

:class:`TableManager` composes them and is the one API the front ends call; restart
(:meth:`TableManager.resume`) and stop (:meth:`TableManager.close`) are here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import games
from bot.storage.store import GuildSettings, Storage
from bot.tables.clock import Clock, SystemClock
from bot.tables.computers import Computers
from bot.tables.events import EventBus, Subscriber
from bot.tables.finish import Results
from bot.tables.hints import Hint, Hints
from bot.tables.limits import Limits
from bot.tables.lobby import Lobby
from bot.tables.model import PLAYING, RulesLookup, Table
from bot.tables.position import Position, position_of
from bot.tables.registry import Registry
from bot.tables.review import Reviewer
from bot.tables.thinking import Thinker
from bot.tables.timing import PersonSubscriber, Timing
from bot.tables.turns import Choice, Played, Turns
from bot.tables.writer import ActionWriter
from games.ai import LEVELS

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ComputersStatus:
    """The computer players' shared search slots now (what /status shows)."""

    #: moves being searched
    searching: int
    #: moves waiting for a slot
    waiting: int
    #: moves played cheaply for want of time lately
    behind: int


@dataclass(frozen=True)
class ServiceStatus:
    """The service's figures at one moment (read without waiting for any table's lock: counts
    only, nothing of a game)."""

    #: open tables of the process, and how many of them are in play
    tables: int
    playing: int
    #: the same for one server (the one asked about; 0 when none was)
    here: int
    here_playing: int
    #: the computer players' search slots; None when the bot runs without its scheduler
    computers: ComputersStatus | None


class TableManager:
    """The table service's one door: every call of the front ends (and of the tests that drive
    the service) is a method here, each handed to the part that does it. The parts are
    private; a front end gets positions (:class:`Position`), events and refusals back."""

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
        clock: Clock | None = None,
    ) -> None:
        #: what the service is given (not parts of it): the tests replace a storage call
        self.store = store
        self.rules_for = rules_for
        self.ai_level = ai_level
        #: computer players' thinking: search in ``ai_workers`` processes (0: in a thread)
        self._thinker = Thinker(ai_level, ai_workers, ai_budget, scheduler=ai_scheduler)
        self._bus = EventBus()
        self._registry = Registry(store, rules_for, self._bus)
        self._results = Results(self._registry)
        self._turns = Turns(self._registry, ActionWriter(store), self._results)
        self._computers = Computers(self._registry, self._turns, self._thinker, ai_delay)
        self._turns.after.append(self._computers.kick)
        #: every turn timer, reminder, away period and digest: one scheduler on this clock
        #: (``timer_scale`` is the clock's when none is given: a live timer's 30 s last
        #: ``30 * timer_scale`` real seconds, a correspondence day ``86400 * timer_scale``)
        self._clock: Clock = SystemClock(timer_scale) if clock is None else clock
        self._time = Timing(self._registry, self._computers, self._clock)
        self.down_since: float | None = None  # last alive before this start (set by resume)
        self._computers.arm = self._time.arm
        self._computers.flush = self._time.flush
        self._turns.after_stored.append(self._time.flush)
        self._limits = Limits(self._registry)
        self._lobby = Lobby(self._registry, self._results, self._computers, self.default_level,
                            self._limits)
        self._hints = Hints(self._registry, self._lobby, self._thinker)

    # -- the lobby: each call answers with the table's public position after it, or a
    # Refusal saying why not ------------------------------------------------------------------
    async def _public(self, table: Table) -> Position:
        """A table's public position, taken under its lock (a table just closed answers with
        its last position)."""
        return await self._registry.snapshot(table)

    async def open(self, guild_id: int, channel_id: int, game_id: str, host_id: int,
                   host_name: str, seed: int | None = None) -> Position:
        """Open a lobby for a game in a channel, its host seated. Refusal 'channel-full' when
        the channel holds as many open tables as its server allows, 'person-full' when the
        host sits at as many as it allows a person (:meth:`limits`)."""
        return await self._public(
            await self._lobby.open(guild_id, channel_id, game_id, host_id, host_name, seed))

    async def join(self, table_id: int, user_id: int, name: str) -> Position:
        """Seat a person in the lobby."""
        return await self._public(await self._lobby.join(table_id, user_id, name))

    async def leave(self, table_id: int, user_id: int) -> Position:
        """Take a person's seat away in the lobby (the host cancels instead)."""
        return await self._public(await self._lobby.leave(table_id, user_id))

    async def add_computer(self, table_id: int, user_id: int) -> Position:
        """The host adds a computer player."""
        return await self._public(await self._lobby.add_computer(table_id, user_id))

    async def remove_computer(self, table_id: int, user_id: int) -> Position:
        """The host removes the last computer player."""
        return await self._public(await self._lobby.remove_computer(table_id, user_id))

    async def set_option(self, table_id: int, user_id: int, name: str, value: object) -> Position:
        """The host sets one of the game's options (checked against its description)."""
        return await self._public(await self._lobby.set_option(table_id, user_id, name, value))

    async def set_level(self, table_id: int, user_id: int, level: str,
                        can_manage: bool = False) -> Position:
        """How strong the table's computer players are: set by the host in the lobby, or in
        play (the host or a manager) from the next computer move on."""
        return await self._public(
            await self._lobby.set_level(table_id, user_id, level, can_manage))

    async def set_timer(self, table_id: int, user_id: int, timer: str) -> Position:
        """The host chooses the table's pace: a live turn timer (off, relaxed, normal, fast)
        or a correspondence deadline per move (1h, 8h, 24h, 3d, 7d: ``bot.tables.pace``);
        Refusal 'bad-pace' for anything else."""
        return await self._public(await self._lobby.set_timer(table_id, user_id, timer))

    async def set_on_deadline(self, table_id: int, user_id: int, choice: str) -> Position:
        """The host chooses what a missed correspondence deadline does: ``computer`` (the
        computer moves once each time) or ``drop`` (the second miss in a row drops the
        person); Refusal 'bad-on-deadline' for anything else."""
        return await self._public(
            await self._lobby.set_on_deadline(table_id, user_id, choice))

    async def swap_seats(self, table_id: int, user_id: int, first: int, second: int) -> Position:
        """The host swaps two seats (choosing partners in team games)."""
        return await self._public(await self._lobby.swap_seats(table_id, user_id, first, second))

    async def set_hints(self, table_id: int, user_id: int, allowed: bool) -> Position:
        """The host allows hints at a table (or not), in the lobby."""
        return await self._public(await self._hints.set_hints(table_id, user_id, allowed))

    async def start(self, table_id: int, user_id: int) -> Position:
        """The host starts the game when the player count and options are allowed."""
        return await self._public(await self._lobby.start(table_id, user_id))

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False) -> Position:
        """The host, or a member who may manage the server, cancels a table."""
        return await self._public(await self._lobby.cancel(table_id, user_id, can_manage))

    async def set_message(self, table_id: int, message_id: int) -> None:
        """Remember the public message of a table; the first one announces the table."""
        await self._lobby.set_message(table_id, message_id)

    async def set_thread(self, table_id: int, thread_id: int | None,
                         message_id: int | None = None) -> None:
        """The table plays in that thread from now on (None: in its channel, e.g. once its
        thread is gone), stored: a click from the thread is the table's own (:meth:`at`).
        ``message_id``: its public message from now on, in the same save (the whole table's
        message posted in the thread; or, leaving the thread, the channel's message again);
        ``Position.board_at`` and ``overview_at`` say where each message is."""
        await self._lobby.set_thread(table_id, thread_id, message_id)

    # -- a server's caps ----------------------------------------------------------------------
    async def limits(self, guild_id: int) -> GuildSettings:
        """A server's caps on open tables per channel and per person."""
        return await self._limits.of(guild_id)

    async def set_limits(self, guild_id: int, per_channel: int | None = None,
                         per_person: int | None = None) -> GuildSettings:
        """A manager changes a server's caps (None: that one unchanged); Refusal 'bad-limit'
        out of range. Tables already open stay open."""
        return await self._limits.change(guild_id, per_channel, per_person)

    # -- play ---------------------------------------------------------------------------------
    async def act(self, table_id: int, user_id: int, version: int | None,
                  choice: Choice) -> Played:
        """A seated person's move at a state version; Refusal saying why when it cannot
        apply. The move is stored before anyone hears of it (see
        :meth:`bot.tables.turns.Turns.act`)."""
        return await self._turns.act(table_id, user_id, version, choice)

    async def back(self, table_id: int, user_id: int) -> Position:
        """"I'm back": the person takes their seat back from the computer."""
        return await self._public(await self._computers.back(table_id, user_id))

    async def hand_to_computer(self, table_id: int, user_id: int, seat: int,
                               can_manage: bool = False) -> Position:
        """The host or a manager lets the computer keep a person's seat."""
        return await self._public(
            await self._computers.hand_to_computer(table_id, user_id, seat, can_manage))

    async def hint(self, table_id: int, user_id: int, version: int) -> Hint:
        """A hint for the person's seat at the position ``version``, counted once shown
        (Refusal saying why not: see :meth:`bot.tables.hints.Hints.hint`)."""
        return await self._hints.hint(table_id, user_id, version)

    def reviewer(self) -> Reviewer:
        """A reviewer of finished games whose searches share the computer players' workers."""
        return Reviewer(self._thinker)

    # -- reading ------------------------------------------------------------------------------
    def is_open(self, table_id: int) -> bool:
        """True while the table of that id is open (not finished, cancelled or unloaded)."""
        return table_id in self._registry.tables

    def is_seated(self, user_id: int) -> bool:
        """True when the person holds a seat at some open table."""
        return any(table.seat_of(user_id) is not None
                   for table in self._registry.tables.values())

    async def open_tables(self) -> tuple[Position, ...]:
        """Every open table's public position, by table id (each taken under its lock)."""
        return await self._registry.publics(sorted(self._registry.tables))

    async def table_in(self, channel_id: int) -> Position | None:
        """The public position of a channel's first open table (the oldest); None when it
        has none. A channel holds many: :meth:`tables_in` lists them."""
        table = self._registry.in_channel(channel_id)
        return None if table is None else await self._registry.snapshot(table)

    async def tables_in(self, channel_id: int) -> tuple[Position, ...]:
        """The public positions of a channel's open tables (those playing in its threads
        too), by table id."""
        return await self._registry.publics(t.id for t in self._registry.in_channel_all(channel_id))

    async def table_of_thread(self, thread_id: int) -> Position | None:
        """The public position of the open table playing in that thread, or None: an
        Activity launched inside a table's thread (whose channel is the thread) shows it.
        A look through the open tables: asked when a page lists its channel's tables, not
        on every move."""
        found = await self._registry.publics(
            t.id for t in list(self._registry.tables.values()) if t.thread_id == thread_id)
        return found[0] if found else None

    async def tables_of(self, user_id: int, guild_id: int | None) -> tuple[Position, ...]:
        """The open tables where a person holds a seat (in that server, or in any: None),
        by table id, each from that person's seat."""
        found = []
        for table in self._registry.seated(user_id, guild_id):
            async with table.lock:  # the seat looked at again: a lobby's may have gone since
                seat = table.seat_of(user_id)
                if seat is not None and self.is_open(table.id):
                    found.append(position_of(table, seat))
        return tuple(found)

    async def position(self, table_id: int, seat: int | None = None) -> Position:
        """The table now for a seat (or a spectator), taken under its lock; a closed table's
        id: Refusal 'no-table'."""
        return await self._registry.position(table_id, seat)

    async def position_for(self, table_id: int, user_id: int) -> Position:
        """The table now as a person sees it: from their seat, or as a spectator."""
        return await self._registry.position_for(table_id, user_id)

    def settled(self, table_id: int) -> Position | None:
        """The table's public position at once when no move is being stored (None then, or
        when the table is neither open nor closed lately)."""
        table = self._registry.tables.get(table_id) or self._registry.recent.get(table_id)
        return None if table is None else self._registry.settled(table)

    async def latest(self, table_id: int, seat: int | None = None) -> Position | None:
        """The table now for a seat (or a spectator), or, for a table closed lately, its last
        position (its final message and panels show it); None for a table long gone."""
        return await self._registry.latest(table_id, seat)

    def status(self, guild_id: int | None = None) -> ServiceStatus:
        """The service's figures now: open tables (of the process, and of ``guild_id``) and
        the computer players' search slots."""
        tables = list(self._registry.tables.values())
        here = [table for table in tables if table.guild_id == guild_id]
        queue = self._thinker.scheduler
        computers = None if queue is None else ComputersStatus(
            searching=queue.running, waiting=queue.waiting, behind=queue.behind())
        return ServiceStatus(
            tables=len(tables), playing=sum(1 for table in tables if table.status == PLAYING),
            here=len(here), here_playing=sum(1 for table in here if table.status == PLAYING),
            computers=computers)

    async def at(self, table_id: int, guild_id: int | None, channel_id: int | None,
                 user_id: int | None = None) -> Position:
        """The open table a request names, when the request comes from where the table is
        (:meth:`bot.tables.registry.Registry.requested`: its server and its channel or
        thread; else Refusal 'foreign-table'), seen from ``user_id``'s seat if given."""
        table = self._registry.requested(table_id, guild_id, channel_id)
        # taken without waiting for the table's lock: a click is never held up behind a move
        # being stored (which only becomes the table's state once stored: nothing unstored
        # shows); the call the click then makes takes the lock once
        return position_of(table, None if user_id is None else table.seat_of(user_id))

    # -- what the tests read inside (never a front end: tests/bot/test_front_end_boundary.py) --
    @property
    def tables(self) -> Mapping[int, Table]:
        """The open tables by id, read-only: for the service's tests and benchmarks, which
        look inside; a front end asks :meth:`open_tables`, :meth:`table_in`, :meth:`is_open`."""
        return MappingProxyType(self._registry.tables)

    def live(self, table_id: int) -> Table | None:
        """The live table of that id, open or closed lately: for the tests and benchmarks
        that look inside (never a front end)."""
        return self._registry.tables.get(table_id) or self._registry.recent.get(table_id)

    def live_in(self, channel_id: int) -> Table | None:
        """The live open table of a channel, if any: for the tests and benchmarks that look
        inside (never a front end)."""
        return self._registry.in_channel(channel_id)

    @property
    def thinker(self) -> Thinker:
        """The computer players' thinking: for the tests and benchmarks of its scheduler."""
        return self._thinker

    # -- events and hooks -----------------------------------------------------------------------
    @property
    def listeners(self) -> list[Subscriber]:
        """The subscribers to the service's events (each called with no lock held)."""
        return self._bus.subscribers

    def subscribe(self, subscriber: Subscriber) -> None:
        """Receive every event of every table, in order per table."""
        self._bus.subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop receiving events (no error when not subscribed)."""
        with contextlib.suppress(ValueError):
            self._bus.subscribers.remove(subscriber)

    @property
    def finish_hooks(self) -> list[Callable[[int], Awaitable[None]]]:
        """Awaited with a table's id once its result is stored (records, ratings)."""
        return self._results.finish_hooks

    @property
    def conclude_retry(self) -> float:
        """The first wait before trying again to store a result that could not be stored."""
        return self._results.retry

    @conclude_retry.setter
    def conclude_retry(self, seconds: float) -> None:
        self._results.retry = seconds

    @property
    def ai_delay(self) -> float:
        """The computer players' pause between moves (seconds)."""
        return self._computers.ai_delay

    @ai_delay.setter
    def ai_delay(self, seconds: float) -> None:
        self._computers.ai_delay = seconds

    @property
    def clock(self) -> Clock:
        """The service's clock: every deadline, reminder, away period and digest is an
        instant on it (``clock.wall`` gives the wall-clock instant a person is shown)."""
        return self._clock

    @property
    def timer_scale(self) -> float:
        """Real seconds per second of a turn timer: the clock's scale (1 for a clock without
        one, a test's manual clock)."""
        scale = getattr(self._clock, "scale", 1.0)
        return float(scale) if isinstance(scale, (int, float)) else 1.0

    # -- a person's time: away, digest ------------------------------------------------------
    async def set_away(self, user_id: int, days: int) -> float:
        """The person is away for ``days`` days: their correspondence clocks stop at every
        table where they sit (the others see it: ``SeatShown.away_until`` and a
        ``SeatAwayUntil`` event per table). The wall-clock instant it ends; Refusal
        'bad-away' (``left``: the whole days left in their yearly budget) outside 1 to
        that. A second call replaces the running period (its unused days refunded)."""
        return await self._time.set_away(user_id, days)

    async def end_away(self, user_id: int) -> None:
        """The person is back early: their clocks run again, the unused days are refunded
        (nothing when they are not away)."""
        await self._time.end_away(user_id)

    async def refresh_person(self, user_id: int) -> None:
        """Read a person's settings again after a front end stored them (the digest or the
        time zone changed): their digest is scheduled or cancelled. Quiet hours need no call
        (read when a reminder comes)."""
        await self._time.refresh_person(user_id)

    def subscribe_person(self, subscriber: PersonSubscriber) -> None:
        """Receive person-level news: ``DigestDue`` (once a day at 09:00 in the person's time
        zone, to those who chose the digest and have a table waiting for them) and
        ``AwayEnded``. Called with no table lock held; a failure is logged."""
        self._time.person_subscribers.append(subscriber)

    def unsubscribe_person(self, subscriber: PersonSubscriber) -> None:
        """Stop receiving person-level news (no error when not subscribed)."""
        with contextlib.suppress(ValueError):
            self._time.person_subscribers.remove(subscriber)

    @property
    def default_level(self) -> str:
        """The level a new table's computer players start at: the bot's (``best`` is the
        strongest level, ``hard``)."""
        return "hard" if self.ai_level == "best" else self.ai_level

    def _stored_level(self, level: str) -> str:
        """A stored table's level; the bot's for one stored before tables had levels (or
        one this bot does not know)."""
        return level if level in LEVELS else self.default_level

    # -- restart and stop -------------------------------------------------------------------
    async def resume(self, owns: Callable[[int], bool] | None = None) -> list[Position]:
        """Rebuild every unfinished table from storage and start its computers and timers
        (the computer players' worker processes first, warmed up)."""
        await self._thinker.start()
        self.down_since = await self._time.before_load()  # the downtime added first
        resumed = await self._registry.load(owns, self._stored_level)
        await self._time.after_load()
        for table in resumed:
            state = table.state
            if state is not None and state.over:  # the bot died between move and result
                async with self._registry.locked(table):
                    await self._results.settle(table)
        for table in resumed:
            self._computers.kick(table)
        return [await self._registry.snapshot(table) for table in resumed]

    async def close(self) -> None:
        """Stop every computer player, timer and worker process (the tables stay stored)."""
        self._registry.closed = True
        running = [t for table in self._registry.tables.values()
                   for t in (table.timer_task, table.drive_task, table.conclude_task)
                   if t is not None]
        for task in running:
            task.cancel()
        for task in running:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._time.close()
        await self._thinker.close()
