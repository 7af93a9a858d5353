"""The table manager: lobbies, turns, computer players, timers, persistence and resume.

Pure asyncio, no Discord: the cogs turn interactions into calls here and render the
:class:`Update` objects it publishes. One table per channel, one lock per table; the state
version is the number of actions applied, and every action is stored (committed) before
anyone is told about it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import games
from bot import logs
from bot.config import TIMER_CHOICES, TIMER_SECONDS
from bot.storage import Storage, TableRow
from bot.thinking import Thinker
from bot.thinking import best_player as best_player  # re-exported
from games.ai import LEVELS
from games.core import Action, Event, IllegalAction, Rules, State

log = logging.getLogger(__name__)

LOBBY, PLAYING, FINISHED, CANCELLED = "lobby", "playing", "finished", "cancelled"
#: the levels a host may choose for a table's computer players (of ``games.ai.LEVELS``; a
#: table may also hold the bot's own level, ``random`` included)
COMPUTER_LEVELS = ("easy", "normal", "hard")
#: timeouts in a row after which the computer keeps the seat until "I'm back"
AWAY_AFTER = 2
#: the longest wait between tries to store a finished game's result (seconds)
CONCLUDE_RETRY_MOST = 30.0


class Refusal(Exception):
    """A request the table cannot honour; ``key`` names the sentence in :mod:`bot.i18n`."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params


