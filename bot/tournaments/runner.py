"""The tournament service: sign-ups, check-in, rounds opened through the table service's door,
results collected from its events, standings, and news for the front ends.

``Tournaments(manager, store, clock)`` is composed beside the :class:`TableManager` it drives
(resumed after it, closed before it). Each call answers a frozen :class:`TournamentView` or
raises :class:`bot.tables.Refusal` with a key worded in ``games/locales/*/tournaments.po``.

Decisions:

- **Stored before told.** Every change is committed (:mod:`bot.tournaments.store`) before any
  news goes out: a round's tables are stored before they are opened, each service table's id
  as soon as it is opened, each result before the round is looked at. A restart
  (:meth:`Tournaments.resume_all`) opens what was not opened yet, and counts a table that
  finished (or was cancelled) while the bot was down from the stored result, once: a result
  is written only where it is not in yet.
- **Several processes.** With the bot's shards on several processes (one database), each
  resumes only the events of the guilds it owns (``resume_all(owns=...)``, the test the table
  service's resume takes): another process's round tables are not open here, and would
  otherwise be taken for tables that ended while the bot was down.
- **Half-made tables.** A crash while a table is being opened leaves a lobby: its id not
  stored yet (found again by the table's own deal seed, stored with the round) or stored but
  the lobby not yet seated and started. The restart finishes it from where it stood rather
  than opening a second table (:mod:`bot.tournaments.opening`). A round's tables count as
  announced once the front end gave each its message (``TableManager.set_message``): those
  open without one at a restart are announced again (:class:`RoundStarted`), since the crash
  came before the round's news was told or shown.
- **One scheduler, no task per event.** The start instants live in one
  :class:`bot.tables.deadlines.Deadlines` of its own on the injected clock (kind ``expire``,
  the subject an event's id); results come by the table service's events.
- **One lock per event; work noted, then done by whoever holds it.** A table's result may
  arrive while this service itself holds the event's lock (a table decided by its deal
  ends inside ``start``; the table service delivers its events in the caller's coroutine), so
  an event handler stores the result, marks the event *dirty* and takes the lock only when it
  is free; the holder looks at the event again before letting the lock go while it is dirty.
- **The tables.** A round's table is opened with its first person as host (a table needs
  one), the others join in seat order, computers fill the empty seats, the seats are then
  swapped into the pairing's order (seat order is the game's: who deals, and in a duplicate
  round who holds which cards), the event's pace is set and the game started. A duplicate
  round opens every table with :func:`bot.tournaments.duplicate.deal_seed`; other rounds with
  the service's own random seed.
- **No-shows.** An entrant not checked in when the event starts (when it has a check-in
  window) is dropped before round 1. A seated person who never moved while the computer moved
  for their seat counts as absent at that table (no points) and is dropped from the rounds to
  come. Each drop is news (:class:`PlayerDropped`), with its reason: ``no-show``,
  ``organiser`` or ``withdrew`` (the person themselves).
- **Leaving the server.** The bot runs without the members intent, so Discord never tells it
  that someone left (no GUILD_MEMBER_REMOVE): such a player is not dropped when they leave but
  by the no-show rule, at the end of the round they no longer play. ``left`` stays a reason a
  front end that can know may give.
- **Pause** holds the *next* round back: the tables of a round in progress play on, their
  results are counted and the standings told; the next round is seated but its tables open
  only at :meth:`Tournaments.resume`.
- **Cancel** closes the open tables of the round (the table service cancels them: nothing of
  a called-off event is played on, and the players are told so); the results already in stay,
  and :meth:`Tournaments.last_in_channel` still finds the event for its standings.
- **Duplicate** is offered only for the games whose every deal is shared
  (:data:`bot.tournaments.duplicate.SAME_DEALS`): in another game only the first deal is the
  same at every table, and comparing players seat by seat over deals they did not share would
  reward the cards while claiming to cancel them, so it is refused.
- **Too few.** An event starts with at least :data:`LEAST_PLAYERS` players present; at its
  time with fewer it is cancelled (``ended`` = ``too-few``), and an organiser's early start
  is refused.
- **Standings** are those of :func:`bot.tournaments.standings.standings` over the players who
  started, a duplicate event's from matchpoints; an elimination's are ordered first by how far
  each player got in the bracket (:func:`bot.tournaments.standings.by_stage`), then so. An
  elimination event plays as many rounds as :func:`bot.tournaments.pairing.elimination_plan`
  says (its ``rounds`` is set at the start).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot import logs
from bot.storage.store import Storage
from bot.tables import Clock, Refusal, TableEvent, TableManager
from bot.tables import pace as paces
from bot.tables.deadlines import Deadlines, Due
from bot.tables.model import RulesLookup
from bot.tournaments.duplicate import SAME_DEALS, DuplicateTable, deal_seed, matchpoints
from bot.tournaments.model import Seating, TableResult
from bot.tournaments.opening import RoundTables
from bot.tournaments.pairing import bracket, elimination_plan, swiss_round, table_counts
from bot.tournaments.standings import Standing, by_stage, standings
from bot.tournaments.store import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    RUNNING,
    SIGNUP,
    EntrantRow,
    EventRow,
    RoundTableRow,
    TournamentStore,
)
from games.core import Rules

log = logging.getLogger(__name__)

FORMATS = ("swiss", "elimination")
#: the fewest players an event starts with
LEAST_PLAYERS = 2
#: the most Swiss rounds an event may have (lichess allows 100; Discord evenings are shorter)
MOST_ROUNDS = 20
#: the longest check-in window, minutes (a day)
MOST_CHECKIN = 1440
#: why a player was dropped (PlayerDropped.reason): not there, dropped by the organiser, left
#: the event themselves, left the server (never given by this service: see the docstring)
NO_SHOW, BY_ORGANISER, WITHDREW, LEFT = "no-show", "organiser", "withdrew", "left"
#: why an event ended without finishing (TournamentView.ended)
TOO_FEW, CALLED_OFF = "too-few", "cancelled"


@dataclass(frozen=True)
class Entrant:
    """A signed-up person: checked in or not, and why dropped (None: still in)."""

    user_id: int
    name: str
    checked_in: bool
    dropped: str | None


@dataclass(frozen=True)
class RoundTable:
    """A table of the current round: its seating, the service's table (None until opened),
    whether its result is in, and its places (None while not, or when it never played)."""

    seating: Seating
    table_id: int | None
    done: bool
    places: tuple[int, ...] | None


@dataclass(frozen=True)
class TournamentView:
    """An event as it stands."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    fmt: str
    #: rounds planned (an elimination event's from its start on; 0 before)
    rounds: int
    size: int
    advance: int
    duplicate: bool
    starts_at: float
    checkin_minutes: int
    pace: str
    #: ``signup``, ``running``, ``finished`` or ``cancelled``
    status: str
    #: the round being played (0 before the start)
    round: int
    paused: bool
    #: why it ended without finishing (``too-few``, ``cancelled``), else None
    ended: str | None
    message_id: int | None
    entrants: tuple[Entrant, ...]
    #: the current round's tables
    tables: tuple[RoundTable, ...]

    @property
    def checkin_opens(self) -> float:
        """The instant check-in opens (the start, without a window)."""
        return self.starts_at - 60.0 * self.checkin_minutes

    def entrant(self, user_id: int) -> Entrant | None:
        """The entrant of that id, or None."""
        return next((e for e in self.entrants if e.user_id == user_id), None)


@dataclass(frozen=True)
class TournamentNews:
    """Something that happened to an event; ``view``: the event just after."""

    view: TournamentView


@dataclass(frozen=True)
class RoundStarted(TournamentNews):
    """A round's tables are open: ``tables`` pairs each service table id with its seating.
    A front end gives each table its message (``TableManager.set_message``); a table open
    without one at a restart is announced again, in a RoundStarted of its own."""

    round: int
    tables: tuple[tuple[int, Seating], ...]


@dataclass(frozen=True)
class RoundEnded(TournamentNews):
    """Every table of a round is in: the standings after it."""

    round: int
    standings: tuple[Standing, ...]


@dataclass(frozen=True)
class PlayerDropped(TournamentNews):
    """A player is out of the rounds to come: ``reason`` is ``no-show``, ``organiser`` or
    ``withdrew``."""

    user_id: int
    reason: str


@dataclass(frozen=True)
class TournamentEnded(TournamentNews):
    """The last round is in: the final standings."""

    standings: tuple[Standing, ...]


@dataclass(frozen=True)
class TournamentChanged(TournamentNews):
    """Sign-ups, check-ins, a pause, a resume, a cancel: the event's message is redrawn."""


Listener = Callable[[TournamentNews], Awaitable[None]]


@dataclass(eq=False)
class _Live:
    """What the service keeps of an event in memory: its lock and whether it has work."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    dirty: bool = False


class Tournaments:
    """The tournament service (see the module's docstring)."""

    def __init__(self, manager: TableManager, store: Storage, clock: Clock) -> None:
        self.manager = manager
        self.rows = TournamentStore(store)
        self.storage = store
        self.clock = clock
        self._live: dict[int, _Live] = {}
        #: service table id -> (event, round, table number)
        self._by_table: dict[int, tuple[int, int, int]] = {}
        self._listeners: list[Listener] = []
        self._starts = Deadlines(clock, self._due)
        self._tables = RoundTables(manager, self.rows, store, self._by_table)
        manager.subscribe(self._on_table)

    # -- news ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Receive every event's news (awaited in order; a failure is logged)."""
        self._listeners.append(listener)

    async def _tell(self, news: TournamentNews) -> None:
        for listener in list(self._listeners):
            try:
                await listener(news)
            except Exception as exc:
                log.error("tournament %s: a listener failed on %s (%s)", news.view.id,
                          type(news).__name__, type(exc).__name__, extra=logs.failure(exc))

    # -- reading ------------------------------------------------------------------------------
    async def _row(self, tid: int) -> EventRow:
        row = await self.rows.event(tid)
        if row is None:
            raise Refusal("tournament-none")
        return row

    async def view(self, tid: int) -> TournamentView:
        """The event as it stands; Refusal 'tournament-none' for an unknown id."""
        row = await self._row(tid)
        entrants = await self.rows.entrants(tid)
        tables = [t for t in await self.rows.tables(tid) if t.round == row.round]
        return _view(row, entrants, tables)

    async def in_channel(self, channel_id: int) -> TournamentView | None:
        """The channel's event taking sign-ups or playing, or None."""
        for row in await self.rows.active():
            if row.channel_id == channel_id:
                return await self.view(row.id)
        return None

    async def last_in_channel(self, channel_id: int) -> TournamentView | None:
        """The channel's newest event, whatever its status (one that ended stays the
        channel's until a new one is created), or None."""
        tid = await self.rows.latest(channel_id)
        return None if tid is None else await self.view(tid)

    async def standings(self, tid: int) -> tuple[Standing, ...]:
        """The standings now (every entrant who started; before the start, none)."""
        row = await self._row(tid)
        return _standings(row, await self.rows.entrants(tid), await self.rows.tables(tid))

    # -- sign-up ------------------------------------------------------------------------------
    async def create(self, guild_id: int, channel_id: int, organiser_id: int, game: str,
                     fmt: str, rounds: int, size: int, advance: int, duplicate: bool,
                     starts_at: float, checkin_minutes: int, pace: str) -> TournamentView:
        """A new event taking sign-ups, started by itself at ``starts_at`` (the service's
        clock); refused for an unknown game, format, seat count, number of rounds, number
        through, check-in window or pace, a start not in the future, and a channel that has
        an event already."""
        rules = _checked(self.manager.rules_for, game, fmt, rounds, size, advance, duplicate,
                         checkin_minutes, pace)
        if not starts_at > self.clock.now():
            raise Refusal("tournament-past-start")
        if any(r.channel_id == channel_id for r in await self.rows.active()):
            raise Refusal("tournament-channel-busy")
        seed = deal_seed(guild_id, channel_id, int(self.clock.now()))
        tid = await self.rows.create(
            guild_id, channel_id, organiser_id, rules.id, fmt,
            rounds if fmt == "swiss" else 0, size, advance if fmt == "elimination" else 0,
            duplicate, starts_at, checkin_minutes, pace, seed)
        self._live[tid] = _Live()
        self._starts.schedule("expire", tid, starts_at)
        return await self.view(tid)

    async def _signup(self, tid: int) -> EventRow:
        row = await self._row(tid)
        if row.status != SIGNUP:
            raise Refusal("tournament-signup-closed")
        return row

    async def join(self, tid: int, user_id: int, name: str) -> TournamentView:
        """Sign a person up (while sign-ups are open)."""
        async with self._hold(tid):
            await self._signup(tid)
            entrants = await self.rows.entrants(tid)
            if any(e.user_id == user_id for e in entrants):
                raise Refusal("tournament-already-entered")
            await self.rows.add_entrant(tid, user_id, name,
                                        1 + max((e.seq for e in entrants), default=0))
            view = await self.view(tid)
        await self._tell(TournamentChanged(view))
        return view

    async def leave(self, tid: int, user_id: int) -> TournamentView:
        """Take a sign-up back (while sign-ups are open)."""
        async with self._hold(tid):
            await self._signup(tid)
            if not any(e.user_id == user_id for e in await self.rows.entrants(tid)):
                raise Refusal("tournament-not-entered")
            await self.rows.remove_entrant(tid, user_id)
            view = await self.view(tid)
        await self._tell(TournamentChanged(view))
        return view

    async def check_in(self, tid: int, user_id: int) -> TournamentView:
        """An entrant checks in, from ``checkin_minutes`` before the start."""
        async with self._hold(tid):
            row = await self._signup(tid)
            entrant = next((e for e in await self.rows.entrants(tid) if e.user_id == user_id),
                           None)
            if entrant is None or entrant.dropped is not None:
                raise Refusal("tournament-not-entered")
            opens = row.starts_at - 60.0 * row.checkin_minutes
            if self.clock.now() < opens:
                raise Refusal("tournament-checkin-not-open", opens=int(self.clock.wall(opens)))
            await self.rows.check_in(tid, user_id)
            view = await self.view(tid)
        await self._tell(TournamentChanged(view))
        return view

    async def set_message(self, tid: int, message_id: int) -> TournamentView:
        """Remember the event's sign-up message."""
        await self._row(tid)
        await self.rows.update(tid, message_id=message_id)
        return await self.view(tid)

    # -- the organiser ------------------------------------------------------------------------
    @staticmethod
    def _organiser(row: EventRow, by: int, can_manage: bool) -> None:
        if by != row.organiser_id and not can_manage:
            raise Refusal("tournament-organiser-only")

    async def start_now(self, tid: int, by: int, can_manage: bool = False) -> TournamentView:
        """The organiser (or a manager) starts the event before its time; refused with too
        few players present."""
        async with self._hold(tid):
            row = await self._signup(tid)
            self._organiser(row, by, can_manage)
            present = _present(row, await self.rows.entrants(tid))
            if len(present) < LEAST_PLAYERS:
                raise Refusal("tournament-too-few", least=LEAST_PLAYERS, present=len(present))
            self._starts.cancel(tid, ("expire",))
            await self._begin(row)
        return await self.view(tid)

    async def drop(self, tid: int, by_user: int, user_id: int,
                   can_manage: bool = False) -> TournamentView:
        """Drop a player from the rounds to come: the person themselves (``withdrew``), or
        the organiser or a manager (``organiser``). A seat they hold at an open table of the
        round is handed to the computer."""
        async with self._hold(tid):
            row = await self._row(tid)
            if row.status not in ACTIVE:
                raise Refusal("tournament-over")
            if by_user != user_id:
                self._organiser(row, by_user, can_manage)
            entrant = next((e for e in await self.rows.entrants(tid) if e.user_id == user_id),
                           None)
            if entrant is None:
                raise Refusal("tournament-not-entered")
            if entrant.dropped is not None:
                raise Refusal("tournament-already-dropped")
            reason = WITHDREW if by_user == user_id else BY_ORGANISER
            await self.rows.drop(tid, user_id, reason)
            view = await self.view(tid)
            for table in view.tables:
                if table.table_id is None or table.done or user_id not in table.seating.seats:
                    continue
                if self.manager.is_open(table.table_id):
                    with contextlib.suppress(Refusal):
                        position = await self.manager.position(table.table_id)
                        seat = next(i for i, s in enumerate(position.seats)
                                    if s.user_id == user_id and not s.computer)
                        await self.manager.hand_to_computer(table.table_id, by_user, seat,
                                                            can_manage=True)
        await self._tell(PlayerDropped(view, user_id, reason))
        return view

    async def pause(self, tid: int, by: int, can_manage: bool = False) -> TournamentView:
        """Hold the next round back: the tables of a round in progress play on and are
        counted; the next round's tables open at :meth:`resume`."""
        async with self._hold(tid):
            row = await self._row(tid)
            self._organiser(row, by, can_manage)
            if row.status != RUNNING:
                raise Refusal("tournament-not-running")
            if row.paused:
                raise Refusal("tournament-already-paused")
            await self.rows.update(tid, paused=True)
            view = await self.view(tid)
        await self._tell(TournamentChanged(view))
        return view

    async def resume(self, tid: int, by: int, can_manage: bool = False) -> TournamentView:
        """Go on: the next round opens once the current one is in."""
        async with self._hold(tid) as live:
            row = await self._row(tid)
            self._organiser(row, by, can_manage)
            if row.status != RUNNING:
                raise Refusal("tournament-not-running")
            if not row.paused:
                raise Refusal("tournament-not-paused")
            await self.rows.update(tid, paused=False)
            view = await self.view(tid)
            live.dirty = True
        await self._tell(TournamentChanged(view))
        return await self.view(tid)

    async def cancel(self, tid: int, by: int, can_manage: bool = False) -> TournamentView:
        """Call the event off: its open tables are cancelled, nothing more is played."""
        async with self._hold(tid):
            row = await self._row(tid)
            self._organiser(row, by, can_manage)
            if row.status not in ACTIVE:
                raise Refusal("tournament-over")
            await self.rows.update(tid, status=CANCELLED, ended=CALLED_OFF)
            self._starts.cancel(tid, ("expire",))
            for table in await self.rows.tables(tid):
                if table.table_id is not None and self.manager.is_open(table.table_id):
                    with contextlib.suppress(Refusal):
                        await self.manager.cancel(table.table_id, by, can_manage=True)
            view = await self.view(tid)
        await self._tell(TournamentChanged(view))
        return view

    # -- restart and stop ---------------------------------------------------------------------
    async def resume_all(self, owns: Callable[[int], bool] | None = None
                         ) -> list[TournamentView]:
        """After the table service resumed: every event taking sign-ups has its start
        scheduled again (one whose time passed starts now), every running one goes on — a
        table that finished or was cancelled while the bot was down counted once, a table a
        crash left half-made finished, the tables not opened yet opened, and the round's
        tables never announced announced. ``owns``: only the events of the guilds it
        accepts, as the table service resumes only their tables (a process of some shards)."""
        self._starts.start()
        found = []
        for row in await self.rows.active():
            if owns is not None and not owns(row.guild_id):
                continue  # another process's: its tables are not open here
            self._live.setdefault(row.id, _Live())
            if row.status == SIGNUP:
                self._starts.schedule("expire", row.id, row.starts_at)
            else:
                for table in await self.rows.tables(row.id):
                    if table.table_id is None or table.done:
                        continue
                    self._by_table[table.table_id] = (row.id, table.round, table.number)
                    if not self.manager.is_open(table.table_id):
                        await self._tables.gone_while_down(row.id, table)
                async with self._hold(row.id) as live:
                    shown = await self._tables.resumed(row, await self.rows.entrants(row.id))
                    if shown:
                        await self._tell(RoundStarted(await self.view(row.id), row.round, shown))
                    live.dirty = True
            found.append(await self.view(row.id))
        return found

    async def close(self) -> None:
        """Stop the start scheduler and stop listening to the tables (everything is stored)."""
        self.manager.unsubscribe(self._on_table)
        await self._starts.close()

    # -- the work -----------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _hold(self, tid: int) -> AsyncIterator[_Live]:
        """The event's lock; before letting it go, the event is looked at again while
        results came in meanwhile (or the holder asked for it)."""
        live = self._live.setdefault(tid, _Live())
        async with live.lock:
            yield live
            while live.dirty:
                live.dirty = False
                await self._advance(tid)

    async def _poke(self, tid: int) -> None:
        """Note work for an event; do it now unless its lock's holder will."""
        live = self._live.setdefault(tid, _Live())
        live.dirty = True
        if not live.lock.locked():
            async with self._hold(tid):
                pass

    async def _due(self, due: Due) -> None:
        """An event's start time came."""
        async with self._hold(due.subject):
            row = await self.rows.event(due.subject)
            if row is None or row.status != SIGNUP:
                return
            if len(_present(row, await self.rows.entrants(row.id))) < LEAST_PLAYERS:
                await self.rows.update(row.id, status=CANCELLED, ended=TOO_FEW)
                view = await self.view(row.id)
            else:
                await self._begin(row)
                return
        await self._tell(TournamentChanged(view))

    async def _begin(self, row: EventRow) -> None:
        """Start an event (its lock held): the no-shows dropped, round 1 stored, then told
        and opened."""
        entrants = await self.rows.entrants(row.id)
        present = _present(row, entrants)
        absent = [e.user_id for e in entrants if e.dropped is None and e not in present]
        for user in absent:
            await self.rows.drop(row.id, user, NO_SHOW)
        players = [e.user_id for e in present]
        if row.fmt == "elimination":
            plan = elimination_plan(len(players), row.size, row.advance)
            await self.rows.update(row.id, rounds=len(plan))
            first = bracket(players, [], size=row.size, advance=row.advance,
                            seed=row.seed).rounds[0]
        else:
            first = swiss_round(players, players, [], size=row.size, seed=row.seed,
                                rounds_total=row.rounds)
        await self._store_round(row, 1, first)
        view = await self.view(row.id)
        for user in absent:
            await self._tell(PlayerDropped(view, user, NO_SHOW))
        self._live[row.id].dirty = True  # the tables are opened by _advance

    async def _store_round(self, row: EventRow, number: int,
                           seatings: Sequence[Seating]) -> None:
        seeds = {s.number: deal_seed(row.seed, number, row.size) if row.duplicate
                 else deal_seed(row.seed, number, 1000 + s.number) for s in seatings}
        await self.rows.add_round(row.id, number,
                                  [(s.number, s.seats, seeds[s.number]) for s in seatings])

    async def _advance(self, tid: int) -> None:
        """Look at a running event (its lock held): open the round's tables not opened yet
        (unless paused), and once every table of the round is in, end the round."""
        row = await self.rows.event(tid)
        if row is None or row.status != RUNNING:
            return
        entrants = await self.rows.entrants(tid)
        tables = await self.rows.tables(tid)
        current = [t for t in tables if t.round == row.round]
        waiting = [t for t in current if t.table_id is None and not t.done]
        if waiting:
            if row.paused:
                return
            dropped = {e.user_id for e in entrants if e.dropped is not None}
            names = {e.user_id: e.name for e in entrants}
            for table in waiting:
                await self._tables.open(row, table, dropped, names)
            tables = await self.rows.tables(tid)
            current = [t for t in tables if t.round == row.round]
            opened = tuple((t.table_id, Seating(t.number, t.seats)) for t in current
                           if t.table_id is not None)
            await self._tell(RoundStarted(await self.view(tid), row.round, opened))
            self._live[tid].dirty = True  # a table may have ended as it opened
            return
        if any(not t.done for t in current):
            return
        await self._end_round(row, entrants, tables)

    async def _end_round(self, row: EventRow, entrants: list[EntrantRow],
                         tables: list[RoundTableRow]) -> None:
        """Every table of the round is in (the lock held): the absent dropped, the next round
        stored (or the event finished), then told, and the next round opened."""
        results = _results(tables)
        current = results[row.round - 1]
        dropped = {e.user_id for e in entrants if e.dropped is not None}
        no_shows = sorted({p for t in current for p in t.absent} - dropped)
        for user in no_shows:
            await self.rows.drop(row.id, user, NO_SHOW)
        entrants = await self.rows.entrants(row.id)
        starters = _starters(entrants, tables)
        active = [p for p in starters
                  if next(e for e in entrants if e.user_id == p).dropped is None]
        following = _following(row, starters, active, tables, results)
        if following:
            await self._store_round(row, row.round + 1, following)
            self._live[row.id].dirty = True
        else:
            await self.rows.update(row.id, status=FINISHED)
        final = _standings(row, entrants, tables)
        view = await self.view(row.id)
        for user in no_shows:
            await self._tell(PlayerDropped(view, user, NO_SHOW))
        await self._tell(RoundEnded(view, row.round, final))
        if not following:
            await self._tell(TournamentEnded(view, final))

    # -- results ------------------------------------------------------------------------------
    async def _on_table(self, event: TableEvent) -> None:
        """The table service's news: a round's table finished or was cancelled."""
        tid = await self._tables.ended(event)
        if tid is not None:
            await self._poke(tid)


# -- pure helpers ------------------------------------------------------------------------------


def _following(row: EventRow, starters: Sequence[int], active: Sequence[int],
               tables: Sequence[RoundTableRow],
               results: Sequence[tuple[TableResult, ...]]) -> Sequence[Seating]:
    """The next round's tables, or none when the event is over."""
    if row.fmt == "elimination":
        plan = bracket(starters, results, size=row.size, advance=row.advance,
                       seed=row.seed)
        if plan.champion is None and len(plan.rounds) > len(results):
            return plan.rounds[-1]
    elif row.round < row.rounds and _seatable(len(active), row.size):
        return swiss_round(starters, active, results, size=row.size, seed=row.seed,
                           rounds_total=row.rounds, gains=_gains(row, tables))
    return ()


def _present(row: EventRow, entrants: Sequence[EntrantRow]) -> list[EntrantRow]:
    """Who plays round 1: the entrants not dropped, checked in when there is a window."""
    return [e for e in entrants if e.dropped is None
            and (e.checked_in or row.checkin_minutes == 0)]


def _seatable(players: int, size: int) -> bool:
    try:
        table_counts(players, size)
    except ValueError:
        return False
    return players >= LEAST_PLAYERS


def _starters(entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow]) -> list[int]:
    """The players of round 1, in the seeding (sign-up) order."""
    first = {p for t in tables if t.round == 1 for p in t.seats if p is not None}
    return [e.user_id for e in entrants if e.user_id in first]