@dataclass
class Seat:
    """One seat: a person (``user_id``) or a computer player (``computer``)."""

    user_id: int | None
    name: str
    computer: bool = False
    away: bool = False  # a person's seat the computer keeps until "I'm back"
    timeouts: int = 0

    @property
    def auto(self) -> bool:
        """True when the computer moves for this seat."""
        return self.computer or self.away

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for storage."""
        return {"user_id": self.user_id, "name": self.name, "computer": self.computer,
                "away": self.away, "timeouts": self.timeouts}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """The seat stored by :meth:`to_dict`."""
        return cls(data.get("user_id"), str(data.get("name", "")), bool(data.get("computer")),
                   bool(data.get("away")), int(data.get("timeouts", 0)))


@dataclass(eq=False)
class Table:
    """One table in one channel: its lobby, seats and, once started, the game state."""

    id: int
    guild_id: int
    channel_id: int
    rules: Rules
    host_id: int
    status: str
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    timer: str
    message_id: int | None = None
    state: State | None = None
    version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    timer_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: (version, wall-clock time) when the running turn timer runs out, for the table message
    deadline: tuple[int, float] | None = field(default=None, repr=False)
    drive_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: trying again to store the result of a game that is over (see ``_conclude_later``)
    conclude_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: the level the computer players here play at (one of ``COMPUTER_LEVELS``, or the bot's
    #: ``random``); the computer keeping an away person's seat plays at it too
    level: str = "hard"

    @property
    def game_id(self) -> str:
        """The game's registry id."""
        return self.rules.id

    def seat_of(self, user_id: int) -> int | None:
        """The seat a person holds here, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.computer:
                return index
        return None

    def humans(self) -> list[int]:
        """User ids of the people seated."""
        return [s.user_id for s in self.seats if s.user_id is not None and not s.computer]

    def row(self) -> TableRow:
        """The table as stored."""
        return TableRow(self.id, self.guild_id, self.channel_id, self.rules.id, self.host_id,
                        self.status, [s.to_dict() for s in self.seats], dict(self.options),
                        self.seed, self.timer, self.message_id, self.level)

    def waiting_for(self) -> list[int]:
        """Seats the game waits for (empty outside play)."""
        if self.status != PLAYING or self.state is None:
            return []
        return list(self.state.to_act)


@dataclass(frozen=True)
class Move:
    """One applied action: who, what, how (player, computer, timeout) and what happened."""

    seat: int
    action: Action
    how: str
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Update:
    """What changed at a table, for the cogs to show: ``kind`` and the moves applied."""

    table: Table
    kind: str  # lobby, start, move, finish, cancel, away, back, level
    moves: tuple[Move, ...] = ()
    seat: int | None = None


ActionRow = tuple[int, int, int, str, int | None, str]


class ActionWriter:
    """Stores actions, committing the ones that arrive together in one transaction.

    A move waits for its own commit. When nothing is being stored, its caller stores it at
    once (on SQLite that takes no turn of the event loop at all, see
    :meth:`bot.db.sqlite.AsyncSqlite.append`); while one commit is under way the next moves
    gather and go in the next one, so under load a click waits for one transaction instead of a
    queue of them. When a batch cannot be stored, each of its actions is tried alone, so one
    bad row fails only its own move.
    """

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._pending: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._direct = False  # an action is being stored by its own caller

    async def add(self, *row: Any) -> None:
        """Store one action ``(table_id, idx, seat, action, user_id, how)``; returns once it is
        committed (raises what storing it raised)."""
        if not self._pending and not self._busy():
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
            self._task = asyncio.get_running_loop().create_task(self._flush())

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


#: called with the table's lock held, in order; it must be quick and must not call back in
Listener = Callable[[Update], Awaitable[None]]
RulesLookup = Callable[[str], Rules]


class TableManager:
    """Every table of the process, with their locks, computer players and timers."""

    def __init__(
        self,
        store: Storage,
        rules_for: RulesLookup = games.get,
        ai_delay: float = 1.0,
        timer_scale: float = 1.0,
        ai_level: str = "best",
        ai_workers: int = 0,
        ai_budget: float | None = None,
    ) -> None:
        self.store = store
        self.ai_level = ai_level
        #: computer players' thinking: search in ``ai_workers`` processes (0: in a thread)
        self.thinker = Thinker(ai_level, ai_workers, ai_budget)
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

    # -- lobby ------------------------------------------------------------------------------
    async def open(
        self, guild_id: int, channel_id: int, game_id: str, host_id: int, host_name: str,
        seed: int | None = None,
    ) -> Table:
        """Open a lobby for a game in a channel, its host seated; Refusal if one is open."""
        try:
            rules = self.rules_for(game_id)
        except KeyError:
            raise Refusal("unknown-game", game=game_id) from None
        existing = self.in_channel(channel_id)
        if existing is not None:
            raise Refusal("channel-busy", game=existing.rules.name)
        seats = [Seat(host_id, host_name)]
        seed = secrets.randbits(62) if seed is None else seed
        try:
            table_id = await self.store.create_table(
                guild_id, channel_id, rules.id, host_id, [s.to_dict() for s in seats], {}, seed,
                "off")
        except sqlite3.IntegrityError:
            raise Refusal("channel-busy", game=rules.name) from None
        table = Table(table_id, guild_id, channel_id, rules, host_id, LOBBY, seats, {}, seed, "off",
                      level=self.default_level)
        self.tables[table_id] = table
        self.by_channel[channel_id] = table_id
        return table

    def _lobby(self, table_id: int) -> Table:
        table = self.get(table_id)
        if table.status != LOBBY:
            raise Refusal("already-started")
        return table

    def _host(self, table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise Refusal("host-only")

    async def set_message(self, table_id: int, message_id: int) -> None:
        """Remember the public message of a table."""
        table = self.get(table_id)
        table.message_id = message_id
        await self._save(table)

    async def _change_lobby(self, table_id: int, user_id: int,
                            change: Callable[[Table], None], host_only: bool = True) -> Table:
        """Make one change to a lobby under its lock (by its host only, unless ``host_only``
        is off), then store and show it; ``change`` raises Refusal to refuse, changing
        nothing."""
        table = self._lobby(table_id)
        async with table.lock:
            self._lobby(table_id)
            if host_only:
                self._host(table, user_id)
            change(table)
            await self._save(table)
            await self._notify(Update(table, "lobby"))
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat a person in the lobby."""
        def seat(table: Table) -> None:
            if table.seat_of(user_id) is not None:
                raise Refusal("already-seated")
            if len(table.seats) >= table.rules.max_players:
                raise Refusal("table-full", most=table.rules.max_players)
            table.seats.append(Seat(user_id, name))
        return await self._change_lobby(table_id, user_id, seat, host_only=False)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Take a person's seat away in the lobby (the host cancels instead)."""
        def unseat(table: Table) -> None:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if user_id == table.host_id:
                raise Refusal("host-cannot-leave")
            del table.seats[seat]
        return await self._change_lobby(table_id, user_id, unseat, host_only=False)

    async def add_computer(self, table_id: int, user_id: int) -> Table:
        """The host adds a computer player."""
        def add(table: Table) -> None:
            if len(table.seats) >= table.rules.max_players:
                raise Refusal("table-full", most=table.rules.max_players)
            number = sum(1 for s in table.seats if s.computer) + 1
            table.seats.append(Seat(None, f"CPU {number}", computer=True))
        return await self._change_lobby(table_id, user_id, add)

    async def remove_computer(self, table_id: int, user_id: int) -> Table:
        """The host removes the last computer player."""
        def remove(table: Table) -> None:
            for index in range(len(table.seats) - 1, -1, -1):
                if table.seats[index].computer:
                    del table.seats[index]
                    return
            raise Refusal("no-computer")
        return await self._change_lobby(table_id, user_id, remove)

    async def set_option(self, table_id: int, user_id: int, name: str, value: object) -> Table:
        """The host sets one of the game's options (checked against its description)."""
        def set_it(table: Table) -> None:
            try:
                option = table.rules.option(name)
            except KeyError:
                raise Refusal("bad-option", reason=f"unknown option '{name}'") from None
            players = max(len(table.seats), table.rules.min_players)
            try:
                coerced = option.coerce(value, players)
            except ValueError as exc:
                raise Refusal("bad-option", reason=str(exc)) from None
            if coerced == option.default:
                table.options.pop(name, None)
            else:
                table.options[name] = coerced
        return await self._change_lobby(table_id, user_id, set_it)

    async def set_level(self, table_id: int, user_id: int, level: str,
                        can_manage: bool = False) -> Table:
        """The host chooses how strong the table's computer players are: in the lobby, or in
        play (the host or a manager) from the next computer move on."""
        def set_it(table: Table) -> None:
            if level not in COMPUTER_LEVELS:
                raise Refusal("bad-option",
                              reason=f"the level must be one of {', '.join(COMPUTER_LEVELS)}")
            table.level = level
        if self.get(table_id).status == LOBBY:
            return await self._change_lobby(table_id, user_id, set_it)
        table = self._playing(table_id, None)
        async with table.lock:
            self._playing(table_id, None)
            if user_id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            if table.level != level:  # an unknown level is never the table's: refused here
                set_it(table)
                await self._save(table)
                await self._notify(Update(table, "level"))
        return table

    async def set_timer(self, table_id: int, user_id: int, timer: str) -> Table:
        """The host chooses the turn timer: off, relaxed, normal or fast."""
        def set_it(table: Table) -> None:
            if timer not in TIMER_CHOICES:
                raise Refusal("bad-option", reason=f"timer must be one of {TIMER_CHOICES}")
            table.timer = timer
        return await self._change_lobby(table_id, user_id, set_it)

    async def swap_seats(self, table_id: int, user_id: int, first: int, second: int) -> Table:
        """The host swaps two seats (choosing partners in team games)."""
        def swap(table: Table) -> None:
            count = len(table.seats)
            if not (0 <= first < count and 0 <= second < count) or first == second:
                raise Refusal("bad-seat")
            table.seats[first], table.seats[second] = table.seats[second], table.seats[first]
        return await self._change_lobby(table_id, user_id, swap)

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the game when the player count and options are allowed."""
        table = self._lobby(table_id)
        async with table.lock:
            self._lobby(table_id)
            self._host(table, user_id)
            rules = table.rules
            count = len(table.seats)
            if count not in rules.player_counts():
                raise Refusal("player-count", least=rules.min_players, most=rules.max_players,
                              seated=count)
            try:
                table.state = rules.new_game(count, seed=table.seed, options=table.options)
            except ValueError as exc:
                raise Refusal("bad-option", reason=str(exc)) from None
            table.status = PLAYING
            table.version = 0
            await self._save(table)
            await self._notify(Update(table, "start"))
            if table.state.over:  # decided by the deal (a 1234 player with no move drops out)
                if await self._conclude(table):
                    await self._notify(Update(table, "finish"))
                else:
                    self._conclude_later(table)
        self._kick(table)
        return table

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False) -> Table:
        """The host, or a member who may manage the server, cancels a table."""
        table = self.get(table_id)
        async with table.lock:
            if table.status not in (LOBBY, PLAYING):
                raise Refusal("no-table")
            if user_id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            if table.state is not None and table.state.over:
                raise Refusal("not-started")  # over: its result is being stored, not lost
            table.status = CANCELLED
            await self._save(table)
            self._close(table)
            await self._notify(Update(table, "cancel"))
        return table

    def _close(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        current = asyncio.current_task()
        for task in (table.timer_task, table.drive_task, table.conclude_task):
            if task is not None and task is not current and not task.done():
                task.cancel()
        table.timer_task = table.drive_task = table.conclude_task = None

    # -- play -------------------------------------------------------------------------------
    def _playing(self, table_id: int, version: int | None) -> Table:
        table = self.get(table_id)
        if table.status != PLAYING or table.state is None or table.state.over:
            raise Refusal("not-started")  # over: its result is still being stored
        if version is not None and version != table.version:
            raise Refusal("stale")
        return table

    async def act(self, table_id: int, user_id: int, version: int | None,
                  action: Action | str) -> Move:
        """A seated person's move at a state version; Refusal saying why when it cannot apply."""
        table = self._playing(table_id, version)
        async with table.lock:
            table = self._playing(table_id, version)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if table.seats[seat].away:
                raise Refusal("away")
            try:
                parsed = Action.parse(action) if isinstance(action, str) else action
            except IllegalAction as exc:
                raise Refusal("illegal", reason=str(exc)) from None
            state = table.state
            assert state is not None
            if seat not in state.to_act and not any(
                    parsed.same_as(a) for a in state.legal_actions(seat)):
                raise Refusal("not-your-turn")
            table.seats[seat].timeouts = 0
            move = await self._apply(table, seat, parsed, user_id, "player")
            await self._after(table, move)
        return move

    async def _apply(self, table: Table, seat: int, action: Action, user_id: int | None,
                     how: str) -> Move:
        """Apply, store, bump the version; called with the table's lock held."""
        state = table.state
        assert state is not None
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            raise Refusal("illegal", reason=str(exc)) from None
        try:
            await self._writer.add(table.id, table.version, seat, str(action), user_id, how)
        except Exception:
            # the move is not on disk, so it did not happen: rebuild from what is stored (and
            # should it be there after all, a game it ended is concluded)
            await self._rebuild(table)
            if table.state is not None and table.state.over:
                self._conclude_later(table)
            raise
        table.version += 1
        if state.over and not await self._conclude(table):
            self._conclude_later(table)
        return Move(seat, action, how, tuple(events))

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

        table.conclude_task = asyncio.get_running_loop().create_task(again())

    async def _finished(self, table: Table) -> None:
        """Run the finish hooks; a failing hook is logged (its work is caught up on restart)."""
        for hook in list(self.finish_hooks):
            try:
                await hook(table.id)
            except Exception as exc:
                log.error("table %s: a finish hook failed (%s)", table.id, type(exc).__name__,
                          extra=logs.failure(exc))

    async def _after(self, table: Table, move: Move) -> None:
        kind = "finish" if table.status == FINISHED else "move"
        await self._notify(Update(table, kind, (move,), move.seat))
        self._kick(table)

    async def back(self, table_id: int, user_id: int) -> Table:
        """"I'm back": the person takes their seat back from the computer."""
        table = self._playing(table_id, None)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if not table.seats[seat].away:
                raise Refusal("not-away")
            table.seats[seat].away = False
            table.seats[seat].timeouts = 0
            await self._save(table)
            await self._notify(Update(table, "back", seat=seat))
        self._kick(table)
        return table

    async def hand_to_computer(self, table_id: int, user_id: int, seat: int,
                               can_manage: bool = False) -> Table:
        """The host or a manager lets the computer keep a person's seat."""
        table = self._playing(table_id, None)
        async with table.lock:
            if user_id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            if not 0 <= seat < len(table.seats) or table.seats[seat].auto:
                raise Refusal("bad-seat")
            table.seats[seat].away = True
            await self._save(table)
            await self._notify(Update(table, "away", seat=seat))
        self._kick(table)
        return table

    # -- computer players and timers --------------------------------------------------------
    async def _computer_move(self, table: Table, seat: int, how: str) -> Move | None:
        """Think without the lock, then apply if the table has not moved on meanwhile.

        Called with the lock NOT held; returns the move applied, or None when the position
        changed while the computer was thinking (the caller looks again).
        """
        state = table.state
        if state is None or table.status != PLAYING:
            return None
        version = table.version
        action = await self.thinker.choose(
            state, seat, f"{table.seed}:{version}:{seat}", table.level,
            current=lambda: table.version == version and table.status == PLAYING)
        async with table.lock:
            if table.version != version or table.status != PLAYING:
                return None
            if how == "timeout":
                info = table.seats[seat]
                if info.auto or seat not in table.waiting_for():
                    return None
                info.timeouts += 1
                if info.timeouts >= AWAY_AFTER:
                    info.away = True
                await self._save(table)
            move = await self._apply(table, seat, action, None, how)
            kind = "finish" if table.status == FINISHED else "move"
            await self._notify(Update(table, kind, (move,), seat))
            self._arm_timer(table)
        return move

    def _kick(self, table: Table) -> None:
        """Start the computer players and the turn timer if the game waits for them."""
        if self._closed or table.status != PLAYING or table.state is None:
            return
        if any(table.seats[s].auto for s in table.state.to_act) and (
                table.drive_task is None or table.drive_task.done()):
            table.drive_task = asyncio.get_running_loop().create_task(self._drive(table))
        self._arm_timer(table)

    async def _drive(self, table: Table) -> None:
        """Let the computer move for its seats, one move at a time, pausing between moves."""
        while not self._closed:
            await asyncio.sleep(self.ai_delay)
            state = table.state
            if table.status != PLAYING or state is None:
                return
            due = [s for s in state.to_act if table.seats[s].auto]
            if not due:
                return
            await self._computer_move(table, due[0], "computer")

    def _arm_timer(self, table: Table) -> None:
        if table.timer_task is not None and table.timer_task is not asyncio.current_task():
            table.timer_task.cancel()
        table.timer_task = None
        table.deadline = None
        seconds = TIMER_SECONDS.get(table.timer)
        if seconds is None or table.status != PLAYING or table.state is None:
            return
        if not any(not table.seats[s].auto for s in table.state.to_act):
            return
        table.deadline = (table.version, time.time() + seconds * self.timer_scale)
        table.timer_task = asyncio.get_running_loop().create_task(
            self._expire(table, table.version, seconds * self.timer_scale))

    async def _expire(self, table: Table, version: int, seconds: float) -> None:
        """When a person's time runs out the computer moves for them; twice, it keeps the seat."""
        await asyncio.sleep(seconds)
        state = table.state
        if table.version != version or table.status != PLAYING or state is None:
            return
        late = [s for s in state.to_act if not table.seats[s].auto]
        if late:
            await self._computer_move(table, late[0], "timeout")
        self._kick(table)

    # -- restart ----------------------------------------------------------------------------
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

    async def resume(self, owns: Callable[[int], bool] | None = None) -> list[Table]:
        """Rebuild every unfinished table from storage and start its computers and timers
        (the computer players' worker processes first, warmed up)."""
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
                          row.timer, row.message_id, level=self._stored_level(row.level))
            if table.status == PLAYING:
                try:
                    await self._rebuild(table)
                except (IllegalAction, ValueError):
                    log.warning("table %s: %s: left as it is (its stored actions do not replay)",
                                row.id, row.game)
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