def _results(tables: Sequence[RoundTableRow]) -> list[tuple[TableResult, ...]]:
    """Every round whose tables are all in, as the engine's results."""
    rounds: dict[int, list[RoundTableRow]] = {}
    for table in tables:
        rounds.setdefault(table.round, []).append(table)
    found = []
    for number in sorted(rounds):
        group = rounds[number]
        if not all(t.done for t in group):
            break
        found.append(tuple(TableResult(Seating(t.number, t.seats), t.places, t.absent)
                           for t in group))
    return found


def _gains(row: EventRow, tables: Sequence[RoundTableRow]) -> list[Mapping[int, float]] | None:
    """A duplicate event's matchpoints per finished round (None: place points)."""
    if not row.duplicate:
        return None
    rounds: dict[int, list[DuplicateTable]] = {}
    finished = len(_results(tables))
    for table in tables:
        if table.round > finished:
            continue
        group = rounds.setdefault(table.round, [])
        if table.keys is not None:
            group.append(DuplicateTable(Seating(table.number, table.seats), table.seed,
                                        table.keys, table.absent))
    return [matchpoints(rounds.get(n, [])) for n in range(1, finished + 1)]


def _standings(row: EventRow, entrants: Sequence[EntrantRow],
               tables: Sequence[RoundTableRow]) -> tuple[Standing, ...]:
    starters = _starters(entrants, tables)
    if not starters:
        return ()
    dropped = [e.user_id for e in entrants if e.dropped is not None]
    results = _results(tables)
    found = standings(starters, results, dropped=dropped, gains=_gains(row, tables))
    if row.fmt != "elimination":
        return found
    return by_stage(found, _stages(row, starters, results))


def _stages(row: EventRow, starters: Sequence[int],
            results: Sequence[tuple[TableResult, ...]]) -> dict[int, int]:
    """How far each player got in an elimination's bracket: two steps per round reached, one
    more for going through it (the final's: for winning it)."""
    plan = bracket(starters, results, size=row.size, advance=row.advance, seed=row.seed)
    stage = dict.fromkeys(starters, 0)
    for number, tables in enumerate(plan.rounds, start=1):
        for seating in tables:
            for player in seating.players:
                stage[player] = 2 * number
        if number <= len(plan.through):
            for player in plan.through[number - 1]:
                stage[player] = 2 * number + 1
    return stage


def _view(row: EventRow, entrants: Sequence[EntrantRow],
          tables: Sequence[RoundTableRow]) -> TournamentView:
    return TournamentView(
        row.id, row.guild_id, row.channel_id, row.organiser_id, row.game, row.fmt, row.rounds,
        row.size, row.advance, row.duplicate, row.starts_at, row.checkin_minutes, row.pace,
        row.status, row.round, row.paused, row.ended, row.message_id,
        tuple(Entrant(e.user_id, e.name, e.checked_in, e.dropped) for e in entrants),
        tuple(RoundTable(Seating(t.number, t.seats), t.table_id, t.done, t.places)
              for t in tables))


def _checked(rules_for: RulesLookup, game: str, fmt: str, rounds: int, size: int, advance: int,
             duplicate: bool, checkin_minutes: int, pace: str) -> Rules:
    """The rules of a new event's game once its settings are allowed; Refusal naming the
    first that is not: an unknown game, format, seat count, number of rounds, number through,
    duplicate for a game whose deals are not shared, pace or check-in window."""
    try:
        rules = rules_for(game)
    except KeyError:
        raise Refusal("tournament-unknown-game", game=game) from None
    if fmt not in FORMATS:
        raise Refusal("tournament-bad-format", formats=", ".join(FORMATS))
    counts = [n for n in rules.player_counts() if n >= 2]
    if size not in counts:
        raise Refusal("tournament-bad-size", sizes=", ".join(str(n) for n in counts))
    if fmt == "swiss" and not 1 <= rounds <= MOST_ROUNDS:
        raise Refusal("tournament-bad-rounds", most=MOST_ROUNDS)
    if fmt == "elimination" and not 1 <= advance < size:
        raise Refusal("tournament-bad-advance", most=size - 1)
    if duplicate and rules.id not in SAME_DEALS:
        # (the words name the games of SAME_DEALS, in each language's titles)
        raise Refusal("tournament-duplicate-not-shared")
    # a round needs a clock: with none ("off"), one idle person would hold it up forever
    timed = [p for p in paces.PACES if paces.seconds(p) is not None]
    if pace not in timed:
        raise Refusal("tournament-bad-pace", paces=", ".join(timed))
    if not 0 <= checkin_minutes <= MOST_CHECKIN:
        raise Refusal("tournament-bad-checkin", most=MOST_CHECKIN)
    return rules
